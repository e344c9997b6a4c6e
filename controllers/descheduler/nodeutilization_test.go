package descheduler

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// nuPod is one pod of an upstream test stanza
// (pkg/framework/plugins/nodeutilization/{low,high}nodeutilization_test.go
// at v0.36): its requests, its node and what it is. Pods of equal kind,
// requests and selector share one deployment (upstream: one ReplicaSet).
type nuPod struct {
	cpu, mem int64
	node     int
	// kind: "rs" owned by a ReplicaSet; "bare" stands for upstream's
	// DaemonSet, mirror and local-storage pods, which the DefaultEvictor
	// never evicts (the model protects bare pods); "critical" a
	// system-critical pod; "be" a BestEffort pod (no requests).
	kind string
	// selector is a nodeSelector datacenter=<selector>.
	selector string
}

type nuCase struct {
	name    string
	nodes   []*build.NodeBuilder
	pods    []nuPod
	profile model.DeschedulerProfile
	limits  model.Descheduler
	// want is upstream's expectedPodsEvicted; wantPods, when set, its
	// evictedPods (printed pod numbers, pod i+1 being upstream's p<i+1>)
	// for the cycle's first branch.
	want     int
	wantPods []int
	// outcomes, when not zero, is the number of successors of the cycle.
	outcomes int
	// variants change the template of the pods whose kind is
	// "<kind>/<variant>" (a namespace, a priority, a toleration).
	variants map[string]func(*build.TemplateBuilder) *build.TemplateBuilder
}

// nuNode is upstream's BuildTestNode(name, cpu, memory, pods).
func nuNode(name string, cpu, mem int64, pods int) *build.NodeBuilder {
	return build.Node().Name(name).CPU(cpu).Mem(mem).MaxPods(pods)
}

func cordoned(nb *build.NodeBuilder) *build.NodeBuilder {
	return nb.Taint("node.kubernetes.io/unschedulable", "", model.NoSchedule)
}

func pct(v float64) *float64 { return &v }

func thr(cpu, mem, pods float64) model.ResourceThresholds {
	var t model.ResourceThresholds
	if cpu >= 0 {
		t.CPU = pct(cpu)
	}
	if mem >= 0 {
		t.Memory = pct(mem)
	}
	if pods >= 0 {
		t.Pods = pct(pods)
	}
	return t
}

// lnuProfile is LowNodeUtilization with upstream's test evictor
// (DefaultEvictorArgs{NodeFit: true}).
func lnuProfile(low, target model.ResourceThresholds) model.DeschedulerProfile {
	return model.DeschedulerProfile{Name: "lnu", Balance: []model.BalancePlugin{model.LowNodeUtilization}, NodeFit: true,
		LowNodeUtilization: &model.LowNodeUtilizationArgs{Thresholds: low, TargetThresholds: target}}
}

func hnuProfile(t model.ResourceThresholds) model.DeschedulerProfile {
	return model.DeschedulerProfile{Name: "hnu", Balance: []model.BalancePlugin{model.HighNodeUtilization}, NodeFit: true,
		HighNodeUtilization: &model.HighNodeUtilizationArgs{Thresholds: t}}
}

func (tc nuCase) build() (*model.Universe, *model.State) {
	b := build.New()
	for _, nb := range tc.nodes {
		b.AddNodes(1, nb)
	}
	type key struct {
		kind, sel string
		cpu, mem  int64
	}
	deps := map[key]int{}
	var bare []int
	for i, p := range tc.pods {
		k := key{p.kind, p.selector, p.cpu, p.mem}
		d, ok := deps[k]
		if !ok {
			tb := build.Template(fmt.Sprintf("t%d", len(deps))).Requests(p.cpu, p.mem)
			if _, v, ok := strings.Cut(p.kind, "/"); ok {
				tb = tc.variants[v](tb)
			}
			if p.kind == "critical" {
				tb.Critical()
			}
			if p.selector != "" {
				tb.NodeSelector("datacenter", p.selector)
			}
			d = b.AddDeployment(fmt.Sprintf("d%d", len(deps)), b.AddTemplate(tb), 0)
			deps[k] = d
		}
		b.RunPod(d, p.node)
		if k, _, _ := strings.Cut(p.kind, "/"); k == "bare" {
			bare = append(bare, i)
		}
	}
	pol := tc.limits
	pol.Profiles = []model.DeschedulerProfile{tc.profile}
	b.U.Descheduler = &pol
	u, s := b.MustBuild()
	for _, i := range bare {
		s.Pods[i].Owner = 0
	}
	s.DeschedulerPending = true
	return u, s
}

// nine is upstream's common LowNodeUtilization stanza: on n1 five
// ReplicaSet pods and three it never evicts, on n2 one pod, 400m each.
func nine(first []nuPod) []nuPod {
	pods := slices.Clone(first)
	pods = append(pods, nuPod{400, 0, 0, "bare", ""}, nuPod{400, 0, 0, "bare", ""}, nuPod{400, 0, 0, "critical", ""})
	return append(pods, nuPod{400, 0, 1, "rs", ""})
}

func rsPods(n int, cpu, mem int64, node int) []nuPod {
	out := make([]nuPod, n)
	for i := range out {
		out[i] = nuPod{cpu, mem, node, "rs", ""}
	}
	return out
}

func TestLowNodeUtilizationUpstream(t *testing.T) {
	three := func() []*build.NodeBuilder {
		return []*build.NodeBuilder{nuNode("n1", 4000, 3000, 9), nuNode("n2", 4000, 3000, 10), cordoned(nuNode("n3", 4000, 3000, 10))}
	}
	std := lnuProfile(thr(30, -1, 30), thr(50, -1, 50))
	limited := std
	two := 2
	limited.LowNodeUtilization = &model.LowNodeUtilizationArgs{Thresholds: thr(30, -1, 30), TargetThresholds: thr(50, -1, 50), EvictionLimitNode: &two}
	deviation := lnuProfile(thr(5, -1, 5), thr(5, -1, 5))
	deviation.LowNodeUtilization.UseDeviationThresholds = true
	cases := []nuCase{
		{name: "no evictable pods", nodes: three(), profile: std, want: 0,
			pods: []nuPod{{400, 0, 0, "bare", ""}, {400, 0, 0, "bare", ""}, {400, 0, 0, "bare", ""}, {400, 0, 0, "bare", ""},
				{400, 0, 0, "bare", ""}, {400, 0, 0, "critical", ""}, {400, 0, 1, "rs", ""}}},
		// n1 at 80 % cpu and 8 of 9 pods is above 50 %; n2 (10 %) is
		// below 30 %; the cordoned n3 is neither. Four of the five go
		// before the headroom of n2 (1600m, 4 pods) runs out.
		{name: "without priorities", nodes: three(), profile: std, pods: nine(rsPods(5, 400, 0, 0)), want: 4, wantPods: []int{1, 2, 3, 4}, outcomes: 1},
		{name: "without priorities stop when cpu capacity is depleted", nodes: three(), profile: std, pods: nine(rsPods(5, 400, 0, 0)), want: 4},
		{name: "without priorities evicting best-effort pods only", nodes: three(), profile: std, want: 4, wantPods: []int{1, 2, 4, 5},
			pods: nine([]nuPod{{0, 0, 0, "be", ""}, {0, 0, 0, "be", ""}, {400, 0, 0, "rs", ""}, {0, 0, 0, "be", ""}, {0, 0, 0, "be", ""}})},
		{name: "without priorities, but only other node is unschedulable", profile: std, want: 0,
			nodes: []*build.NodeBuilder{nuNode("n1", 4000, 3000, 9), cordoned(nuNode("n2", 4000, 3000, 10))},
			pods:  nine(rsPods(5, 400, 0, 0))[:8]},
		{name: "without priorities, but only other node doesn't match pod node selector for p4 and p5", profile: std, want: 3, wantPods: []int{1, 2, 3},
			nodes: []*build.NodeBuilder{nuNode("n1", 4000, 3000, 9), nuNode("n2", 4000, 3000, 10).Label("datacenter", "east")},
			pods:  nine(append(rsPods(3, 400, 0, 0), nuPod{400, 0, 0, "rs", "west"}, nuPod{400, 0, 0, "rs", "west"}))[:8]},
		// Averages cpu 30 %, pods 33 %: n1 is above 35 % / 38 %, n2 below
		// 25 % / 28 %; n2's headroom holds two pods.
		{name: "deviation thresholds", nodes: three(), profile: deviation, pods: nine(rsPods(5, 400, 0, 0)), want: 2},
		{name: "deviation thresholds and overevicting memory", profile: deviation, want: 0,
			nodes: []*build.NodeBuilder{nuNode("n1", 4000, 3000, 10), nuNode("n2", 4000, 3000, 10), cordoned(nuNode("n3", 4000, 3000, 10))},
			pods: append(append(rsPods(5, 400, 375, 0), nuPod{400, 375, 0, "bare", ""}, nuPod{400, 375, 0, "bare", ""}, nuPod{400, 375, 0, "critical", ""}),
				nuPod{400, 3000, 1, "rs", ""})},
		{name: "without priorities with node eviction limit", nodes: three(), profile: limited, pods: nine(rsPods(5, 400, 0, 0)), want: 2},
		{name: "(model) the policy's maxNoOfPodsToEvictTotal cuts the walk", nodes: three(), profile: std, pods: nine(rsPods(5, 400, 0, 0)),
			limits: model.Descheduler{MaxTotal: 3}, want: 3},
		{name: "(model) numberOfNodes 1 with one underutilized node: nothing to do", nodes: three(), pods: nine(rsPods(5, 400, 0, 0)), want: 0,
			profile: func() model.DeschedulerProfile {
				p := lnuProfile(thr(30, -1, 30), thr(50, -1, 50))
				p.LowNodeUtilization.NumberOfNodes = 1
				return p
			}()},
		// Two distinct pods (200m and 1000m) on n1 at 3200m (target
		// 2000m); n2's headroom is 1200m. Either pod first leaves n1
		// above its target with headroom left, so the other goes too:
		// both orders evict both, one outcome.
		{name: "(model) both walk orders reach one set", profile: lnuProfile(thr(30, -1, -1), thr(50, -1, -1)), want: 2, outcomes: 1,
			nodes: []*build.NodeBuilder{nuNode("n1", 4000, 3000, 10), nuNode("n2", 4000, 3000, 10)},
			pods:  []nuPod{{200, 0, 0, "rs", ""}, {1000, 0, 0, "rs", ""}, {2000, 0, 0, "bare", ""}, {800, 0, 1, "rs", ""}}},
		// n1 at 2600m of 4000m (target 2000m): one of the two 1000m pods
		// brings it to 1600m. Upstream takes the Burstable one before the
		// Guaranteed one (SortPodsBasedOnPriorityLowToHigh): one outcome.
		{name: "(model) a Burstable pod goes before a Guaranteed one", profile: lnuProfile(thr(30, -1, -1), thr(50, -1, -1)), want: 1, wantPods: []int{2}, outcomes: 1,
			nodes:    []*build.NodeBuilder{nuNode("n1", 4000, 3000, 10), nuNode("n2", 4000, 3000, 10)},
			pods:     []nuPod{{1000, 0, 0, "rs/guaranteed", ""}, {1000, 0, 0, "rs", ""}, {600, 0, 0, "bare", ""}},
			variants: map[string]func(*build.TemplateBuilder) *build.TemplateBuilder{"guaranteed": (*build.TemplateBuilder).Guaranteed}},
		// n1 at 2600m of 4000m (target 2000m): the 1000m pod alone brings
		// it to 1600m; the 200m pod first leaves 2400m, then the 1000m
		// pod goes too. Two outcomes: {1000m} and {200m, 1000m}.
		{name: "(model) the walk order decides: two outcomes", profile: lnuProfile(thr(30, -1, -1), thr(50, -1, -1)), want: 2, outcomes: 2,
			nodes: []*build.NodeBuilder{nuNode("n1", 4000, 3000, 10), nuNode("n2", 4000, 3000, 10)},
			pods:  []nuPod{{200, 0, 0, "rs", ""}, {1000, 0, 0, "rs", ""}, {1400, 0, 0, "bare", ""}}},
		// n1 and n2 are equally overutilised (75 %); n3 (25 %) is below
		// 30 % with 1000m of headroom, which the first source's eviction
		// uses up. Upstream's sort leaves the two in map order: either
		// loses a pod, two outcomes.
		{name: "(model) tied sources: either goes first", profile: lnuProfile(thr(30, -1, -1), thr(50, -1, -1)), want: 1, wantPods: []int{1}, outcomes: 2,
			nodes: []*build.NodeBuilder{nuNode("n1", 4000, 3000, 10), nuNode("n2", 4000, 3000, 10), nuNode("n3", 4000, 3000, 10)},
			pods:  append(append(rsPods(3, 1000, 0, 0), rsPods(3, 1000, 0, 1)...), nuPod{1000, 0, 2, "rs", ""})},
	}
	runNUCases(t, cases)
}

func TestHighNodeUtilizationUpstream(t *testing.T) {
	std := hnuProfile(thr(30, -1, 30))
	cases := []nuCase{
		{name: "no node below threshold usage", profile: hnuProfile(thr(20, -1, 20)), want: 0,
			nodes: []*build.NodeBuilder{nuNode("n1", 4000, 3000, 10), nuNode("n2", 4000, 3000, 10), nuNode("n3", 4000, 3000, 10)},
			pods:  append(append(rsPods(3, 400, 0, 0), rsPods(3, 400, 0, 1)...), rsPods(3, 400, 0, 2)...)},
		{name: "no evictable pods", profile: hnuProfile(thr(40, -1, 40)), want: 0,
			nodes: []*build.NodeBuilder{nuNode("n1", 4000, 3000, 9), nuNode("n2", 4000, 3000, 10), nuNode("n3", 4000, 3000, 10)},
			pods: append([]nuPod{{400, 0, 0, "bare", ""}, {400, 0, 0, "critical", ""}, {400, 0, 1, "bare", ""}, {400, 0, 1, "bare", ""}},
				rsPods(4, 400, 0, 2)...)},
		{name: "no node to schedule evicted pods", profile: hnuProfile(thr(20, -1, 20)), want: 0,
			nodes: []*build.NodeBuilder{nuNode("n1", 4000, 3000, 10), nuNode("n2", 4000, 3000, 10), cordoned(nuNode("n3", 4000, 3000, 10))},
			pods:  append([]nuPod{{400, 0, 0, "rs", ""}, {400, 0, 1, "rs", ""}}, rsPods(3, 400, 0, 2)...)},
		// n1 (20 %) and the cordoned n3 (10 %) are underutilised; n2
		// takes their pods; the critical pod stays.
		{name: "without priorities", profile: std, want: 2, wantPods: []int{1, 7},
			nodes: []*build.NodeBuilder{nuNode("n1", 4000, 3000, 10), nuNode("n2", 4000, 3000, 10), cordoned(nuNode("n3", 4000, 3000, 10))},
			pods:  append(append([]nuPod{{400, 0, 0, "rs", ""}, {400, 0, 0, "critical", ""}}, rsPods(4, 400, 0, 1)...), nuPod{400, 0, 2, "rs", ""})},
		{name: "without priorities stop when resource capacity is depleted", profile: std, want: 1,
			nodes: []*build.NodeBuilder{nuNode("n1", 2000, 3000, 10), nuNode("n2", 2000, 3000, 10), cordoned(nuNode("n3", 2000, 3000, 10))},
			pods:  append(append([]nuPod{{400, 0, 0, "rs", ""}}, rsPods(4, 400, 0, 1)...), nuPod{400, 0, 2, "rs", ""})},
		{name: "without priorities evicting best-effort pods only", profile: hnuProfile(thr(30, -1, -1)), want: 1, wantPods: []int{1},
			nodes: []*build.NodeBuilder{nuNode("n1", 3000, 3000, 10), nuNode("n2", 3000, 3000, 5), cordoned(nuNode("n3", 3000, 3000, 10))},
			pods:  append([]nuPod{{0, 0, 0, "be", ""}, {400, 0, 0, "rs", ""}}, rsPods(4, 400, 0, 1)...)},
		{name: "Other node match pod node selector", profile: std, want: 1,
			nodes: []*build.NodeBuilder{nuNode("n1", 4000, 3000, 9).Label("datacenter", "west"), nuNode("n2", 4000, 3000, 10)},
			pods:  append(rsPods(3, 400, 0, 0), nuPod{400, 0, 0, "bare", ""}, nuPod{400, 0, 1, "rs", "west"})},
		{name: "Other node does not match pod node selector", profile: std, want: 0,
			nodes: []*build.NodeBuilder{nuNode("n1", 4000, 3000, 9), nuNode("n2", 4000, 3000, 10)},
			pods:  append(rsPods(3, 400, 0, 0), nuPod{400, 0, 0, "bare", ""}, nuPod{400, 0, 1, "rs", "west"})},
		{name: "Other node does not have enough Memory", profile: std, want: 0,
			nodes: []*build.NodeBuilder{nuNode("n1", 4000, 200, 9), nuNode("n2", 4000, 3000, 10)},
			pods:  append(rsPods(3, 400, 50, 0), nuPod{400, 50, 0, "bare", ""}, nuPod{400, 100, 1, "rs", ""})},
		{name: "(model) evictionModes OnlyThresholdingResources with a pods threshold: no pod requests pods", want: 0,
			profile: func() model.DeschedulerProfile {
				p := hnuProfile(thr(-1, -1, 30))
				p.HighNodeUtilization.OnlyThresholdingResources = true
				return p
			}(),
			nodes: []*build.NodeBuilder{nuNode("n1", 4000, 3000, 10), nuNode("n2", 4000, 3000, 10)},
			pods:  append([]nuPod{{400, 0, 0, "rs", ""}}, rsPods(4, 400, 0, 1)...)},
	}
	runNUCases(t, cases)
}

func runNUCases(t *testing.T, cases []nuCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u, s := tc.build()
			next, lines, _ := runCycle(t, u, s)
			got := evictedBy(s, next)
			if len(got) != tc.want {
				t.Errorf("evicted %v (%d), want %d\n%s", got, len(got), tc.want, Explain(u, s))
			}
			if tc.wantPods != nil && !equalInts(got, tc.wantPods) {
				t.Errorf("evicted %v, want %v\n%s", got, tc.wantPods, Explain(u, s))
			}
			if len(lines) != 2*len(got) {
				t.Errorf("trace %q: want two lines per eviction", lines)
			}
			if tc.outcomes != 0 {
				if n := len(outcomes(t, u, s)); n != tc.outcomes {
					t.Errorf("%d distinct outcomes, want %d: %v", n, tc.outcomes, outcomes(t, u, s))
				}
			}
		})
	}
}

// outcomes lists the distinct evicted sets over every branch of a cycle.
func outcomes(t *testing.T, u *model.Universe, s *model.State) [][]int {
	t.Helper()
	var out [][]int
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	for {
		next := s.Clone()
		New().Step(tx, next)
		got := evictedBy(s, next)
		if !slices.ContainsFunc(out, func(o []int) bool { return slices.Equal(o, got) }) {
			out = append(out, got)
		}
		if !tx.Advance() {
			return out
		}
		tx.Restart(false)
	}
}
