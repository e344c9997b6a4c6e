package pdbdiff

import (
	"context"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

func pods(w int, states ...PodState) []Pod {
	var out []Pod
	for _, s := range states {
		out = append(out, Pod{Workload: w, State: s})
	}
	return out
}

const (
	allowed   = model.EvictionAllowed
	exhausted = model.EvictionBudgetExhausted
	multiple  = model.EvictionMultipleBudgets
)

// TestKnownClasses pins agreements on the controller's and the Eviction
// API's branches, with upstream's answers, and a minimal case of each
// class.
func TestKnownClasses(t *testing.T) {
	ctx := context.Background()
	up := newUpstream(t)
	for _, tc := range []struct {
		name string
		c    Case
		want string
		// status is upstream's status of the first budget; alone and
		// sequence its outcomes (nil: not checked).
		status          Status
		alone, sequence []model.EvictionOutcome
	}{
		{"a Job has no scale: maxUnavailable fails the sync", Case{
			Workloads: []Workload{{Kind: Job, Replicas: 2, Tier: "a"}}, Pods: pods(0, Ready, Ready),
			PDBs: []PDB{{MaxUnavailable: "1"}}},
			Agree, Status{SyncFailed: true}, []model.EvictionOutcome{exhausted, exhausted}, nil},
		{"a Job under a percentage minAvailable fails the sync; AlwaysAllow lets a NotReady pod go", Case{
			Workloads: []Workload{{Kind: Job, Replicas: 2, Tier: "a"}}, Pods: pods(0, Ready, NotReady),
			PDBs: []PDB{{MinAvailable: "50%", Policy: "AlwaysAllow"}}},
			Agree, Status{SyncFailed: true}, []model.EvictionOutcome{exhausted, allowed}, nil},
		{"a Job under an integer minAvailable is counted", Case{
			Workloads: []Workload{{Kind: Job, Replicas: 2, Tier: "a"}}, Pods: pods(0, Ready, Ready),
			PDBs: []PDB{{MinAvailable: "1"}}, Evictions: []int{0, 1}, Resync: true},
			Agree, Status{CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 2, DisruptionsAllowed: 1},
			[]model.EvictionOutcome{allowed, allowed}, []model.EvictionOutcome{allowed, exhausted}},
		{"a StatefulSet's scale, maxUnavailable 40% of 5 rounded up", Case{
			Workloads: []Workload{{Kind: StatefulSet, Replicas: 5, Tier: "a"}}, Pods: pods(0, Ready, Ready, Ready, Ready, NotReady),
			PDBs: []PDB{{MaxUnavailable: "40%"}}},
			Agree, Status{CurrentHealthy: 4, DesiredHealthy: 3, ExpectedPods: 5, DisruptionsAllowed: 1}, nil, nil},
		{"a Deployment's two ReplicaSets count its scale once; bare pods count nothing", Case{
			Workloads: []Workload{{Replicas: 4, Tier: "a"}, {Kind: Bare, Tier: "a"}},
			Pods:      append([]Pod{{State: Ready}, {State: Ready, OldRevision: true}, {State: TerminatingReady}}, pods(1, Ready)...),
			PDBs:      []PDB{{Selector: SelectTier, Tier: "a", MinAvailable: "50%"}}},
			Agree, Status{CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 4, DisruptionsAllowed: 1}, nil, nil},
		{"two budgets: 500; pending, failed and terminating pods go without a budget", Case{
			Workloads: []Workload{{Replicas: 4, Tier: "a"}},
			Pods:      pods(0, Ready, PendingBound, Failed, TerminatingReady),
			PDBs:      []PDB{{MinAvailable: "0"}, {Selector: SelectAll, MinAvailable: "0"}}},
			Agree, Status{CurrentHealthy: 1, ExpectedPods: 4, DisruptionsAllowed: 1},
			[]model.EvictionOutcome{multiple, allowed, allowed, allowed}, nil},
		{"IfHealthyBudget lets a NotReady pod go while the application is healthy", Case{
			Workloads: []Workload{{Replicas: 3, Tier: "a"}}, Pods: pods(0, Ready, Ready, NotReady),
			PDBs: []PDB{{MinAvailable: "2"}}},
			Agree, Status{CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 3}, []model.EvictionOutcome{exhausted, exhausted, allowed}, nil},
		{"status lag: a refusal quotes the stale count", Case{
			Workloads: []Workload{{Replicas: 2, Tier: "a"}}, Pods: pods(0, Ready, Ready),
			PDBs: []PDB{{MinAvailable: "1"}}, Evictions: []int{0, 1}},
			StatusLag, Status{CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 2, DisruptionsAllowed: 1}, nil, []model.EvictionOutcome{allowed, exhausted}},
		{"status lag: a NotReady pod draws on a budget of desiredHealthy 0", Case{
			Workloads: []Workload{{Replicas: 3, Tier: "a"}}, Pods: pods(0, NotReady, Ready, Ready),
			PDBs: []PDB{{MinAvailable: "0"}}, Evictions: []int{0, 1, 2}},
			StatusLag, Status{CurrentHealthy: 2, ExpectedPods: 3, DisruptionsAllowed: 2}, nil, []model.EvictionOutcome{allowed, allowed, exhausted}},
		{"status lag: a failed sync outlives the evicted pod that failed it", Case{
			Workloads: []Workload{{Replicas: 1, Tier: "a"}, {Kind: Job, Tier: "a"}},
			Pods:      append(pods(1, Failed), pods(0, Ready)...),
			PDBs:      []PDB{{Selector: SelectTier, Tier: "a", MinAvailable: "0%"}}, Evictions: []int{0, 1}},
			StatusLag, Status{SyncFailed: true}, nil, []model.EvictionOutcome{allowed, exhausted}},
		{"the same with the controller resyncing: agreement", Case{
			Workloads: []Workload{{Replicas: 3, Tier: "a"}}, Pods: pods(0, NotReady, Ready, Ready),
			PDBs: []PDB{{MinAvailable: "0"}}, Evictions: []int{0, 1, 2}, Resync: true},
			Agree, Status{CurrentHealthy: 2, ExpectedPods: 3, DisruptionsAllowed: 2}, nil, []model.EvictionOutcome{allowed, allowed, allowed}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Check(ctx, up, &tc.c, nil)
			if err != nil {
				t.Fatal(err)
			}
			if v.Class != tc.want {
				t.Fatalf("class %q, want %q\nmodel:\n%supstream:\n%s", v.Class, tc.want, v.Model, v.Upstream)
			}
			if v.Upstream.Statuses[0] != tc.status {
				t.Errorf("upstream status %+v, want %+v", v.Upstream.Statuses[0], tc.status)
			}
			outcomes := func(as []Answer) []model.EvictionOutcome {
				var out []model.EvictionOutcome
				for _, a := range as {
					out = append(out, a.Outcome)
				}
				return out
			}
			if got := outcomes(v.Upstream.Alone); tc.alone != nil && !slices.Equal(got, tc.alone) {
				t.Errorf("upstream outcomes alone %v, want %v", got, tc.alone)
			}
			if got := outcomes(v.Upstream.Sequence); tc.sequence != nil && !slices.Equal(got, tc.sequence) {
				t.Errorf("upstream sequence %v, want %v", got, tc.sequence)
			}
		})
	}
}

// TestPlantedBugs: model bugs planted in the model's universe or state
// are judged unexplained on some of 1000 random cases, so the
// comparison can fail.
func TestPlantedBugs(t *testing.T) {
	ctx := context.Background()
	up := newUpstream(t)
	planted := map[string]Plant{
		"a Job read as a Deployment (its scale known)": func(u *model.Universe, _ *model.State) {
			for d := range u.Deployments {
				u.Deployments[d].Kind = model.KindDeployment
			}
		},
		"unhealthyPodEvictionPolicy ignored": func(u *model.Universe, _ *model.State) {
			for b := range u.PDBs {
				u.PDBs[b].UnhealthyPodEvictionPolicy = model.IfHealthyBudget
			}
		},
		"maxUnavailable read as minAvailable": func(u *model.Universe, _ *model.State) {
			for b := range u.PDBs {
				if p := &u.PDBs[b]; p.MaxUnavailable != nil {
					p.MinAvailable, p.MaxUnavailable = p.MaxUnavailable, nil
				}
			}
		},
		"a pod Ready but not yet available counted unhealthy": func(_ *model.Universe, s *model.State) {
			for i := range s.Pods {
				if s.Pods[i].Readiness == model.PodReadyNotAvailable {
					s.Pods[i].Readiness = model.PodNotReady
				}
			}
		},
	}
	gen := rapid.Custom(genCase)
	for name, plant := range planted {
		t.Run(name, func(t *testing.T) {
			found := 0
			for i := range 1000 {
				c := gen.Example(i)
				v, err := Check(ctx, up, c, plant)
				if err != nil {
					t.Fatal(err)
				}
				if v.Class == Unexplained {
					found++
				}
			}
			if found == 0 {
				t.Fatal("the planted bug was never caught")
			}
			t.Logf("caught on %d of 1000 cases", found)
		})
	}
}
