package events

import "github.com/kivi-go/kivi/model"

// DeleteNode is `kubectl delete node` of the event's node, as an operator,
// a cluster autoscaler's scale-down or a managed node pool's upgrade does
// it: one step deletes the Node object (model.DeleteNodeObject); the pod
// garbage collector force-deletes the pods bound to it later, in a step
// of its own (controllers/podgc, Orphaned). With
// DrainFirst it is `kubectl drain` of the node first, the drain event's
// own steps over the one node (cordon, evictions through the Eviction
// API with the PodDisruptionBudgets, the wait for its pods to go), and
// the deletion once the node is drained; a drain that fails (a pod
// without a controller, an eviction that cannot succeed, the timeout)
// deletes nothing, as a script stops at kubectl's error. A drain that
// waits for ever or gave up is no valid end: the node is still there.
type DeleteNode struct {
	event int
	unanalysed
}

var (
	_ model.Process    = DeleteNode{}
	_ model.EndChecker = DeleteNode{}
)

func (DeleteNode) Name() string { return "deleteNode" }

// drain is the event's kubectl drain, over the event's memory.
func (d DeleteNode) drain() Drain { return Drain{event: d.event} }

// deleted reports whether the event has deleted its node.
func (d DeleteNode) deleted(u *model.Universe, s *model.State) bool {
	return vars(u, s, d.event)[model.DeletedVar(&u.Events[d.event])] != 0
}

// drained reports whether the event's node is ready to go: no drain, or
// its drain is done.
func (d DeleteNode) drained(u *model.Universe, s *model.State) bool {
	return !u.Events[d.event].DrainFirst || drainFinished(drainPCs(u, s, d.event))
}

func (d DeleteNode) Enabled(u *model.Universe, s *model.State) bool {
	if !mayStart(u, s, d.event) || d.deleted(u, s) {
		return false
	}
	return d.drained(u, s) || d.drain().Enabled(u, s)
}

// Step drains the node (one step of kubectl drain) or, once drained,
// deletes it.
func (d DeleteNode) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	if !d.drained(u, s) {
		d.drain().Step(tx, s)
		return
	}
	e := &u.Events[d.event]
	vars(u, s, d.event)[model.DeletedVar(e)] = 1
	name := u.Nodes[e.Node].Name
	if tx.Tracing() {
		tx.Log(KubectlComponent, "kubectl delete node %s: node \"%s\" deleted", name, name)
	}
	model.DeleteNodeObject(tx, s, e.Node)
	afterStep(u, s, d.event)
}

// ValidEnd: the node is deleted, or the event never started and may
// not. A drain that waits for an eviction or gave up (the node stays,
// cordoned), or a node drained and not yet deleted, is not: the node the
// input deletes is still there, as the drain event judges its own.
func (d DeleteNode) ValidEnd(u *model.Universe, s *model.State) bool {
	if d.deleted(u, s) {
		return true
	}
	if u.Events[d.event].DrainFirst {
		return d.drain().ValidEnd(u, s) && !drainFinished(drainPCs(u, s, d.event))
	}
	return !mayStart(u, s, d.event)
}

// StuckReason says why the node is not deleted.
func (d DeleteNode) StuckReason(u *model.Universe, s *model.State) string {
	if u.Events[d.event].DrainFirst && !d.drained(u, s) {
		return d.drain().StuckReason(u, s)
	}
	return "node " + u.Nodes[u.Events[d.event].Node].Name + " is not deleted yet"
}

// finishedDeleteNode reports whether deleteNode event i has run to its
// end: the node is deleted, or its drain gave up.
func finishedDeleteNode(u *model.Universe, s *model.State, i int) bool {
	e := &u.Events[i]
	if vars(u, s, i)[model.DeletedVar(e)] != 0 {
		return true
	}
	if !e.DrainFirst {
		return false
	}
	pcs := drainPCs(u, s, i)
	return drainHasFailed(pcs) && drainsInFlight(pcs) == 0
}
