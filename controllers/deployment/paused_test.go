package deployment

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestSyncPausedTemplateSetBack: a paused deployment whose pod template
// goes back to the other ReplicaSet's (an older manifest applied again
// while paused) has that set as its new one, as FindNewReplicaSet finds
// it: the current slot moves to it, creation order unchanged, and nothing
// is scaled or created.
func TestSyncPausedTemplateSetBack(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node().CPU(64).Mem(64))
	v1 := b.AddTemplate(build.Template("v1").Requests(1, 1))
	v2 := b.AddTemplate(build.Template("v2").Requests(1, 1))
	d := b.AddDeployment("web", v1, 2)
	b.Paused(d, true)
	u, s := b.MustBuild()
	ds := &s.Deps[d]
	// v2 was rolling out (slot 1, created after slot 0) when it was paused.
	ds.RS = [2]model.ReplicaSetState{{Template: uint8(v1 + 1), Replicas: 2}, {Template: uint8(v2 + 1), Replicas: 1}}
	ds.Cur = 1
	ds.SetAnnotations(u, model.ReplicasAnnotations{Desired: 2, Max: [2]int{3, 3}})
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	ScaleReplicaSets(tx, s, d)
	if ds.Cur != 0 || !ds.NewRSOlder {
		t.Errorf("current slot %d, new set older %v; want slot 0 (v1's), the older one", ds.Cur, ds.NewRSOlder)
	}
	if ds.RS[0].Replicas != 2 || ds.RS[1].Replicas != 1 {
		t.Errorf("sets %v: want them as they were (2 + 1 = spec + maxSurge)", ds.RS)
	}
}
