package podgcdiff

import (
	"fmt"

	"github.com/kivi-go/kivi/controllers/podgc"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// Model deletes the case's deleted nodes in the model
// (model.DeleteNodeObject), each pod the one pod of its own Job whose
// podFailurePolicy ignores DisruptionTarget, then takes the step of every
// pod garbage collector (podgc.Orphaned) that is enabled, in node order:
// a pod is deleted when its slot is freed, and counted when its Job's
// failure count grew. The window is the state between the deletions and
// the first collection: which pods are gone then (none, upstream's first
// pass being quarantined) and which nodes' collectors are enabled.
func Model(c Case) (Window, error) {
	b := build.New()
	b.U.Options.KiviHostnameAlias = false
	for i := range c.Deleted {
		b.AddNodes(1, build.Node().Name(NodeName(i)).CPU(1000).Mem(1000))
	}
	jobs := make([]int, len(c.Pods))
	for i := range c.Pods {
		jobs[i] = b.AddJob(PodName(i), b.AddTemplate(build.Template(PodName(i)).Requests(1, 1)), 1)
		spec := &b.Config(jobs[i]).Job
		spec.PodFailurePolicy, spec.PodFailureRuleCount = true, 1
		spec.PodFailureRules[0] = model.PodFailurePolicyRule{Action: model.PodFailureIgnore, OnDisruptionTarget: true}
	}
	b.Slots = len(c.Pods) + 1
	u, s, err := b.Build(0)
	if err != nil {
		return Window{}, err
	}
	for i, p := range c.Pods {
		ps := model.PodState{Node: uint16(p.Node + 1), Template: uint8(i), Owner: uint8(jobs[i] + 1)}
		switch p.Phase {
		case Pending:
			ps.Phase = model.Pending
		case Running:
			ps.Phase = model.Running
		case Terminating:
			ps.Phase, ps.WasRunning = model.Terminating, true
		case Failed:
			ps.Phase = model.Failed
		}
		s.Pods[i] = ps
	}
	before := make([]int16, len(c.Pods))
	for i := range c.Pods {
		before[i] = s.Deps[jobs[i]].JobFailed
	}
	tx := model.NewTx(u)
	for n, deleted := range c.Deleted {
		if deleted {
			model.DeleteNodeObject(tx, s, n)
		}
	}
	answers := func() []Answer {
		out := make([]Answer, len(c.Pods))
		for i := range c.Pods {
			if s.Pods[i].Phase == model.Free {
				out[i] = Answer{Deleted: true, Counted: s.Deps[jobs[i]].JobFailed > before[i]}
			}
		}
		return out
	}
	var w Window
	w.First = answers()
	w.Enabled = make([]bool, len(c.Deleted))
	for n := range c.Deleted {
		gc := podgc.NewOrphaned(u, n)
		if w.Enabled[n] = gc.Enabled(u, s); !w.Enabled[n] {
			continue
		}
		gc.Step(tx, s)
		for i, p := range c.Pods {
			if gone := s.Pods[i].Phase == model.Free; gone != (p.Node == n || p.Node >= 0 && p.Node < n && w.Enabled[p.Node]) {
				return Window{}, fmt.Errorf("the collector of %s: pod %s deleted %v", NodeName(n), PodName(i), gone)
			}
		}
	}
	if s.Failed != model.NoFailure {
		return Window{}, fmt.Errorf("the model failed: %v", s.Failed)
	}
	w.Final = answers()
	return w, nil
}
