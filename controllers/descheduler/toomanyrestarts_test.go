package descheduler

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// restartsCase is one row of sigs.k8s.io/descheduler@v0.36.0,
// pkg/framework/plugins/removepodshavingtoomanyrestarts/toomanyrestarts_test.go,
// TestRemovePodsHavingTooManyRestarts. Upstream's initPods: pod-0 … pod-9
// on node1, 100 mCPU each, pod i with two containers of 10·i restarts
// and an init container of 5·i; pod-6 is a DaemonSet's, pod-7 has local
// storage, pod-8 is a mirror pod (none evictable: bare pods and a
// local-storage template stand for them, as in the other plugins'
// upstream tests); CPU-consumer-1 and -2 (150 mCPU) run on node4 and
// node5 when those exist. The model's pod holds one restart count, the
// one the profile reads: 25·i with includingInitContainers, else 20·i.
type restartsCase struct {
	name    string
	nodes   []*build.NodeBuilder
	args    model.TooManyRestartsArgs
	limits  [2]int // per node, per namespace
	nodeFit bool
	// phase, when not Running, is every initPods pod's phase.
	phase model.Phase
	// want lists the evicted counts of the cycle's branches, ascending.
	want []int
}

func (tc restartsCase) build() (*model.Universe, *model.State) {
	b := build.New()
	names := map[string]int{}
	for _, nb := range tc.nodes {
		n := b.AddNodes(1, nb)
		names[nb.Obj().Name] = n
	}
	restarts := map[int]int{} // slot → restarts
	slot := 0
	for i := range 10 {
		tb := build.Template(fmt.Sprintf("pod-%d", i)).Requests(100, 0)
		d := b.AddDeployment(fmt.Sprintf("pod-%d", i), b.AddTemplate(tb), 1)
		b.RunPod(d, names["node1"])
		per := 20
		if tc.args.IncludingInitContainers {
			per = 25
		}
		restarts[slot] = per * i
		slot++
	}
	for k, node := range []string{"node4", "node5"} {
		if n, ok := names[node]; ok {
			d := b.AddDeployment(fmt.Sprintf("CPU-consumer-%d", k+1), b.AddTemplate(build.Template(fmt.Sprintf("consumer-%d", k+1)).Requests(150, 100)), 1)
			b.RunPod(d, n)
			slot++
		}
	}
	b.U.Templates[7].LocalStorage = true
	b.U.Descheduler = &model.Descheduler{MaxPerNode: tc.limits[0], MaxPerNamespace: tc.limits[1], Profiles: []model.DeschedulerProfile{{
		Name: "restarts", NodeFit: tc.nodeFit, Deschedule: model.DescheduleConfig{
			Enabled: []model.DeschedulePlugin{model.RemovePodsHavingTooManyRestarts}, TooManyRestarts: tc.args}}}}
	u, s := b.MustBuild()
	for i, r := range restarts {
		s.Pods[i].Restarts = model.SaturatedRestarts(int64(r))
		if tc.phase != 0 {
			s.Pods[i].Phase = tc.phase
		}
	}
	s.Pods[6].Owner, s.Pods[8].Owner = 0, 0
	return u, s
}

// TestRemovePodsHavingTooManyRestartsUpstream: the rows of
// TestRemovePodsHavingTooManyRestarts.
//
// Restated: "pods are in CrashLoopBackOff with states=CrashLoopBackOff, 3
// pod evictions" and "pods without CrashLoopBackOff with
// states=CrashLoopBackOff, 0 pod evictions" — the model does not keep
// whether a restarted container waits in its back-off at the cycle
// (docs/divergences.md, "Deschedule plugins"), so both rows branch over
// every subset of the restarted pods, and upstream's count is one of the
// branches. Left out: the two rows of an init container waiting in
// CrashLoopBackOff with no phase (the model's init containers never
// crash, and its pods always have a phase).
func TestRemovePodsHavingTooManyRestartsUpstream(t *testing.T) {
	args := func(threshold int32, init bool) model.TooManyRestartsArgs {
		return model.TooManyRestartsArgs{PodRestartThreshold: threshold, IncludingInitContainers: init}
	}
	one := func() []*build.NodeBuilder { return []*build.NodeBuilder{upstreamNode("node1")} }
	with := func(nb *build.NodeBuilder) []*build.NodeBuilder {
		return []*build.NodeBuilder{upstreamNode("node1"), nb}
	}
	crash := model.TooManyRestartsArgs{PodRestartThreshold: 1, States: []string{"CrashLoopBackOff"}}
	running := model.TooManyRestartsArgs{PodRestartThreshold: 1, States: []string{"Running"}}
	cases := []restartsCase{
		{name: "All pods have total restarts under threshold, no pod evictions", nodes: one(), args: args(10000, true), want: []int{0}},
		{name: "Some pods have total restarts bigger than threshold", nodes: one(), args: args(1, true), want: []int{6}},
		{name: "Nine pods have total restarts equals threshold(includingInitContainers=true), 6 pod evictions", nodes: one(), args: args(25, true), want: []int{6}},
		{name: "Nine pods have total restarts equals threshold(includingInitContainers=false), 5 pod evictions", nodes: one(), args: args(25, false), want: []int{5}},
		{name: "All pods have total restarts equals threshold(includingInitContainers=true), 6 pod evictions", nodes: one(), args: args(20, true), want: []int{6}},
		{name: "Nine pods have total restarts equals threshold(includingInitContainers=false), 6 pod evictions", nodes: one(), args: args(20, false), want: []int{6}},
		{name: "Five pods have total restarts bigger than threshold(includingInitContainers=true), but only 1 pod eviction", nodes: one(), args: args(5*25+1, true), want: []int{1}},
		{name: "Five pods have total restarts bigger than threshold(includingInitContainers=false), but only 1 pod eviction", nodes: one(), args: args(5*20+1, false), want: []int{1}},
		{name: "All pods have total restarts equals threshold(maxPodsToEvictPerNode=3), 3 pod evictions", nodes: one(), args: args(1, true), limits: [2]int{3, 0}, want: []int{3}},
		{name: "All pods have total restarts equals threshold(maxNoOfPodsToEvictPerNamespace=3), 3 pod evictions", nodes: one(), args: args(1, true), limits: [2]int{0, 3}, want: []int{3}},
		{name: "All pods have total restarts equals threshold(maxPodsToEvictPerNode=3) but the only other node is tainted, 0 pod evictions",
			nodes: with(upstreamNode("node2").Taint("hardware", "gpu", model.NoSchedule)), args: args(1, true), limits: [2]int{3, 0}, nodeFit: true, want: []int{0}},
		{name: "All pods have total restarts equals threshold(maxPodsToEvictPerNode=3) but the only other node is not schedulable, 0 pod evictions",
			nodes: with(upstreamNode("node3").Taint("node.kubernetes.io/unschedulable", "", model.NoSchedule)), args: args(1, true), limits: [2]int{3, 0}, nodeFit: true, want: []int{0}},
		{name: "All pods have total restarts equals threshold(maxPodsToEvictPerNode=3) but the only other node does not have enough CPU, 0 pod evictions",
			nodes: with(build.Node().Name("node4").CPU(200).Mem(3000).MaxPods(10)), args: args(1, true), limits: [2]int{3, 0}, nodeFit: true, want: []int{0}},
		{name: "All pods have total restarts equals threshold(maxPodsToEvictPerNode=3) but the only other node has enough CPU, 3 pod evictions",
			nodes: with(upstreamNode("node5")), args: args(1, true), limits: [2]int{3, 0}, nodeFit: true, want: []int{3}},
		{name: "(restated) pods are in CrashLoopBackOff with states=CrashLoopBackOff, 3 pod evictions, among the branches",
			nodes: with(upstreamNode("node5")), args: crash, limits: [2]int{3, 0}, nodeFit: true, want: []int{0, 1, 2, 3}},
		{name: "(restated) pods without CrashLoopBackOff with states=CrashLoopBackOff, 0 pod evictions, among the branches",
			nodes: with(upstreamNode("node5")), args: crash, limits: [2]int{3, 0}, nodeFit: true, want: []int{0, 1, 2, 3}},
		{name: "pods running with state=Running, 3 pod evictions", nodes: one(), args: running, limits: [2]int{3, 0}, want: []int{3}},
		{name: "pods pending with state=Running, 0 pod evictions", nodes: one(), args: running, limits: [2]int{3, 0}, phase: model.Pending, want: []int{0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u, s := tc.build()
			if got := descheduleOutcomes(u, s); !slices.Equal(got, tc.want) {
				t.Errorf("evicted counts over the branches %v, want %v", got, tc.want)
			}
		})
	}
}

// TestTooManyRestartsOrder: upstream evicts a node's pods most restarts
// first, so under a per-node limit the pods with the most restarts go,
// and only pods of equal restarts are a choice.
func TestTooManyRestartsOrder(t *testing.T) {
	for _, tc := range []struct {
		name     string
		restarts []int
		limit    int
		want     []string // the evicted sets over the branches
	}{
		{name: "distinct counts: the two highest go", restarts: []int{3, 9, 5, 7}, limit: 2, want: []string{"[2 4]"}},
		{name: "a tie at the cut: either tied pod goes", restarts: []int{3, 9, 5, 5}, limit: 2, want: []string{"[2 3]", "[2 4]"}},
		{name: "below the threshold: never", restarts: []int{1, 9, 0, 7}, limit: 3, want: []string{"[2 4]"}},
		{name: "saturated counts under a higher threshold: unknown", restarts: []int{300, 300, 0, 0}, limit: 0, want: []string{"[1 2]", "[1]", "[2]", "[]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.AddNodes(1, upstreamNode("node1"))
			for i := range tc.restarts {
				// Distinct templates, so that no two pods are identical
				// (identical pods are one choice).
				d := b.AddDeployment(fmt.Sprintf("p%d", i+1), b.AddTemplate(build.Template(fmt.Sprintf("p%d", i+1)).Requests(int64(100+i), 0)), 1)
				b.RunPod(d, 0)
			}
			threshold := int32(2)
			if tc.restarts[0] > model.MaxRestarts {
				threshold = 280
			}
			b.U.Descheduler = &model.Descheduler{MaxPerNode: tc.limit, Profiles: []model.DeschedulerProfile{{Name: "restarts",
				Deschedule: model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsHavingTooManyRestarts},
					TooManyRestarts: model.TooManyRestartsArgs{PodRestartThreshold: threshold}}}}}
			u, s := b.MustBuild()
			for i, r := range tc.restarts {
				s.Pods[i].Restarts = model.SaturatedRestarts(int64(r))
			}
			var got []string
			for _, o := range descheduleOutcomeSets(u, s) {
				got = append(got, fmt.Sprint(o))
			}
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("evicted sets %v, want %v", got, want)
			}
		})
	}
}
