package reduction_test

import (
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// Unschedulable pods under Kubernetes' lifecycle: a failed scheduling
// attempt marks its state and the run goes on (compose, unschedulable.go),
// and the waiting pods go back to the scheduling queue, in an order by
// their contents, on a removal, a node's change of Ready condition
// (nodeFailure) and a cordon change (drain with uncordon). The problems
// run with every reduced-vs-unreduced test (lifecycleProblems): the pod
// that fails is one of several identical pods, the nodes are
// interchangeable but for the failing or drained one, and pods of two
// deployments wait together.

// unschedulableProblems are the problems above, for lifecycleProblems.
func unschedulableProblems(t testing.TB) []porProblem {
	t.Helper()
	return []porProblem{
		{"unschedulable/nodeFailure", nodeRecoveryProblem(t)},
		{"unschedulable/drain", uncordonProblem(t)},
	}
}

// tolerateNodeDown makes a template's pods stay on a failed node.
func tolerateNodeDown(tb *build.TemplateBuilder) *build.TemplateBuilder {
	return tb.TolerationWith(model.Toleration{Key: model.TaintNodeNotReady, Operator: "Exists", Effect: model.NoExecute}).
		TolerationWith(model.Toleration{Key: model.TaintNodeUnreachable, Operator: "Exists", Effect: model.NoExecute})
}

// nodeRecoveryProblem: node 1 holds one pod, nodes 2 and 3 two each;
// web and api have three replicas each, whose six pods are about to be
// scheduled, and node 1 fails and recovers at any time (the pods
// tolerate its taints for ever). With node 1 down, the last two pods of
// the drain wait, of one deployment or of both, and node 1's recovery
// has room for one of them.
func nodeRecoveryProblem(t testing.TB) *compose.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(1, build.Node().CPU(10).Mem(20))
	b.AddNodes(2, build.Node().CPU(20).Mem(20))
	web := b.AddTemplate(tolerateNodeDown(build.Template("web").Requests(8, 8).Label("app", "web")))
	api := b.AddTemplate(tolerateNodeDown(build.Template("api").Requests(8, 8).Label("app", "api")))
	dw := b.AddDeployment("web", web, 3)
	da := b.AddDeployment("api", api, 3)
	b.PendingPod(dw, -1).PendingPod(da, -1).PendingPod(dw, -1).PendingPod(da, -1).PendingPod(dw, -1).PendingPod(da, -1)
	b.AddEvent(model.Event{Kind: model.NodeFailure, Node: 0})
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	// Not in slot order: the last two, which wait while node 1 is down,
	// are an api pod in a lower slot than a web pod.
	for _, i := range []int{3, 0, 5, 2, 1, 4} {
		s.Enqueue(model.SchedulerQueue, i)
	}
	return unschedulableProblem(t, "unschedulable/nodeFailure", u, s)
}

// uncordonProblem: node 1 holds one pod (api), nodes 2 and 3 two each
// (web and api), and a third web pod finds no room. Node 1 is drained
// and uncordoned: api's replacement waits with the web pod, in a higher
// slot, and the uncordon has room for one of them, which the order by
// contents decides (api, the first deployment, first), not the slots.
// The node controller has nothing to evict, so pod slots move with the
// symmetry reduction, and a retry in slot order would tell a state from
// its canonical form.
func uncordonProblem(t testing.TB) *compose.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(1, build.Node().CPU(10).Mem(20))
	b.AddNodes(2, build.Node().CPU(20).Mem(20))
	api := b.AddTemplate(build.Template("api").Requests(8, 8).Label("app", "api"))
	web := b.AddTemplate(build.Template("web").Requests(8, 8).Label("app", "web"))
	da := b.AddDeployment("api", api, 3)
	dw := b.AddDeployment("web", web, 3)
	b.PendingPod(dw, -1).RunPod(da, 0).RunPod(dw, 1).RunPod(da, 1).RunPod(dw, 2).RunPod(da, 2)
	b.AddEvent(model.Event{Kind: model.Drain, Nodes: []int{0}, Drain: model.DrainOptions{Uncordon: true}})
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Enqueue(model.SchedulerQueue, 0)
	return unschedulableProblem(t, "unschedulable/drain", u, s)
}

func unschedulableProblem(t testing.TB, name string, u *model.Universe, s *model.State) *compose.Problem {
	t.Helper()
	if u.Options.KiviLifecycle {
		t.Fatal("want Kubernetes' lifecycle")
	}
	decls := []model.IntentDecl{
		{Name: "replica_num_always_meet_exp", Params: map[string]any{"did": 1, "expReplicas": "spec-1"}},
		{Name: "pod_balance_across_node", Params: map[string]any{"did": 2, "maxSkew": 1}},
	}
	p, err := compose.NewProblemFrom(name, u, s, decls, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestUnschedulablePodsWaitAndRetry: both problems reach a state that
// fails with an unschedulable pod and goes on from it, and from some
// such state a state is reachable in which the pod that failed is bound:
// it was tried again after the node's change (recovery, uncordon), since
// no removal makes room for it.
func TestUnschedulablePodsWaitAndRetry(t *testing.T) {
	for _, pp := range unschedulableProblems(t) {
		sys := pp.p.System
		var failed []*model.State
		reach(sys, nil, func(s *model.State) bool {
			if s.Failed == model.FailNoFeasibleNode {
				failed = append(failed, s.Clone())
			}
			return false
		})
		if len(failed) == 0 {
			t.Fatalf("%s: no scheduling attempt fails", pp.name)
		}
		bound, goesOn := false, false
		for _, f := range failed {
			w := int(f.FailedArg)
			sys.Next(f, func(checker.Step, *model.State) { goesOn = true })
			bound = bound || reach(sys, []*model.State{f}, func(s *model.State) bool {
				p := &s.Pods[w]
				return p.Phase != model.Free && p.Owner == f.Pods[w].Owner && p.Node != 0
			})
		}
		if !goesOn {
			t.Errorf("%s: no failed state has successors", pp.name)
		}
		if !bound {
			t.Errorf("%s: no pod that failed is bound later", pp.name)
		}
	}
}

// reach explores breadth-first from the initial state (or from the given
// states) and reports whether some state satisfies stop.
func reach(sys *compose.System, from []*model.State, stop func(*model.State) bool) bool {
	seen := map[string]bool{}
	var queue []*model.State
	add := func(s *model.State) {
		if k := string(s.AppendEncoding(sys.U, nil)); !seen[k] {
			seen[k] = true
			queue = append(queue, s.Clone())
		}
	}
	if from == nil {
		sys.Initial(add)
	}
	for _, s := range from {
		add(s)
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if stop(s) {
			return true
		}
		sys.Next(s, func(_ checker.Step, x *model.State) { add(x) })
	}
	return false
}
