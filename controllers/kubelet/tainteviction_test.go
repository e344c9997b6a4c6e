package kubelet

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestStartQueuesForTaintEviction: under Kubernetes' lifecycle a started
// pod goes to the taint manager only where the taint manager may act on
// it (a NoExecute taint of its node that evicts it, at once or after
// tolerationSeconds), not for a taint elsewhere in the cluster, a
// NoSchedule taint or a NoExecute taint it tolerates forever; under
// Kivi's lifecycle whenever some node has a taint, as Kivi's kubelet.
func TestStartQueuesForTaintEviction(t *testing.T) {
	seconds := int64(60)
	tests := []struct {
		name   string
		kivi   bool
		taint  model.TaintEffect // of the pod's node; "" for none
		other  bool              // another node has a NoSchedule taint
		tolers []model.Toleration
		want   bool
	}{
		{name: "untainted node, another node tainted", other: true},
		{name: "NoSchedule taint", taint: model.NoSchedule},
		{name: "NoExecute tolerated forever", taint: model.NoExecute,
			tolers: []model.Toleration{{Key: "k", Value: "v", Effect: model.NoExecute}}},
		{name: "NoExecute tolerated for a while", taint: model.NoExecute, want: true,
			tolers: []model.Toleration{{Key: "k", Value: "v", Effect: model.NoExecute, TolerationSeconds: &seconds}}},
		{name: "Kivi's lifecycle, untainted node, another node tainted", kivi: true, other: true, want: true},
		{name: "Kivi's lifecycle, NoSchedule taint", kivi: true, taint: model.NoSchedule, want: true},
		{name: "no taint anywhere"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			node := build.Node()
			if tc.taint != "" {
				node = node.Taint("k", "v", tc.taint)
			}
			b.AddNodes(1, node)
			if tc.other {
				b.AddNodes(1, build.Node().Taint("other", "v", model.NoSchedule))
			}
			tmpl := build.Template("app").Requests(1, 1)
			for _, tol := range tc.tolers {
				tmpl = tmpl.TolerationWith(tol)
			}
			d := b.AddDeployment("app", b.AddTemplate(tmpl), 1)
			b.PendingPod(d, 0)
			b.U.Options.KiviLifecycle = tc.kivi
			u, s := b.MustBuild()
			s.Enqueue(model.KubeletQueue, 0)
			tx := model.NewTx(u)
			tx.Begin(nil, false)
			New().Step(tx, s)
			if s.Pods[0].Phase != model.Running {
				t.Fatalf("pod not started: %s", model.Describe(u, s))
			}
			if got := len(s.Queues[model.TaintManagerQueue]) == 1; got != tc.want {
				t.Errorf("queued for the taint manager = %v, want %v:\n%s", got, tc.want, model.Describe(u, s))
			}
		})
	}
}
