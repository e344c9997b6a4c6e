package scheduler

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// buildPlain returns the universe of nodes (named as given) with no pod
// but the incoming one, of template in.
func buildPlain(t *testing.T, nodes []*build.NodeBuilder, in *build.TemplateBuilder) (*model.Universe, *model.State, int) {
	t.Helper()
	b := build.New()
	for _, nb := range nodes {
		b.AddNodes(1, nb)
	}
	b.PendingPod(b.AddDeployment("incoming", b.AddTemplate(in), 0), -1)
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	return u, s, 0
}

// filterEach runs filter f alone on every node.
func filterEach(u *model.Universe, s *model.State, pod int, f filterPlugin) []Status {
	var c cycle
	c.reset(u, s, pod)
	out := make([]Status, len(u.Nodes))
	for n := range u.Nodes {
		out[n] = f.Filter(&c, n)
	}
	return out
}

// tainted is upstream's nodeWithTaints.
func tainted(name string, taints ...model.Taint) *build.NodeBuilder {
	nb := build.Node().Name(name)
	for _, tt := range taints {
		nb.Taint(tt.Key, tt.Value, tt.Effect)
	}
	return nb
}

// tolerating is upstream's podWithTolerations.
func tolerating(ts ...model.Toleration) *build.TemplateBuilder {
	tb := build.Template("pod1")
	for _, tt := range ts {
		tb.TolerationWith(tt)
	}
	return tb
}

// TestTaintTolerationScore transcribes TestTaintTolerationScore
// (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go):
// the normalised scores. Left out: the rows on the Gt and Lt operators
// ("Numeric Gt operator: ...", "Numeric Lt operator: ..."), which need the
// alpha TaintTolerationComparisonOperators gate, off by default; the
// manifest reader refuses those operators as the API server does with the
// gate off.
func TestTaintTolerationScore(t *testing.T) {
	pns := model.PreferNoSchedule
	for _, tc := range []struct {
		name  string
		pod   *build.TemplateBuilder
		nodes []*build.NodeBuilder
		want  []int64
	}{
		{"node with taints tolerated by the pod, gets a higher score than those node with intolerable taints",
			tolerating(model.Toleration{Key: "foo", Operator: "Equal", Value: "bar", Effect: pns}),
			[]*build.NodeBuilder{tainted("nodeA", model.Taint{Key: "foo", Value: "bar", Effect: pns}), tainted("nodeB", model.Taint{Key: "foo", Value: "blah", Effect: pns})},
			[]int64{100, 0}},
		{"the nodes that all of their taints are tolerated by the pod, get the same score, no matter how many tolerable taints a node has",
			tolerating(model.Toleration{Key: "cpu-type", Operator: "Equal", Value: "arm64", Effect: pns}, model.Toleration{Key: "disk-type", Operator: "Equal", Value: "ssd", Effect: pns}),
			[]*build.NodeBuilder{tainted("nodeA"), tainted("nodeB", model.Taint{Key: "cpu-type", Value: "arm64", Effect: pns}),
				tainted("nodeC", model.Taint{Key: "cpu-type", Value: "arm64", Effect: pns}, model.Taint{Key: "disk-type", Value: "ssd", Effect: pns})},
			[]int64{100, 100, 100}},
		{"the more intolerable taints a node has, the lower score it gets.",
			tolerating(model.Toleration{Key: "foo", Operator: "Equal", Value: "bar", Effect: pns}),
			[]*build.NodeBuilder{tainted("nodeA"), tainted("nodeB", model.Taint{Key: "cpu-type", Value: "arm64", Effect: pns}),
				tainted("nodeC", model.Taint{Key: "cpu-type", Value: "arm64", Effect: pns}, model.Taint{Key: "disk-type", Value: "ssd", Effect: pns})},
			[]int64{100, 50, 0}},
		{"only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations priority function",
			tolerating(model.Toleration{Key: "cpu-type", Operator: "Equal", Value: "arm64", Effect: model.NoSchedule}, model.Toleration{Key: "disk-type", Operator: "Equal", Value: "ssd", Effect: model.NoSchedule}),
			[]*build.NodeBuilder{tainted("nodeA"), tainted("nodeB", model.Taint{Key: "cpu-type", Value: "arm64", Effect: model.NoSchedule}),
				tainted("nodeC", model.Taint{Key: "cpu-type", Value: "arm64", Effect: pns}, model.Taint{Key: "disk-type", Value: "ssd", Effect: pns})},
			[]int64{100, 100, 0}},
		{"Default behaviour No taints and tolerations, lands on node with no taints",
			tolerating(),
			[]*build.NodeBuilder{tainted("nodeA"), tainted("nodeB", model.Taint{Key: "cpu-type", Value: "arm64", Effect: pns})},
			[]int64{100, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s, p := buildPlain(t, tc.nodes, tc.pod)
			_, norm, skipped := rawScores(u, s, p, taintTolerationScore{})
			if skipped || !slices.Equal(norm, tc.want) {
				t.Errorf("scores %v (skipped %v), want %v", norm, skipped, tc.want)
			}
		})
	}
}

// TestTaintTolerationFilter transcribes TestTaintTolerationFilter and
// TestTaintTolerationFilterWithFeatureGate (taint_toleration_test.go).
// Left out: every row with a Gt or Lt toleration (the alpha
// TaintTolerationComparisonOperators gate, off by default: with it on
// the operators are not modelled, with it off the API server and the
// manifest reader refuse them, so the gate-off rows have no pod).
func TestTaintTolerationFilter(t *testing.T) {
	ns := model.NoSchedule
	untolerated := reject(UnschedulableAndUnresolvable, k8sReasonUntolerated)
	for _, tc := range []struct {
		name string
		pod  *build.TemplateBuilder
		node *build.NodeBuilder
		want Status
	}{
		{"A pod having no tolerations can't be scheduled onto a node with nonempty taints",
			tolerating(), tainted("nodeA", model.Taint{Key: "dedicated", Value: "user1", Effect: ns}), untolerated},
		{"A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
			tolerating(model.Toleration{Key: "dedicated", Value: "user1", Effect: ns}), tainted("nodeA", model.Taint{Key: "dedicated", Value: "user1", Effect: ns}), Status{}},
		{"A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
			tolerating(model.Toleration{Key: "dedicated", Operator: "Equal", Value: "user2", Effect: ns}), tainted("nodeA", model.Taint{Key: "dedicated", Value: "user1", Effect: ns}), untolerated},
		{"A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node",
			tolerating(model.Toleration{Key: "foo", Operator: "Exists", Effect: ns}), tainted("nodeA", model.Taint{Key: "foo", Value: "bar", Effect: ns}), Status{}},
		{"A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled onto the node",
			tolerating(model.Toleration{Key: "dedicated", Operator: "Equal", Value: "user2", Effect: ns}, model.Toleration{Key: "foo", Operator: "Exists", Effect: ns}),
			tainted("nodeA", model.Taint{Key: "dedicated", Value: "user2", Effect: ns}, model.Taint{Key: "foo", Value: "bar", Effect: ns}), Status{}},
		{"A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match, can't be scheduled onto the node",
			tolerating(model.Toleration{Key: "foo", Operator: "Equal", Value: "bar", Effect: model.PreferNoSchedule}), tainted("nodeA", model.Taint{Key: "foo", Value: "bar", Effect: ns}), untolerated},
		{"The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node",
			tolerating(model.Toleration{Key: "foo", Operator: "Equal", Value: "bar"}), tainted("nodeA", model.Taint{Key: "foo", Value: "bar", Effect: ns}), Status{}},
		{"The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
			tolerating(model.Toleration{Key: "dedicated", Operator: "Equal", Value: "user2", Effect: ns}), tainted("nodeA", model.Taint{Key: "dedicated", Value: "user1", Effect: model.PreferNoSchedule}), Status{}},
		{"The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
			tolerating(), tainted("nodeA", model.Taint{Key: "dedicated", Value: "user1", Effect: model.PreferNoSchedule}), Status{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s, p := buildPlain(t, []*build.NodeBuilder{tc.node}, tc.pod)
			if got := filterEach(u, s, p, taintTolerationFilter{})[0]; got != tc.want {
				t.Errorf("status %v, want %v", fmtStatus(got), fmtStatus(tc.want))
			}
		})
	}
}

func fmtStatus(s Status) string { return fmt.Sprintf("%v %q", s.Code, s.Reason) }

// TestDoNotScheduleTaintsFilterFunc transcribes
// TestDoNotScheduleTaintsFilterFunc (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/helper/taint_test.go): which effects the
// TaintToleration filter considers, judged by the filter on a node with
// one untolerated taint of that effect (upstream's taint has no key; the
// model's carries one).
func TestDoNotScheduleTaintsFilterFunc(t *testing.T) {
	for _, tc := range []struct {
		name     string
		effect   model.TaintEffect
		included bool
	}{
		{"should include the taints with NoSchedule effect", model.NoSchedule, true},
		{"should include the taints with NoExecute effect", model.NoExecute, true},
		{"should not include the taints with PreferNoSchedule effect", model.PreferNoSchedule, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s, p := buildPlain(t, []*build.NodeBuilder{tainted("node", model.Taint{Key: "k", Effect: tc.effect})}, tolerating())
			got := filterEach(u, s, p, taintTolerationFilter{})[0]
			if rejected := got.Code != Success; rejected != tc.included {
				t.Errorf("status %s, want the taint included: %v", fmtStatus(got), tc.included)
			}
		})
	}
}
