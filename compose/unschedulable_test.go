package compose_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// pileUpProblem: two nodes that hold three web pods each and a web
// Deployment of four replicas whose pods the scheduler is about to place,
// while node-1 may fail (nodeFailure: NotReady, reported, Ready again).
// The pods tolerate the not-ready and unreachable taints for ever, so a
// failure evicts nothing; the intent is pod_balance_across_node (maxSkew
// 1) unless others are given.
//
// The scheduler places the four pods in one drain. With both nodes
// Ready it spreads them two and two. The pods end three to one only when
// node-1 is down at that moment: three go to node-2 and the fourth finds
// no node; once node-1 is Ready again the scheduler places it there.
// Upstream the pods stay that way (the scheduler does not move a running
// pod): pod_balance_across_node is violated, but only after a pod was
// transiently unschedulable.
func pileUpProblem(t *testing.T, recovery bool, decls ...model.IntentDecl) *kivi.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(2, build.Node().CPU(30).Mem(30))
	web := b.AddTemplate(build.Template("web").Requests(8, 8).Label("app", "web").
		TolerationWith(model.Toleration{Key: model.TaintNodeNotReady, Operator: "Exists", Effect: model.NoExecute}).
		TolerationWith(model.Toleration{Key: model.TaintNodeUnreachable, Operator: "Exists", Effect: model.NoExecute}))
	d := b.AddDeployment("web", web, 4)
	for range 4 {
		b.PendingPod(d, -1)
	}
	if recovery {
		b.AddEvent(model.Event{Kind: model.NodeFailure, Node: 0})
	}
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		s.Enqueue(model.SchedulerQueue, i)
	}
	if u.Options.KiviLifecycle {
		t.Fatal("want Kubernetes' lifecycle")
	}
	if decls == nil {
		decls = []model.IntentDecl{{Name: "pod_balance_across_node", Params: map[string]any{"did": 1, "maxSkew": 1}}}
	}
	p, err := compose.NewProblemFrom("pile-up", u, s, decls, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func checkAll(t *testing.T, p *kivi.Problem, opts checker.Options) checker.Result[*model.State] {
	t.Helper()
	opts.CollectAll = true
	res, err := checker.Check[*model.State](context.Background(), p.System.CheckerSystem(), p.Properties, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func verdictOf(t *testing.T, res checker.Result[*model.State], name string) checker.PropertyResult[*model.State] {
	t.Helper()
	for _, pr := range res.Properties {
		if pr.Name == name {
			return pr
		}
	}
	t.Fatalf("no property %s in %v", name, res.Properties)
	return checker.PropertyResult[*model.State]{}
}

// TestBugAfterTransientlyUnschedulablePod is the acceptance test of the
// run going on after an unschedulable pod: pod_balance_across_node is
// violated only by runs that pass through pod_always_schedulable's
// violation, and its counterexample replays step by step as a concrete
// run, through the failed state, with and without the reductions.
func TestBugAfterTransientlyUnschedulablePod(t *testing.T) {
	for _, opts := range []checker.Options{{}, {NoSymmetry: true, NoPOR: true}, {Workers: 1}} {
		p := pileUpProblem(t, true)
		res := checkAll(t, p, opts)
		if v := verdictOf(t, res, "pod_always_schedulable"); v.Verdict != checker.Violated {
			t.Fatalf("pod_always_schedulable: %v, want violated", v.Verdict)
		}
		pr := verdictOf(t, res, "pod_balance_across_node")
		if pr.Verdict != checker.Violated {
			t.Fatalf("pod_balance_across_node: %v, want violated", pr.Verdict)
		}
		replay(t, p, pr)
		through := false
		for _, st := range pr.Trace.Steps[:len(pr.Trace.Steps)-1] {
			through = through || st.State.Failed == model.FailNoFeasibleNode
		}
		if !through {
			t.Errorf("the counterexample does not pass through the unschedulable pod's failed state")
		}
		if t.Failed() {
			break
		}
	}
	// The rendered trace shows the failure and the run after it.
	rep, err := pileUpProblem(t, true).Check(context.Background(), checker.Options{CollectAll: true})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Result("pod_balance_across_node")
	if r == nil || r.Verdict != checker.Violated {
		t.Fatalf("report: %+v", r)
	}
	text := strings.Join(r.Trace.Lines(), "\n")
	for _, want := range []string{
		"Pod web-4 cannot be scheduled: 0/2 nodes are available",
		"Node 1 recovered: it is Ready",
		"Scheduled pod web-4 on node 1",
		"The pods are unbalanced across the nodes: skew 2",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the counterexample lacks %q:\n%s", want, text)
		}
	}
}

// overflowProblem: web wants seven replicas where two nodes hold three
// each; the seventh pod waits for ever.
func overflowProblem(t *testing.T, kiviLifecycle bool, decls ...model.IntentDecl) *kivi.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(2, build.Node().CPU(30).Mem(30))
	web := b.AddTemplate(build.Template("web").Requests(8, 8).Label("app", "web"))
	d := b.AddDeployment("web", web, 7)
	for range 7 {
		b.PendingPod(d, -1)
	}
	b.U.Options.KiviLifecycle = kiviLifecycle
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 7 {
		s.Enqueue(model.SchedulerQueue, i)
	}
	p, err := compose.NewProblemFrom("overflow", u, s, decls, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestUnschedulablePodWaitsAtTheEnd: the run goes on after the seventh
// pod finds no node (the kubelet starts the other six), and the cluster
// at rest with the pod Pending for ever is judged by
// pod_always_schedulable alone: valid_end_state and the monitors' end
// checks (replica_num_always_meet_min never reaching 7) hold there, as
// they held in the failed state that ended the run before.
func TestUnschedulablePodWaitsAtTheEnd(t *testing.T) {
	decls := []model.IntentDecl{{Name: "replica_num_always_meet_min", Params: map[string]any{"did": 1}}}
	p := overflowProblem(t, false, decls...)
	res := checkAll(t, p, checker.Options{Workers: 1})
	for _, pr := range res.Properties {
		want := checker.Holds
		if pr.Name == "pod_always_schedulable" {
			want = checker.Violated
		}
		if pr.Verdict != want {
			t.Errorf("%s: %v, want %v", pr.Name, pr.Verdict, want)
		}
	}
	// The failed state has successors: the kubelet starts the six pods.
	var failed *model.State
	p.System.Initial(func(s *model.State) {
		for s.Failed == model.NoFailure {
			var next *model.State
			p.System.Next(s, func(_ checker.Step, x *model.State) {
				if next == nil {
					next = x.Clone()
				}
			})
			if next == nil {
				t.Fatal("the run ended before the scheduler failed")
			}
			s = next
		}
		failed = s
	})
	if failed.Failed != model.FailNoFeasibleNode {
		t.Fatalf("failure %d, want FailNoFeasibleNode", failed.Failed)
	}
	n := 0
	p.System.Next(failed, func(_ checker.Step, x *model.State) {
		n++
		if x.Failed != model.NoFailure {
			t.Errorf("a successor of the failed state carries failure %d", x.Failed)
		}
	})
	if n == 0 {
		t.Error("the failed state has no successors under Kubernetes' lifecycle")
	}
	// Under Kivi's lifecycle the failure still ends the run.
	kp := overflowProblem(t, true, decls...)
	kp.System.Initial(func(s *model.State) {
		for s.Failed == model.NoFailure {
			var next *model.State
			kp.System.Next(s, func(_ checker.Step, x *model.State) {
				if next == nil {
					next = x.Clone()
				}
			})
			if next == nil {
				t.Fatal("the run ended before the scheduler failed")
			}
			s = next
		}
		kp.System.Next(s, func(checker.Step, *model.State) { t.Error("a failed state has a successor under Kivi's lifecycle") })
	})
}
