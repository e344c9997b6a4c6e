package model_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// The sequences of k8s.io/kubernetes@v1.36.3,
// pkg/controller/disruption/disruption_test.go that add pods one at a
// time and check the budget's status after each sync (VerifyPdbStatus:
// disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods). The
// model has no status lag, so each sync is Disruption of the state. A pod
// not yet added is a free slot; an unready pod is Running and not Ready.
// A ReplicationController's scale is a Deployment's here (the model has no
// ReplicationController; both are read through their spec.replicas).

// budgetSteps is one workload per entry of replicas, each with its pods
// all Free at first, and a budget with minAvailable selecting them all.
func budgetSteps(t *testing.T, min model.IntOrPercent, kinds []string, replicas []int) (*model.Universe, *model.State) {
	t.Helper()
	b := build.New()
	b.AddNodes(1, build.Node())
	tmpl := b.AddTemplate(build.Template("web").Requests(1, 1).Label("app", "web"))
	for i, r := range replicas {
		name := fmt.Sprintf("w%d", i)
		var w int
		if kinds[i] == "statefulset" {
			w = b.AddStatefulSet(name, tmpl, r)
		} else {
			w = b.AddDeployment(name, tmpl, r)
		}
		for range r {
			b.RunPod(w, 0)
		}
	}
	b.U.PDBs = []model.PodDisruptionBudget{{Name: "pdb", MinAvailable: &min,
		Selector: &model.Selector{MatchLabels: map[string]string{"app": "web"}}}}
	u, s := b.MustBuild()
	for i := range s.Pods {
		if s.Pods[i].Phase == model.Running {
			s.Pods[i].Phase = model.Free
		}
	}
	return u, s
}

// addPod puts a Running pod of workload w into slot i, Ready or not.
func addPod(s *model.State, i, w int, ready bool) {
	p := &s.Pods[i]
	p.Phase, p.Owner = model.Running, uint8(w+1)
	p.Readiness = model.PodAvailable
	if !ready {
		p.Readiness = model.PodNotReady
	}
}

func checkStatus(t *testing.T, step string, u *model.Universe, s *model.State, allowed, healthy, desired, expected int) {
	t.Helper()
	want := model.DisruptionStatus{DisruptionsAllowed: allowed, CurrentHealthy: healthy, DesiredHealthy: desired, ExpectedPods: expected}
	if got := u.Disruption(s, 0); got != want {
		t.Errorf("%s: got %+v, want %+v", step, got, want)
	}
}

// TestUpstreamUnavailable: disruption_test.go TestUnavailable (integer
// minAvailable 3: expectedPods is the number of pods).
func TestUpstreamUnavailable(t *testing.T) {
	u, s := budgetSteps(t, model.IntOrPercent{Value: 3}, []string{"deployment"}, []int{4})
	for i := range 4 {
		checkStatus(t, fmt.Sprintf("%d pods", i), u, s, 0, i, 3, i)
		addPod(s, i, 0, true)
	}
	checkStatus(t, "4 pods", u, s, 1, 4, 3, 4)
	s.Pods[0].Readiness = model.PodNotReady
	checkStatus(t, "one pod unavailable", u, s, 0, 3, 3, 4)
}

// TestUpstreamStatefulSetController: disruption_test.go
// TestStatefulSetController (34% of a StatefulSet of 3, rounded up to 2).
// TestUpstreamReplicationController is the same sequence for a
// Deployment's scale, plus its unmanaged "rogue" pod.
func TestUpstreamStatefulSetController(t *testing.T) {
	for _, kind := range []string{"statefulset", "deployment"} {
		t.Run(kind, func(t *testing.T) {
			u, s := budgetSteps(t, model.IntOrPercent{Value: 34, Percent: true}, []string{kind}, []int{3})
			// A StatefulSet's pods need not be added in the slots of their ordinals here.
			checkStatus(t, "no pods", u, s, 0, 0, 0, 0)
			for i := range 3 {
				addPod(s, i, 0, true)
				if i < 2 {
					checkStatus(t, fmt.Sprintf("%d pods", i+1), u, s, 0, i+1, 2, 3)
				} else {
					checkStatus(t, "3 pods", u, s, 1, 3, 2, 3)
				}
			}
			if kind == "deployment" {
				// TestReplicationController's rogue pod: no controller, healthy,
				// no scale.
				s.Pods = append(s.Pods, s.Pods[0])
				s.Pods[3].Owner = 0
				if got := u.Disruption(s, 0).DisruptionsAllowed; got != 2 {
					t.Errorf("rogue pod: disruptionsAllowed %d, want 2", got)
				}
			}
		})
	}
}

// TestUpstreamMultipleControllers: disruption_test.go
// TestMultipleControllers, its checked steps: 1% of two unmanaged pods
// allows nothing; once a controller of scale 1 owns both, one disruption.
func TestUpstreamMultipleControllers(t *testing.T) {
	u, s := budgetSteps(t, model.IntOrPercent{Value: 1, Percent: true}, []string{"deployment"}, []int{1})
	s.Pods = append(s.Pods, s.Pods[0])
	addPod(s, 0, 0, true)
	addPod(s, 1, 0, true)
	s.Pods[0].Owner, s.Pods[1].Owner = 0, 0
	if got := u.Disruption(s, 0).DisruptionsAllowed; got != 0 {
		t.Errorf("unmanaged pods: disruptionsAllowed %d, want 0", got)
	}
	s.Pods[0].Owner, s.Pods[1].Owner = 1, 1
	if got := u.Disruption(s, 0).DisruptionsAllowed; got != 1 {
		t.Errorf("one controller: disruptionsAllowed %d, want 1", got)
	}
}

// TestUpstreamTwoControllers: disruption_test.go TestTwoControllers: 28%
// of two collections of 11 (4 with one, 7 with two, rounded up); pods are
// added one at a time, the first ones of each collection unready. The
// Deployment it adds without pods of its own changes nothing; its
// ReplicaSet's scale is the second workload's here.
func TestUpstreamTwoControllers(t *testing.T) {
	const size, minimumOne, minimumTwo = 11, 4, 7
	u, s := budgetSteps(t, model.IntOrPercent{Value: 28, Percent: true}, []string{"deployment", "deployment"}, []int{size, size})
	checkStatus(t, "no pods", u, s, 0, 0, 0, 0)
	unavailable := size - minimumOne - 1
	for i := 1; i <= size; i++ {
		addPod(s, i-1, 0, i > unavailable)
		step := fmt.Sprintf("first collection, pod %d", i)
		switch {
		case i <= unavailable:
			checkStatus(t, step, u, s, 0, 0, minimumOne, size)
		case i-unavailable <= minimumOne:
			checkStatus(t, step, u, s, 0, i-unavailable, minimumOne, size)
		default:
			checkStatus(t, step, u, s, 1, i-unavailable, minimumOne, size)
		}
	}
	checkStatus(t, "second controller without pods", u, s, 1, minimumOne+1, minimumOne, size)
	unavailable = 2*size - (minimumTwo + 2) - unavailable
	for i := 1; i <= size; i++ {
		addPod(s, size+i-1, 1, i > unavailable)
		step := fmt.Sprintf("second collection, pod %d", i)
		switch {
		case i <= unavailable:
			checkStatus(t, step, u, s, 0, minimumOne+1, minimumTwo, 2*size)
		case i-unavailable <= minimumTwo-(minimumOne+1):
			checkStatus(t, step, u, s, 0, minimumOne+1+i-unavailable, minimumTwo, 2*size)
		default:
			checkStatus(t, step, u, s, i-unavailable-(minimumTwo-(minimumOne+1)), minimumOne+1+i-unavailable, minimumTwo, 2*size)
		}
	}
	checkStatus(t, "all pods", u, s, 2, 2+minimumTwo, minimumTwo, 2*size)
	s.Pods[size-1].Readiness = model.PodNotReady
	checkStatus(t, "one pod unready", u, s, 1, 1+minimumTwo, minimumTwo, 2*size)
	s.Pods[size-2].Readiness = model.PodNotReady
	checkStatus(t, "two pods unready", u, s, 0, minimumTwo, minimumTwo, 2*size)
	s.Pods[size-1].Readiness = model.PodAvailable
	checkStatus(t, "one ready again", u, s, 1, 1+minimumTwo, minimumTwo, 2*size)
}

// TestUpstreamEviction: k8s.io/kubernetes@v1.36.3,
// pkg/registry/core/pod/storage/eviction_test.go TestEviction, the rows
// the Eviction API decides by the pod and its budget's status (budget
// "foo"): each under every unhealthy-pod eviction policy the row lists
// (none listed: both; upstream's nil is IfHealthyBudget). A refusal's
// message must contain the text upstream's carries after its reason.
//
// Left out: the rows about a delete that conflicts with a concurrent
// update or fails ("first delete conflict ...", "always conflict on
// delete ...", "resource version conflict", "other error on delete"): the
// model's API requests succeed and its evictions are atomic
// (docs/divergences.md, model-wide, "API requests succeed"); "the error
// includes the reason when the condition.Status is False": a
// DisruptionAllowed condition written by someone else, which the model's
// budgets do not carry (their status is the controller's own).
func TestUpstreamEviction(t *testing.T) {
	both := []model.UnhealthyPodEvictionPolicy{model.IfHealthyBudget, model.AlwaysAllow}
	for _, tc := range []struct {
		name     string
		st       model.DisruptionStatus
		policies []model.UnhealthyPodEvictionPolicy
		phase    model.Phase
		ready    bool
		want     model.EvictionOutcome
		message  string
	}{
		{name: "pdbs No disruptions allowed, pod pending, first delete conflict, pod still pending, pod deleted successfully",
			policies: both, phase: model.Pending, want: model.EvictionAllowed},
		{name: "matching pdbs with no disruptions allowed, pod terminating",
			policies: both, phase: model.Terminating, want: model.EvictionAllowed},
		{name: "matching pdbs with no disruptions allowed, pod running, pod healthy, unhealthy pod not ours",
			st: model.DisruptionStatus{CurrentHealthy: 2, DesiredHealthy: 2}, policies: both, phase: model.Running, ready: true,
			want: model.EvictionBudgetExhausted, message: "The disruption budget foo needs 2 healthy pods and has 2 currently"},
		{name: "matching pdbs with disruptions allowed, pod running, pod healthy, healthy pod ours, deletes pod by honoring the PDB",
			st: model.DisruptionStatus{DisruptionsAllowed: 1, CurrentHealthy: 3, DesiredHealthy: 3}, policies: both, phase: model.Running, ready: true,
			want: model.EvictionAllowed},
		{name: "matching pdbs with no disruptions allowed, pod running, pod unhealthy, unhealthy pod ours",
			st: model.DisruptionStatus{CurrentHealthy: 2, DesiredHealthy: 2}, policies: both, phase: model.Running,
			want: model.EvictionAllowed},
		{name: "matching pdbs with no disruptions allowed, pod running, pod unhealthy, unhealthy pod ours, skips the PDB check and deletes",
			policies: []model.UnhealthyPodEvictionPolicy{model.AlwaysAllow}, phase: model.Running, want: model.EvictionAllowed},
		{name: "matching pdbs with no disruptions allowed, pod running, pod healthy, empty selector, pod not deleted by honoring the PDB",
			st: model.DisruptionStatus{CurrentHealthy: 3, DesiredHealthy: 3}, policies: both, phase: model.Running, ready: true,
			want: model.EvictionBudgetExhausted, message: "The disruption budget foo needs 3 healthy pods and has 3 currently"},
		{name: "the error is about sync failure when the condition reason is SyncFailedReason",
			st: model.DisruptionStatus{SyncFailed: true}, policies: both, phase: model.Running, ready: true,
			want: model.EvictionBudgetExhausted, message: "The disruption budget foo does not allow evicting pods currently because it failed sync: "},
	} {
		for _, policy := range tc.policies {
			t.Run(tc.name+"/"+policy.String(), func(t *testing.T) {
				u := &model.Universe{PDBs: []model.PodDisruptionBudget{{Name: "foo", UnhealthyPodEvictionPolicy: policy}}}
				var ev model.Eviction
				if tc.phase == model.Running {
					ev = model.Eviction{Outcome: model.EvictionDecision(tc.st, policy, tc.ready), Budget: 0, Status: tc.st}
				} else {
					// canIgnorePDB: CheckEviction's first test, on the phase.
					bu, s := pdbCluster(t, model.PodDisruptionBudget{MinAvailable: minAvailable(9, false)}, []int{1}, 1)
					s.Pods[0].Phase = tc.phase
					ev = bu.CheckEviction(s, 0)
				}
				if ev.Outcome != tc.want {
					t.Fatalf("outcome %d, want %d", ev.Outcome, tc.want)
				}
				if msg := ev.Reason(u); !strings.Contains(msg, tc.message) || tc.message == "" && msg != "" {
					t.Errorf("message %q, want it to contain %q", msg, tc.message)
				}
			})
		}
	}
}
