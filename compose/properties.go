package compose

import (
	"fmt"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/intents"
	"github.com/kivi-go/kivi/model"
)

// Names of the properties every run checks besides the user's intents.
const (
	// ValidEndState fails when the cluster stops with a process stuck at a
	// wait that is not a valid end (Kivi's SPIN "invalid end state": an
	// event waiting for pods that never come, a maintenance never ending).
	ValidEndState = "valid_end_state"
	// ModelAssertion fails on kubectl create of an existing deployment
	// and on internal consistency assertions.
	ModelAssertion = "model_assertion"
	// ModelBound is reached when a step needs more of a finite table of
	// the model than it has (model.FailBound). It is never a violation:
	// the report turns it into Unknown verdicts naming the bound
	// (Report.Bound).
	ModelBound = "model_bound"
)

// watchObserver adapts an intent monitor to a System observer.
type watchObserver struct {
	in     intents.Intent
	index  int // monitor number, recorded in State.FailedArg
	offset int
	// firedAt is the byte of State.Monitors that records that the monitor
	// fired and the run went on past its violation
	// (model.Options.ContinueAfterViolation; -1 without): it then watches
	// no more, its verdict being made.
	firedAt int
}

func (w *watchObserver) mem(s *model.State) []byte {
	return s.Monitors[w.offset : w.offset+w.in.Watch.Size()]
}

// fired reports whether the run went on past the monitor's violation.
func (w *watchObserver) fired(s *model.State) bool {
	return w.firedAt >= 0 && s.Monitors[w.firedAt] != 0
}

func (w *watchObserver) Observe(tx *model.Tx, s *model.State) {
	if s.Failed != model.NoFailure && !tx.U.ContinuesAfterFailure(s) || w.fired(s) {
		return
	}
	if msg := w.in.Watch.Observe(tx.U, s, w.mem(s), tx.Marks); msg != "" {
		if tx.Tracing() {
			// Under the name the user wrote, not Kivi's internal one.
			tx.Log(w.in.Name, "%s", msg)
		}
		s.Fail(model.FailMonitor, w.index)
	}
}

// compose builds the observers and checker properties of a set of intents
// on a system whose actors are already set; it sizes State.Monitors.
func compose(sys *System, ins []intents.Intent) (checker.Properties[*model.State], error) {
	var props checker.Properties[*model.State]
	offset := 0
	seen := map[string]bool{}
	for _, in := range ins {
		if seen[in.Name] && in.Deployment < 0 {
			continue
		}
		seen[in.Name] = true
		switch in.Kind {
		case intents.Assertion:
			props.Invariants = append(props.Invariants, checker.Invariant[*model.State]{
				Name:    in.Name,
				Holds:   assertionHolds(sys.U, in.Failure),
				Explain: func(*model.State) string { return in.Explain },
			})
		case intents.Monitor:
			if len(sys.Observers) >= 255 {
				return props, fmt.Errorf("too many monitor intents: %w", model.ErrInvalid)
			}
			w := &watchObserver{in: in, index: len(sys.Observers), offset: offset, firedAt: -1}
			offset += in.Watch.Size()
			if sys.U.Options.ContinueAfterViolation {
				w.firedAt = offset
				offset++
			}
			sys.Observers = append(sys.Observers, w)
			index := uint16(w.index)
			props.Invariants = append(props.Invariants, checker.Invariant[*model.State]{
				Name:    in.Name,
				Holds:   func(s *model.State) bool { return !(s.Failed == model.FailMonitor && s.FailedArg == index) },
				Explain: func(*model.State) string { return in.Explain },
			})
			u := sys.U
			props.EndConditions = append(props.EndConditions, checker.EndCondition[*model.State]{
				Name: in.Name,
				Holds: func(s *model.State) bool {
					return endedByFailure(u, s) || w.fired(s) || in.Watch.Stuck(u, s, w.mem(s)) == ""
				},
				Explain: func(s *model.State) string { return in.Watch.Stuck(u, s, w.mem(s)) },
			})
		case intents.Cycle:
			bits, err := sys.marks.watch(in.Marks)
			if err != nil {
				return props, err
			}
			if bits == 0 {
				return props, fmt.Errorf("intent %s: a cycle intent with no mark (accepted: one or more model.Mark): %w", in.Name, model.ErrInvalid)
			}
			props.Cycles = append(props.Cycles, checker.Cycle{Name: in.Name, Require: bits, Explain: in.Explain})
		case intents.Predicate:
			u, holds := sys.U, in.Holds
			props.Invariants = append(props.Invariants, checker.Invariant[*model.State]{
				Name:    in.Name,
				Holds:   func(s *model.State) bool { return holds(u, s) },
				Explain: func(*model.State) string { return in.Explain },
			})
		}
	}
	init := sys.Init.Clone()
	init.Monitors = make([]uint8, offset)
	sys.Init = init
	props.Invariants = append(props.Invariants, checker.Invariant[*model.State]{
		Name: ModelAssertion,
		Holds: func(s *model.State) bool {
			return s.Failed != model.FailDeploymentExists && s.Failed != model.FailInternal
		},
		Explain: func(s *model.State) string {
			if s.Failed == model.FailDeploymentExists {
				return "kubectl create of a deployment that already exists"
			}
			return "an internal consistency assertion failed"
		},
	})
	props.Invariants = append(props.Invariants, internalFailure(sys.U)...)
	props.Invariants = append(props.Invariants, checker.Invariant[*model.State]{
		Name:    ModelBound,
		Holds:   func(s *model.State) bool { return s.Failed != model.FailBound },
		Explain: func(s *model.State) string { return boundReason(sys.U, model.Bound(s.FailedArg)) },
	})
	props.EndConditions = append(props.EndConditions, checker.EndCondition[*model.State]{
		Name: ValidEndState,
		Holds: func(s *model.State) bool {
			ok, _ := sys.ValidEnd(s)
			return endedByFailure(sys.U, s) || ok
		},
		Explain: func(s *model.State) string {
			_, who := sys.ValidEnd(s)
			return who + " is stuck waiting when the cluster stops"
		},
	})
	return props, nil
}

// boundReason says which bound of the model a run reached and what raises
// it.
func boundReason(u *model.Universe, b model.Bound) string {
	switch b {
	case model.BoundPodSlots:
		return fmt.Sprintf("model bound: all %d pod slots are taken when a pod is created (raise it with --pod-slots, or podSlots in a case file)", u.PodSlots)
	case model.BoundDeploymentObjects:
		return fmt.Sprintf("model bound: all %d deployment objects exist when kubectl creates another (raise it by adding a deployment that starts not created, created: false in a case file)", len(u.Deployments))
	case model.BoundHPAScaleEvents:
		return fmt.Sprintf("model bound: an HPA with behavior rescales while it remembers %d scale events of that direction within its longest policy period (the model keeps at most %d per direction)", model.MaxHPAScaleEvents, model.MaxHPAScaleEvents)
	case model.BoundCronJobRuns:
		return fmt.Sprintf("model bound: a CronJob with concurrencyPolicy Allow fires while %d of its runs are active (the model has no clock, so a schedule may fire at any quiet moment and runs may pile up; concurrencyPolicy Forbid or Replace bounds them; --cronjob-runs 1 or 2 assumes its runs finish within that many schedule periods)", model.MaxCronJobRuns)
	case model.BoundStatefulSetOrdinals:
		return fmt.Sprintf("model bound: a StatefulSet needs a pod of an ordinal above %d (the model numbers ordinals up to %d: lower spec.ordinals.start or the replicas)", model.MaxOrdinal, model.MaxOrdinal)
	case model.BoundReplicaSetRevisions:
		return "model bound: a Deployment's pod template changed while it had two ReplicaSets and the older one still had replicas or active (not terminating) pods; " +
			"Kubernetes keeps a third ReplicaSet and scales the old ones down oldest first, the model keeps two per Deployment " +
			"(--merge-old-revisions rolls the two older revisions out as one ReplicaSet instead: an approximation the report then states)"
	}
	return fmt.Sprintf("model bound: %s", b)
}
