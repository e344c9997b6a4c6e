package model_test

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestFailJobGoneAfterSuccess: a pod of a Job with the podFailurePolicy
// [FailJob on DisruptionTarget] leaves once one pod succeeded and none is
// active. A pod that failed while active (the model's Failed pod, removed
// by the pod garbage collector before the Job's sync) sets the
// FailureTarget: upstream's tracking finalizer keeps it for a sync, which
// finds its FailJob match before the success criteria, and no sync before
// its failure found them met (it was active). A pod deleted while it ran
// does not: the criteria may have been met while it terminated, and the
// model takes the sync that found them (upstream's SuccessCriteriaMet,
// after which no policy is evaluated) to have come first.
func TestFailJobGoneAfterSuccess(t *testing.T) {
	for _, tc := range []struct {
		name string
		pod  model.PodState
		want model.JobCondition
	}{
		{"failed while active", model.PodState{Phase: model.Failed, Failure: model.DisruptionTarget}, model.JobFailureTarget},
		{"deleted while running", model.PodState{Phase: model.Terminating, WasRunning: true, Failure: model.DisruptionTarget | model.ContainersRan}, model.JobRunning},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.AddNodes(1, build.Node())
			tmpl := b.AddTemplate(build.Template("batch").Requests(1, 1).Label("app", "batch"))
			d := b.AddJob("batch", tmpl, 2)
			spec := &b.Config(d).Job
			*spec = model.JobSpec{WorkQueue: true, BackoffLimit: 6, ReplaceOnlyFailed: true, PodFailurePolicy: true}
			spec.PodFailureRules[0] = model.PodFailurePolicyRule{Action: model.PodFailureFailJob, OnDisruptionTarget: true}
			spec.PodFailureRuleCount = 1
			b.Slots = 2
			u, s, err := b.Build(0)
			if err != nil {
				t.Fatal(err)
			}
			p := tc.pod
			p.Owner, p.Template, p.Node = uint8(d+1), uint8(tmpl), 1
			s.Pods[0] = p
			s.Deps[d].JobSucceeded = 1
			s.Init = model.InitMain
			tx := model.NewTx(u)
			tx.Begin(nil, false)
			model.ForgetJobPod(tx, s, 0, false)
			s.Pods[0] = model.PodState{}
			if got := s.Deps[d].JobFinished; got != tc.want {
				t.Errorf("Job %s, want %s", got, tc.want)
			}
			if got := model.CountJob(u, s, d).Failed; got != 1 {
				t.Errorf("failed %d, want 1", got)
			}
		})
	}
}

// TestIndexFailedByTheDecidingPod: with backoffLimit 0 and
// backoffLimitPerIndex 0 (podReplacementPolicy Failed, no
// podFailurePolicy), the first failed pod of an Indexed Job leaves: its
// failure exceeds both limits at once, and its index fails, as upstream's
// sync that finds the pod failed decides BackoffLimitExceeded and counts
// the index in calculateFailedIndexes; only a failure decided before the
// pod's own keeps its index as it was.
func TestIndexFailedByTheDecidingPod(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node())
	tmpl := b.AddTemplate(build.Template("batch").Requests(1, 1).Label("app", "batch"))
	d := b.AddJob("batch", tmpl, 2)
	spec := &b.Config(d).Job
	*spec = model.JobSpec{Completions: 2, ReplaceOnlyFailed: true, Indexed: true, PerIndex: true, MaxFailedIndexes: -1}
	b.Slots = 1
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	s.Pods[0] = model.PodState{Phase: model.Terminating, Owner: uint8(d + 1), Template: uint8(tmpl), Node: 1, Ordinal: 2}
	s.Init = model.InitMain
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	model.ForgetJobPod(tx, s, 0, false)
	s.Pods[0] = model.PodState{}
	if got := model.JobIndex(&s.Deps[d], 1); got != model.IndexFailed {
		t.Errorf("index 1: %d, want failed (%d)", got, model.IndexFailed)
	}
	if got := model.CountJob(u, s, d).Failed; got != 1 {
		t.Errorf("failed %d, want 1", got)
	}
}
