package nodelifecycle

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// The tests below restate rows of k8s.io/kubernetes@v1.36.3,
// pkg/controller/nodelifecycle/node_lifecycle_controller_test.go about the
// taints of nodes that are not Ready. The model's events do not say how
// a node failed: the node controller decides its Ready condition (False:
// not-ready, Unknown: unreachable) when it handles the node, as a choice
// where the key changes what happens to a pod (docs/divergences.md, "Node
// lifecycle and taint manager"); the rows give the choice their condition.
//
// Not restated, and why: TestTaintsNodeByCondition's NetworkUnavailable
// rows (the condition is not modelled); TestSwapUnreachableNotReadyTaints
// (a down node's condition does not change until it is Ready again, a
// divergence listed in that section); TestApplyNoExecuteTaintsToNodesEnqueueTwice
// and TestMonitorNodeHealthUpdateStatus, ...UpdateNodeAndPodStatusWithLease,
// TestTryUpdateNodeHealth, TestMonitorNodeHealthMarkPodsNotReadyWithWorkerSize,
// ...Retry, TestNodeEventGeneration, TestReconcileNodeLabels (leases,
// grace periods, retries, events and labels the controller writes: the
// model's node statuses come from its events); TestPodStatusChange and
// TestMonitorNodeHealthMarkPodsNotReady are markPodsNotReady (readiness.go,
// testdata/readiness.txt), and so is TestProcessPodMarkPodNotReady.

// TestUpstreamTaintsNodeByCondition: TestTaintsNodeByCondition's Ready
// rows (doNoScheduleTaintingPass): the NoSchedule taint of the node's
// condition, whether the zone states hold its NoExecute taint back or not.
func TestUpstreamTaintsNodeByCondition(t *testing.T) {
	for _, tc := range []struct {
		name       string
		st         model.NodeStatus
		wantTaint  bool
		wantKey    int
		wantNoExec bool
	}{
		{"Ready is true (no taint)", model.Ready, false, 0, false},
		{"Ready is false", model.NotReady.WithNodeDownTaint(notReadyTaint), true, notReadyTaint, true},
		{"Ready is false (NoExecute held back by the zone)", model.NotReady.WithHeldNodeDownTaint(notReadyTaint), true, notReadyTaint, false},
		{"Ready is unknown", model.NotReady.WithNodeDownTaint(unreachableTaint), true, unreachableTaint, true},
		{"Ready is unknown (NoExecute held back by the zone)", model.NotReady.WithHeldNodeDownTaint(unreachableTaint), true, unreachableTaint, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, noExecute, ok := tc.st.LifecycleTaints()
			if ok != tc.wantTaint || ok && (k != tc.wantKey || noExecute != tc.wantNoExec) {
				t.Errorf("taints (%v, key %s, NoExecute %v), want (%v, key %s, NoExecute %v)", ok, model.NodeDownTaints[k], noExecute,
					tc.wantTaint, model.NodeDownTaints[tc.wantKey], tc.wantNoExec)
			}
		})
	}
}

// TestUpstreamApplyNoExecuteTaints: TestApplyNoExecuteTaints and
// TestApplyNoExecuteTaintsToUnreachableNode. Four nodes of one zone;
// node0's Ready condition is Unknown, node2's False, the others True:
// node0 is tainted unreachable:NoExecute, node2 not-ready:NoExecute, the
// Ready nodes nothing (two of four not Ready: the zone is Normal). Each
// node runs a pod that tolerates not-ready forever and unreachable for
// the default 300 s, so the key matters and the controller's choice is
// the condition. Then node2 is Ready again: no taint is left (the model's
// event clears them, as the controller's pass removes them from a Ready
// node).
func TestUpstreamApplyNoExecuteTaints(t *testing.T) {
	b := build.New()
	b.AddNodes(4, build.Node().CPU(100).Mem(100).Zone("zone1"))
	app := b.AddTemplate(build.Template("app").Requests(1, 1).
		TolerationWith(model.Toleration{Key: model.NodeDownTaints[notReadyTaint], Operator: "Exists", Effect: model.NoExecute}))
	for n := range 4 {
		b.RunPod(b.AddDeployment("app"+string(rune('0'+n)), app, 1), n)
	}
	u, s := b.MustBuild()
	if u.Options.KiviLifecycle {
		t.Fatal("Kubernetes' lifecycle expected")
	}
	s.Nodes[0].Status, s.Nodes[2].Status = model.NotReady, model.NotReady
	s.Enqueue(model.NodeControllerQueue, 0)
	s.Enqueue(model.NodeControllerQueue, 2)
	tx := model.NewTx(u)
	tx.Begin([]int{0, 1}, false) // node0: Unknown, node2: False
	NewNodeController().Step(tx, s)
	for _, want := range []struct {
		node    int
		tainted bool
		key     int
	}{{0, true, unreachableTaint}, {1, false, 0}, {2, true, notReadyTaint}, {3, false, 0}} {
		k, ok := s.Nodes[want.node].Status.NodeDownTaint()
		if ok != want.tainted || ok && k != want.key {
			t.Errorf("node%d: tainted %v key %s, want %v %s", want.node, ok, model.NodeDownTaints[k], want.tainted, model.NodeDownTaints[want.key])
		}
	}
	// node2's pod tolerates not-ready forever: not evicted, not queued;
	// node0's tolerates unreachable for 300 s: queued for the taint manager.
	if s.Pods[2].Phase != model.Running || len(s.Queues[model.TaintManagerQueue]) != 1 || s.Queues[model.TaintManagerQueue][0] != 0 {
		t.Errorf("evictions: %s", model.Describe(u, s))
	}
	s.Nodes[2].Status = model.Ready
	if _, _, ok := s.Nodes[2].Status.LifecycleTaints(); ok {
		t.Errorf("node2 Ready again still tainted")
	}
}

// TestUpstreamMonitorNodeHealthMarkPodsNotReady: the rows of
// TestMonitorNodeHealthMarkPodsNotReady whose node status the model can
// hold: a node whose kubelet keeps it Ready leaves its pods alone; a node
// that stopped reporting has its pods marked not Ready in the pass that
// handles it (MarkPodsNotReady). Its first row (a node created within
// the grace period, with no status yet) is not restated: the model's
// nodes are not Ready only after an event takes them down. The pods'
// template has a readiness probe: only then does the model track
// readiness (docs/divergences.md, "Pod lifecycle and kubelet",
// readiness (c)).
func TestUpstreamMonitorNodeHealthMarkPodsNotReady(t *testing.T) {
	for _, tc := range []struct {
		name        string
		down        bool
		wantUpdated bool
	}{
		{"node Ready, status kept up to date", false, false},
		{"node stopped reporting past the grace period", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.AddNodes(2, build.Node().CPU(100).Mem(100))
			d := b.AddDeployment("app", b.AddTemplate(build.Template("app").Requests(1, 1).ReadinessProbe()), 1)
			b.RunPod(d, 0)
			u, s := b.MustBuild()
			if tc.down {
				s.Nodes[0].Status = model.NotReady
			}
			s.Enqueue(model.NodeControllerQueue, 0)
			tx := model.NewTx(u)
			tx.Begin(nil, false)
			NewNodeController().Step(tx, s)
			if got := s.Pods[0].Readiness == model.PodNotReady; got != tc.wantUpdated {
				t.Errorf("pod marked not Ready = %v, want %v: %s", got, tc.wantUpdated, model.Describe(u, s))
			}
		})
	}
}
