package scheduler

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// The rows of kube-scheduler v1.36.3's own tables for DefaultPreemption
// (pkg/scheduler/framework/plugins/defaultpreemption,
// default_preemption_test.go) that the model can state, with their
// expected answers.

// Priorities and requests of upstream's table: milli-CPU and the same
// number of memory units (upstream's are bytes, which the model's MiB
// would round to nothing; only the ratios matter to the rows).
const (
	upNegPriority, upLowPriority, upMidPriority, upHighPriority, upVeryHighPriority = int32(-100), int32(0), int32(100), int32(1000), int32(10000)
	upSmall, upMedium, upLarge, upVeryLarge                                         = 100, 200, 300, 500
)

// upPod is a row's pod: its node (0-based), priority, request and start
// time (upstream's epochTime plus nanoseconds; the model has no start
// times).
type upPod struct {
	node  int
	prio  int32
	req   int64
	start int
}

// TestUpstreamPodEligibleToPreemptOthers: TestPodEligibleToPreemptOthers.
// Only a pod terminating as a preemption's victim (DisruptionTarget of
// reason PreemptionByScheduler: model.Preempted) on the nominated node
// makes the pod wait, unless the filters found that node
// UnschedulableAndUnresolvable.
func TestUpstreamPodEligibleToPreemptOthers(t *testing.T) {
	for _, tc := range []struct {
		name string
		// nominated: the pod is nominated to node 1; tainted: node 1
		// carries a taint the pod does not tolerate
		// (UnschedulableAndUnresolvable); terminating: a pod of lower
		// priority on node 1 is terminating, victim says whether a
		// preemption deleted it; never: preemptionPolicy Never.
		nominated, tainted, terminating, victim, never bool
		want                                           bool
	}{
		{name: "Pod with nominated node", nominated: true, tainted: true, terminating: true, want: true},
		{name: "Pod without nominated node", want: true},
		{name: "Pod with 'PreemptNever' preemption policy", never: true, want: false},
		{name: "preemption victim pod terminating, as indicated by the dedicated DisruptionTarget condition", nominated: true, terminating: true, victim: true, want: false},
		{name: "non-victim Pods terminating", nominated: true, terminating: true, want: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.U.Options.KiviHostnameAlias = false
			nb := build.Node().Name("node1").CPU(upVeryLarge).Mem(upVeryLarge).MaxPods(110)
			if tc.tainted {
				nb.Taint("dedicated", "x", model.NoSchedule)
			}
			b.AddNodes(1, nb)
			low := b.AddDeployment("low", b.AddTemplate(build.Template("low").Requests(upSmall, upSmall).Priority(upLowPriority)), 1)
			pt := build.Template("p").Requests(upSmall, upSmall).Priority(upHighPriority)
			if tc.never {
				pt.PreemptNever()
			}
			p := b.AddDeployment("p", b.AddTemplate(pt), 1)
			if tc.terminating {
				b.RunPod(low, 0)
			}
			b.PendingPod(p, -1)
			u, s, err := b.Build(0)
			if err != nil {
				t.Fatal(err)
			}
			pod := len(s.Pods) - 1
			for s.Pods[pod].Phase != model.Pending {
				pod--
			}
			if tc.terminating {
				if tc.victim {
					model.MarkPreempted(u, s, 0)
				}
				s.RequestDeletion(0)
			}
			if tc.nominated {
				s.Pods[pod].NominatedNode = 1
			}
			c := New().getCycle()
			got := u.Templates[s.Pods[pod].Template].MayPreempt() && eligibleToPreempt(c, u, s, pod)
			if got != tc.want {
				t.Errorf("eligible %t, want %t", got, tc.want)
			}
		})
	}
}

// TestUpstreamSelectBestCandidate: TestSelectBestCandidate (the nodes'
// capacity veryLargeRes, NodeResourcesFit the only filter that can
// reject; in the model every default filter runs and passes but it).
// The model explores every node upstream's pickOneNodeForPreemption may
// pick: where the rows' start times are all equal that is exactly the
// expected set; where they differ (the fifth criterion, latest start
// time of the most important victims) the model, which has none, keeps
// every node tied on the first four, and the expected node must be one
// of them.
func TestUpstreamSelectBestCandidate(t *testing.T) {
	for _, tc := range []struct {
		name     string
		nodes    int
		prio     int32
		req      int64
		pods     []upPod
		expected []string
	}{
		{"a pod that fits on both nodes when lower priority pods are preempted", 2, upHighPriority, upLarge, []upPod{
			{0, upMidPriority, upLarge, 0}, {1, upMidPriority, upLarge, 0}}, []string{"node1", "node2"}},
		{"node with min highest priority pod is picked", 3, upHighPriority, upVeryLarge, []upPod{
			{0, upMidPriority, upMedium, 0}, {0, upMidPriority, upLarge, 0},
			{1, upMidPriority, upMedium, 0}, {1, upLowPriority, upMedium, 0},
			{2, upLowPriority, upMedium, 0}, {2, upLowPriority, upMedium, 0}}, []string{"node3"}},
		{"when highest priorities are the same, minimum sum of priorities is picked", 3, upHighPriority, upVeryLarge, []upPod{
			{0, upMidPriority, upMedium, 0}, {0, upMidPriority, upLarge, 0},
			{1, upMidPriority, upLarge, 0}, {1, upLowPriority, upMedium, 0},
			{2, upMidPriority, upMedium, 0}, {2, upMidPriority, upMedium, 0}}, []string{"node2"}},
		{"when highest priority and sum are the same, minimum number of pods is picked", 3, upHighPriority, upVeryLarge, []upPod{
			{0, upMidPriority, upSmall, 0}, {0, upNegPriority, upSmall, 0}, {0, upMidPriority, upSmall, 0}, {0, upNegPriority, upSmall, 0},
			{1, upMidPriority, upLarge, 0}, {1, upNegPriority, upMedium, 0},
			{2, upMidPriority, upMedium, 0}, {2, upNegPriority, upSmall, 0}, {2, upLowPriority, upSmall, 0}}, []string{"node2"}},
		{"sum of adjusted priorities is considered", 3, upHighPriority, upVeryLarge, []upPod{
			{0, upMidPriority, upSmall, 0}, {0, upNegPriority, upSmall, 0}, {0, upNegPriority, upSmall, 0},
			{1, upMidPriority, upLarge, 0}, {1, upNegPriority, upMedium, 0},
			{2, upMidPriority, upMedium, 0}, {2, upNegPriority, upSmall, 0}, {2, upLowPriority, upSmall, 0}}, []string{"node2"}},
		{"non-overlapping lowest high priority, sum priorities, and number of pods", 4, upVeryHighPriority, upVeryLarge, []upPod{
			{0, upMidPriority, upSmall, 0}, {0, upLowPriority, upSmall, 0}, {0, upLowPriority, upSmall, 0},
			{1, upHighPriority, upLarge, 0},
			{2, upMidPriority, upMedium, 0}, {2, upLowPriority, upSmall, 0}, {2, upLowPriority, upSmall, 0}, {2, upLowPriority, upMedium, 0},
			{3, upMidPriority, upMedium, 0}, {3, upMidPriority, upSmall, 0}, {3, upMidPriority, upSmall, 0}, {3, upNegPriority, upSmall, 0}}, []string{"node1"}},
		{"same priority, same number of victims, different start time for each node's pod", 3, upHighPriority, upVeryLarge, []upPod{
			{0, upMidPriority, upMedium, 2}, {0, upMidPriority, upMedium, 2},
			{1, upMidPriority, upMedium, 3}, {1, upMidPriority, upMedium, 3},
			{2, upMidPriority, upMedium, 1}, {2, upMidPriority, upMedium, 1}}, []string{"node2"}},
		{"same priority, same number of victims, different start time for all pods", 3, upHighPriority, upVeryLarge, []upPod{
			{0, upMidPriority, upMedium, 4}, {0, upMidPriority, upMedium, 2},
			{1, upMidPriority, upMedium, 5}, {1, upMidPriority, upMedium, 1},
			{2, upMidPriority, upMedium, 3}, {2, upMidPriority, upMedium, 6}}, []string{"node3"}},
		{"different priority, same number of victims, different start time for all pods", 3, upHighPriority, upVeryLarge, []upPod{
			{0, upLowPriority, upMedium, 4}, {0, upMidPriority, upMedium, 2},
			{1, upMidPriority, upMedium, 6}, {1, upLowPriority, upMedium, 1},
			{2, upLowPriority, upMedium, 3}, {2, upMidPriority, upMedium, 5}}, []string{"node2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s, pod := upstreamCluster(t, tc.nodes, tc.prio, tc.req, tc.pods)
			got := nominatedNodes(t, u, s, pod)
			sameStart := true
			for _, p := range tc.pods {
				sameStart = sameStart && p.start == tc.pods[0].start
			}
			if sameStart && !slices.Equal(got, tc.expected) {
				t.Errorf("the model nominates %v, upstream any of %v", got, tc.expected)
			}
			for _, n := range tc.expected {
				if !slices.Contains(got, n) {
					t.Errorf("the model nominates %v, never upstream's %s", got, n)
				}
			}
		})
	}
}

// upstreamCluster builds a row: nodes of capacity veryLargeRes, one
// Deployment per pod (so that no two pods are identical, as upstream's
// are not), and the pending pod of priority prio requesting req.
func upstreamCluster(t *testing.T, nodes int, prio int32, req int64, pods []upPod) (*model.Universe, *model.State, int) {
	t.Helper()
	b := build.New()
	b.U.Options.KiviHostnameAlias = false
	for n := range nodes {
		b.AddNodes(1, build.Node().Name(fmt.Sprintf("node%d", n+1)).CPU(upVeryLarge).Mem(upVeryLarge).MaxPods(110))
	}
	for i, p := range pods {
		name := fmt.Sprintf("p%d", i+1)
		d := b.AddDeployment(name, b.AddTemplate(build.Template(name).Requests(p.req, p.req).Priority(p.prio)), 1)
		b.RunPod(d, p.node)
	}
	b.PendingPod(b.AddDeployment("p", b.AddTemplate(build.Template("p").Requests(req, req).Priority(prio)), 1), -1)
	b.U.Options.TieBreak = model.BranchOnTies
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	return u, s, len(pods)
}

// nominatedNodes runs one scheduler step for the pending pod, every
// branch, and returns the nodes it is nominated to, sorted.
func nominatedNodes(t *testing.T, u *model.Universe, s0 *model.State, pod int) []string {
	t.Helper()
	s0.Enqueue(model.SchedulerQueue, pod)
	tx := model.NewTx(u)
	tx.Begin(nil, true)
	var got []string
	for {
		s := s0.Clone()
		New().Step(tx, s)
		n := int(s.Pods[pod].NominatedNode) - 1
		if n < 0 {
			t.Fatalf("the pod is not nominated: %s", lines(tx))
		}
		if name := u.Nodes[n].Name; !slices.Contains(got, name) {
			got = append(got, name)
		}
		if !tx.Advance() {
			break
		}
		tx.Restart(true)
	}
	slices.Sort(got)
	return got
}

func lines(tx *model.Tx) string {
	var b strings.Builder
	for _, l := range tx.Lines {
		b.WriteString(l.Message + "\n")
	}
	return b.String()
}

// TestUpstreamPostFilter: the rows of TestPostFilter whose node statuses
// are the ones the filters give (a node of one pod that holds one:
// Unschedulable, "Too many pods"); the rows that force a status the
// filters would not give, or need an extender, a failing plugin or pod
// groups, are left out. A universe whose templates share one priority
// runs no PostFilter in the model (docs/divergences.md, "Pod priority and
// preemption"): the tied-priority row adds a template of another
// priority that no pod uses.
func TestUpstreamPostFilter(t *testing.T) {
	type pod struct {
		node   int
		prio   int32
		budget string // "violating": under minAvailable 100%; "allowing": under minAvailable 0
	}
	for _, tc := range []struct {
		name    string
		nodes   int
		prio    int32
		pods    []pod
		want    []string // nominated nodes; none when msg is set
		wantMsg string
	}{
		{name: "pod with higher priority can be made schedulable", nodes: 1, prio: upHighPriority,
			pods: []pod{{node: 0}}, want: []string{"node1"}},
		{name: "pod with tied priority is still unschedulable", nodes: 1, prio: upLowPriority,
			pods: []pod{{node: 0}}, wantMsg: "0/1 nodes are available: 1 No preemption victims found for incoming pod."},
		{name: "pod can be made schedulable on one node", nodes: 2, prio: upMidPriority,
			pods: []pod{{node: 0, prio: upHighPriority}, {node: 1, prio: upLowPriority}}, want: []string{"node2"}},
		{name: "pod can be made schedulable on minHighestPriority node", nodes: 2, prio: upVeryHighPriority,
			pods: []pod{{0, upHighPriority, "allowing"}, {0, upLowPriority, "violating"}, {1, upMidPriority, "violating"}},
			want: []string{"node2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.U.Options.KiviHostnameAlias = false
			b.U.Options.TieBreak = model.BranchOnTies
			for n := range tc.nodes {
				b.AddNodes(1, build.Node().Name(fmt.Sprintf("node%d", n+1)).CPU(1000).Mem(1000).MaxPods(1))
			}
			for i, p := range tc.pods {
				name := fmt.Sprintf("p%d", i+1)
				tb := build.Template(name).Requests(0, 0).Priority(p.prio)
				if p.budget != "" {
					tb.Label("budget", p.budget)
				}
				b.RunPod(b.AddDeployment(name, b.AddTemplate(tb), 1), p.node)
			}
			b.AddTemplate(build.Template("other").Priority(upVeryHighPriority + 1))
			b.PendingPod(b.AddDeployment("p", b.AddTemplate(build.Template("p").Requests(0, 0).Priority(tc.prio)), 1), -1)
			b.U.PDBs = []model.PodDisruptionBudget{
				{Name: "violating-pdb", Selector: &model.Selector{MatchLabels: map[string]string{"budget": "violating"}}, MinAvailable: &model.IntOrPercent{Value: 100, Percent: true}},
				{Name: "non-violating-pdb", Selector: &model.Selector{MatchLabels: map[string]string{"budget": "allowing"}}, MinAvailable: &model.IntOrPercent{Value: 0}},
			}
			u, s, err := b.Build(0)
			if err != nil {
				t.Fatal(err)
			}
			pod := len(tc.pods)
			if tc.wantMsg == "" {
				if got := nominatedNodes(t, u, s, pod); !slices.Equal(got, tc.want) {
					t.Errorf("the model nominates %v, upstream %v", got, tc.want)
				}
				return
			}
			s.Enqueue(model.SchedulerQueue, pod)
			tx := model.NewTx(u)
			tx.Begin(nil, true)
			New().Step(tx, s)
			if _, msg, _ := strings.Cut(lines(tx), " preemption: "); strings.TrimSpace(msg) != tc.wantMsg {
				t.Errorf("PostFilter says %q, upstream %q", msg, tc.wantMsg)
			}
		})
	}
}

// TestUpstreamDryRunPreemption: the rows of TestDryRunPreemption the
// model can state (SelectVictimsOnNode on every node, nodes of capacity
// veryLargeRes labelled hostname, zone). Each expected candidate (its
// victims and budget violations) must be one of the model's outcomes on
// its node, and a node with none upstream has none in the model; where
// no two potential victims on a node share a priority (no start time
// decides) the model has exactly that outcome. Left out: the rows of a
// test filter plugin, of budgets' DisruptedPods (not modelled:
// docs/divergences.md, "Budgets") and of candidate sampling (every
// potential node is dry-run).
func TestUpstreamDryRunPreemption(t *testing.T) {
	type pod struct {
		name   string
		node   int
		prio   int32
		req    int64
		labels []string // key, value pairs
		anti   bool     // required anti-affinity to pods with foo on hostname
		start  int
	}
	type cand struct {
		node       string
		victims    []string
		violations int
	}
	for _, tc := range []struct {
		name   string
		nodes  []string // hostname/zone
		prio   int32
		req    int64
		labels []string
		spread bool // DoNotSchedule spread by zone and by hostname, maxSkew 1, over pods with foo
		pods   []pod
		pdbOn  string // label value of app that a budget allowing one disruption selects
		want   []cand
	}{
		{name: "a pod that fits on both nodes when lower priority pods are preempted", nodes: []string{"node1", "node2"}, prio: upHighPriority, req: upLarge,
			pods: []pod{{name: "p1", node: 0, prio: upMidPriority, req: upLarge}, {name: "p2", node: 1, prio: upMidPriority, req: upLarge}},
			want: []cand{{"node1", []string{"p1"}, 0}, {"node2", []string{"p2"}, 0}}},
		{name: "a pod that would fit on the nodes, but other pods running are higher priority, no preemption would happen", nodes: []string{"node1", "node2"}, prio: upLowPriority, req: upLarge,
			pods: []pod{{name: "p1", node: 0, prio: upMidPriority, req: upLarge}, {name: "p2", node: 1, prio: upMidPriority, req: upLarge}}},
		{name: "medium priority pod is preempted, but lower priority one stays as it is small", nodes: []string{"node1", "node2"}, prio: upHighPriority, req: upLarge,
			pods: []pod{{name: "p1.1", node: 0, prio: upLowPriority, req: upSmall}, {name: "p1.2", node: 0, prio: upMidPriority, req: upLarge}, {name: "p2", node: 1, prio: upMidPriority, req: upLarge}},
			want: []cand{{"node1", []string{"p1.2"}, 0}, {"node2", []string{"p2"}, 0}}},
		{name: "mixed priority pods are preempted", nodes: []string{"node1", "node2"}, prio: upHighPriority, req: upLarge,
			pods: []pod{{name: "p1.1", node: 0, prio: upMidPriority, req: upSmall}, {name: "p1.2", node: 0, prio: upLowPriority, req: upSmall},
				{name: "p1.3", node: 0, prio: upMidPriority, req: upMedium}, {name: "p1.4", node: 0, prio: upHighPriority, req: upSmall}, {name: "p2", node: 1, prio: upHighPriority, req: upLarge}},
			want: []cand{{"node1", []string{"p1.2", "p1.3"}, 0}}},
		{name: "mixed priority pods are preempted, pick later StartTime one when priorities are equal", nodes: []string{"node1", "node2"}, prio: upHighPriority, req: upLarge,
			pods: []pod{{name: "p1.1", node: 0, prio: upLowPriority, req: upSmall, start: 5}, {name: "p1.2", node: 0, prio: upLowPriority, req: upSmall, start: 4},
				{name: "p1.3", node: 0, prio: upMidPriority, req: upMedium, start: 3}, {name: "p1.4", node: 0, prio: upHighPriority, req: upSmall, start: 2}, {name: "p2", node: 1, prio: upHighPriority, req: upLarge, start: 1}},
			want: []cand{{"node1", []string{"p1.1", "p1.3"}, 0}}},
		{name: "pod with anti-affinity is preempted", nodes: []string{"node1", "node2"}, prio: upHighPriority, req: upSmall, labels: []string{"foo", ""},
			pods: []pod{{name: "p1.1", node: 0, prio: upLowPriority, req: upSmall, labels: []string{"foo", ""}, anti: true}, {name: "p1.2", node: 0, prio: upMidPriority, req: upSmall},
				{name: "p1.3", node: 0, prio: upHighPriority, req: upSmall}, {name: "p2", node: 1, prio: upHighPriority, req: upSmall}},
			want: []cand{{"node1", []string{"p1.1"}, 0}}},
		{name: "preemption to resolve pod topology spread filter failure", nodes: []string{"node-a/zone1", "node-b/zone1", "node-x/zone2"}, prio: upHighPriority, labels: []string{"foo", ""}, spread: true,
			pods: []pod{{name: "pod-a1", node: 0, prio: upMidPriority, labels: []string{"foo", ""}}, {name: "pod-a2", node: 0, prio: upLowPriority, labels: []string{"foo", ""}},
				{name: "pod-b1", node: 1, prio: upLowPriority, labels: []string{"foo", ""}}, {name: "pod-x1", node: 2, prio: upHighPriority, labels: []string{"foo", ""}}, {name: "pod-x2", node: 2, prio: upHighPriority, labels: []string{"foo", ""}}},
			want: []cand{{"node-a", []string{"pod-a2"}, 0}, {"node-b", []string{"pod-b1"}, 0}}},
		{name: "preemption with violation of same pdb", nodes: []string{"node1"}, prio: upHighPriority, req: upVeryLarge, pdbOn: "foo",
			pods: []pod{{name: "p1.1", node: 0, prio: upMidPriority, req: upMedium, labels: []string{"app", "foo"}}, {name: "p1.2", node: 0, prio: upMidPriority, req: upMedium, labels: []string{"app", "foo"}}},
			want: []cand{{"node1", []string{"p1.1", "p1.2"}, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.U.Options.KiviHostnameAlias = false
			b.U.Options.TieBreak = model.BranchOnTies
			for _, n := range tc.nodes {
				host, zone, _ := strings.Cut(n, "/")
				nb := build.Node().Name(host).CPU(upVeryLarge).Mem(upVeryLarge).MaxPods(110).Label("hostname", host)
				if zone != "" {
					nb.Label("zone", zone)
				}
				b.AddNodes(1, nb)
			}
			for _, p := range tc.pods {
				tb := build.Template(p.name).Requests(p.req, p.req).Priority(p.prio)
				for i := 0; i < len(p.labels); i += 2 {
					tb.Label(p.labels[i], p.labels[i+1])
				}
				if p.anti {
					tb.PodAntiAffinity("hostname", "foo", "")
				}
				b.RunPod(b.AddDeployment(p.name, b.AddTemplate(tb), 1), p.node)
			}
			tb := build.Template("p").Requests(tc.req, tc.req).Priority(tc.prio)
			for i := 0; i < len(tc.labels); i += 2 {
				tb.Label(tc.labels[i], tc.labels[i+1])
			}
			if tc.spread {
				tb.Spread(1, "zone", model.DoNotSchedule).Spread(1, "hostname", model.DoNotSchedule)
			}
			b.PendingPod(b.AddDeployment("p", b.AddTemplate(tb), 1), -1)
			if tc.pdbOn != "" {
				// Two healthy pods, minAvailable 1: one disruption allowed,
				// as the row's status says.
				b.U.PDBs = []model.PodDisruptionBudget{{Name: "pdb", Selector: &model.Selector{MatchLabels: map[string]string{"app": tc.pdbOn}}, MinAvailable: &model.IntOrPercent{Value: 1}}}
			}
			u, s, err := b.Build(0)
			if err != nil {
				t.Fatal(err)
			}
			pod := len(tc.pods)
			pe := preemption{u: u, s: s, pod: pod, prio: tc.prio, c: New().getCycle()}
			pe.c.reset(u, s, pod)
			pe.pdbs = make([]int, len(u.PDBs))
			for i := range u.PDBs {
				pe.pdbs[i] = u.Disruption(s, i).DisruptionsAllowed
			}
			for n := range u.Nodes {
				sets, _, over := pe.selectVictims(n)
				if over {
					t.Fatalf("node %s: bound", u.Nodes[n].Name)
				}
				var got []cand
				for _, vs := range sets {
					if len(vs.victims) == 0 {
						continue // the pod fits as it is: no candidate upstream either
					}
					c := cand{node: u.Nodes[n].Name, violations: vs.violations}
					for _, v := range vs.victims {
						c.victims = append(c.victims, u.Deployments[s.Pods[v].Owner-1].Name)
					}
					slices.Sort(c.victims)
					got = append(got, c)
				}
				var want *cand
				for i := range tc.want {
					if tc.want[i].node == u.Nodes[n].Name {
						want = &tc.want[i]
					}
				}
				if want == nil {
					if len(got) != 0 {
						t.Errorf("node %s: the model has candidates %v, upstream none", u.Nodes[n].Name, got)
					}
					continue
				}
				if !slices.ContainsFunc(got, func(c cand) bool {
					return slices.Equal(c.victims, want.victims) && c.violations == want.violations
				}) {
					t.Errorf("node %s: upstream's victims %v (%d violations) are not among the model's %v", want.node, want.victims, want.violations, got)
				}
				tied := false
				for i, p := range tc.pods {
					for _, q := range tc.pods[i+1:] {
						tied = tied || p.node == n && q.node == n && p.prio == q.prio && p.prio < tc.prio
					}
				}
				if !tied && len(got) != 1 {
					t.Errorf("node %s: the model has %d outcomes %v, upstream one", want.node, len(got), got)
				}
			}
		})
	}
}

// TestUpstreamPrepareCandidate: the rows of the preemption executor's
// TestPrepareCandidate (pkg/scheduler/framework/preemption) on one
// victim that the API accepts: a running victim is deleted and gets the
// DisruptionTarget condition of reason PreemptionByScheduler
// (model.Preempted); a victim already being deleted is left as it is,
// with no deletion, no condition and no Preempted event. The rows of
// failing API calls are left out (the model's API never fails:
// docs/divergences.md, "Model-wide").
func TestUpstreamPrepareCandidate(t *testing.T) {
	for _, tc := range []struct {
		name        string
		terminating bool
	}{
		{"one victim without condition", false},
		{"one victim, but victim is already being deleted", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.U.Options.KiviHostnameAlias = false
			b.AddNodes(1, build.Node().Name("node1").CPU(upVeryLarge).Mem(upVeryLarge).MaxPods(110))
			b.RunPod(b.AddDeployment("victim1", b.AddTemplate(build.Template("victim1").Requests(upVeryLarge, upVeryLarge).Priority(upLowPriority)), 1), 0)
			b.PendingPod(b.AddDeployment("preemptor", b.AddTemplate(build.Template("preemptor").Requests(upVeryLarge, upVeryLarge).Priority(upHighPriority)), 1), -1)
			u, s, err := b.Build(0)
			if err != nil {
				t.Fatal(err)
			}
			if tc.terminating {
				s.RequestDeletion(0)
			}
			before := s.Pods[0]
			s.Enqueue(model.SchedulerQueue, 1)
			tx := model.NewTx(u)
			tx.Begin(nil, true)
			New().Step(tx, s)
			if got := s.Pods[1].NominatedNode; got != 1 {
				t.Fatalf("the preemptor is nominated to %d, want node1:\n%s", got, lines(tx))
			}
			event := strings.Contains(lines(tx), "Preempted by")
			v := s.Pods[0]
			switch {
			case tc.terminating && (v != before || event):
				t.Errorf("a victim already being deleted changed (%+v to %+v) or got a Preempted event (%t)", before, v, event)
			case !tc.terminating && (v.Phase != model.Terminating || v.Failure&model.Preempted == 0 || !event):
				t.Errorf("victim %+v: want it Terminating, preempted, with a Preempted event (%t)", v, event)
			}
		})
	}
}
