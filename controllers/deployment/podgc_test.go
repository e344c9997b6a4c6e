package deployment

import (
	"testing"

	"github.com/kivi-go/kivi/controllers/podgc"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestWaitsForCollection: with every pod slot taken and one held by a
// Failed pod, a ReplicaSet short of pods waits for the pod garbage
// collector instead of reaching the pod-slot bound; once the collector
// ran it creates the pod in the freed slot. With a Free slot, or under
// Kivi's lifecycle, it does not wait.
func TestWaitsForCollection(t *testing.T) {
	for _, kivi := range []bool{false, true} {
		b := build.New()
		b.AddNodes(2, build.Node())
		app := b.AddTemplate(build.Template("app").Requests(8, 8))
		d := b.AddDeployment("web", app, 3)
		b.RunPod(d, 0).RunPod(d, 1).PendingPod(d, 0)
		b.Slots = 3
		b.U.Options.KiviLifecycle = kivi
		u, s, err := b.Build(0)
		if err != nil {
			t.Fatal(err)
		}
		s.Init = model.InitMain
		s.Pods[2].Phase = model.Failed
		s.Enqueue(model.DeploymentQueue, d)
		c := New()
		if got := c.Enabled(u, s); got != kivi {
			t.Fatalf("kivi=%v: enabled %v with every slot taken and a Failed pod", kivi, got)
		}
		if kivi {
			continue
		}
		tx := model.NewTx(u)
		tx.Begin(nil, false)
		podgc.New().Step(tx, s)
		if !c.Enabled(u, s) {
			t.Fatalf("not enabled after the collection:\n%s", model.Describe(u, s))
		}
		tx.Begin(nil, false)
		c.Step(tx, s)
		if s.Failed != model.NoFailure || s.Pods[2].Phase != model.Pending || s.Pods[2].Owner != uint8(d+1) {
			t.Fatalf("want the replacement in the freed slot:\n%s", model.Describe(u, s))
		}
	}
}
