package scheduler

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestPodTopologySpreadScore transcribes cases of TestPodTopologySpreadScore
// (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/podtopologyspread/scoring_test.go), named
// as upstream. Upstream's failedNodes are in the snapshot but not feasible;
// like upstream only this plugin runs, so the candidate list is given.
// Cases with nodes lacking kubernetes.io/hostname are left out: the model
// gives every node that label.
func TestPodTopologySpreadScore(t *testing.T) {
	fooSel := exists("foo")
	host := func(name string) kNode { return kNode{name: name} } // hostname label is automatic
	fooOn := func(n string, k int) []kPod {
		var ps []kPod
		for range k {
			ps = append(ps, foo(n))
		}
		return ps
	}
	cat := func(pss ...[]kPod) []kPod {
		var all []kPod
		for _, ps := range pss {
			all = append(all, ps...)
		}
		return all
	}
	ownPods := func(n string, k int) []kPod {
		ps := fooOn(n, k)
		for i := range ps {
			ps[i].sameOwner = true
		}
		return ps
	}
	tests := []struct {
		name     string
		pod      kIncoming
		nodes    []kNode // candidates (feasible)
		failed   []kNode // in the snapshot, not feasible
		existing []kPod
		want     []int64 // normalised scores of nodes, in order
	}{
		{
			name:     "one constraint on node, all 4 nodes are candidates",
			pod:      kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{tsc(1, model.HostnameKey, model.ScheduleAnyway, fooSel)}},
			nodes:    []kNode{host("node-a"), host("node-b"), host("node-c"), host("node-d")},
			existing: cat(fooOn("node-a", 2), fooOn("node-b", 1), fooOn("node-d", 3)),
			want:     []int64{20, 60, 100, 0},
		},
		{
			// The Service selecting the pods stands for the owner's
			// ReplicaSet selector: the existing pods are the incoming pod's
			// siblings.
			name:     "system defaulting, nodes don't have zone, pods match service",
			pod:      kIncoming{labels: lbl("foo", "")},
			nodes:    []kNode{host("node-a"), host("node-b"), host("node-c"), host("node-d")},
			existing: cat(ownPods("node-a", 4), ownPods("node-b", 3), ownPods("node-c", 2), ownPods("node-d", 1)),
			want:     []int64{44, 66, 77, 100},
		},
		{
			name:     "one constraint on node, 3 out of 4 nodes are candidates",
			pod:      kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{tsc(1, model.HostnameKey, model.ScheduleAnyway, fooSel)}},
			nodes:    []kNode{host("node-a"), host("node-b"), host("node-x")},
			failed:   []kNode{host("node-y")},
			existing: cat(fooOn("node-a", 4), fooOn("node-b", 2), fooOn("node-x", 1), fooOn("node-y", 3)),
			want:     []int64{33, 83, 100},
		},
		{
			name: "one constraint on zone, 3 out of 4 nodes are candidates",
			pod:  kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{tsc(1, "zone", model.ScheduleAnyway, fooSel)}},
			nodes: []kNode{{name: "node-a", labels: lbl("zone", "zone1")}, {name: "node-b", labels: lbl("zone", "zone1")},
				{name: "node-x", labels: lbl("zone", "zone2")}},
			failed:   []kNode{{name: "node-y", labels: lbl("zone", "zone2")}},
			existing: cat(fooOn("node-a", 4), fooOn("node-b", 2), fooOn("node-x", 1), fooOn("node-y", 3)),
			want:     []int64{75, 75, 100},
		},
		{
			name: "two Constraints on zone and node, 2 out of 4 nodes are candidates",
			pod: kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{
				tsc(1, "zone", model.ScheduleAnyway, fooSel), tsc(1, model.HostnameKey, model.ScheduleAnyway, fooSel)}},
			nodes:    []kNode{{name: "node-a", labels: lbl("zone", "zone1")}, {name: "node-x", labels: lbl("zone", "zone2")}},
			failed:   []kNode{{name: "node-b", labels: lbl("zone", "zone1")}, {name: "node-y", labels: lbl("zone", "zone2")}},
			existing: cat(fooOn("node-a", 2), fooOn("node-b", 1), fooOn("node-x", 2), fooOn("node-y", 4)),
			want:     []int64{100, 63},
		},
		{
			name:     "terminating Pods should be excluded",
			pod:      kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{tsc(1, model.HostnameKey, model.ScheduleAnyway, fooSel)}},
			nodes:    []kNode{host("node-a"), host("node-b")},
			existing: []kPod{{node: "node-a", labels: lbl("foo", ""), terminating: true}, foo("node-b")},
			want:     []int64{100, 0},
		},
		{
			name: "minDomains has no effect when ScheduleAnyway",
			pod: kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{func() model.SpreadConstraint {
				c := tsc(2, "node", model.ScheduleAnyway, fooSel)
				c.MinDomains = 10
				return c
			}()}},
			nodes: []kNode{{name: "node-a", labels: lbl("node", "node-a")}, {name: "node-b", labels: lbl("node", "node-b")},
				{name: "node-c", labels: lbl("node", "node-c")}},
			existing: cat(fooOn("node-a", 2), fooOn("node-b", 2), fooOn("node-c", 1)),
			want:     []int64{75, 75, 100},
		},
		{
			name: "NodeTaintsPolicy honored",
			pod: kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{func() model.SpreadConstraint {
				c := tsc(1, "node", model.ScheduleAnyway, fooSel)
				c.HonorNodeTaints = true
				return c
			}()}},
			nodes: []kNode{{name: "node-a", labels: lbl("node", "node-a")}, {name: "node-b", labels: lbl("node", "node-b")},
				{name: "node-c", labels: lbl("node", "node-c"), tainted: true}},
			existing: cat(fooOn("node-a", 2), fooOn("node-b", 1), fooOn("node-c", 1)),
			want:     []int64{0, 33, 100},
		},
		{
			name: "NodeTaintsPolicy ignored",
			pod:  kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{tsc(1, "node", model.ScheduleAnyway, fooSel)}},
			nodes: []kNode{{name: "node-a", labels: lbl("node", "node-a")}, {name: "node-b", labels: lbl("node", "node-b")},
				{name: "node-c", labels: lbl("node", "node-c"), tainted: true}},
			existing: cat(fooOn("node-a", 2), fooOn("node-b", 1), fooOn("node-c", 1)),
			want:     []int64{66, 100, 100},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, s, pod := buildK8s(t, append(append([]kNode{}, tt.nodes...), tt.failed...), tt.existing, tt.pod)
			var c cycle
			c.reset(u, s, pod)
			for n := range tt.nodes {
				c.feasible = append(c.feasible, n)
			}
			pl := podTopologySpreadScore{}
			if !pl.PreScore(&c) {
				t.Fatal("PreScore skipped")
			}
			got := make([]int64, len(c.feasible))
			for j, n := range c.feasible {
				got[j] = pl.Score(&c, n)
			}
			pl.Normalize(&c, got)
			for j := range got {
				if got[j] != tt.want[j] {
					t.Errorf("scores %v, want %v", got, tt.want)
					break
				}
			}
		})
	}
}

// TestSpreadScoreSkipsWithoutSoftConstraints: a template with only hard
// constraints, or a bare pod without constraints (DefaultSelector is empty),
// gets no PodTopologySpread score (upstream's PreScore Skip).
func TestSpreadScoreSkipsWithoutSoftConstraints(t *testing.T) {
	u, s, pod := buildK8s(t, zoneNodes(), nil,
		kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{tsc(1, "zone", model.DoNotSchedule, exists("foo"))}})
	var c cycle
	c.reset(u, s, pod)
	c.feasible = []int{0, 1}
	if (podTopologySpreadScore{}).PreScore(&c) {
		t.Errorf("PreScore ran for a pod with only DoNotSchedule constraints")
	}
	s.Pods[pod].Owner = 0
	u.Templates[s.Pods[pod].Template].Spread = nil
	c.reset(u, s, pod)
	c.feasible = []int{0, 1}
	if (podTopologySpreadScore{}).PreScore(&c) {
		t.Errorf("PreScore ran for a bare pod without constraints")
	}
}

// TestSpreadScoreHonorsNotReady: under NodeTaintsPolicy Honor, the pods
// of a node that is not Ready (it carries the lifecycle controller's
// not-ready taint, which the pod does not tolerate) do not count for a
// soft zone constraint; under Ignore they do. Zone a holds node-a
// (Ready) and node-c (not Ready, two matching pods), zone b node-b (one
// matching pod): honouring the taint prefers zone a, ignoring it zone b.
// The fast path (with its decision memo, asked both questions in turn)
// answers as the reference does.
func TestSpreadScoreHonorsNotReady(t *testing.T) {
	pr := defaultProfile()
	var fast cycle
	want := map[bool][]int{true: {0}, false: {1}}
	for _, honor := range []bool{true, false, true, false} {
		sc := tsc(1, "zone", model.ScheduleAnyway, exists("foo"))
		sc.HonorNodeTaints = honor
		u, s, pod := buildK8s(t,
			[]kNode{{name: "node-a", labels: lbl("zone", "a")}, {name: "node-b", labels: lbl("zone", "b")}, {name: "node-c", labels: lbl("zone", "a")}},
			[]kPod{{node: "node-c", labels: lbl("foo", "")}, {node: "node-c", labels: lbl("foo", "")}, {node: "node-b", labels: lbl("foo", "")}},
			kIncoming{labels: lbl("foo", ""), spread: []model.SpreadConstraint{sc}})
		s.Nodes[2].Status = model.NotReady
		ref := referenceHosts(u, s, pod)
		if !slices.Equal(ref, want[honor]) {
			t.Fatalf("honor %v: the reference chooses %v, want %v", honor, ref, want[honor])
		}
		if got := fast.hosts(&pr, u, s, pod); !slices.Equal(got, ref) {
			t.Errorf("honor %v: hosts %v, want %v", honor, got, ref)
		}
	}
}
