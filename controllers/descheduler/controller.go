package descheduler

import "github.com/kivi-go/kivi/model"

// Controller is the descheduler process. It has no fields: the policy is
// Universe.Descheduler and the per-cycle eviction counters live only for
// the duration of one Step.
type Controller struct{ model.ClusterWide }

// New returns the descheduler process.
func New() *Controller { return &Controller{} }

// Name is the process name used in traces and reports.
func (*Controller) Name() string { return "Descheduler" }

// Component is the descheduler's name in trace lines.
const Component = "descheduler"

// Enabled is Kivi's guard without the clock: a policy exists, a kubelet
// start or delete has requested a cycle, and the node-controller,
// scheduler, kubelet and deployment queues are empty.
func (*Controller) Enabled(u *model.Universe, s *model.State) bool {
	return u.Descheduler != nil && s.DeschedulerPending && s.ControllerQueuesEmpty()
}

// Step runs one descheduling cycle and consumes the request. A cycle is
// a function of the state and of its choices (tx.Choose), where upstream's
// order or what the model does not record leaves the outcome open.
func (*Controller) Step(tx *model.Tx, s *model.State) {
	c := newCycle(tx.U, s, tx, nil)
	c.run()
	s.DeschedulerPending = false
}
