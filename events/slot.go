package events

import "github.com/kivi-go/kivi/model"

// slotOf returns the slot an event really starts in. Kivi expands
// kernelPanic into one process per node and ignores its `first` flag,
// so a First kernel panic is a Main one. This also keeps
// a never-ending process out of the First gate, which waits for every
// First event to finish.
func slotOf(e *model.Event) model.EventSlot {
	if e.Kind == model.KernelPanic && e.Slot == model.First {
		return model.Main
	}
	return e.Slot
}

// mayMove reports whether an event of the given slot may take a step in
// the init phase of s.
func mayMove(slot model.EventSlot, s *model.State) bool {
	switch slot {
	case model.First:
		return s.Init == model.InitFirst
	case model.AfterStable:
		return s.Init == model.InitStable
	default:
		return s.Init >= model.InitMain
	}
}

// mayStart reports whether event i may take a step in s: its slot allows
// it (mayMove) and, with Options.FirstInOrder, every First event written
// before a First event i has finished.
func mayStart(u *model.Universe, s *model.State, i int) bool {
	slot := slotOf(&u.Events[i])
	if !mayMove(slot, s) {
		return false
	}
	if slot != model.First || !u.Options.FirstInOrder {
		return true
	}
	for j := range i {
		if slotOf(&u.Events[j]) == model.First && !finished(u, s, j) {
			return false
		}
	}
	return true
}

// InitialPhase returns the init phase of the initial state: InitFirst when
// some event starts in the First slot, else InitMain.
func InitialPhase(u *model.Universe) uint8 {
	for i := range u.Events {
		if slotOf(&u.Events[i]) == model.First {
			return model.InitFirst
		}
	}
	return model.InitMain
}

// hasAfterStable reports whether some event waits for the first
// quiescent state.
func hasAfterStable(u *model.Universe) bool {
	for i := range u.Events {
		if slotOf(&u.Events[i]) == model.AfterStable {
			return true
		}
	}
	return false
}

// vars returns event i's memory in s.
func vars(u *model.Universe, s *model.State, i int) []uint8 {
	e := &u.Events[i]
	return s.EventVars[e.VarOffset : e.VarOffset+e.VarLen]
}

// finished reports whether event i has run to its end. Kernel panics
// never finish.
func finished(u *model.Universe, s *model.State, i int) bool {
	m := vars(u, s, i)
	switch u.Events[i].Kind {
	case model.CPUChange, model.MemoryChange:
		return m[0] == riseDone
	case model.Maintenance:
		return maintenanceFinished(m, u.MaintenanceIndexWidthOf(&u.Events[i]))
	case model.NodeFailure:
		return m[0] == nodeFailureDone
	case model.CreateTargetDeployment, model.ApplyDeployment, model.CreateDeployment, model.ScaleDeployment, model.RolloutRestart, model.RolloutUndo, model.RolloutPause, model.RolloutResume:
		return m[0] == commandDone
	case model.Drain:
		// A drain that gave up has ended too (kubectl exited).
		pcs := drainPCs(u, s, i)
		return drainFinished(pcs) || drainHasFailed(pcs) && drainsInFlight(pcs) == 0
	case model.DeleteNode:
		return finishedDeleteNode(u, s, i)
	}
	return false
}

// afterStep opens the Main phase when the step just taken by event i
// completed the last pending First event (Kivi's init waiting for
// first_proc, without a transition of its own).
func afterStep(u *model.Universe, s *model.State, i int) {
	if slotOf(&u.Events[i]) != model.First || s.Init != model.InitFirst {
		return
	}
	for j := range u.Events {
		if slotOf(&u.Events[j]) == model.First && !finished(u, s, j) {
			return
		}
	}
	s.Init = model.InitMain
}
