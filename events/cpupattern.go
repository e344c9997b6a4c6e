package events

import (
	"cmp"
	"slices"

	"github.com/kivi-go/kivi/model"
)

// CPUPattern is podCpuChangeWithPattern: every Running pod
// whose template has a CPU usage pattern follows it, one entry per
// firing. Without Kivi's clock no entry is ever due by time, so an entry
// is due exactly when the cluster is quiescent, and then the next entry
// of every such pod applies in one deterministic step. The UsagePoint.At
// offsets are therefore not read.
//
// Kivi's always-enabled no-op step at the loop head is merged into this
// step: it touches no shared variable.
type CPUPattern struct{ unanalysed }

var _ model.Process = CPUPattern{}

func (CPUPattern) Name() string { return "podCpuChangeWithPattern" }

func (CPUPattern) Enabled(u *model.Universe, s *model.State) bool {
	if !atRest(s) {
		return false
	}
	for i := range s.Pods {
		if patternDue(u, s, i) {
			return true
		}
	}
	return false
}

// Step applies the next pattern entry of every due pod. Due-ness is
// decided before any change: the HPA items this step enqueues do not stop
// it (Kivi snapshots Q5-empty). Each change queues the pod's owner for
// the HPA, so the order of the pods is the order of the HPA queue, and
// the first rescale ends the HPA's drain. Under Kivi's lifecycle the pods
// go in ascending slot order, as Kivi's loop; under Kubernetes' in owner
// order (pods of the same owner by slot), since upstream's HPA controller
// syncs each HorizontalPodAutoscaler on its own resync period, in no
// order among them: the owner order is one of them, and the one pod slots
// do not decide, so pod slots stay interchangeable (events/symmetry.go).
func (CPUPattern) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	var buf [32]int
	due := buf[:0] // grows on the heap beyond 32 pods
	for i := range s.Pods {
		if patternDue(u, s, i) {
			due = append(due, i)
		}
	}
	if !u.Options.KiviLifecycle {
		slices.SortStableFunc(due, func(a, b int) int { return cmp.Compare(s.Pods[a].Owner, s.Pods[b].Owner) })
	}
	for _, i := range due {
		p := &s.Pods[i]
		point := u.Templates[p.Template].Pattern[p.Pattern]
		p.Pattern++
		changeCPU(tx, s, i, point.CPU-int64(p.CPU))
	}
}

// patternDue reports whether pod slot i is Running on a node and has a
// pattern entry left.
func patternDue(u *model.Universe, s *model.State, i int) bool {
	p := &s.Pods[i]
	return p.Phase == model.Running && p.Node != 0 && int(p.Pattern) < len(u.Templates[p.Template].Pattern)
}
