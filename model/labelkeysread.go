package model

// ZoneKey is the well-known zone label, a topology key of kube-scheduler's
// system default spread constraints.
const ZoneKey = "topology.kubernetes.io/zone"

// NodeLabelKeysRead returns the node label keys whose values a step can
// read other than through a template's NodeFit (which settles nodeSelector,
// node affinity and nodeName per node): the topology keys of spread
// constraints and inter-pod (anti-)affinity terms, in the scheduler and
// the descheduler, and the keys of kube-scheduler's system default spread
// constraints (zone and hostname), which apply to every template without
// constraints of its own, the keys of the scheduler profile's
// addedAffinity, and under Kubernetes' lifecycle, when nodes may
// go down, the keys of the node lifecycle controller's zone map. The hostname keys are not listed: each node's
// value is its own (reduction/symmetry). A label whose key is in neither
// this set nor any NodeFit is read by no built-in step: nodes that differ
// only in such labels (a cloud's instance id, its image version) behave
// alike.
func (u *Universe) NodeLabelKeysRead() map[string]bool {
	keys := map[string]bool{ZoneKey: true}
	if !u.Options.KiviLifecycle && TakesNodesDown(u) {
		// The node lifecycle controller's zone states (zones.go).
		for _, k := range DisruptionZoneKeys() {
			keys[k] = true
		}
	}
	// The profile's addedAffinity, whose verdicts NodeFit holds too:
	// nodes telling its keys apart stay apart whatever the templates.
	for _, k := range u.Scheduler.Profile.AddedAffinity.Keys() {
		keys[k] = true
	}
	for i := range u.Templates {
		t := &u.Templates[i]
		for _, c := range t.Spread {
			keys[c.TopologyKey] = true
		}
		for _, terms := range [][]PodAffinityTerm{t.PodAffinity, t.PodAntiAffinity} {
			for _, term := range terms {
				keys[term.TopologyKey] = true
			}
		}
		for _, terms := range [][]WeightedPodAffinityTerm{t.PreferredPodAffinity, t.PreferredPodAntiAffinity} {
			for _, term := range terms {
				keys[term.Term.TopologyKey] = true
			}
		}
	}
	return keys
}
