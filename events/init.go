package events

import "github.com/kivi-go/kivi/model"

// Init is the part of Kivi's init process that is still a transition:
// starting the after-stable events once the cluster is first quiescent
// (Kivi's process scheduling steps 10–11). Everything before it is
// the initial state, and the First gate is opened by the First events
// themselves (afterStep).
type Init struct{}

var (
	_ model.Process    = Init{}
	_ model.EndChecker = Init{}
)

func (Init) Name() string { return "init" }

// Enabled: the Main phase, Q5-empty, and some after-stable event to start.
// Where templates delay readiness the cluster is stable only once no pod
// waits for its readiness probe or minReadySeconds either (what
// `kubectl rollout status` waits for).
func (Init) Enabled(u *model.Universe, s *model.State) bool {
	return s.Init == model.InitMain && s.ControllerAndHPAQueuesEmpty() && hasAfterStable(u) && !model.AnyReadinessPending(u, s)
}

// Step starts every after-stable event at once: Kivi starts them one
// transition each, but a started event that has not moved yet is
// indistinguishable from one not started.
func (Init) Step(tx *model.Tx, s *model.State) { s.Init = model.InitStable }

// ValidEnd: waiting for the First events to finish is not an end
// location (Kivi's init blocked on first_proc); waiting for quiescence is.
func (Init) ValidEnd(u *model.Universe, s *model.State) bool { return s.Init != model.InitFirst }
