package model_test

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestDeletedNodeLeavesTheView: a custom intent's View lists the nodes
// the cluster lists: a deleted node is not among them, its domain of a
// topology key is gone, and it is not Ready. Until the pod garbage
// collector's step its pod is still an object of the API, as kubectl
// lists it; the collection deletes it.
func TestDeletedNodeLeavesTheView(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node().Name("a").Label("zone", "z1"))
	b.AddNodes(1, build.Node().Name("b").Label("zone", "z2"))
	web := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(1, 1)), 2)
	b.RunPod(web, 0).RunPod(web, 1)
	b.AddEvent(model.Event{Kind: model.DeleteNode, Node: 0})
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	model.DeleteNodeObject(model.NewTx(u), s, 0)
	v := model.NewView(u, s)
	if got := v.Nodes(); !slices.Equal(got, []string{"b"}) {
		t.Errorf("Nodes() = %v, want [b]", got)
	}
	if got := v.PodsByLabel("zone", "web"); len(got) != 1 || got["z2"] != 1 {
		t.Errorf("PodsByLabel(zone) = %v, want map[z2:1]", got)
	}
	if v.NodeReady("a") || model.ReadyNodes(s) != 1 {
		t.Errorf("node a deleted: NodeReady %v, ReadyNodes %d", v.NodeReady("a"), model.ReadyNodes(s))
	}
	if _, c := v.Replicas("web"); c.Running != 2 || !model.HasOrphanedPods(s, 0) || model.HasOrphanedPods(s, 1) {
		t.Errorf("before the collection: %d web pods Running, orphaned pods on a %v, on b %v; want 2, true, false",
			c.Running, model.HasOrphanedPods(s, 0), model.HasOrphanedPods(s, 1))
	}
	if got := model.CollectOrphanedPods(model.NewTx(u), s, 0); got != 1 {
		t.Errorf("the pod garbage collector deleted %d pods, want 1", got)
	}
	if model.AnyOrphanedPods(s) {
		t.Errorf("a pod is left on the deleted node after the collection")
	}
	if v.PodsOnNode("a", "web") != 0 {
		t.Errorf("a pod is left on the deleted node")
	}
}
