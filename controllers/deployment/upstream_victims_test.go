package deployment

import (
	"fmt"
	"sort"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// The pods of upstream's ranking tests, as far as the model tells them
// apart: assigned or not, Pending or Running, Ready or not. Their ready
// times, restart counts, creation times and deletion costs are not in the
// model, so pods that differ only there are tied and the ReplicaSet
// controller branches over which goes (docs/divergences.md, "Scale-down
// tie-breakers not tracked").
var (
	rankUnscheduled = deletionRank{}
	rankPending     = deletionRank{bound: true}
	rankNotReady    = deletionRank{bound: true, running: true}
	rankReady       = deletionRank{bound: true, running: true, ready: true}
)

// withRank is r with co-location rank n (upstream's Rank: related pods on
// the pod's node).
func withRank(r deletionRank, n int) deletionRank {
	r.colocation = n
	return r
}

// TestUpstreamActivePodFiltering: k8s.io/kubernetes@v1.36.3,
// pkg/controller/controller_utils_test.go TestActivePodFiltering, row
// "Filters active pods": a Failed pod is not active, a Running one is (a
// Deployment's pod never succeeds in the model; a Terminating one, which
// upstream's filter drops by its deletion timestamp, is not active either).
func TestUpstreamActivePodFiltering(t *testing.T) {
	for _, tc := range []struct {
		phase model.Phase
		want  bool
	}{
		{model.Failed, false},
		{model.Terminating, false},
		{model.Running, true},
		{model.Pending, true},
	} {
		p := model.PodState{Phase: tc.phase, Owner: 1}
		if got := p.Active(); got != tc.want {
			t.Errorf("%v: Active() = %t, want %t", tc.phase, got, tc.want)
		}
	}
}

// TestUpstreamSortingActivePods: k8s.io/kubernetes@v1.36.3,
// pkg/controller/controller_utils_test.go TestSortingActivePods, row
// "Sorts by active pod" without its "unknownPhase" pod (the model has no
// Unknown phase, which no v1.36 component sets). Its six Ready pods differ only in ready time, restart
// counts and creation time: one tied class here, listed by slot.
func TestUpstreamSortingActivePods(t *testing.T) {
	pods := []namedRank{
		{"unscheduled", rankUnscheduled},
		{"scheduledButPending", rankPending},
		{"runningButNotReady", rankNotReady},
		{"runningNoLastTransitionTime", rankReady},
		{"runningWithLastTransitionTime", rankReady},
		{"runningLongerTime", rankReady},
		{"lowerSidecarContainerRestartCount", rankReady},
		{"lowerContainerRestartCount", rankReady},
		{"oldest", rankReady},
	}
	// Upstream's order, as classes of pods the model ties.
	want := "[[unscheduled] [scheduledButPending] [runningButNotReady] [runningNoLastTransitionTime runningWithLastTransitionTime runningLongerTime lowerSidecarContainerRestartCount lowerContainerRestartCount oldest]]"
	for perm := range 20 {
		// The listing order upstream randomizes is the slot order here.
		order := rotate(len(pods), perm)
		ranks := make([]deletionRank, len(pods))
		for slot, i := range order {
			ranks[slot] = pods[i].rank
			ranks[slot].slot = slot
		}
		sort.SliceStable(ranks, func(i, j int) bool { return ranks[i].before(ranks[j]) })
		var classes [][]string
		for i, r := range ranks {
			if i == 0 || !r.tied(ranks[i-1]) {
				classes = append(classes, nil)
			}
			classes[len(classes)-1] = append(classes[len(classes)-1], pods[order[r.slot]].name)
		}
		for _, c := range classes {
			sort.Slice(c, func(i, j int) bool { return index(pods, c[i]) < index(pods, c[j]) })
		}
		if got := fmt.Sprint(classes); got != want {
			t.Fatalf("listing %v: classes %s, want %s", order, got, want)
		}
	}
}

// rotate is a listing order of n pods: 0..n-1 shifted by k and, for odd k,
// reversed.
func rotate(n, k int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = (i + k) % n
	}
	if k%2 == 1 {
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

// namedRank is one of upstream's pods by name, as the model ranks it.
type namedRank struct {
	name string
	rank deletionRank
}

// index is the position of the pod named name in pods.
func index(pods []namedRank, name string) int {
	for i, p := range pods {
		if p.name == name {
			return i
		}
	}
	return -1
}

// TestUpstreamSortingActivePodsWithRanks: k8s.io/kubernetes@v1.36.3,
// pkg/controller/controller_utils_test.go TestSortingActivePodsWithRanks.
// Equality rows: the two pods are tied. Inequality rows: the lesser pod is
// deleted first, or, where upstream decides by what the model does not
// track (ready time, restarts, creation time), the two are tied and the
// model branches over both orders (wantTied). Left out: the rows with the
// Unknown-phase pod (equality 2, inequality 2 and 3): the model has no
// Unknown phase, which no v1.36 component sets.
func TestUpstreamSortingActivePodsWithRanks(t *testing.T) {
	for _, tc := range []struct {
		name            string
		lesser, greater deletionRank
		wantTied        bool
	}{
		{"Equality tests 0: unscheduled", withRank(rankUnscheduled, 1), withRank(rankUnscheduled, 1), true},
		{"Equality tests 1: pending", withRank(rankPending, 1), withRank(rankPending, 1), true},
		{"Equality tests 3: not ready", withRank(rankNotReady, 1), withRank(rankNotReady, 1), true},
		{"Equality tests 4: ready now, created then", withRank(rankReady, 1), withRank(rankReady, 1), true},
		{"Equality tests 5: ready now", withRank(rankReady, 1), withRank(rankReady, 1), true},
		{"Equality tests 6: ready then", withRank(rankReady, 1), withRank(rankReady, 1), true},
		{"Equality tests 7: ready now, high restarts", withRank(rankReady, 1), withRank(rankReady, 1), true},
		{"Equality tests 8: ready now, created then", withRank(rankReady, 1), withRank(rankReady, 1), true},
		{"Equality tests 9: unscheduled 5 and 8 hours", withRank(rankUnscheduled, 1), withRank(rankUnscheduled, 1), true},
		{"Equality tests 10: ready 5 and 10 hours", withRank(rankReady, 1), withRank(rankReady, 1), true},
		{"Inequality tests 0: unscheduled 1 < pending 2", withRank(rankUnscheduled, 1), withRank(rankPending, 2), false},
		{"Inequality tests 1: unscheduled 2 < pending 1", withRank(rankUnscheduled, 2), withRank(rankPending, 1), false},
		{"Inequality tests 4: not ready < ready", withRank(rankNotReady, 1), withRank(rankReady, 1), false},
		{"Inequality tests 5: ready time, tied", withRank(rankReady, 1), withRank(rankReady, 1), true},
		{"Inequality tests 6: rank 2 < rank 1", withRank(rankReady, 2), withRank(rankReady, 1), false},
		{"Inequality tests 7: ready now < ready then, tied", withRank(rankReady, 1), withRank(rankReady, 1), true},
		{"Inequality tests 8: rank 2 < rank 1", withRank(rankReady, 2), withRank(rankReady, 1), false},
		{"Inequality tests 9: high restarts, tied", withRank(rankReady, 1), withRank(rankReady, 1), true},
		{"Inequality tests 10: high sidecar restarts, tied", withRank(rankReady, 1), withRank(rankReady, 1), true},
		{"Inequality tests 11: rank 2 < high restarts rank 1", withRank(rankReady, 2), withRank(rankReady, 1), false},
		{"Inequality tests 12: created now < created then, tied", withRank(rankReady, 1), withRank(rankReady, 1), true},
		{"Inequality tests 13: rank 2 < rank 1", withRank(rankReady, 2), withRank(rankReady, 1), false},
		{"Inequality tests 14: low deletion cost rank 2 < high cost rank 1", withRank(rankReady, 2), withRank(rankReady, 1), false},
		{"Inequality tests 15: deletion cost disabled, rank 2 < rank 1", withRank(rankReady, 2), withRank(rankReady, 1), false},
		{"Inequality tests 16: ready 2 hours < 5 hours, tied", withRank(deletionRank{running: true, ready: true}, 1), withRank(deletionRank{running: true, ready: true}, 1), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := tc.lesser, tc.greater
			a.slot, b.slot = 1, 0 // the slot must not be what orders them
			if tc.wantTied {
				if !a.tied(b) {
					t.Errorf("%+v and %+v not tied", a, b)
				}
				return
			}
			if a.tied(b) || !a.before(b) || b.before(a) {
				t.Errorf("%+v not strictly before %+v", a, b)
			}
		})
	}
}

// TestUpstreamGetPodsToDelete: k8s.io/kubernetes@v1.36.3,
// pkg/controller/replicaset/replica_set_test.go TestGetPodsToDelete. Nodes:
// fake-node is 1, fake-node-1 is 2, fake-node-2 is 3. Upstream's rows list
// one pod object twice where two equal pods are meant; here they are two
// pods. Related pods are the deployment's pods of both ReplicaSets
// (getIndirectlyRelatedPods); extra related pods are in the other set.
// Victims are compared as sets where the row deletes every pod (upstream
// returns them unsorted).
func TestUpstreamGetPodsToDelete(t *testing.T) {
	unscheduled := model.PodState{Phase: model.Pending, Owner: 1}
	pending := model.PodState{Phase: model.Pending, Owner: 1, Node: 1}
	notReady := model.PodState{Phase: model.Running, Owner: 1, Node: 1, Readiness: model.PodNotReady}
	readyOn := func(node uint16) model.PodState {
		return model.PodState{Phase: model.Running, Owner: 1, Node: node, Readiness: model.PodAvailable}
	}
	related := func(p model.PodState) model.PodState { p.RS = 1; return p }
	for _, tc := range []struct {
		name string
		pods []model.PodState
		diff int
		want []int // slots, in deletion order
	}{
		{"len(pods) = 0 (i.e., diff = 0 too)", nil, 0, nil},
		{"diff = len(pods)", []model.PodState{notReady, readyOn(2)}, 2, []int{0, 1}},
		{"diff < len(pods)", []model.PodState{readyOn(2), notReady}, 1, []int{1}},
		{"various pod phases and conditions, diff = len(pods)",
			[]model.PodState{readyOn(2), readyOn(2), readyOn(3), notReady, pending, unscheduled}, 6, []int{0, 1, 2, 3, 4, 5}},
		// Upstream's related pods are empty here; every pod goes, whatever
		// they are.
		{"various pod phases and conditions, diff = len(pods), relatedPods empty",
			[]model.PodState{readyOn(2), readyOn(2), readyOn(3), notReady, pending, unscheduled}, 6, []int{0, 1, 2, 3, 4, 5}},
		{"scheduled vs unscheduled, diff < len(pods)", []model.PodState{pending, unscheduled}, 1, []int{1}},
		{"ready vs not-ready, diff < len(pods)", []model.PodState{readyOn(2), notReady, notReady}, 2, []int{1, 2}},
		{"ready and colocated with another ready pod vs not colocated, diff < len(pods)",
			[]model.PodState{readyOn(2), readyOn(3), related(readyOn(3))}, 1, []int{1}},
		{"pending vs running, diff < len(pods)", []model.PodState{pending, notReady}, 1, []int{0}},
		{"various pod phases and conditions, diff < len(pods)",
			[]model.PodState{readyOn(2), readyOn(3), notReady, pending, unscheduled}, 3, []int{4, 3, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &model.State{Pods: tc.pods}
			tx := model.NewTx(nil)
			tx.Begin(nil, false)
			got := chooseVictims(tx, s, 0, 0, tc.diff)
			if tx.Advance() {
				t.Errorf("more than one choice of victims")
			}
			if tc.diff == len(tc.pods) {
				sort.Ints(got)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) && len(got)+len(tc.want) > 0 {
				t.Errorf("victims %v, want %v", got, tc.want)
			}
		})
	}
}

// TestUpstreamSlowStartBatch: k8s.io/kubernetes@v1.36.3,
// pkg/controller/replicaset/replica_set_test.go TestSlowStartBatch, with the
// failing calls played by a ResourceQuota's count of pods (the model's
// API requests fail only by admission: docs/divergences.md, model-wide,
// "API requests succeed"). A ReplicaSet short of 10 pods gets as many as
// the calls that succeed, and the set is marked for a retry once any
// failed. Upstream's call counts (the batch that fails is sent whole) are
// not observable in the model's state, which creates pods one at a time
// up to the first refusal.
func TestUpstreamSlowStartBatch(t *testing.T) {
	for _, tc := range []struct {
		name      string
		callLimit int
		want      int
	}{
		{"callLimit = 0 (all fail)", 0, 0},
		{"callLimit = count (all succeed)", 10, 10},
		{"callLimit < count (some succeed)", 5, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.AddNodes(1, build.Node())
			tmpl := b.AddTemplate(build.Template("web").Requests(1, 1))
			d := b.AddDeployment("web", tmpl, 10)
			b.Slots = 12
			u, s := b.MustBuild()
			u.ResourceQuotas = []model.ResourceQuota{{Name: "q", Hard: map[string]int64{"pods": int64(tc.callLimit)}}}
			s.Deps[d].RS[0].Replicas = 10
			tx := model.NewTx(u)
			tx.Begin(nil, false)
			manageReplicas(tx, s, d, 0)
			if got := model.RSCounts(s, d, 0).Active(); got != tc.want {
				t.Errorf("created %d pods, want %d", got, tc.want)
			}
			if refused := s.Deps[d].QuotaRefused != 0; refused != (tc.want < 10) {
				t.Errorf("marked for a retry: %t, want %t", refused, tc.want < 10)
			}
		})
	}
}
