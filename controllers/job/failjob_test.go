package job_test

import (
	"testing"

	"github.com/kivi-go/kivi/controllers/job"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// failJobOnDisruption is a Job of parallelism 2 (completions as given,
// -1 unset) with the podFailurePolicy [FailJob on DisruptionTarget]
// (podReplacementPolicy Failed by default), one pod succeeded and gone,
// and the pods given.
func failJobOnDisruption(t *testing.T, completions int, pods ...model.PodState) (*model.Universe, *model.State) {
	t.Helper()
	b := build.New()
	b.AddNodes(1, build.Node())
	tmpl := b.AddTemplate(build.Template("batch").Requests(1, 1).Label("app", "batch"))
	d := b.AddJob("batch", tmpl, 2)
	spec := &b.Config(d).Job
	*spec = model.JobSpec{Completions: completions, WorkQueue: completions < 0, BackoffLimit: 6, ReplaceOnlyFailed: true, PodFailurePolicy: true}
	spec.PodFailureRules[0] = model.PodFailurePolicyRule{Action: model.PodFailureFailJob, OnDisruptionTarget: true}
	spec.PodFailureRuleCount = 1
	b.Slots = len(pods) + 2
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pods {
		p.Owner, p.Template, p.Node = uint8(d+1), uint8(tmpl), 1
		s.Pods[i] = p
	}
	s.Deps[d].JobSucceeded = 1
	s.Init = model.InitMain
	return u, s
}

// TestFailJobBeforeSuccessCriteria: a pod that failed while active (the
// kubelet's admission rejection or node-pressure eviction: the model's
// Failed pod) and matches a FailJob rule fails the Job even though its
// success criteria are met at the same sync, as upstream's syncJob
// evaluates getFailJobMessage before the success criteria: no earlier sync
// can have found them met (SuccessCriteriaMet, after which no policy is
// evaluated), as the pod was active until it failed.
func TestFailJobBeforeSuccessCriteria(t *testing.T) {
	rejected := model.PodState{Phase: model.Failed, Failure: model.DisruptionTarget}
	terminating := model.PodState{Phase: model.Terminating, Failure: model.DisruptionTarget}
	for _, tc := range []struct {
		name        string
		completions int
		pods        []model.PodState
		want        model.JobCondition
		failed      int
	}{
		{"completions unset", -1, []model.PodState{rejected}, model.JobFailedPodFailurePolicy, 1},
		{"completions reached", 1, []model.PodState{rejected}, model.JobFailedPodFailurePolicy, 1},
		// The terminating pod counts as failed once the Job is failing,
		// and Failed waits for it.
		{"a pod terminating", -1, []model.PodState{terminating, rejected}, model.JobFailureTarget, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s := failJobOnDisruption(t, tc.completions, tc.pods...)
			tx := model.NewTx(u)
			tx.Begin(nil, false)
			job.Sync(tx, s, 0)
			if got := s.Deps[0].JobFinished; got != tc.want {
				t.Errorf("Job %s, want %s", got, tc.want)
			}
			if got := model.CountJob(u, s, 0).Failed; got != tc.failed {
				t.Errorf("failed %d, want %d", got, tc.failed)
			}
		})
	}
}
