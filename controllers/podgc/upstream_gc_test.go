package podgc

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// The tables below restate rows of Kubernetes' tests of the pod garbage
// collector (k8s.io/kubernetes@v1.36.3, pkg/controller/podgc/gc_controller_test.go)
// in the model's terms: a pod with a deletion timestamp is Terminating, a
// Succeeded pod has no object in the model (only a Job's pods succeed,
// and their objects go with their success), a pod of phase Unknown does
// not exist. Pods are named as upstream's.
//
// Not restated, and why:
//   - TestGCTerminated: the model collects every Failed pod at any time,
//     where upstream deletes the oldest above --terminated-pod-gc-threshold
//     (docs/divergences.md, "Pod lifecycle and kubelet", the pod GC row);
//     Collector's own test is the podgc script tests.
//   - TestGCOrphaned's quarantine and informer rows ("nodes present in
//     client", "quarantine not finished", "node added to client / informer
//     after quarantine", "node deleted from client / informer after
//     quarantine"): the model's Node objects have no informer lag and its
//     collection has no clock (orphaned.go: any moment after the deletion).
//   - TestGCUnscheduledTerminating: in the model the kubelet's step removes
//     an unbound Terminating pod (controllers/kubelet TestDecide), no
//     collector pass.
//   - TestGCInspectingPatchedPodBeforeDeletion: the status patch's
//     contents; the model's CollectOrphanedPods sets the Failed phase and
//     the DisruptionTarget condition in the same step.

type gcPod struct {
	name  string
	node  int // -1 unbound
	phase model.Phase
}

// gcCluster builds nodes named and tainted as given, not Ready unless
// ready, and the pods, each a Deployment of its own.
func gcCluster(t *testing.T, nodes []gcNode, pods []gcPod) (*model.Universe, *model.State) {
	t.Helper()
	b := build.New()
	b.U.Options.KiviHostnameAlias = false
	for _, n := range nodes {
		nb := build.Node().Name(n.name).CPU(100).Mem(100)
		for _, e := range n.outOfService {
			nb.Taint(model.TaintNodeOutOfService, "", e)
		}
		b.AddNodes(1, nb)
	}
	for _, p := range pods {
		b.RunPod(b.AddDeployment(p.name, b.AddTemplate(build.Template(p.name)), 1), max(p.node, 0))
	}
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range nodes {
		if !n.ready {
			s.Nodes[i].Status = model.NotReady
		}
		if n.deleted {
			s.Nodes[i].Status = model.NodeDeleted
		}
	}
	for i, p := range pods {
		s.Pods[i].Phase = p.phase
		if p.node < 0 {
			s.Pods[i].Node = 0
		}
	}
	return u, s
}

type gcNode struct {
	name         string
	ready        bool
	deleted      bool
	outOfService []model.TaintEffect
}

// TestUpstreamGCOrphaned: the rows of TestGCOrphaned whose nodes the
// model can hold: a pod bound to a deleted Node is force-deleted, a
// Running one first marked Failed (patched, with the DisruptionTarget
// condition); pods of existing nodes stay.
func TestUpstreamGCOrphaned(t *testing.T) {
	for _, tc := range []struct {
		name        string
		nodes       []gcNode
		pods        []gcPod
		wantDeleted []string
		wantPatched []string
	}{
		{name: "nodes present in lister", nodes: []gcNode{{name: "existing1", ready: true}, {name: "existing2", ready: true}},
			pods: []gcPod{{"a", 0, model.Running}, {"b", 1, model.Failed}}},
		{name: "no nodes", nodes: []gcNode{{name: "deleted", deleted: true}},
			pods: []gcPod{{"a", 0, model.Failed}}, wantDeleted: []string{"a"}},
		{name: "no nodes, one running pod", nodes: []gcNode{{name: "deleted", deleted: true}},
			pods: []gcPod{{"a", 0, model.Failed}, {"c", 0, model.Running}}, wantDeleted: []string{"a", "c"}, wantPatched: []string{"c"}},
		{name: "wrong nodes", nodes: []gcNode{{name: "existing", ready: true}, {name: "deleted", deleted: true}},
			pods: []gcPod{{"a", 1, model.Running}}, wantDeleted: []string{"a"}, wantPatched: []string{"a"}},
		{name: "some nodes missing", nodes: []gcNode{{name: "existing", ready: true}, {name: "deleted", deleted: true}},
			pods:        []gcPod{{"a", 1, model.Failed}, {"b", 0, model.Failed}, {"d", 1, model.Running}},
			wantDeleted: []string{"a", "d"}, wantPatched: []string{"d"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s := gcCluster(t, tc.nodes, tc.pods)
			tx := model.NewTx(u)
			tx.Begin(nil, false)
			for n := range tc.nodes {
				if o := NewOrphaned(u, n); o.Enabled(u, s) {
					o.Step(tx, s)
				}
			}
			// Pod i is Deployment i's only pod: a pod marked Failed on
			// the way (patched) marks its owner evicted.
			var deleted, patched []string
			for i, p := range tc.pods {
				if s.Pods[i].Phase == model.Free {
					deleted = append(deleted, p.name)
				}
				if model.HasMark(tx.Marks, model.MarkEvicted(i)) {
					patched = append(patched, p.name)
				}
			}
			slices.Sort(deleted)
			slices.Sort(patched)
			if !slices.Equal(deleted, tc.wantDeleted) || !slices.Equal(patched, tc.wantPatched) {
				t.Errorf("deleted %v patched %v, want %v %v", deleted, patched, tc.wantDeleted, tc.wantPatched)
			}
		})
	}
}

// TestUpstreamGCTerminating: TestGCTerminating, the pods with a deletion
// timestamp force-deleted on a node that is not Ready and carries the
// node.kubernetes.io/out-of-service taint, of any effect or value
// (model.ForceDeletedOutOfService; the kubelet's step removes them in the
// model, with the collector's trace line). Upstream's pods without a
// deletion timestamp (a, c, d, e) are not Terminating and never
// force-deleted; they are rows here too.
func TestUpstreamGCTerminating(t *testing.T) {
	noExecute := []model.TaintEffect{model.NoExecute}
	for _, tc := range []struct {
		name  string
		nodes []gcNode
		pods  []gcPod
		want  []string
	}{
		{name: "pods have deletion timestamp set and the corresponding nodes are not ready",
			nodes: []gcNode{{name: "worker-0"}, {name: "worker-1"}},
			pods:  []gcPod{{"a", 0, model.Terminating}, {"b", 1, model.Terminating}}},
		{name: "some pods have deletion timestamp and/or phase set and some of the corresponding nodes have an outofservice taint that are not ready",
			nodes: []gcNode{{name: "worker-0", outOfService: noExecute}, {name: "worker-1"}, {name: "worker-2", ready: true},
				{name: "worker-3", outOfService: []model.TaintEffect{model.NoSchedule}},
				{name: "worker-4", outOfService: []model.TaintEffect{model.PreferNoSchedule}},
				{name: "worker-5", outOfService: noExecute}},
			pods: []gcPod{
				{"a1", 0, model.Pending}, {"b1", 0, model.Terminating}, {"c1", 0, model.Pending}, {"d1", 0, model.Running},
				{"a2", 1, model.Pending}, {"b2", 1, model.Terminating}, {"c2", 1, model.Pending}, {"d2", 1, model.Running},
				{"a3", 2, model.Pending}, {"b3", 2, model.Terminating}, {"c3", 2, model.Pending}, {"d3", 2, model.Running},
				{"a4", 3, model.Pending}, {"b4", 3, model.Terminating}, {"c4", 3, model.Pending}, {"d4", 3, model.Running},
				{"a5", 3, model.Pending}, {"b5", 4, model.Terminating}, {"c5", 4, model.Pending}, {"d5", 4, model.Running},
				{"a6", 5, model.Pending}, {"b6", 5, model.Terminating}, {"c6", 5, model.Pending}, {"d6", 5, model.Running}},
			want: []string{"b1", "b4", "b5", "b6"}},
		{name: "pods deleted from node tainted out-of-service (a Running, b Failed: Terminating here)",
			nodes: []gcNode{{name: "worker", outOfService: noExecute}},
			pods:  []gcPod{{"a", 0, model.Terminating}, {"b", 0, model.Terminating}},
			want:  []string{"a", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s := gcCluster(t, tc.nodes, tc.pods)
			u.Options.KiviLifecycle = false
			var got []string
			for i, p := range tc.pods {
				if model.ForceDeletedOutOfService(u, s, &s.Pods[i]) {
					got = append(got, p.name)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("force-deleted %v, want %v", got, tc.want)
			}
		})
	}
}
