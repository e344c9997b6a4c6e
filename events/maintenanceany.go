package events

import "github.com/kivi-go/kivi/model"

// Maintenance in any order (model.AnyOrder): the memory is one program
// counter per node, idle for the nodes not maintained yet. The driver
// starts, in one atomic step as in the written order, as many Ready
// nodes not maintained yet as Parallel leaves room for, choosing which:
// a managed node-pool upgrade takes the nodes in an order the user does
// not control. Choosing only among Ready nodes loses nothing: a driver
// that settled on a node that is not Ready would wait for it, which a
// run where the driver waits and then chooses it shows too.

// anyOrder reports whether the maintenance takes the nodes in any order.
func (m Maintenance) anyOrder(u *model.Universe) bool {
	return u.Events[m.event].Order == model.AnyOrder
}

// anyStep lets one enabled sub-actor move: the driver (entry -1, never
// merged with a node) or the maintenance of one node, over one node per
// orbit of interchangeable nodes when the Tx has orbits.
func (m Maintenance) anyStep(tx *model.Tx, s *model.State) {
	u := tx.U
	defer afterStep(u, s, m.event)
	var buf [32]int
	actors := buf[:0] // grows on the heap beyond 32 entries
	if m.anyDriverEnabled(u, s) {
		actors = append(actors, -1)
	}
	for n := range s.Nodes {
		if m.nodeEnabled(u, s, n) {
			actors = append(actors, n)
		}
	}
	if len(actors) == 0 {
		return
	}
	if n := actors[tx.ChooseNodeIndex(actors)]; n >= 0 {
		m.nodeStep(tx, s, n)
		return
	}
	m.anyDriverStep(tx, s)
}

// maintenanceBusy counts the nodes in maintenance (started or down).
func maintenanceBusy(pcs []uint8) int {
	busy := 0
	for _, pc := range pcs {
		if pc == maintStarted || pc == maintDown {
			busy++
		}
	}
	return busy
}

// anyDriverEnabled: some Ready node is not maintained yet and fewer than
// Parallel nodes are in maintenance.
func (m Maintenance) anyDriverEnabled(u *model.Universe, s *model.State) bool {
	pcs := vars(u, s, m.event)
	if maintenanceBusy(pcs) >= u.Events[m.event].Parallel {
		return false
	}
	for n, pc := range pcs {
		if pc == maintIdle && s.Nodes[n].Status == model.Ready {
			return true
		}
	}
	return false
}

// anyDriverStep starts k = min(free room, Ready nodes not maintained
// yet) nodes, chosen as a set (Tx.ChooseNodeSet): every set of k
// candidates is one run, or, with orbits, every set up to the state's
// symmetries (how many nodes of each orbit go).
func (m Maintenance) anyDriverStep(tx *model.Tx, s *model.State) {
	u := tx.U
	pcs := vars(u, s, m.event)
	var buf [32]int
	cands := buf[:0] // grows on the heap beyond 32 candidates
	for n, pc := range pcs {
		if pc == maintIdle && s.Nodes[n].Status == model.Ready {
			cands = append(cands, n)
		}
	}
	k := min(u.Events[m.event].Parallel-maintenanceBusy(pcs), len(cands))
	// Under Kivi's tie-breaks (the quick pass) the lowest-index
	// candidates go first, as the scheduler takes the lowest-index node:
	// one run of the full model, not every order.
	picked := cands[:k]
	if u.Options.TieBreak != model.LowestIndex {
		picked = tx.ChooseNodeSet(cands, k)
	}
	for _, n := range picked {
		pcs[n] = maintStarted
		if tx.Tracing() {
			tx.Log(NodeComponent, "Node %s is next for maintenance", u.Nodes[n].Name)
		}
	}
}
