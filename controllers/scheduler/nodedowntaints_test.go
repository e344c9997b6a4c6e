package scheduler

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestNodeDownTaintsFollowCondition: a node that is not Ready carries
// the node lifecycle controller's taints of its Ready condition as the
// node controller decided it (not-ready for False, unreachable for
// Unknown), NoSchedule always, NoExecute unless the zone states hold it
// back; a node not handled yet is read as carrying both not-ready taints.
// The filter and PodTopologySpread's NodeTaintsPolicy Honor read the same
// taints.
func TestNodeDownTaintsFollowCondition(t *testing.T) {
	notReady, unreachable := model.TaintNodeNotReady, model.TaintNodeUnreachable
	statuses := []struct {
		name string
		st   model.NodeStatus
	}{
		{"not handled", model.NotReady},
		{"tainted not-ready", model.NotReady.WithNodeDownTaint(0)},
		{"tainted unreachable", model.Unhealthy.WithNodeDownTaint(1)},
		{"held not-ready", model.NotReady.WithHeldNodeDownTaint(0)},
		{"held unreachable", model.NotReady.WithHeldNodeDownTaint(1)},
	}
	// noExecuteOnly is a toleration of key's NoExecute taint that does not
	// match it (a value the taint does not have): it keeps the
	// DefaultTolerationSeconds plugin from adding one.
	noExecuteOnly := func(key string) model.Toleration {
		return model.Toleration{Key: key, Operator: "Equal", Value: "x", Effect: model.NoExecute}
	}
	tests := []struct {
		name string
		tb   func() *build.TemplateBuilder
		// want[i]: the pod may go to a node of statuses[i].
		want [5]bool
	}{
		{"no toleration", func() *build.TemplateBuilder { return build.Template("a") }, [5]bool{}},
		{"not-ready NoSchedule", func() *build.TemplateBuilder {
			return build.Template("a").Toleration(notReady, "", model.NoSchedule)
		}, [5]bool{true, true, false, true, false}},
		{"unreachable NoSchedule", func() *build.TemplateBuilder {
			return build.Template("a").Toleration(unreachable, "", model.NoSchedule)
		}, [5]bool{false, false, true, false, true}},
		{"unreachable NoSchedule, its NoExecute untolerated", func() *build.TemplateBuilder {
			return build.Template("a").Toleration(unreachable, "", model.NoSchedule).TolerationWith(noExecuteOnly(unreachable))
		}, [5]bool{false, false, false, false, true}},
		{"everything", func() *build.TemplateBuilder { return build.Template("a").TolerateAll() }, [5]bool{true, true, true, true, true}},
	}
	for _, tt := range tests {
		for i, st := range statuses {
			b := build.New()
			b.AddNodes(1, build.Node().Name("n1").CPU(8).Mem(8).Label("zone", "a"))
			b.AddNodes(1, build.Node().Name("n2").CPU(8).Mem(8).Label("zone", "b"))
			b.PendingPod(b.AddDeployment("app", b.AddTemplate(tt.tb().Requests(1, 1).Label("app", "x")), 1), -1)
			u, s := b.MustBuild()
			s.Nodes[1].Status = st.st
			want := []int{0}
			if tt.want[i] {
				want = []int{0, 1}
			}
			if f, _ := Decide(u, s, 0); !slices.Equal(f, want) {
				t.Errorf("%s on a node %s: feasible %v, want %v", tt.name, st.name, f, want)
			}
			// Honor: node 2 counts as a domain only where the pod
			// tolerates its taints; with one existing pod on node 1,
			// maxSkew 1 keeps the pod off node 1 only if zone b
			// counts.
			hb := build.New()
			hb.AddNodes(1, build.Node().Name("n1").CPU(8).Mem(8).Label("zone", "a"))
			hb.AddNodes(1, build.Node().Name("n2").CPU(8).Mem(8).Label("zone", "b"))
			tmpl := hb.AddTemplate(tt.tb().Requests(1, 1).Label("app", "x").SpreadWith(model.SpreadConstraint{MaxSkew: 1,
				TopologyKey: "zone", When: model.DoNotSchedule, HonorNodeAffinity: true, HonorNodeTaints: true}))
			d := hb.AddDeployment("app", tmpl, 2)
			hb.RunPod(d, 0)
			hb.PendingPod(d, -1)
			u, s = hb.MustBuild()
			s.Nodes[1].Status = st.st
			want = []int{0}
			if tt.want[i] {
				want = []int{1}
			}
			if f, _ := Decide(u, s, 1); !slices.Equal(f, want) {
				t.Errorf("%s, spread with NodeTaintsPolicy Honor, on a node %s: feasible %v, want %v", tt.name, st.name, f, want)
			}
		}
	}
}
