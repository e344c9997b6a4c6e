package scheduler

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestOutOfServiceNode: a pod that tolerates the not-ready taints may go
// to node 1, which is not Ready, until an operator taints it
// out-of-service (model/nodeloss.go), whose taint it does not tolerate.
// One cycle answers both states: its decision memo must tell them apart.
func TestOutOfServiceNode(t *testing.T) {
	b := build.New()
	b.AddNodes(2, build.Node())
	tpl := b.AddTemplate(build.Template("agent").Requests(1, 1).
		Toleration(model.TaintNodeNotReady, "", model.NoSchedule).Toleration(model.TaintNodeNotReady, "", model.NoExecute))
	b.PendingPod(b.AddDeployment("agent", tpl, 1), -1)
	b.AddEvent(model.Event{Kind: model.NodeFailure, Node: 1, Permanent: true, OutOfService: true})
	u, s := b.MustBuild()
	s.Nodes[1].Status = model.NotReady
	pr := defaultProfile()
	var c cycle
	if got := c.hosts(&pr, u, s, 0); !slices.Contains(got, 1) {
		t.Fatalf("before the taint: hosts %v, want node 2 among them\n%s", got, Explain(u, s, 0))
	}
	model.SetOutOfService(u, s, 1)
	if got := c.hosts(&pr, u, s, 0); slices.Contains(got, 1) {
		t.Fatalf("after the out-of-service taint: hosts %v, want node 2 rejected\n%s", got, Explain(u, s, 0))
	}
}
