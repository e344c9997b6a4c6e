package lifecyclediff

import (
	"context"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

func secs(s int64) *int64 { return &s }

// TestKnownClasses pins agreements on the taint eviction controller's
// and the node lifecycle controller's branches, with upstream's answers,
// and a minimal case of each class.
func TestKnownClasses(t *testing.T) {
	ctx := context.Background()
	up := newUpstream(t)
	ready := Node{Taints: []Taint{{Key: "a", Effect: "NoExecute"}}}
	for _, tc := range []struct {
		name string
		c    Case
		want string
		// pods is upstream's answer for the pods (nil: not checked).
		pods []PodAnswer
	}{
		{"a node's own NoExecute taint: untolerated, tolerated for 0 s, for 60 s (the least of two), forever", Case{
			Nodes: []Node{{Taints: []Taint{{Key: "a", Effect: "NoExecute"}, {Key: "b", Value: "x", Effect: "NoExecute"}, {Key: "c", Effect: "NoSchedule"}}}},
			Pods: []Pod{{Phase: Running},
				{Phase: Running, Tolerations: []Toleration{{Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)}}},
				{Phase: Running, Tolerations: []Toleration{{Key: "a", Operator: "Exists", Effect: "NoExecute", Seconds: secs(600)},
					{Key: "b", Operator: "Equal", Value: "x", Effect: "NoExecute", Seconds: secs(60)}}},
				{Phase: Running, Tolerations: []Toleration{{Operator: "Exists"}}},
				{Phase: Running, Tolerations: []Toleration{{Key: "a", Operator: "Exists"}, {Key: "b", Operator: "Equal", Value: "y"}}}}},
			Agree, []PodAnswer{{Eviction: AtOnce}, {Eviction: AtOnce}, {Eviction: Later, Seconds: 60}, {}, {Eviction: AtOnce}}},
		{"a node reporting NotReady: the default 300 s, own tolerations for ever, the not-ready taint tolerated for ever", Case{
			Nodes: []Node{{Ready: ConditionFalse}, {}},
			Pods: []Pod{{Phase: Running}, {Phase: Pending},
				{Phase: Running, Tolerations: []Toleration{{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute"}}},
				{Phase: Running, Tolerations: []Toleration{{Key: unreachableKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)}}}}},
			Agree, []PodAnswer{{Eviction: Later, Seconds: 300}, {Eviction: Later, Seconds: 300}, {}, {Eviction: Later, Seconds: 300}}},
		{"a pod tolerating not-ready for a while and unreachable for no time: the model explores not-ready", Case{
			Nodes: []Node{{Ready: ConditionFalse}, {}},
			Pods: []Pod{{Phase: Running, Tolerations: []Toleration{{Key: unreachableKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)},
				{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(60)}}}}},
			Agree, []PodAnswer{{Eviction: Later, Seconds: 60}}},
		{"not-ready unexplored: the model taints unreachable where no pod's fate depends on it", Case{
			Nodes: []Node{{Ready: ConditionFalse}, {}},
			Pods:  []Pod{{Phase: Running, Tolerations: []Toleration{{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(60)}}}}},
			DownTaintUnexplored, []PodAnswer{{Eviction: Later, Seconds: 60}}},
		{"an unreachable node: the unreachable taints, NoSchedule and NoExecute", Case{
			Nodes: []Node{{Ready: ConditionUnknown}, {}},
			Pods:  []Pod{{Phase: Running}}},
			Agree, []PodAnswer{{Eviction: Later, Seconds: 300}}},
		{"every zone fully disrupted: no taint, no eviction", Case{
			Nodes: []Node{{Ready: ConditionFalse}},
			Pods:  []Pod{{Phase: Running, Tolerations: []Toleration{{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)}}}}},
			Agree, []PodAnswer{{}}},
		{"a zone in partial disruption (3 of 4 nodes not Ready): no taint in a small zone", Case{
			Nodes: []Node{{Ready: ConditionFalse}, {Ready: ConditionFalse}, {Ready: ConditionFalse}, {}},
			Pods: []Pod{{Phase: Running, Tolerations: []Toleration{{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)}}},
				{Node: 1, Phase: Running, Tolerations: []Toleration{{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)}}},
				{Node: 2, Phase: Running, Tolerations: []Toleration{{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)}}}}},
			Agree, []PodAnswer{{}, {}, {}}},
		{"every zone fully disrupted, a Ready node excluded from the zone states: no taint", Case{
			Nodes: []Node{{Ready: ConditionFalse}, {ExcludeDisruption: true}},
			Pods:  []Pod{{Phase: Running, Tolerations: []Toleration{{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)}}}}},
			Agree, []PodAnswer{{}}},
		{"every node excluded: no zone state, tainted", Case{
			Nodes: []Node{{Ready: ConditionFalse, ExcludeDisruption: true}},
			Pods:  []Pod{{Phase: Running, Tolerations: []Toleration{{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)}}}}},
			Agree, []PodAnswer{{Eviction: AtOnce}}},
		{"3 of 4 nodes not Ready, one of them excluded: 2 of 3 counted, Normal, tainted", Case{
			Nodes: []Node{{Ready: ConditionFalse}, {Ready: ConditionFalse}, {Ready: ConditionFalse, ExcludeDisruption: true}, {}},
			Pods: []Pod{{Phase: Running, Tolerations: []Toleration{{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)}}},
				{Node: 1, Phase: Running, Tolerations: []Toleration{{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)}}},
				{Node: 2, Phase: Running, Tolerations: []Toleration{{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)}}}}},
			Agree, []PodAnswer{{Eviction: AtOnce}, {Eviction: AtOnce}, {Eviction: AtOnce}}},
		// The held-back nodes without pods get the unreachable NoSchedule
		// taint: no pod's fate depends on the key.
		{"a zone in partial disruption beside a normal one: its nodes held back, the other zone's down node tainted", Case{
			Nodes: []Node{{Ready: ConditionFalse}, {Ready: ConditionFalse}, {Ready: ConditionFalse}, {}, {Zone: 1, Ready: ConditionFalse}, {Zone: 1}},
			Pods: []Pod{{Phase: Running, Tolerations: []Toleration{{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)}}},
				{Node: 4, Phase: Running, Tolerations: []Toleration{{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)}}}}},
			DownTaintUnexplored, []PodAnswer{{}, {Eviction: AtOnce}}},
		{"a zone of only excluded nodes beside a fully disrupted one: tainted (after the passes that drop it from the zone states)", Case{
			Nodes: []Node{{Ready: ConditionFalse, ExcludeDisruption: true}, {Zone: 1, Ready: ConditionFalse}},
			Pods: []Pod{{Phase: Running, Tolerations: []Toleration{{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)}}},
				{Node: 1, Phase: Running, Tolerations: []Toleration{{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)}}}}},
			Agree, []PodAnswer{{Eviction: AtOnce}, {}}},
		{"a zone fully disrupted beside a normal one: tainted", Case{
			Nodes: []Node{{Ready: ConditionFalse}, {Zone: 1}},
			Pods:  []Pod{{Phase: Running, Tolerations: []Toleration{{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)}}}}},
			Agree, []PodAnswer{{Eviction: AtOnce}}},
		{"a Ready node's own not-ready taint: the controller removes it", Case{
			Nodes: []Node{{Taints: []Taint{{Key: notReadyKey, Effect: "NoExecute"}}}},
			Pods:  []Pod{{Phase: Running, Tolerations: []Toleration{{Key: notReadyKey, Operator: "Exists", Effect: "NoExecute", Seconds: secs(0)}}}}},
			InputControllerTaint, []PodAnswer{{}}},
		{"a Failed pod on a tainted node", Case{Nodes: []Node{ready}, Pods: []Pod{{Phase: Failed}}},
			TerminalPod, []PodAnswer{{Eviction: AtOnce}}},
		{"a Terminating pod on a tainted node", Case{Nodes: []Node{ready}, Pods: []Pod{{Phase: Terminating}}},
			TerminatingPod, []PodAnswer{{Eviction: AtOnce}}},
		{"a Pending pod on a tainted Ready node: the kubelet rejects it", Case{Nodes: []Node{ready}, Pods: []Pod{{Phase: Pending}}},
			KubeletRejects, []PodAnswer{{Eviction: AtOnce}}},
		{"out of service, zone tainted not-ready: untolerated at once; tolerated for 60 s (the least, beside the default 300 s); tolerated for ever but not-ready for 300 s; every taint for ever; all force-deleted once evicted", Case{
			Nodes: []Node{{Ready: ConditionFalse, OutOfService: true}, {}},
			Pods: []Pod{{Phase: Running},
				{Phase: Running, Tolerations: []Toleration{{Key: outOfServiceKey, Operator: "Equal", Value: outOfServiceValue, Effect: "NoExecute", Seconds: secs(60)}}},
				{Phase: Pending, Tolerations: []Toleration{{Key: outOfServiceKey, Operator: "Exists"}}},
				{Phase: Running, Tolerations: []Toleration{{Operator: "Exists", Effect: "NoExecute"}}},
				{Phase: Running, Tolerations: []Toleration{{Key: outOfServiceKey, Operator: "Equal", Value: "x", Effect: "NoExecute"}}}}},
			DownTaintUnexplored, []PodAnswer{{Eviction: AtOnce, ForceDeleted: true}, {Eviction: Later, Seconds: 60, ForceDeleted: true},
				{Eviction: Later, Seconds: 300, ForceDeleted: true}, {}, {Eviction: AtOnce, ForceDeleted: true}}},
		{"out of service, fully disrupted (no not-ready taint): the out-of-service taint alone evicts", Case{
			Nodes: []Node{{Ready: ConditionUnknown, OutOfService: true}},
			Pods: []Pod{{Phase: Running},
				{Phase: Running, Tolerations: []Toleration{{Key: outOfServiceKey, Operator: "Exists", Effect: "NoExecute"}}}}},
			Agree, []PodAnswer{{Eviction: AtOnce, ForceDeleted: true}, {}}},
		{"the input's terminating pod: force-deleted out of service, kept on a node only not Ready", Case{
			Nodes: []Node{{Ready: ConditionFalse, OutOfService: true}, {Ready: ConditionFalse}, {}, {}},
			Pods:  []Pod{{Phase: Terminating}, {Node: 1, Phase: Terminating}}},
			DownTaintUnexplored + "+" + TerminatingPod, []PodAnswer{{Eviction: AtOnce, ForceDeleted: true}, {Eviction: Later, Seconds: 300}}},
		{"a Pending pod tolerating a Ready node's taint for a while starts and goes later", Case{Nodes: []Node{ready},
			Pods: []Pod{{Phase: Pending, Tolerations: []Toleration{{Key: "a", Operator: "Exists", Effect: "NoExecute", Seconds: secs(1)}}}}},
			Agree, []PodAnswer{{Eviction: Later, Seconds: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := up.Check(ctx, &tc.c, nil)
			if err != nil {
				t.Fatal(err)
			}
			if v.Class != tc.want {
				t.Fatalf("class %q, want %q\nmodel:\n%supstream:\n%s", v.Class, tc.want, v.Model, v.Upstream)
			}
			if tc.pods != nil && !slices.Equal(v.Upstream.Pods, tc.pods) {
				t.Errorf("upstream pods %v, want %v", v.Upstream.Pods, tc.pods)
			}
		})
	}
}

// TestPlantedBugs: model bugs planted in the model's universe or state
// are judged unexplained on some of 200 random cases, so the
// comparison can fail.
func TestPlantedBugs(t *testing.T) {
	ctx := context.Background()
	up := newUpstream(t)
	planted := plantedBugs()
	gen := rapid.Custom(genCase)
	for name, plant := range planted {
		t.Run(name, func(t *testing.T) {
			found := 0
			for i := range 200 {
				c := gen.Example(i)
				v, err := up.Check(ctx, c, plant)
				if err != nil {
					t.Fatal(err)
				}
				if v.Class == Unexplained {
					found++
				}
			}
			if found == 0 {
				t.Fatal("the planted bug was never caught")
			}
			t.Logf("caught on %d of 200 cases", found)
		})
	}
}

// plantedBugs are the model bugs TestPlantedBugs and
// TestReplayPlantedBugs plant, by name.
func plantedBugs() map[string]Plant {
	fits := func(u *model.Universe, f func(*model.NodeFit)) {
		for i := range u.Templates {
			for n := range u.Templates[i].Fit {
				f(&u.Templates[i].Fit[n])
			}
		}
	}
	return map[string]Plant{
		"tolerationSeconds read as forever": func(u *model.Universe, _ *model.State) {
			fits(u, func(f *model.NodeFit) {
				for k := range f.NodeDown {
					if f.NodeDown[k].Eviction == model.EvictedLater {
						f.NodeDown[k] = model.NoExecuteToleration{}
					}
				}
			})
		},
		"the out-of-service taint ignored by the taint manager": func(u *model.Universe, _ *model.State) {
			fits(u, func(f *model.NodeFit) {
				f.OutOfService = [3]model.NoExecuteToleration{f.NodeDown[0], f.NodeDown[1], f.NoExecuteTaints}
			})
		},
		"a node's own NoExecute taints ignored": func(u *model.Universe, _ *model.State) {
			fits(u, func(f *model.NodeFit) { f.NoExecuteTaints = model.NoExecuteToleration{} })
		},
		"the greatest tolerationSeconds instead of the least": func(u *model.Universe, _ *model.State) {
			fits(u, func(f *model.NodeFit) {
				if f.NoExecuteTaints.Eviction == model.EvictedLater && f.NoExecuteTaints.Seconds < 600 {
					f.NoExecuteTaints.Seconds = 600
				}
			})
		},
		"no zone states (every node excluded)": func(u *model.Universe, _ *model.State) {
			for n := range u.Zones.Excluded {
				u.Zones.Excluded[n] = true
			}
			for z := range u.Zones.Counted {
				u.Zones.Counted[z] = 0
			}
		},
		"every node that is not Ready tainted unreachable": func(u *model.Universe, s *model.State) {
			for n := range s.Nodes {
				if s.Nodes[n].Status.Health() != model.Ready {
					s.Nodes[n].Status = s.Nodes[n].Status.WithNodeDownTaint(1)
				}
			}
		},
	}
}
