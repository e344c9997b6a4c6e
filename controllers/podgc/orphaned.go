package podgc

import "github.com/kivi-go/kivi/model"

// Orphaned is the pod garbage collector's gcOrphaned for one node that a
// deleteNode event deletes: once the Node object is gone, it marks every
// pod still bound to the node Failed with the DisruptionTarget condition
// and force-deletes it (model.CollectOrphanedPods), in one step.
//
// Upstream quarantines a node name missing from its informer for 40 s
// (the nodeQueue's AddAfter), checks with the API server that the Node
// is really gone, and collects the node's pods at its next 20 s pass: all
// of them at once, each deleted node on its own clock. The model has no
// clock, so the step may come at any moment once the node is deleted: at
// once, or after any number of other steps, and for two deleted nodes in
// either order. It waits for nothing else: the pass runs on its own
// timer, whatever the other controllers are doing, and gating it on a
// quiet cluster would leave out the runs where the 40 s end in the middle
// of a rollout or of a drain. Collecting at once is an over-approximation
// of the 40 to 60 s (no step upstream comes that early); every later
// moment is a run upstream's timers allow, the controllers taking no time
// in the model.
type Orphaned struct {
	node int
	name string
}

// NewOrphaned returns the collector of the pods of node n of u, which
// some deleteNode event deletes.
func NewOrphaned(u *model.Universe, n int) *Orphaned {
	return &Orphaned{node: n, name: "PodGCOrphaned(" + u.Nodes[n].Name + ")"}
}

// Name is the process name: the collector and its node.
func (o *Orphaned) Name() string { return o.name }

// Enabled: the node is deleted and some pod is still bound to it.
func (o *Orphaned) Enabled(_ *model.Universe, s *model.State) bool {
	return model.HasOrphanedPods(s, o.node)
}

// Step collects the node's pods.
func (o *Orphaned) Step(tx *model.Tx, s *model.State) {
	model.CollectOrphanedPods(tx, s, o.node)
}

var (
	_ model.Footprinter     = (*Orphaned)(nil)
	_ model.SymmetryBreaker = (*Orphaned)(nil)
)

// StaticFootprint: the node and the pods bound to it, read and written;
// every pod (a Job's podFailurePolicy reads its other pods; the waiting
// pods the removal retries), every queue the pods leave or their owners
// join, and the deployments (a Job's counted failures) read; the pool,
// where the slots go, the queues, the deployments, the descheduler's
// trigger, the marks and the failures written.
func (o *Orphaned) StaticFootprint(u *model.Universe) (reads, writes model.Footprint) {
	reads.AddPods()
	reads.AddQueues()
	reads.AddDeployments()
	writes.AddNode(o.node)
	writes.Add(model.CompPodPool)
	writes.AddQueues()
	writes.AddDeployments()
	writes.Add(model.CompDeschedulerPending)
	writes.Add(model.CompMarks)
	writes.Add(model.CompFailed)
	return reads, writes
}

// StepFootprint is the static footprint: the step's effect depends on
// every pod of the node, and the pods it wakes are anywhere in the pool.
func (o *Orphaned) StepFootprint(u *model.Universe, _ *model.State) (reads, writes model.Footprint) {
	return o.StaticFootprint(u)
}

// DisabledBy: the node's component, its status and the pods bound to it
// (the deletion, or a pod bound to it: only the deletion's own step and
// the collection change either once it is gone).
func (o *Orphaned) DisabledBy(*model.Universe, *model.State) model.Footprint {
	var f model.Footprint
	f.AddNodeWithoutReadiness(o.node)
	return f
}

// SymmetryFacts: the collector names its node, as the deleteNode event
// that deletes it does.
func (o *Orphaned) SymmetryFacts(*model.Universe) []model.SymmetryFact {
	return []model.SymmetryFact{{Rule: "DeleteNodeTarget", PinnedNodes: []int{o.node},
		Reason: "a deleteNode event names the node"}}
}
