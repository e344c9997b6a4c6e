package manifest

// maintenanceOrder reads a maintenance event's order: written (the nodes
// in the order the input lists them, Kivi's) or any (each next node
// among those not maintained yet, a managed node-pool upgrade).
func (r *intentsReader) maintenanceOrder(path string, v any) (string, error) {
	o, ok := v.(string)
	if !ok || (o != "written" && o != "any") {
		return "", r.a.errorf(path, "%s (accepted: written, the nodes in the order the input lists them, as Kivi; any, each next node among those not maintained yet, as a managed node-pool upgrade)", describeValue(v))
	}
	return o, nil
}
