package deployment

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestMergedRevisionsScaleDown pins the direction of the two-slot
// divergence (docs/divergences.md, "ReplicaSet and Deployment
// controllers"): a third template applied mid-rollout leaves the pods of
// revisions a and b in one old set, which the rolling update scales down
// as one. The cluster: spec 3, maxSurge 1, maxUnavailable 0; revision a
// runs on nodes 1 and 2, revision b on node 3, and the new revision c's
// one pod on node 3. Four pods are available and three are needed, so one
// old pod goes. Kubernetes scales the oldest ReplicaSet first
// (scaleDownOldReplicaSetsForRollingUpdate sorts the old sets by creation
// time): it deletes a pod of revision a. The model ranks the merged set's
// pods together, and b's pod, with two of the deployment's pods on its
// node, goes first: every branch deletes it. Kubernetes' run is missing
// (under) and the model's run is not Kubernetes' (over): both.
func TestMergedRevisionsScaleDown(t *testing.T) {
	b := build.New()
	b.AddNodes(3, build.Node())
	var tmpl [3]int
	for i := range tmpl {
		tmpl[i] = b.AddTemplate(build.Template(string(rune('a'+i))).Requests(1, 1).Label("app", "web"))
	}
	d := b.AddDeployment("web", tmpl[0], 3)
	one, zero := model.IntOrPercent{Value: 1}, model.IntOrPercent{}
	b.U.Configs[0].MaxSurge, b.U.Configs[0].MaxUnavailable = one, zero
	b.U.Configs = append(b.U.Configs, model.DeploymentConfig{PodTemplate: tmpl[2], MaxSurge: one, MaxUnavailable: zero})
	b.RunPod(d, 0).RunPod(d, 1).RunPod(d, 2).RunPod(d, 2)
	u, s := b.MustBuild()
	ds := &s.Deps[d]
	ds.Config, ds.Cur = 1, 0
	ds.RS[0] = model.ReplicaSetState{Template: uint8(tmpl[2] + 1), Replicas: 1}
	ds.RS[1] = model.ReplicaSetState{Template: uint8(tmpl[1] + 1), Replicas: 3}
	// Both sets were last scaled at spec 3: no scaling event.
	ds.SetAnnotations(u, model.ReplicasAnnotations{Desired: 3, Max: [2]int{4, 4}})
	for i, rt := range []struct{ rs, tmpl int }{{1, tmpl[0]}, {1, tmpl[0]}, {1, tmpl[1]}, {0, tmpl[2]}} {
		s.Pods[i].RS, s.Pods[i].Template = uint8(rt.rs), uint8(rt.tmpl)
	}
	s.Enqueue(model.DeploymentQueue, d)

	c := New()
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	branches := 0
	for {
		next := s.Clone()
		c.Step(tx, next)
		branches++
		var gone []int
		for i := range next.Pods {
			if s.Pods[i].Phase == model.Running && next.Pods[i].Phase != model.Running {
				gone = append(gone, int(next.Pods[i].Template))
			}
		}
		if !slices.Equal(gone, []int{tmpl[1]}) {
			t.Errorf("branch %v: pods of templates %v leave, want one pod of b (%d)\n%s", tx.Choices(), gone, tmpl[1], model.Describe(u, next))
		}
		if !tx.Advance() {
			break
		}
		tx.Restart(false)
	}
	t.Logf("%d branches", branches)
}
