package descheduler

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestToleratesTaintUpstream restates the rows of
// sigs.k8s.io/descheduler@v0.36.0,
// pkg/framework/plugins/removepodsviolatingnodetaints/node_taint_test.go,
// TestToleratesTaint, through the plugin: a pod with the row's toleration
// on a node with the row's taint (NoSchedule unless the row says
// otherwise) is evicted exactly when the toleration does not tolerate the
// taint. TestDeletePodsViolatingNodeTaints' rows are in
// deschedule_test.go (TestRemovePodsViolatingNodeTaintsUpstream) and, for
// the limits of 0, evictions_test.go.
func TestToleratesTaintUpstream(t *testing.T) {
	cases := []struct {
		name       string
		toleration model.Toleration
		taint      model.Taint
		tolerated  bool
	}{
		{"toleration and taint have the same key and effect, and operator is Exists, and taint has no value, expect tolerated",
			model.Toleration{Key: "foo", Operator: "Exists", Effect: model.NoSchedule}, model.Taint{Key: "foo", Effect: model.NoSchedule}, true},
		{"toleration and taint have the same key and effect, and operator is Exists, and taint has some value, expect tolerated",
			model.Toleration{Key: "foo", Operator: "Exists", Effect: model.NoSchedule}, model.Taint{Key: "foo", Value: "bar", Effect: model.NoSchedule}, true},
		{"toleration and taint have the same effect, toleration has empty key and operator is Exists, means match all taints, expect tolerated",
			model.Toleration{Key: "", Operator: "Exists", Effect: model.NoSchedule}, model.Taint{Key: "foo", Value: "bar", Effect: model.NoSchedule}, true},
		{"toleration and taint have the same key, effect and value, and operator is Equal, expect tolerated",
			model.Toleration{Key: "foo", Operator: "Equal", Value: "bar", Effect: model.NoSchedule}, model.Taint{Key: "foo", Value: "bar", Effect: model.NoSchedule}, true},
		{"toleration and taint have the same key and effect, but different values, and operator is Equal, expect not tolerated",
			model.Toleration{Key: "foo", Operator: "Equal", Value: "value1", Effect: model.NoSchedule}, model.Taint{Key: "foo", Value: "value2", Effect: model.NoSchedule}, false},
		// The taint is PreferNoSchedule here, and the plugin judges it
		// with includePreferNoSchedule (upstream's row compares the
		// toleration and the taint alone).
		{"toleration and taint have the same key and value, but different effects, and operator is Equal, expect not tolerated",
			model.Toleration{Key: "foo", Operator: "Equal", Value: "bar", Effect: model.NoSchedule}, model.Taint{Key: "foo", Value: "bar", Effect: model.PreferNoSchedule}, false},
	}
	var rows []dsCase
	for _, c := range cases {
		want := 1
		if c.tolerated {
			want = 0
		}
		tol := c.toleration
		rows = append(rows, dsCase{name: c.name,
			nodes:   []*build.NodeBuilder{upstreamNode("n1").Taint(c.taint.Key, c.taint.Value, c.taint.Effect)},
			pods:    []dsPod{{tmpl: func(tb *build.TemplateBuilder) *build.TemplateBuilder { return tb.TolerationWith(tol) }}},
			profile: taintsProfile(false, model.NodeTaintsArgs{IncludePreferNoSchedule: true}), want: want})
	}
	runDsCases(t, rows)
}
