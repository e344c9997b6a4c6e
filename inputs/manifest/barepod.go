package manifest

import (
	"fmt"
	"slices"
	"strings"
)

// dropBarePods leaves the Pods of a manifest stream out of the model,
// with a warning for each: the API server takes a Pod without a
// controller (Helm's test hooks, the documentation's examples), but the
// model's pods all belong to a workload, so no controller would ever
// place, replace or count it. The room it would take on its node is not
// reserved either; a running cluster's pods are read with
// Options.CurrentPlacement (or Kivi's --logs), which
// reserves it. The pods of a controller (a dump of a running cluster
// holds every workload's) are left out too, in one warning for them all:
// the model creates a workload's pods from its spec.
func (as *assembly) dropBarePods(objs []Object) []Object {
	kept := objs[:0:0]
	var owned []Object // pods with a controller: a live cluster's
	var owners []string
	for _, o := range objs {
		if o.Kind != "Pod" {
			kept = append(kept, o)
			continue
		}
		p := o.Value.(*Pod)
		if c, ok := controllerOf(p); ok {
			owned = append(owned, o)
			if !slices.Contains(owners, c) {
				owners = append(owners, c)
			}
			continue
		}
		as.warns = append(as.warns, o.at().warning(o.path(""), "kind Pod %q is ignored: a Pod without a controller is not modelled in a manifest stream, and the room it would take on a node is not counted (a running cluster's dump is read with its pods with --current-placement)", p.Metadata.Name))
	}
	if len(owned) > 0 {
		// A dump of a running cluster (kubectl get pods -o yaml) holds
		// every workload's pods: one line for them all.
		names := owners
		if len(names) > 3 {
			names = append(names[:3:3], fmt.Sprintf("… (%d controllers in all)", len(owners)))
		}
		what := fmt.Sprintf("%d Pods", len(owned)) + " with a controller (%s) are ignored"
		if len(owned) == 1 {
			what = "1 Pod with a controller (%s) is ignored"
		}
		as.warns = append(as.warns, owned[0].at().warning(owned[0].path(""), what+": the model creates a workload's pods from its spec and places them itself, so the placement a running cluster has now, and the room other pods take on their nodes, are not read from a manifest stream (--current-placement reads a running cluster's dump from where its pods run)", strings.Join(names, ", ")))
	}
	return kept
}

// controllerOf names a pod's controller ("ReplicaSet web-5d4f8c7b9"), if
// an owner reference says it has one.
func controllerOf(p *Pod) (string, bool) {
	if r := controllerRef(p); r != nil {
		return r.Kind + " " + r.Name, true
	}
	return "", false
}

// controllerRef is the owner reference of a pod's controller (the first
// one marked controller: the API server allows one), nil without one.
func controllerRef(p *Pod) *OwnerReference {
	for i := range p.Metadata.OwnerReferences {
		if r := &p.Metadata.OwnerReferences[i]; r.Controller != nil && *r.Controller {
			return r
		}
	}
	return nil
}

// splitPods takes a stream's Pods out of its other objects.
func splitPods(objs []Object) (rest, pods []Object) {
	for _, o := range objs {
		if o.Kind == "Pod" {
			pods = append(pods, o)
		} else {
			rest = append(rest, o)
		}
	}
	return rest, pods
}
