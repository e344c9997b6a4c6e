package descheduler

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// lifePod is one pod of a PodLifeTime row on node n1 (2000 mCPU, 3000
// memory, 10 pods), requesting 100 mCPU. kind: "running", "pending"
// (bound, not started), "failed" (rejected at admission for its cpu
// request), "failed-affinity" (rejected for its node affinity: reason
// NodeAffinity, no request) or "terminating"; owner "job" makes it a
// Job's, else a ReplicaSet's.
type lifePod struct {
	kind, owner string
	labels      map[string]string
	pvc         bool
}

// lifeCase is one row of sigs.k8s.io/descheduler@v0.36.0,
// pkg/framework/plugins/podlifetime/pod_lifetime_test.go. The model has
// no clock (docs/divergences.md, "Deschedule plugins"): with
// maxPodLifeTimeSeconds or a conditions filter, which pods are old enough
// (or match) is branched over, so upstream's evicted set must be one of
// the cycle's outcomes; otherwise it must be the only one.
type lifeCase struct {
	name    string
	pods    []lifePod
	args    model.PodLifeTimeArgs
	filter  model.PodFilter
	profile model.DeschedulerProfile // DefaultEvictor args; the plugin is added
	limits  [3]int
	// want: upstream's evicted pods (pod i+1 being the row's i-th).
	want []int
	// may: the pods an untimed row may evict in some outcome (those that
	// pass every filter but the age or the conditions); nil: want.
	may []int
}

func (tc lifeCase) build() (*model.Universe, *model.State) {
	b := build.New()
	b.AddNodes(1, upstreamNode("n1"))
	for i, p := range tc.pods {
		name := fmt.Sprintf("p%d", i+1)
		tb := build.Template(name).Requests(100, 0)
		if p.kind == "failed-affinity" {
			tb = build.Template(name).Required("datacenter", "west")
		}
		for k, v := range p.labels {
			tb.Label(k, v)
		}
		t := b.AddTemplate(tb)
		b.U.Templates[t].PVC = p.pvc
		var d int
		if p.owner == "job" {
			d = b.AddJob(name, t, 1)
		} else {
			d = b.AddDeployment(name, t, 1)
		}
		if p.kind == "pending" {
			b.PendingPod(d, 0)
		} else {
			b.RunPod(d, 0)
		}
	}
	pr := tc.profile
	pr.Name = "lifetime"
	pr.Deschedule = model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.PodLifeTime}, PodLifeTime: tc.args, PodLifeTimeFilter: tc.filter}
	pol := policy(pr)
	pol.MaxPerNode, pol.MaxPerNamespace, pol.MaxTotal = tc.limits[0], tc.limits[1], tc.limits[2]
	b.U.Descheduler = pol
	u, s := b.MustBuild()
	for i, p := range tc.pods {
		switch p.kind {
		case "failed", "failed-affinity":
			s.Pods[i].Phase = model.Failed
		case "terminating":
			s.Pods[i].Phase, s.Pods[i].WasRunning = model.Terminating, true
		case "restarted":
			s.Pods[i].Restarts = 1
		}
	}
	return u, s
}

// descheduleOutcomeSets runs the deschedule extension point on every
// branch and returns the distinct sets of removed pods (printed numbers):
// Failed pods deleted, the others turned Terminating.
func descheduleOutcomeSets(u *model.Universe, s *model.State) [][]int {
	return outcomeSetsWith(u, s, func(*cycle) {})
}

// outcomeSetsWith is descheduleOutcomeSets with the cycle adjusted by
// tweak before it runs.
func outcomeSetsWith(u *model.Universe, s *model.State, tweak func(*cycle)) [][]int {
	var out [][]int
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	for {
		next := s.Clone()
		c := newCycle(u, next, tx, nil)
		tweak(c)
		c.runDeschedule()
		var got []int
		for i := range s.Pods {
			if s.Pods[i].Phase == model.Failed && next.Pods[i].Phase != model.Failed ||
				s.Pods[i].Active() && next.Pods[i].Phase == model.Terminating {
				got = append(got, i+1)
			}
		}
		if !slices.ContainsFunc(out, func(o []int) bool { return slices.Equal(o, got) }) {
			out = append(out, got)
		}
		if !tx.Advance() {
			return out
		}
		tx.Restart(false)
	}
}

// TestPodLifeTimeUpstream: the rows of the tables of pod_lifetime_test.go
// (TestPodLifeTime, TestPodLifeTime_EvictorConfiguration,
// _GenericFiltering, _EvictionLimits, _ContainerWaitingReasons,
// _PodStatusReasons, _AgeThreshold, _PodPhaseStates,
// TestStatesWithTerminatedReasons, TestConditionFiltering,
// TestTransitionTimeFiltering, TestOwnerKindsFiltering,
// TestExitCodesFiltering, TestCombinedFilters) the model can state.
//
// Restated: the CrashLoopBackOff row of _ContainerWaitingReasons, an
// OOMKilled row of TestStatesWithTerminatedReasons and "evict pod with
// matching exit code" (137), on a pod that restarted after an OOM kill
// (the only crash the model has, *Container states*).
//
// Left out (docs/divergences.md, "Deschedule plugins", *Container
// states* and *Failed pods' reasons*: the model's containers never fail
// to pull, crash but by an OOM kill, or terminate, no pod is Succeeded
// or Unknown on a node, and a Failed pod's only reasons are admission
// ones): the PodInitializing, ImagePullBackOff, CreateContainerConfigError,
// ErrImagePull, CreateContainerError (containers, init and ephemeral
// containers, and CrashLoopBackOff of init and ephemeral containers) and
// InvalidImageName rows of _ContainerWaitingReasons; the
// NodeLost, Shutdown and UnexpectedAdmissionError rows of
// _PodStatusReasons and "evict pod with matching pod status reason via
// states" (Shutdown); "1 pod with pod status phase v1.PodSucceeded" and
// "… v1.PodUnknown" of _PodPhaseStates; the init and ephemeral
// container rows of TestStatesWithTerminatedReasons and
// TestStatesWithEphemeralContainers; "transition time scoped to matching
// conditions only" (two condition filters the model cannot tell apart);
// "user
// scenario: Succeeded + PodCompleted condition + transition time
// threshold" (TestCombinedFilters).
func TestPodLifeTimeUpstream(t *testing.T) {
	age := uint(600)
	maxAge := &age
	rs := func(kind string) lifePod { return lifePod{kind: kind} }
	cases := []lifeCase{
		// TestPodLifeTime.
		{name: "No pod should be evicted since pod terminating", pods: []lifePod{rs("terminating"), rs("terminating")},
			args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge}, filter: model.PodFilter{LabelSelector: &model.Selector{MatchLabels: map[string]string{"foo": "bar"}}}},
		// TestPodLifeTime_EvictorConfiguration.
		{name: "Does not evict pvc pods with ignorePvcPods set to true", pods: []lifePod{{kind: "running", pvc: true}},
			args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge}, profile: model.DeschedulerProfile{IgnorePvcPods: true}},
		{name: "Evicts pvc pods with ignorePvcPods set to false (or unset)", pods: []lifePod{{kind: "running", pvc: true}},
			args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge}, want: []int{1}},
		// TestPodLifeTime_GenericFiltering.
		{name: "1 pod matching label selector should be evicted",
			pods: []lifePod{{kind: "running", labels: map[string]string{"foo": "bar"}}, {kind: "running", labels: map[string]string{"foo": "bar1"}}},
			args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge}, filter: model.PodFilter{LabelSelector: &model.Selector{MatchLabels: map[string]string{"foo": "bar"}}},
			want: []int{1}},
		// TestPodLifeTime_EvictionLimits: p1 is new, p2 (and p9) old.
		{name: "2 Oldest pods should be evicted when maxPodsToEvictPerNode and maxPodsToEvictPerNamespace are not set",
			pods: []lifePod{rs("running"), rs("running"), rs("pending")}, args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge}, want: []int{2, 3}, may: []int{1, 2, 3}},
		{name: "1 Oldest pod should be evicted when maxPodsToEvictPerNamespace is set to 1", pods: []lifePod{rs("running"), rs("running")},
			args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge}, limits: [3]int{0, 1, 0}, want: []int{2}, may: []int{1, 2}},
		{name: "1 Oldest pod should be evicted when maxPodsToEvictTotal is set to 1", pods: []lifePod{rs("running"), rs("running")},
			args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge}, limits: [3]int{0, 2, 1}, want: []int{2}, may: []int{1, 2}},
		{name: "1 Oldest pod should be evicted when maxPodsToEvictPerNode is set to 1", pods: []lifePod{rs("running"), rs("running")},
			args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge}, limits: [3]int{1, 0, 0}, want: []int{2}, may: []int{1, 2}},
		// TestPodLifeTime_ContainerWaitingReasons: p9 is Pending without
		// a container status, the other Pending pod's container waits
		// in ContainerCreating; the model cannot tell them apart.
		{name: "Two pods, one with ContainerCreating state. 1 should be evicted.", pods: []lifePod{rs("pending"), rs("pending")},
			args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge, States: []string{"ContainerCreating"}}, want: []int{2}, may: []int{1, 2}},
		// TestPodLifeTime_PodStatusReasons.
		{name: "1 pod with pod status reason NodeAffinity should be evicted", pods: []lifePod{rs("failed-affinity")},
			args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge, States: []string{"NodeAffinity"}}, want: []int{1}},
		// TestPodLifeTime_AgeThreshold.
		{name: "Two pods in the default namespace, 1 is new and 1 very is old. 1 should be evicted.", pods: []lifePod{rs("running"), rs("running")},
			args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge}, want: []int{2}, may: []int{1, 2}},
		{name: "Two pods in the default namespace, 2 are new and 0 are old. 0 should be evicted.", pods: []lifePod{rs("running"), rs("running")},
			args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge}, may: []int{1, 2}},
		{name: "Two pods in the default namespace, 1 created 605 seconds ago. 1 should be evicted.", pods: []lifePod{rs("running"), rs("running")},
			args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge}, want: []int{2}, may: []int{1, 2}},
		{name: "Two pods in the default namespace, 1 created 595 seconds ago. 0 should be evicted.", pods: []lifePod{rs("running"), rs("running")},
			args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge}, may: []int{1, 2}},
		// TestPodLifeTime_PodPhaseStates.
		{name: "Two old pods with different states. 1 should be evicted.", pods: []lifePod{rs("pending"), rs("running")},
			args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge, States: []string{"Pending"}}, want: []int{1}},
		{name: "1 pod with pod status phase v1.PodFailed should be evicted", pods: []lifePod{rs("failed")},
			args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge, States: []string{"Failed"}}, want: []int{1}},
		// TestStatesWithTerminatedReasons.
		// Upstream's container terminated with reason NodeAffinity is restated as the status reason.
		{name: "evict pod with matching terminated reason via states", pods: []lifePod{rs("failed-affinity")},
			args: model.PodLifeTimeArgs{States: []string{"NodeAffinity"}}, want: []int{1}},
		// TestConditionFiltering and TestTransitionTimeFiltering: the
		// model has no pod conditions; a conditions filter may match any
		// pod.
		{name: "evict pod with matching condition reason", pods: []lifePod{rs("running"), rs("running")}, args: model.PodLifeTimeArgs{Conditions: 1}, want: []int{1}, may: []int{1, 2}},
		{name: "evict pod matching condition type only", pods: []lifePod{rs("running")}, args: model.PodLifeTimeArgs{Conditions: 1}, want: []int{1}},
		{name: "no matching conditions, 0 evictions", pods: []lifePod{rs("running")}, args: model.PodLifeTimeArgs{Conditions: 1}, may: []int{1}},
		{name: "evict pod with old transition time", pods: []lifePod{rs("running")}, args: model.PodLifeTimeArgs{Conditions: 1}, want: []int{1}},
		{name: "do not evict pod with recent transition time", pods: []lifePod{rs("running")}, args: model.PodLifeTimeArgs{Conditions: 1}, may: []int{1}},
		{name: "no conditions on pod, transition time filter returns false", pods: []lifePod{rs("running")}, args: model.PodLifeTimeArgs{Conditions: 1}, may: []int{1}},
		// TestOwnerKindsFiltering.
		{name: "exclude Job owner kind: Job-owned pod not evicted", pods: []lifePod{{kind: "failed", owner: "job"}},
			args: model.PodLifeTimeArgs{States: []string{"Failed"}, ExcludeOwnerKinds: []string{"Job"}}},
		{name: "exclude Job owner kind: non-Job pod still evicted", pods: []lifePod{{kind: "failed", owner: "job"}, rs("failed")},
			args: model.PodLifeTimeArgs{States: []string{"Failed"}, ExcludeOwnerKinds: []string{"Job"}}, want: []int{2}},
		{name: "include only Job owner kind", pods: []lifePod{{kind: "failed", owner: "job"}, rs("failed")},
			args: model.PodLifeTimeArgs{States: []string{"Failed"}, IncludeOwnerKinds: []string{"Job"}}, want: []int{1}},
		// TestExitCodesFiltering.
		{name: "exit code not matched, 0 evictions", pods: []lifePod{rs("failed")},
			args: model.PodLifeTimeArgs{States: []string{"Failed"}, ExitCodes: []int32{1}}},
		// A crash the model may show: a container OOM-killed past its
		// memory limit, which the model restarts in the same step
		// ("restarted": Running, one restart). Whether a cycle sees it
		// terminated (OOMKilled, exit code 137) or waiting in
		// CrashLoopBackOff is branched; a pod that never restarted shows
		// neither.
		{name: "(restated) 1 pod with container status CrashLoopBackOff should be evicted", pods: []lifePod{rs("restarted"), rs("running")},
			args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge, States: []string{"CrashLoopBackOff"}}, want: []int{1}},
		{name: "(restated) states matches terminated reason OOMKilled", pods: []lifePod{rs("restarted"), rs("running")},
			args: model.PodLifeTimeArgs{States: []string{"OOMKilled"}}, want: []int{1}},
		{name: "(restated) evict pod with matching exit code 137", pods: []lifePod{rs("restarted"), rs("running")},
			args: model.PodLifeTimeArgs{ExitCodes: []int32{model.OOMKilledExitCode}}, want: []int{1}},
		{name: "(model) a pod that never restarted shows no crash", pods: []lifePod{rs("running")},
			args: model.PodLifeTimeArgs{States: []string{"CrashLoopBackOff", "OOMKilled"}, ExitCodes: []int32{model.OOMKilledExitCode}}},
		// TestCombinedFilters.
		{name: "failed pod removal compat: Failed + min age + exclude Job", pods: []lifePod{rs("failed"), {kind: "failed", owner: "job"}},
			args: model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: maxAge, States: []string{"Failed"}, ExcludeOwnerKinds: []string{"Job"}}, want: []int{1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u, s := tc.build()
			got := descheduleOutcomeSets(u, s)
			in := slices.ContainsFunc(got, func(o []int) bool { return slices.Equal(o, tc.want) })
			untimed := tc.args.HasAgeLimit() || tc.args.Conditions > 0 || slices.Contains(tc.args.States, "ContainerCreating") ||
				slices.Contains(tc.args.States, "CrashLoopBackOff") || slices.Contains(tc.args.States, "OOMKilled") ||
				slices.Contains(tc.args.ExitCodes, model.OOMKilledExitCode)
			may := tc.may
			if may == nil {
				may = tc.want
			}
			switch {
			case slices.ContainsFunc(got, func(o []int) bool {
				return slices.ContainsFunc(o, func(pod int) bool { return !slices.Contains(may, pod) })
			}):
				t.Errorf("outcomes %v evict a pod outside %v\n%s", got, may, Explain(u, s))
			case !in:
				t.Errorf("outcomes %v lack upstream's %v\n%s", got, tc.want, Explain(u, s))
			case !untimed && len(got) != 1:
				t.Errorf("outcomes %v, want upstream's %v alone", got, tc.want)
			}
		})
	}
}

// TestPodLifeTimeValidationUpstream: TestValidation's rows (pod_lifetime_test.go)
// as the model's reader of the args checks them. Left out: "valid:
// condition with minTimeSinceLastTransitionSeconds", "valid: condition
// with only minTimeSinceLastTransitionSeconds" and "invalid: empty
// condition filter" (the model counts condition filters, it does not
// keep them), and "invalid: both include and exclude namespaces" (the
// plugin's namespaces filter, model.PodFilter, checked by the readers).
func TestPodLifeTimeValidationUpstream(t *testing.T) {
	age := uint(600)
	cases := []struct {
		name  string
		args  model.PodLifeTimeArgs
		valid bool
	}{
		{"valid: states set", model.PodLifeTimeArgs{States: []string{"Running"}}, true},
		{"valid: conditions set", model.PodLifeTimeArgs{Conditions: 1}, true},
		{"valid: maxPodLifeTimeSeconds set", model.PodLifeTimeArgs{MaxPodLifeTimeSeconds: &age}, true},
		{"valid: states with maxPodLifeTimeSeconds", model.PodLifeTimeArgs{States: []string{"Running"}, MaxPodLifeTimeSeconds: &age}, true},
		{"valid: states with conditions", model.PodLifeTimeArgs{States: []string{"Running"}, Conditions: 1}, true},
		{"valid: exitCodes only", model.PodLifeTimeArgs{ExitCodes: []int32{1}}, true},
		{"invalid: no filter criteria", model.PodLifeTimeArgs{}, false},
		{"invalid: both include and exclude ownerKinds", model.PodLifeTimeArgs{States: []string{"Running"},
			IncludeOwnerKinds: []string{"Job"}, ExcludeOwnerKinds: []string{"ReplicaSet"}}, false},
		{"invalid: bad state name", model.PodLifeTimeArgs{States: []string{"NotAState"}}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.AddNodes(2, upstreamNode("n"))
			b.U.Descheduler = policy(model.DeschedulerProfile{Name: "lifetime", Deschedule: model.DescheduleConfig{
				Enabled: []model.DeschedulePlugin{model.PodLifeTime}, PodLifeTime: tc.args}})
			_, _, err := b.Build(0)
			if got := err == nil; got != tc.valid || err != nil && !errors.Is(err, model.ErrInvalid) {
				t.Errorf("err %v, want valid %v", err, tc.valid)
			}
		})
	}
}
