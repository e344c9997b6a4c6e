package events

import "github.com/kivi-go/kivi/model"

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

// Step applies the next pattern entry of every due pod in ascending slot
// order. Due-ness is decided before any change: the HPA items this step
// enqueues do not stop it (Kivi snapshots Q5-empty).
func (CPUPattern) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	for i := range s.Pods {
		if !patternDue(u, s, i) {
			continue
		}
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
