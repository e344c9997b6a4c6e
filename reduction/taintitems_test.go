package reduction_test

import (
	"context"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/model"
)

// queueEveryStart is the kubelet as it was before it left out the pods
// the taint manager cannot act on (controllers/kubelet/tainteviction.go):
// every pod its drain starts, or leaves waiting bound to a node that is
// not Ready, also joins the taint manager's queue; not a pod of a
// deleted Node, whose queued items the taint manager takes for
// evictions scheduled before the deletion (model.DeleteNodeObject keeps
// only those).
type queueEveryStart struct{ model.Process }

func (k queueEveryStart) Step(tx *model.Tx, s *model.State) {
	var bound []int
	for _, p := range s.Queues[model.KubeletQueue] {
		if pod := &s.Pods[p]; pod.Phase == model.Pending && pod.Node != 0 {
			bound = append(bound, int(p))
		}
	}
	k.Process.Step(tx, s)
	for _, p := range bound {
		if pod := &s.Pods[p]; pod.Node != 0 && (pod.Phase == model.Running || pod.Phase == model.Pending) && !model.OnDeletedNode(s, pod) {
			s.Enqueue(model.TaintManagerQueue, p)
		}
	}
}

// TestTaintItemsLeftOutKeepVerdicts: on random small clusters (drawInput:
// NoSchedule and PreferNoSchedule taints, node failures, maintenance,
// kernel panics, drains and node deletions under Kubernetes' lifecycle),
// queueing every pod the kubelet starts for the taint manager, as the
// kubelet did before, gives every property the same verdict as queueing
// only the pods a NoExecute taint of their node may evict: the items left
// out are steps that change nothing but the queue, and the taints placed
// later queue the pods they concern themselves. Symmetry off and on, no
// partial-order reduction (the wrapped kubelet declares no footprint).
func TestTaintItemsLeftOutKeepVerdicts(t *testing.T) {
	var decided, differed int
	rapid.Check(t, func(rt *rapid.T) {
		in := drawInput(rt)
		p := inputProblem(rt, in, compose.Options{NoQuickPass: true})
		if p.System.U.Options.KiviLifecycle {
			rt.Fatalf("random input under Kivi's lifecycle:\n%s", in)
		}
		old, err := p.With(compose.Options{NoQuickPass: true})
		if err != nil {
			rt.Fatalf("%v\n%s", err, in)
		}
		wrapped := false
		for i, a := range old.System.Actors {
			if a.Process.Name() == "Kubelet" {
				old.System.Actors[i].Process = queueEveryStart{a.Process}
				wrapped = true
			}
		}
		if !wrapped {
			rt.Fatalf("no Kubelet actor")
		}
		for _, noSym := range []bool{true, false} {
			run := func(q *compose.Problem) checker.Result[*model.State] {
				res, err := checker.Check[*model.State](context.Background(), q.System.CheckerSystem(), q.Properties,
					checker.Options{CollectAll: true, NoSymmetry: noSym, NoPOR: true, Workers: 1, MaxStates: randomMaxStates})
				if err != nil {
					rt.Fatalf("%v\n%s", err, in)
				}
				return res
			}
			now, before := run(p), run(old)
			if now.Stats.States != before.Stats.States {
				differed++
			}
			for i, a := range before.Properties {
				b := now.Properties[i]
				if a.Verdict == checker.Unknown || b.Verdict == checker.Unknown {
					continue
				}
				decided++
				if a.Verdict != b.Verdict {
					rt.Fatalf("symmetry %v: %s: %v with every start queued for the taint manager, %v without\n%s", !noSym, a.Name, a.Verdict, b.Verdict, in)
				}
			}
		}
	})
	t.Logf("%d verdicts compared; %d runs with fewer states", decided, differed)
}
