package scheduler

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestNodeUnschedulable transcribes TestNodeUnschedulable
// (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable_test.go)
// on the filter that stands for NodeUnschedulable in the model
// (NodeReady): a node cordoned while the model runs
// (model.NodeState.Cordoned) is spec.unschedulable. A node cordoned in the
// input carries the unschedulable taint, which TaintToleration judges
// alike (docs/divergences.md, "Profile configuration").
func TestNodeUnschedulable(t *testing.T) {
	for _, tc := range []struct {
		name     string
		pod      *build.TemplateBuilder
		cordoned bool
		want     Status
	}{
		{"Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)", build.Template("pod"), true,
			reject(UnschedulableAndUnresolvable, k8sReasonUnschedulable)},
		{"Schedule pod to normal node", build.Template("pod"), false, Status{}},
		{"Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)",
			build.Template("pod").TolerationWith(model.Toleration{Key: model.TaintNodeUnschedulable, Effect: model.NoSchedule}), true, Status{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s, p := buildPlain(t, []*build.NodeBuilder{build.Node().Name("node")}, tc.pod)
			s.Nodes[0].Cordoned = tc.cordoned
			if got := filterEach(u, s, p, nodeReady{})[0]; got != tc.want {
				t.Errorf("status %s, want %s", fmtStatus(got), fmtStatus(tc.want))
			}
		})
	}
}

// TestNodeName transcribes TestNodeName (k8s.io/kubernetes@v1.36.3,
// pkg/scheduler/framework/plugins/nodename/node_name_test.go): the
// model's nodeName names a node of the universe, so "host doesn't match"
// has both nodes, the pod naming bar and judged on foo.
func TestNodeName(t *testing.T) {
	nodes := []*build.NodeBuilder{build.Node().Name("foo"), build.Node().Name("bar")}
	for _, tc := range []struct {
		name string
		pod  *build.TemplateBuilder
		want Status
	}{
		{"no host specified", build.Template("pod"), Status{}},
		{"host matches", build.Template("pod").NodeName(0), Status{}},
		{"host doesn't match", build.Template("pod").NodeName(1), reject(UnschedulableAndUnresolvable, k8sReasonNodeName)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s, p := buildPlain(t, nodes, tc.pod)
			if got := filterEach(u, s, p, nodeName{})[0]; got != tc.want {
				t.Errorf("status %s, want %s", fmtStatus(got), fmtStatus(tc.want))
			}
		})
	}
}
