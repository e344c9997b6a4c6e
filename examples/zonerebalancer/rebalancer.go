// Package zonerebalancer is an example custom controller: a model of a
// small "zone rebalancer" operator that a platform team might run next to
// the scheduler. Whenever the Running pods of a deployment differ by more
// than one between zones, it evicts one pod from the fullest zone, hoping
// the scheduler will place the replacement elsewhere.
//
// With a deployment that prefers one zone (preferred node affinity) the
// scheduler puts the replacement straight back, and the two loop forever:
// rebalancer_test.go finds that loop with kivitest, and shows that a hard
// topology spread constraint on the zone fixes it.
package zonerebalancer

import (
	"github.com/kivi-go/kivi/model"
)

// Rebalancer is the operator's model. It implements model.Process: a
// named, pure, deterministic transition function with a guard.
type Rebalancer struct {
	// Deployment is the index of the deployment it watches; ZoneKey the
	// node label that names zones.
	Deployment int
	ZoneKey    string
}

var _ model.Process = Rebalancer{}

// Name is the process name; its trace lines say "[zone-rebalancer] …".
func (Rebalancer) Name() string { return "ZoneRebalancer" }

// zones counts the deployment's Running pods per zone value and returns
// the fullest zone's pods (lowest slot first) and the spread.
func (r Rebalancer) zones(u *model.Universe, s *model.State) (fullest string, pods []int, skew int) {
	count := map[string][]int{}
	for n := range u.Nodes {
		if z, ok := u.Nodes[n].Labels[r.ZoneKey]; ok && s.Nodes[n].Status == model.Ready {
			if _, seen := count[z]; !seen {
				count[z] = nil
			}
		}
	}
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Phase != model.Running || int(p.Owner) != r.Deployment+1 || p.Node == 0 {
			continue
		}
		if z, ok := u.Nodes[p.Node-1].Labels[r.ZoneKey]; ok {
			count[z] = append(count[z], i)
		}
	}
	lo, hi := -1, -1
	for z, ps := range count {
		// Ties between zones go to the lexically smallest name, so the
		// decision does not depend on map order.
		if hi < 0 || len(ps) > hi || len(ps) == hi && z < fullest {
			hi, fullest, pods = len(ps), z, ps
		}
		if lo < 0 || len(ps) < lo {
			lo = len(ps)
		}
	}
	return fullest, pods, hi - lo
}

// Enabled: the operator acts when the cluster is quiet (no controller has
// pending work, like the descheduler) and the zones are out of balance.
func (r Rebalancer) Enabled(u *model.Universe, s *model.State) bool {
	if !s.ControllerQueuesEmpty() {
		return false
	}
	_, _, skew := r.zones(u, s)
	return skew > 1
}

// Step evicts the lowest-slot pod of the fullest zone.
func (r Rebalancer) Step(tx *model.Tx, s *model.State) {
	zone, pods, _ := r.zones(tx.U, s)
	if len(pods) == 0 {
		return
	}
	p := pods[0]
	owner := s.RequestDeletion(p)
	tx.Mark(model.MarkEvicted(owner))
	if tx.Tracing() {
		tx.Log("zone-rebalancer", "Evicting pod %s from zone %s", s.PodRef(p), zone)
	}
}

// SymmetryFacts declares where the operator's steps depend on which of
// several alike nodes or pod slots is which (model.SymmetryBreaker), so
// that the symmetry reduction stays on for the rest: it evicts the
// fullest zone's pod of lowest slot, so the pod slots keep their order.
// kivitest checks the declaration against the steps before verifying.
func (Rebalancer) SymmetryFacts(*model.Universe) []model.SymmetryFact {
	return []model.SymmetryFact{{Rule: "ZoneRebalancerLowestSlot", PodSlotsInOrder: true,
		Reason: "the zone rebalancer evicts the fullest zone's pod of lowest slot"}}
}
