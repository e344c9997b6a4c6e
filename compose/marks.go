package compose

import (
	"fmt"
	"slices"

	"github.com/kivi-go/kivi/model"
)

// The checker's cycle analysis reads a step's marks as a 32-bit set
// (checker.Step.Marks). The model's marks are exact (model.Mark: an
// action and its workload), and only those a cycle intent watches get a
// bit, each its own: a loop is reported only when it repeats the
// watched actions of the watched workloads themselves, however many
// workloads the cluster has.

// maxWatchedMarks is how many distinct marks the cycle intents of one
// problem may watch: one bit of checker.Step.Marks each.
const maxWatchedMarks = 32

// markTable gives each watched mark its bit.
type markTable struct {
	marks []model.Mark
	// scaled are the workloads whose ScaledUp or ScaledDown marks are
	// watched: the composition marks their replica changes.
	scaled []int
}

// watch returns the bits of marks, giving each a bit of its own on first
// sight.
func (t *markTable) watch(marks []model.Mark) (uint32, error) {
	var bits uint32
	for _, m := range marks {
		i := slices.Index(t.marks, m)
		if i < 0 {
			if len(t.marks) == maxWatchedMarks {
				return 0, fmt.Errorf("the cycle intents watch more than %d actions of workloads (accepted: at most %d, such as %d no_oscillation_eviction intents): %w", maxWatchedMarks, maxWatchedMarks, maxWatchedMarks/2, model.ErrInvalid)
			}
			i = len(t.marks)
			t.marks = append(t.marks, m)
			if (m.Kind == model.ScaledUp || m.Kind == model.ScaledDown) && !slices.Contains(t.scaled, m.Deployment) {
				t.scaled = append(t.scaled, m.Deployment)
			}
		}
		bits |= 1 << uint(i)
	}
	return bits, nil
}

// bits returns the bits of the watched marks among marks.
func (t *markTable) bits(marks []model.Mark) uint32 {
	var bits uint32
	for _, m := range marks {
		if i := slices.Index(t.marks, m); i >= 0 {
			bits |= 1 << uint(i)
		}
	}
	return bits
}

// markScaling marks, for the workloads whose scaling is watched, a
// change of their spec replicas from s to next.
func (t *markTable) markScaling(tx *model.Tx, s, next *model.State) {
	for _, d := range t.scaled {
		if d >= len(s.Deps) || d >= len(next.Deps) {
			continue
		}
		switch was, now := s.Deps[d].Replicas, next.Deps[d].Replicas; {
		case now > was:
			tx.Mark(model.MarkScaledUp(d))
		case now < was:
			tx.Mark(model.MarkScaledDown(d))
		}
	}
}
