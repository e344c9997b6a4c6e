package deployment

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestResolveFenceposts: upstream Kubernetes and
// pkg/controller/deployment/util/deployment_util.go@v1.36.3
// (ResolveFenceposts, MaxUnavailable).
func TestResolveFenceposts(t *testing.T) {
	pct := func(v int) model.IntOrPercent { return model.IntOrPercent{Value: v, Percent: true} }
	abs := func(v int) model.IntOrPercent { return model.IntOrPercent{Value: v} }
	tests := []struct {
		name              string
		surge, unav       model.IntOrPercent
		spec              int
		wantS, wantU, mxU int
	}{
		{"25%/25% of 4", pct(25), pct(25), 4, 1, 1, 1},
		{"25%/25% of 10: surge rounds up, unavailable down", pct(25), pct(25), 10, 3, 2, 2},
		{"25%/25% of 1", pct(25), pct(25), 1, 1, 0, 0},
		{"0%/0% of 1: unavailable becomes 1", pct(0), pct(0), 1, 0, 1, 1},
		{"0/0 absolute", abs(0), abs(0), 3, 0, 1, 1},
		{"unavailable above spec is capped", abs(0), abs(5), 2, 0, 5, 2},
		{"spec 0: nothing may be unavailable", pct(25), pct(25), 0, 0, 1, 0},
	}
	for _, tc := range tests {
		cfg := model.DeploymentConfig{MaxSurge: tc.surge, MaxUnavailable: tc.unav}
		f := resolveFenceposts(&cfg, tc.spec)
		if f.Surge != tc.wantS || f.Unavailable != tc.wantU || f.maxUnavailable(tc.spec) != tc.mxU {
			t.Errorf("%s: got %+v maxUnavailable %d, want surge %d unavailable %d max %d",
				tc.name, f, f.maxUnavailable(tc.spec), tc.wantS, tc.wantU, tc.mxU)
		}
	}
}

// TestReconcile: rolling.go@v1.36.3 reconcileNewReplicaSet (with
// NewRSNewReplicas) and reconcileOldReplicaSets, including the worked
// example in its comments (10 replicas, maxSurge 3, maxUnavailable 2).
func TestReconcile(t *testing.T) {
	tests := []struct {
		name           string
		spec           int
		f              fenceposts
		newRS, oldRS   replicaSet
		wantNew, wantO int
	}{
		{"new set starts: surge only", 4, fenceposts{1, 1}, replicaSet{0, 0}, replicaSet{4, 4}, 1, 3},
		{"total at spec+surge: no scale-up", 4, fenceposts{1, 1}, replicaSet{1, 0}, replicaSet{4, 4}, 1, 3},
		{"new unavailable blocks old scale-down", 4, fenceposts{1, 0}, replicaSet{1, 0}, replicaSet{4, 4}, 1, 4},
		{"new available: old scaled down", 4, fenceposts{1, 0}, replicaSet{1, 1}, replicaSet{4, 4}, 1, 3},
		{"new above spec scales down", 2, fenceposts{1, 0}, replicaSet{3, 3}, replicaSet{0, 0}, 2, 0},
		{"unhealthy old replicas go first, within maxScaledDown", 4, fenceposts{1, 1}, replicaSet{1, 0}, replicaSet{4, 2}, 1, 3},
		{"more available than spec: cleanup refuses, nothing", 3, fenceposts{1, 1}, replicaSet{3, 0}, replicaSet{1, 2}, 3, 1},
		{"Kubernetes example case 1: crashlooping new set", 10, fenceposts{3, 2}, replicaSet{5, 0}, replicaSet{8, 7}, 5, 8},
		{"Kubernetes example case 2: roll over", 10, fenceposts{3, 2}, replicaSet{0, 0}, replicaSet{13, 13}, 0, 8},
		{"no old set: plain scale-up to spec", 5, fenceposts{1, 1}, replicaSet{2, 2}, replicaSet{0, 0}, 5, 0},
	}
	for _, tc := range tests {
		gotNew := reconcileNew(tc.spec, tc.f, tc.newRS, tc.oldRS)
		gotOld := reconcileOld(tc.spec, tc.f, tc.newRS, tc.oldRS)
		if gotNew != tc.wantNew || gotOld != tc.wantO {
			t.Errorf("%s: new %d old %d, want new %d old %d", tc.name, gotNew, gotOld, tc.wantNew, tc.wantO)
		}
	}
}

// TestRankForDeletion: controller_utils.go@v1.36.3 ActivePodsWithRanks.Less
// and replica_set.go getPodsRankedByRelatedPodsOnSameNode, with the
// lowest slot breaking ties (Kivi, Kivi's controller models).
func TestRankForDeletion(t *testing.T) {
	run := func(node uint16, rs uint8) model.PodState {
		return model.PodState{Phase: model.Running, Owner: 1, Node: node, RS: rs}
	}
	pend := func(node uint16) model.PodState { return model.PodState{Phase: model.Pending, Owner: 1, Node: node} }
	pods := []model.PodState{
		run(1, 0), // 0: node 1 holds 3 active pods of the deployment (one in rs 1)
		run(2, 0), // 1: node 2 holds 1
		pend(2),   // 2: bound Pending
		run(1, 0), // 3
		{},        // 4: Free
		pend(0),   // 5: unbound
		run(1, 1), // 6: other ReplicaSet, counts for co-location only
		{Phase: model.Terminating, Owner: 1, Node: 2}, // 7: not active
		{Phase: model.Running, Owner: 2, Node: 2},     // 8: other deployment
	}
	got := rankForDeletion(pods, 0, 0)
	want := []int{5, 2, 0, 3, 1}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

// TestChooseVictimsBranches: after ActivePodsWithRanks (controller_utils.go
// @v1.36.3) Kubernetes breaks ties by readiness time, restart counts and
// creation time, which the model does not track, so the controller
// branches over which tied pods go; identical pods (ties.go) are one
// choice and their lowest slots go first.
func TestChooseVictimsBranches(t *testing.T) {
	run := func(node uint16, cpu int32) model.PodState {
		return model.PodState{Phase: model.Running, Owner: 1, Node: node, CPU: cpu}
	}
	for _, tc := range []struct {
		name string
		pods []model.PodState
		n    int
		want [][]int // victims of each branch, in choice order
	}{
		{"identical pods on one node: one branch, lowest slots",
			[]model.PodState{run(1, 8), run(1, 8), run(1, 8)}, 2, [][]int{{0, 1}}},
		{"equal co-location on two nodes: which node loses the pod",
			[]model.PodState{run(1, 8), run(2, 8)}, 1, [][]int{{0}, {1}}},
		{"two of 2+2 identical: both from node 1, one each, both from node 2",
			[]model.PodState{run(1, 8), run(1, 8), run(2, 8), run(2, 8)}, 2, [][]int{{0, 1}, {0, 2}, {2, 3}}},
		{"the rank decides before ties: the more co-located pods go first",
			[]model.PodState{run(1, 8), run(2, 8), run(2, 8)}, 1, [][]int{{1}}},
		{"usage tells pods apart (after a CPU change)",
			[]model.PodState{run(1, 8), run(1, 9), run(1, 8)}, 1, [][]int{{0}, {1}}},
	} {
		s := &model.State{Pods: tc.pods}
		tx := model.NewTx(nil)
		tx.Begin(nil, false)
		var got [][]int
		for {
			got = append(got, chooseVictims(tx, s, 0, 0, tc.n))
			if !tx.Advance() {
				break
			}
			tx.Restart(false)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: branches %v, want %v", tc.name, got, tc.want)
		}
	}
}
