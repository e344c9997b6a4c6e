package descheduler

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// failedCase is one row of sigs.k8s.io/descheduler@v0.36.0,
// pkg/framework/plugins/removefailedpods/failedpods_test.go,
// TestRemoveFailedPods. The model's Failed pods are pods the kubelet
// rejected at admission (docs/divergences.md, "Deschedule plugins",
// *Failed pods' reasons*): upstream's "container terminated with reason
// NodeAffinity" is restated as a Failed pod on a node its required node
// affinity does not match and that it requests nothing of, whose only
// possible reason is NodeAffinity; a pod with requests (upstream's 1 mCPU,
// 1 byte) was rejected for one of them. Each pod is a ReplicaSet's.
type failedCase struct {
	name  string
	nodes []*build.NodeBuilder
	// pods: "affinity" (Failed, reason NodeAffinity), "requests" (Failed,
	// reason OutOfcpu or OutOfmemory), "running" (a Running pod),
	// "terminating" (an affinity pod being deleted); all on node 0 unless
	// on says otherwise.
	pods    []string
	on      []int
	args    model.FailedPodsArgs
	nodeFit bool
	// want lists the evicted counts of the cycle's branches (one branch
	// unless an unknown reason or age makes the plugin branch).
	want []int
}

func (tc failedCase) build() (*model.Universe, *model.State) {
	b := build.New()
	for _, nb := range tc.nodes {
		b.AddNodes(1, nb)
	}
	for i, kind := range tc.pods {
		tb := build.Template(fmt.Sprintf("p%d", i+1))
		switch kind {
		case "affinity", "terminating":
			tb.Required("datacenter", "west")
		case "requests":
			tb.Requests(1, 1)
		}
		d := b.AddDeployment(fmt.Sprintf("p%d", i+1), b.AddTemplate(tb), 1)
		node := 0
		if i < len(tc.on) {
			node = tc.on[i]
		}
		b.RunPod(d, node)
	}
	b.U.Descheduler = policy(model.DeschedulerProfile{Name: "failed", NodeFit: tc.nodeFit, Deschedule: model.DescheduleConfig{
		Enabled: []model.DeschedulePlugin{model.RemoveFailedPods}, FailedPods: tc.args}})
	u, s := b.MustBuild()
	for i, kind := range tc.pods {
		switch kind {
		case "affinity", "requests":
			s.Pods[i].Phase = model.Failed
		case "terminating":
			s.Pods[i].Phase, s.Pods[i].WasRunning = model.Terminating, false
		}
	}
	return u, s
}

// descheduleOutcomes runs the deschedule extension point on every branch
// and returns the distinct counts of removed pods (Failed pods are
// deleted, the others turn Terminating), ascending.
func descheduleOutcomes(u *model.Universe, s *model.State) []int {
	var out []int
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	for {
		next := s.Clone()
		newCycle(u, next, tx, nil).runDeschedule()
		n := 0
		for i := range s.Pods {
			if s.Pods[i].Phase == model.Failed && next.Pods[i].Phase != model.Failed ||
				s.Pods[i].Active() && next.Pods[i].Phase == model.Terminating {
				n++
			}
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
		if !tx.Advance() {
			break
		}
		tx.Restart(false)
	}
	slices.Sort(out)
	return out
}

// TestRemoveFailedPodsUpstream: TestRemoveFailedPods' rows.
//
// Left out (docs/divergences.md, "Deschedule plugins", *Failed pods'
// reasons*: the model's Failed pods never ran a container, so no
// container or init-container status, exit code or reason other than an
// admission one): "1 container terminated with exitCode 1, 1 eviction",
// "1 container terminated with exitCode 1, reason NodeAffinity, 1
// eviction", "2 containers terminated with exitCode 1 and 2 respectively,
// 2 evictions", "… expected exitCode 1, 1 eviction", "1 init container
// terminated with exitCode 1, 1 eviction", "include
// reason=CreateContainerConfigError, 1 container terminated with reason
// CreateContainerConfigError, 1 eviction", "include
// reason=CreateContainerConfigError+NodeAffinity, 1 container terminated
// with reason CreateContainerConfigError, 1 eviction" (restated below
// with the NodeAffinity reason) and "include reason=Shutdown, 2 containers
// terminated with reason ShutDown, 2 evictions" (no graceful node
// shutdown in the model, *Container states*).
func TestRemoveFailedPodsUpstream(t *testing.T) {
	one := func() []*build.NodeBuilder { return []*build.NodeBuilder{upstreamNode("node1")} }
	hour := uint(3600)
	cases := []failedCase{
		{name: "default empty args, 0 failures, 0 evictions", nodes: one(), pods: []string{"running"}, want: []int{0}},
		{name: "0 failures, 0 evictions", nodes: one(), want: []int{0}},
		{name: "1 container terminated with reason NodeAffinity, 1 eviction", nodes: one(), pods: []string{"affinity"}, want: []int{1}},
		{name: "1 container terminated with exitCode 1, expected exitCode 2, 0 eviction", nodes: one(), pods: []string{"affinity"},
			args: model.FailedPodsArgs{ExitCodes: []int32{2}}, want: []int{0}},
		{name: "1 init container terminated with reason NodeAffinity, 1 eviction", nodes: one(), pods: []string{"affinity"},
			args: model.FailedPodsArgs{IncludingInitContainers: true}, want: []int{1}},
		{name: "1 init container terminated with exitCode 2, expected 1, 0 eviction", nodes: one(), pods: []string{"affinity"},
			args: model.FailedPodsArgs{IncludingInitContainers: true, ExitCodes: []int32{1}}, want: []int{0}},
		{name: "1 init container waiting with reason CreateContainerConfigError, 1 eviction", nodes: one(), pods: []string{"requests"},
			args: model.FailedPodsArgs{IncludingInitContainers: true}, want: []int{1}},
		{name: "2 init container waiting with reason CreateContainerConfigError, 2 nodes, 2 evictions",
			nodes: []*build.NodeBuilder{upstreamNode("node1"), upstreamNode("node2")}, pods: []string{"requests", "requests"}, on: []int{0, 1},
			args: model.FailedPodsArgs{IncludingInitContainers: true}, want: []int{2}},
		{name: "(model) include reason=CreateContainerConfigError+NodeAffinity, 1 pod rejected for NodeAffinity, 1 eviction", nodes: one(),
			pods: []string{"affinity"}, args: model.FailedPodsArgs{Reasons: []string{"CreateContainerConfigError", "NodeAffinity"}}, want: []int{1}},
		{name: "include reason=CreateContainerConfigError, 1 container terminated with reason NodeAffinity, 0 eviction", nodes: one(),
			pods: []string{"affinity"}, args: model.FailedPodsArgs{Reasons: []string{"CreateContainerConfigError"}}, want: []int{0}},
		{name: "include init container=false, 1 init container waiting with reason CreateContainerConfigError, 0 eviction", nodes: one(),
			pods: []string{"requests"}, args: model.FailedPodsArgs{Reasons: []string{"CreateContainerConfigError"}}, want: []int{0}},
		// The model has no clock: the pod may be younger than an hour (upstream's row: 0) or older.
		{name: "lifetime 1 hour, 1 container terminated with reason NodeAffinity, 0 eviction", nodes: one(), pods: []string{"affinity"},
			args: model.FailedPodsArgs{MinPodLifetimeSeconds: hour}, want: []int{0, 1}},
		{name: "nodeFit=true, 1 unschedulable node, 1 container terminated with reason NodeAffinity, 0 eviction",
			nodes: []*build.NodeBuilder{upstreamNode("node1"), cordoned(build.Node().Name("node2").CPU(2000).Mem(2000).MaxPods(10))},
			pods:  []string{"requests"}, nodeFit: true, want: []int{0}},
		// node2 of no capacity is restated as one whose capacity is all reserved.
		{name: "nodeFit=true, only available node does not have enough resources, 1 container terminated with reason CreateContainerConfigError, 0 eviction",
			nodes: []*build.NodeBuilder{build.Node().Name("node1").CPU(1).Mem(1).MaxPods(10), build.Node().Name("node2").CPU(2).Mem(2).MaxPods(10).Reserved(2, 2)},
			pods:  []string{"requests"}, nodeFit: true, want: []int{0}},
		{name: "(model) nodeFit=true, the other node has room, 1 eviction",
			nodes: []*build.NodeBuilder{build.Node().Name("node1").CPU(1).Mem(1).MaxPods(10), build.Node().Name("node2").CPU(1).Mem(1).MaxPods(10)},
			pods:  []string{"requests"}, nodeFit: true, want: []int{1}},
		{name: "excluded owner kind=ReplicaSet, 1 init container terminated with owner kind=ReplicaSet, 0 eviction", nodes: one(),
			pods: []string{"affinity"}, args: model.FailedPodsArgs{IncludingInitContainers: true, ExcludeOwnerKinds: []string{"ReplicaSet"}}, want: []int{0}},
		{name: "excluded owner kind=DaemonSet, 1 init container terminated with owner kind=ReplicaSet, 1 eviction", nodes: one(),
			pods: []string{"affinity"}, args: model.FailedPodsArgs{IncludingInitContainers: true, ExcludeOwnerKinds: []string{"DaemonSet"}}, want: []int{1}},
		{name: "excluded owner kind=DaemonSet, 1 init container terminated with owner kind=ReplicaSet, 1 pod in termination; nothing should be moved",
			nodes: one(), pods: []string{"terminating"}, args: model.FailedPodsArgs{IncludingInitContainers: true, ExcludeOwnerKinds: []string{"DaemonSet"}},
			want: []int{0}},
		// nodeFit with a single node: no other node to go to.
		{name: "1 container terminated with reason ShutDown, 0 evictions", nodes: one(), pods: []string{"affinity"}, nodeFit: true, want: []int{0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u, s := tc.build()
			if got := descheduleOutcomes(u, s); !slices.Equal(got, tc.want) {
				t.Errorf("evicted counts over the branches %v, want %v\n%s", got, tc.want, Explain(u, s))
			}
		})
	}
}

// TestFailedReasonsOfKilledPods: besides the admission reasons, a Failed
// pod that passes the static admission checks on its node may have run
// there and been killed by the kubelet: Evicted where an eventMemoryChange
// can bring memory pressure, Preempting where a critical pod can take its
// room. RemoveFailedPods' reasons filter branches over them; a pod its
// node's labels reject never ran, and carries neither.
func TestFailedReasonsOfKilledPods(t *testing.T) {
	for _, tc := range []struct {
		name     string
		memory   bool // an eventMemoryChange
		critical bool // a critical template
		affinity bool // the pod's node fails its required node affinity
		reasons  []string
		want     []int
	}{
		{name: "no kill possible", reasons: []string{"Evicted", "Preempting"}, want: []int{0}},
		{name: "memory pressure: Evicted", memory: true, reasons: []string{"Evicted"}, want: []int{0, 1}},
		{name: "memory pressure: not Preempting", memory: true, reasons: []string{"Preempting"}, want: []int{0}},
		{name: "a critical pod: Preempting", critical: true, reasons: []string{"Preempting"}, want: []int{0, 1}},
		{name: "rejected by its node's labels: never ran", memory: true, critical: true, affinity: true, reasons: []string{"Evicted", "Preempting"}, want: []int{0}},
		{name: "rejected by its node's labels: NodeAffinity, or its cpu request first", memory: true, affinity: true, reasons: []string{"NodeAffinity"}, want: []int{0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.AddNodes(1, upstreamNode("node1"))
			b.AddNodes(1, upstreamNode("node2"))
			tb := build.Template("p1").Requests(100, 0)
			if tc.affinity {
				tb.Required("datacenter", "west")
			}
			d := b.AddDeployment("p1", b.AddTemplate(tb), 1)
			b.RunPod(d, 0)
			if tc.critical {
				b.AddDeployment("agent", b.AddTemplate(build.Template("agent").Requests(100, 0).Critical()), 0)
			}
			if tc.memory {
				b.AddEvent(model.Event{Kind: model.MemoryChange, Deployment: d, MaxDelta: 1, DeltaUnit: 1})
			}
			b.U.Descheduler = policy(model.DeschedulerProfile{Name: "failed", Deschedule: model.DescheduleConfig{
				Enabled: []model.DeschedulePlugin{model.RemoveFailedPods}, FailedPods: model.FailedPodsArgs{Reasons: tc.reasons}}})
			u, s := b.MustBuild()
			s.Pods[0].Phase = model.Failed
			if got := descheduleOutcomes(u, s); !slices.Equal(got, tc.want) {
				t.Errorf("evicted counts over the branches %v, want %v", got, tc.want)
			}
		})
	}
}
