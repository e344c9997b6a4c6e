package scheduler

import (
	"testing"

	"github.com/kivi-go/kivi/model"
)

// Four nodes in two zones, the most common upstream fixture.
func zoneNodes() []kNode {
	return []kNode{
		{name: "node-a", labels: lbl("zone", "zone1", "node", "node-a")},
		{name: "node-b", labels: lbl("zone", "zone1", "node", "node-b")},
		{name: "node-x", labels: lbl("zone", "zone2", "node", "node-x")},
		{name: "node-y", labels: lbl("zone", "zone2", "node", "node-y")},
	}
}

// foo is an existing pod labelled foo on node n.
func foo(n string) kPod { return kPod{node: n, labels: lbl("foo", "")} }

// spread2103 is upstream's "2/1/0/3" distribution over node-a, b, x, y.
func spread2103() []kPod {
	return []kPod{foo("node-a"), foo("node-a"), foo("node-b"), foo("node-y"), foo("node-y"), foo("node-y")}
}

const (
	ok  = Success
	ko  = Unschedulable
	kou = UnschedulableAndUnresolvable
)

// TestPodTopologySpreadFilter transcribes cases of TestSingleConstraint and
// TestMultipleConstraints (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go),
// named as upstream. Like upstream, only the PodTopologySpread filter runs,
// so nodes that NodeAffinity or TaintToleration would reject can pass.
// The namespace cases are left out: the model has one namespace.
func TestPodTopologySpreadFilter(t *testing.T) {
	fooSel, barSel := exists("foo"), exists("bar")
	zoneFoo := tsc(1, "zone", model.DoNotSchedule, fooSel)
	nodeFoo := tsc(1, "node", model.DoNotSchedule, fooSel)
	withMinDomains := func(c model.SpreadConstraint, m int) model.SpreadConstraint { c.MinDomains = m; return c }
	ignoreAffinity := func(c model.SpreadConstraint) model.SpreadConstraint { c.HonorNodeAffinity = false; return c }
	honorTaints := func(c model.SpreadConstraint) model.SpreadConstraint { c.HonorNodeTaints = true; return c }
	fooNodes := []kNode{
		{name: "node-a", labels: lbl("node", "node-a", "foo", "")},
		{name: "node-b", labels: lbl("node", "node-b", "foo", "")},
		{name: "node-x", labels: lbl("node", "node-x", "foo", "")},
		{name: "node-y", labels: lbl("node", "node-y")},
	}
	taintedNodes := []kNode{
		{name: "node-a", labels: lbl("node", "node-a", "foo", "")},
		{name: "node-b", labels: lbl("node", "node-b", "foo", "")},
		{name: "node-x", labels: lbl("node", "node-x", "foo", "")},
		{name: "node-y", labels: lbl("node", "node-y"), tainted: true},
	}
	abyPods := []kPod{foo("node-a"), foo("node-b"), foo("node-y")}
	tests := []struct {
		name     string
		pod      kIncoming
		nodes    []kNode
		existing []kPod
		want     map[string]Code
	}{
		// TestSingleConstraint
		{
			name:  "no existing pods",
			pod:   kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{zoneFoo}},
			nodes: zoneNodes(),
			want:  map[string]Code{"node-a": ok, "node-b": ok, "node-x": ok, "node-y": ok},
		},
		{
			name:  "no existing pods, incoming pod doesn't match itself",
			pod:   kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{tsc(1, "zone", model.DoNotSchedule, barSel)}},
			nodes: zoneNodes(),
			want:  map[string]Code{"node-a": ok, "node-b": ok, "node-x": ok, "node-y": ok},
		},
		{
			name:     "existing pods do not match null selector",
			pod:      kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{tsc(1, "zone", model.DoNotSchedule, nil)}},
			nodes:    zoneNodes(),
			existing: []kPod{foo("node-x"), foo("node-y")},
			want:     map[string]Code{"node-a": ok, "node-b": ok, "node-x": ok, "node-y": ok},
		},
		{
			name:     "pods spread across zones as 3/3, all nodes fit",
			pod:      kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{zoneFoo}},
			nodes:    zoneNodes(),
			existing: spread2103(),
			want:     map[string]Code{"node-a": ok, "node-b": ok, "node-x": ok, "node-y": ok},
		},
		{
			name: "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
			pod:  kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{zoneFoo}},
			nodes: []kNode{
				{name: "node-a", labels: lbl("zone", "zone1", "node", "node-a")},
				{name: "node-b", labels: lbl("zon", "zone1", "node", "node-b")},
				{name: "node-x", labels: lbl("zone", "zone2", "node", "node-x")},
				{name: "node-y", labels: lbl("zone", "zone2", "node", "node-y")},
			},
			existing: []kPod{foo("node-a"), foo("node-b"), foo("node-x"), foo("node-y")},
			want:     map[string]Code{"node-a": ok, "node-b": kou, "node-x": ko, "node-y": ko},
		},
		{
			name: "pod cannot be scheduled as all nodes don't have label 'rack'",
			pod:  kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{tsc(1, "rack", model.DoNotSchedule, fooSel)}},
			nodes: []kNode{
				{name: "node-a", labels: lbl("zone", "zone1", "node", "node-a")},
				{name: "node-x", labels: lbl("zone", "zone2", "node", "node-x")},
			},
			want: map[string]Code{"node-a": kou, "node-x": kou},
		},
		{
			name:     "pods spread across nodes as 2/1/0/3, only node-x fits",
			pod:      kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{nodeFoo}},
			nodes:    zoneNodes(),
			existing: spread2103(),
			want:     map[string]Code{"node-a": ko, "node-b": ko, "node-x": ok, "node-y": ko},
		},
		{
			name:     "pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
			pod:      kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{tsc(2, "node", model.DoNotSchedule, fooSel)}},
			nodes:    zoneNodes(),
			existing: spread2103(),
			want:     map[string]Code{"node-a": ko, "node-b": ok, "node-x": ok, "node-y": ko},
		},
		{
			name:     "pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
			pod:      kIncoming{labels: lbl("bar", ""), spread: []model.SpreadConstraint{nodeFoo}},
			nodes:    zoneNodes(),
			existing: spread2103(),
			want:     map[string]Code{"node-a": ko, "node-b": ok, "node-x": ok, "node-y": ko},
		},
		{
			name: "incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
			pod: kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{nodeFoo},
				required: []model.Selector{{MatchExpressions: []model.Requirement{{Key: "node", Operator: model.OpIn, Values: []string{"node-a", "node-y"}}}}}},
			nodes:    zoneNodes(),
			existing: spread2103(),
			want:     map[string]Code{"node-a": ok, "node-b": ok, "node-x": ok, "node-y": ko},
		},
		{
			name: "terminating Pods should be excluded",
			pod:  kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{nodeFoo}},
			nodes: []kNode{
				{name: "node-a", labels: lbl("node", "node-a")},
				{name: "node-b", labels: lbl("node", "node-b")},
			},
			existing: []kPod{{node: "node-a", labels: lbl("foo", ""), terminating: true}, foo("node-b")},
			want:     map[string]Code{"node-a": ok, "node-b": ko},
		},
		{
			name: "incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits",
			pod: kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{zoneFoo},
				required: []model.Selector{{MatchExpressions: []model.Requirement{{Key: "node", Operator: model.OpNotIn, Values: []string{"node-b"}}}}}},
			nodes:    zoneNodes(),
			existing: []kPod{foo("node-b"), foo("node-b"), foo("node-y")},
			want:     map[string]Code{"node-a": ok, "node-b": ok, "node-x": ko, "node-y": ko},
		},
		{
			name: "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third node fits",
			pod:  kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{withMinDomains(tsc(2, "node", model.DoNotSchedule, fooSel), 4)}},
			nodes: []kNode{
				{name: "node-a", labels: lbl("node", "node-a")},
				{name: "node-b", labels: lbl("node", "node-b")},
				{name: "node-c", labels: lbl("node", "node-c")},
			},
			existing: []kPod{foo("node-a"), foo("node-a"), foo("node-b"), foo("node-b"), foo("node-c")},
			want:     map[string]Code{"node-a": ko, "node-b": ko, "node-c": ok},
		},
		{
			name: "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the all nodes fit",
			pod:  kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{withMinDomains(tsc(2, "node", model.DoNotSchedule, fooSel), 2)}},
			nodes: []kNode{
				{name: "node-a", labels: lbl("node", "node-a")},
				{name: "node-b", labels: lbl("node", "node-b")},
				{name: "node-c", labels: lbl("node", "node-c")},
			},
			existing: []kPod{foo("node-a"), foo("node-a"), foo("node-b"), foo("node-b"), foo("node-c")},
			want:     map[string]Code{"node-a": ok, "node-b": ok, "node-c": ok},
		},
		{
			name:     "pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third and fourth nodes fit",
			pod:      kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{withMinDomains(tsc(2, "zone", model.DoNotSchedule, fooSel), 3)}},
			nodes:    zoneNodes(),
			existing: []kPod{foo("node-a"), foo("node-b"), foo("node-y")},
			want:     map[string]Code{"node-a": ko, "node-b": ko, "node-x": ok, "node-y": ok},
		},
		{
			name:     "NodeAffinityPolicy honored with labelSelectors",
			pod:      kIncoming{labels: lbl("foo", ""), nodeSelector: lbl("foo", ""), spread: []model.SpreadConstraint{nodeFoo}},
			nodes:    fooNodes,
			existing: abyPods,
			want:     map[string]Code{"node-a": ko, "node-b": ko, "node-x": ok, "node-y": ok},
		},
		{
			name:     "NodeAffinityPolicy ignored with labelSelectors",
			pod:      kIncoming{labels: lbl("foo", ""), nodeSelector: lbl("foo", ""), spread: []model.SpreadConstraint{ignoreAffinity(nodeFoo)}},
			nodes:    fooNodes,
			existing: abyPods,
			want:     map[string]Code{"node-a": ko, "node-b": ko, "node-x": ok, "node-y": ko},
		},
		{
			name:     "NodeTaintsPolicy honored",
			pod:      kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{honorTaints(nodeFoo)}},
			nodes:    taintedNodes,
			existing: abyPods,
			want:     map[string]Code{"node-a": ko, "node-b": ko, "node-x": ok, "node-y": ok},
		},
		{
			name:     "NodeTaintsPolicy ignored",
			pod:      kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{nodeFoo}},
			nodes:    taintedNodes,
			existing: abyPods,
			want:     map[string]Code{"node-a": ko, "node-b": ko, "node-x": ok, "node-y": ko},
		},
		// TestMultipleConstraints
		{
			name:     "two Constraints on zone and node, spreads = [3/3, 2/1/0/3]",
			pod:      kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{zoneFoo, nodeFoo}},
			nodes:    zoneNodes(),
			existing: spread2103(),
			want:     map[string]Code{"node-a": ko, "node-b": ko, "node-x": ok, "node-y": ko},
		},
		{
			name:     "two Constraints on zone and node, spreads = [3/4, 2/1/0/4]",
			pod:      kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{zoneFoo, nodeFoo}},
			nodes:    zoneNodes(),
			existing: append(spread2103(), foo("node-y")),
			want:     map[string]Code{"node-a": ko, "node-b": ko, "node-x": ko, "node-y": ko},
		},
		{
			name: "Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]",
			pod: kIncoming{labels: lbl("foo", "", "bar", ""), spread: []model.SpreadConstraint{zoneFoo,
				tsc(1, "node", model.DoNotSchedule, barSel)}},
			nodes: zoneNodes(),
			existing: []kPod{foo("node-a"), {node: "node-a", labels: lbl("foo", "", "bar", "")}, foo("node-y"),
				{node: "node-y", labels: lbl("foo", "", "bar", "")}, foo("node-y")},
			want: map[string]Code{"node-a": ko, "node-b": ok, "node-x": ko, "node-y": ko},
		},
		{
			name: "Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint",
			pod: kIncoming{labels: lbl("bar", ""), spread: []model.SpreadConstraint{zoneFoo,
				tsc(1, "node", model.DoNotSchedule, barSel)}},
			nodes:    zoneNodes(),
			existing: []kPod{foo("node-a"), {node: "node-x", labels: lbl("bar", "")}, {node: "node-y", labels: lbl("bar", "")}},
			want:     map[string]Code{"node-a": ok, "node-b": ok, "node-x": ko, "node-y": ko},
		},
		{
			name: "two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]",
			pod:  kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{zoneFoo, nodeFoo}},
			nodes: []kNode{
				{name: "node-a", labels: lbl("zone", "zone1", "node", "node-a")},
				{name: "node-b", labels: lbl("zone", "zone1", "node", "node-b")},
				{name: "node-x", labels: lbl("zone", "zone2")},
				{name: "node-y", labels: lbl("zone", "zone2", "node", "node-y")},
			},
			existing: []kPod{foo("node-a"), foo("node-y")},
			want:     map[string]Code{"node-a": ko, "node-b": ok, "node-x": kou, "node-y": ko},
		},
		{
			name: "two node inclusion Constraints, zone: honor/honor, node: honor/ignore",
			pod:  kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{honorTaints(zoneFoo), nodeFoo}},
			nodes: []kNode{
				{name: "node-a", labels: lbl("zone", "zone1", "node", "node-a", "foo", "")},
				{name: "node-b", labels: lbl("zone", "zone1", "node", "node-b", "foo", "")},
				{name: "node-x", labels: lbl("zone", "zone2", "node", "node-x", "foo", "")},
				{name: "node-y", labels: lbl("zone", "zone2", "node", "node-y"), tainted: true},
			},
			existing: abyPods,
			want:     map[string]Code{"node-a": ko, "node-b": ko, "node-x": ok, "node-y": ko},
		},
		{
			name: "two Constraints on zone, spreads = [3/3, 2/1]",
			pod: kIncoming{labels: lbl("foo", "", "bar", ""), spread: []model.SpreadConstraint{
				tsc(1, "zone", model.DoNotSchedule, barSel), zoneFoo}},
			nodes: zoneNodes(),
			existing: []kPod{{node: "node-a", labels: lbl("foo", "", "bar", "")}, foo("node-a"),
				{node: "node-b", labels: lbl("foo", "", "bar", "")}, foo("node-y"),
				{node: "node-y", labels: lbl("foo", "", "bar", "")}, foo("node-y")},
			want: map[string]Code{"node-a": ko, "node-b": ko, "node-x": ok, "node-y": ok},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, s, pod := buildK8s(t, tt.nodes, tt.existing, tt.pod)
			var c cycle
			c.reset(u, s, pod)
			for n := range u.Nodes {
				name := u.Nodes[n].Name
				got := podTopologySpreadFilter{}.Filter(&c, n)
				if got.Code != tt.want[name] {
					t.Errorf("%s: got %v (%s), want %v", name, got.Code, got.Reason, tt.want[name])
				}
			}
		})
	}
}

// TestEmptySelectorCountsNoPod: a labelSelector of {} matches everything,
// but countPodsMatchSelector counts no existing pod, while the incoming pod
// still matches itself: skew 0 + 1 − 0 never exceeds
// maxSkew 1.
func TestEmptySelectorCountsNoPod(t *testing.T) {
	u, s, pod := buildK8s(t, zoneNodes(), spread2103(),
		kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{tsc(1, "node", model.DoNotSchedule, &model.Selector{})}})
	var c cycle
	c.reset(u, s, pod)
	if !c.hard[0].self {
		t.Errorf("self-match = false, want true for an empty selector")
	}
	for n := range u.Nodes {
		if got := (podTopologySpreadFilter{}).Filter(&c, n); got.Code != Success {
			t.Errorf("%s: got %v, want Success", u.Nodes[n].Name, got.Code)
		}
	}
}

// TestSpreadCountsNotReadyNodes is upstream Kubernetes' worked example: zone
// c has only a NotReady node with no pods; its domain still exists under
// NodeTaintsPolicy=Ignore and holds the global minimum at 0, so only c
// would pass the spread filter — and NodeReady rejects it: no feasible node.
// With NodeTaintsPolicy=Honor the NotReady node's implied not-ready taint
// drops zone c, the minimum becomes 1 and zone b fits.
func TestSpreadCountsNotReadyNodes(t *testing.T) {
	spreadOverUnusableZone(t, func(s *model.State) { s.Nodes[2].Status = model.NotReady })
}

// spreadOverUnusableZone runs the worked example of zone spreading over
// nodes a, b, c (two pods in a, one in b) after unusable makes zone c's
// only node unusable for the incoming pod: under NodeTaintsPolicy=Ignore
// no node is feasible, under Honor zone b is.
func spreadOverUnusableZone(t *testing.T, unusable func(*model.State)) {
	t.Helper()
	nodes := []kNode{
		{name: "a", labels: lbl("zone", "a")},
		{name: "b", labels: lbl("zone", "b")},
		{name: "c", labels: lbl("zone", "c")},
	}
	existing := []kPod{foo("a"), foo("a"), foo("b")}
	for _, tt := range []struct {
		name   string
		honor  bool
		wantOn string
	}{{"NodeTaintsPolicy=Ignore", false, ""}, {"NodeTaintsPolicy=Honor", true, "b"}} {
		t.Run(tt.name, func(t *testing.T) {
			sc := tsc(1, "zone", model.DoNotSchedule, exists("foo"))
			sc.HonorNodeTaints = tt.honor
			u, s, pod := buildK8s(t, nodes, existing, kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{sc}})
			unusable(s)
			pr := defaultProfile()
			var c cycle
			c.reset(u, s, pod)
			c.filter(&pr)
			got := ""
			for _, n := range c.feasible {
				got += u.Nodes[n].Name
			}
			if got != tt.wantOn {
				t.Errorf("feasible nodes %q, want %q\n%s", got, tt.wantOn, Explain(u, s, pod))
			}
		})
	}
}
