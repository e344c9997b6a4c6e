package manifest

// dropBarePods leaves the Pods of a manifest stream out of the model,
// with a warning for each: the API server takes a Pod without a
// controller (Helm's test hooks, the documentation's examples), but the
// model's pods all belong to a workload, so no controller would ever
// place, replace or count it. The room it would take on its node is not
// reserved either; a running cluster's pods are read with --logs, which
// reserves it.
func (as *assembly) dropBarePods(objs []Object) []Object {
	kept := objs[:0:0]
	for _, o := range objs {
		if o.Kind != "Pod" {
			kept = append(kept, o)
			continue
		}
		p := o.Value.(*Pod)
		as.warns = append(as.warns, o.at().warning(o.path(""), "kind Pod %q is ignored: a Pod without a controller is not modelled in a manifest stream, and the room it would take on a node is not counted (a running cluster's pods are read with --logs)", p.Metadata.Name))
	}
	return kept
}
