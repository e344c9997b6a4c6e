package job_test

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/controllers/job"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// syncJobRow is a row of upstream's TestControllerSyncJob in the model's
// terms: a NonIndexed Job (completions -1: unset, a work queue) and its
// pods before one sync, and the sync's creations and the counts after it.
// Succeeded pods are the Job's status.succeeded (the model frees a
// succeeded pod's slot at once); failedBefore is a status.failed already
// counted.
type syncJobRow struct {
	name                              string
	parallelism, completions, backoff int
	replaceOnlyFailed                 bool // podReplacementPolicy Failed
	pending, active, succeeded        int
	failed, terminating, failedBefore int

	// An Indexed Job: its pods by index, and its succeeded indexes.
	indexed          bool
	indexPods        []indexPod
	succeededIndexes []int

	wantCreations, wantActive, wantFailed int
	wantDeletions                         int
	wantIndexes                           []int // the indexes created
	want                                  model.JobCondition
}

// indexPod is a pod of an Indexed Job: its index and phase.
type indexPod struct {
	index int
	phase model.Phase
}

// TestUpstreamControllerSyncJob: k8s.io/kubernetes@v1.36.3,
// pkg/controller/job/job_controller_test.go TestControllerSyncJob, its
// NonIndexed rows the model can hold. status.ready is not compared (the
// model keeps no Job status.ready; the pods' readiness does not change
// what the sync does).
//
// Left out, with the docs/divergences.md row that covers them:
//   - "too many active pods" (and its PodReplacementPolicy and "count ready
//     pods" variants), "more active pods than parallelism", "more active
//     pods than remaining completions", "more terminating pods than
//     parallelism" (and its PodFailurePolicy variant): more active pods than
//     the Job wants, which a static spec never holds (job, "Static spec");
//   - "too few active pods and active back-off" (and "... with running
//     pods"): the pod-failure backoff delay (job, "Pod-failure backoff");
//   - "too few active pods, with controller error", "too many active pods,
//     with controller error", "only new failed pod with controller error":
//     an API request that fails (model-wide, "API requests succeed");
//   - "limited pods": the fake pod control's creation limit (the model's
//     equivalent is its pod-slot bound, which ends a run Unknown);
//   - "deleting job", "job failures, unsatisfied expectations": a Job with a
//     deletion timestamp and the controller's expectations, neither of
//     which the model has (a Job is not deleted during a run);
//   - the rows upstream runs with the JobPodReplacementPolicy gate off
//     (emulating v1.33 or older; the gate is locked on in v1.36) where the
//     gate changes the outcome: "count ready pods when job fails" and
//     "indexed job failed" (the Job fails at once, its active pods counted
//     as failed; in v1.36 it waits for them to terminate, as the
//     "count terminating pods when indexed job fails and
//     PodReplacementPolicy enabled" row below);
//   - "indexed job with some pods deleted, ..." (a terminating pod without
//     an index), "indexed job some pods without index", "indexed job
//     repeated indexes", "indexed job with indexes outside of range",
//     "indexed job repeated completed index": pods with a missing, invalid,
//     repeated or out-of-range completion index, which the model's
//     controller never creates;
//   - the suspend, managedBy and manual-condition rows (suspension is
//     covered by testdata/suspend.txt; a Job's spec is static).
//
// The interim FailureTarget condition is not kept (job, "Complete or
// Failed is written once no pod of the Job is terminating"): where
// upstream writes it, the model's Job is still running.
func TestUpstreamControllerSyncJob(t *testing.T) {
	for _, tc := range []syncJobRow{
		{name: "job start", parallelism: 2, completions: 5, backoff: 6, wantCreations: 2, wantActive: 2},
		{name: "WQ job start", parallelism: 2, completions: -1, backoff: 6, wantCreations: 2, wantActive: 2},
		{name: "pending pods", parallelism: 2, completions: 5, backoff: 6, pending: 2, wantActive: 2},
		{name: "correct # of pods", parallelism: 3, completions: 5, backoff: 6, active: 3, wantActive: 3},
		{name: "WQ job: correct # of pods", parallelism: 2, completions: -1, backoff: 6, active: 2, wantActive: 2},
		{name: "too few active pods", parallelism: 2, completions: 5, backoff: 6, active: 1, succeeded: 1,
			wantCreations: 1, wantActive: 2},
		{name: "WQ job: recreate pods when failed", parallelism: 1, completions: -1, backoff: 6, replaceOnlyFailed: true,
			active: 1, failed: 1, terminating: 1, wantActive: 1, wantFailed: 1},
		{name: "WQ job: turn on PodReplacementPolicy but not set PodReplacementPolicy", parallelism: 1, completions: 1, backoff: 6,
			active: 1, failed: 1, terminating: 1, wantActive: 1, wantFailed: 2},
		{name: "WQ job: recreate pods when terminating or failed", parallelism: 1, completions: -1, backoff: 6,
			active: 1, failed: 1, terminating: 1, wantActive: 1, wantFailed: 2},
		{name: "too few active pods and no back-offs", parallelism: 1, completions: 1, backoff: 6, wantCreations: 1, wantActive: 1},
		{name: "too few active pods with a dynamic job", parallelism: 2, completions: -1, backoff: 6, active: 1,
			wantCreations: 1, wantActive: 2},
		{name: "failed + succeed pods: reset backoff delay", parallelism: 2, completions: 5, backoff: 6, active: 1, succeeded: 1, failed: 1,
			wantCreations: 1, wantActive: 2, wantFailed: 1},
		{name: "new failed pod", parallelism: 2, completions: 5, backoff: 6, active: 1, failed: 1,
			wantCreations: 1, wantActive: 2, wantFailed: 1},
		{name: "no new pod; possible finalizer update of failed pod", parallelism: 1, completions: 1, backoff: 6, active: 1, failedBefore: 1,
			wantActive: 1, wantFailed: 1},
		{name: "job finish", parallelism: 2, completions: 5, backoff: 6, succeeded: 5, want: model.JobComplete},
		{name: "WQ job finishing", parallelism: 2, completions: -1, backoff: 6, active: 1, succeeded: 1, wantActive: 1},
		{name: "WQ job all finished", parallelism: 2, completions: -1, backoff: 6, succeeded: 2, want: model.JobComplete},
		{name: "WQ job all finished despite one failure", parallelism: 2, completions: -1, backoff: 6, succeeded: 1, failed: 1,
			wantFailed: 1, want: model.JobComplete},
		{name: "status change", parallelism: 2, completions: 5, backoff: 6, active: 2, succeeded: 2, wantActive: 2},
		// Upstream's row also deletes the Job; the failure is the sync's
		// either way (backoffLimit 0, one failed pod).
		{name: "too many job failures", parallelism: 2, completions: 5, backoff: 0, failed: 1, wantFailed: 1, want: model.JobFailedBackoff},
		{name: "indexed job start", indexed: true, parallelism: 2, completions: 5, backoff: 6,
			wantCreations: 2, wantActive: 2, wantIndexes: []int{0, 1}},
		{name: "indexed job completed", indexed: true, parallelism: 2, completions: 3, backoff: 6,
			indexPods: []indexPod{{1, model.Failed}}, succeededIndexes: []int{0, 1, 2},
			wantFailed: 1, want: model.JobComplete},
		{name: "count terminating pods when indexed job fails and PodReplacementPolicy enabled", indexed: true, parallelism: 2, completions: 3, backoff: 0,
			indexPods: []indexPod{{1, model.Failed}, {2, model.Running}}, succeededIndexes: []int{0},
			wantFailed: 2, wantDeletions: 1, want: model.JobRunning},
		{name: "indexed job some running and completed pods", indexed: true, parallelism: 8, completions: 20, backoff: 6,
			indexPods:        []indexPod{{0, model.Running}, {3, model.Pending}},
			succeededIndexes: []int{2, 4, 5, 7, 8, 9},
			wantCreations:    6, wantActive: 8, wantIndexes: []int{1, 6, 10, 11, 12, 13}},
		{name: "indexed job some failed pods", indexed: true, parallelism: 3, completions: 4, backoff: 6,
			indexPods:     []indexPod{{0, model.Failed}, {1, model.Pending}, {2, model.Failed}},
			wantCreations: 2, wantActive: 3, wantFailed: 2, wantIndexes: []int{0, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) { runSyncJobRow(t, tc) })
	}
}

func runSyncJobRow(t *testing.T, tc syncJobRow) {
	t.Helper()
	b := build.New()
	b.AddNodes(1, build.Node())
	tmpl := b.AddTemplate(build.Template("batch").Requests(1, 1).Label("app", "batch"))
	d := b.AddJob("batch", tmpl, tc.parallelism)
	spec := &b.Config(d).Job
	*spec = model.JobSpec{Completions: tc.completions, WorkQueue: tc.completions < 0, BackoffLimit: tc.backoff,
		ReplaceOnlyFailed: tc.replaceOnlyFailed, Indexed: tc.indexed}
	pods := tc.pending + tc.active + tc.failed + tc.terminating + len(tc.indexPods)
	b.Slots = pods + tc.parallelism + 2
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	add := func(n int, p model.PodState) {
		for range n {
			p.Owner, p.Template = uint8(d+1), uint8(tmpl)
			s.Pods[i] = p
			i++
		}
	}
	add(tc.pending, model.PodState{Phase: model.Pending})
	add(tc.active, model.PodState{Phase: model.Running, Node: 1})
	add(tc.failed, model.PodState{Phase: model.Failed, Node: 1})
	add(tc.terminating, model.PodState{Phase: model.Terminating, Node: 1, WasRunning: true})
	for _, ip := range tc.indexPods {
		p := model.PodState{Phase: ip.phase, Ordinal: uint8(ip.index + 1)}
		if ip.phase != model.Pending {
			p.Node = 1
		}
		add(1, p)
	}
	ds := &s.Deps[d]
	ds.JobSucceeded, ds.JobFailed = int16(tc.succeeded+len(tc.succeededIndexes)), int16(tc.failedBefore)
	for _, k := range tc.succeededIndexes {
		model.SetJobIndex(ds, tc.completions, k, model.IndexSucceeded)
	}
	s.Init = model.InitMain
	pendingBefore := countPhase(s, d, model.Pending)
	terminatingBefore := countPhase(s, d, model.Terminating)
	var indexesBefore []int
	for i := range s.Pods {
		if p := &s.Pods[i]; p.Owner == uint8(d+1) && p.Phase == model.Pending {
			indexesBefore = append(indexesBefore, i)
		}
	}
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	job.Sync(tx, s, d)
	if s.Failed != model.NoFailure {
		t.Fatalf("sync failed: %d", s.Failed)
	}
	c := model.CountJob(u, s, d)
	if created := countPhase(s, d, model.Pending) - pendingBefore; created != tc.wantCreations {
		t.Errorf("created %d pods, want %d", created, tc.wantCreations)
	}
	wantSucceeded := tc.succeeded + len(tc.succeededIndexes)
	if c.Active != tc.wantActive || c.Failed != tc.wantFailed || c.Succeeded != wantSucceeded {
		t.Errorf("active %d failed %d succeeded %d, want %d %d %d", c.Active, c.Failed, c.Succeeded, tc.wantActive, tc.wantFailed, wantSucceeded)
	}
	if deleted := countPhase(s, d, model.Terminating) - terminatingBefore; deleted != tc.wantDeletions {
		t.Errorf("deleted %d pods, want %d", deleted, tc.wantDeletions)
	}
	if tc.indexed {
		var created []int
		for i := range s.Pods {
			if p := &s.Pods[i]; p.Owner == uint8(d+1) && p.Phase == model.Pending && !slices.Contains(indexesBefore, i) {
				created = append(created, p.IndexOf())
			}
		}
		slices.Sort(created)
		if !slices.Equal(created, tc.wantIndexes) {
			t.Errorf("created indexes %v, want %v", created, tc.wantIndexes)
		}
	}
	if ds.JobFinished != tc.want {
		t.Errorf("condition %v, want %v", ds.JobFinished, tc.want)
	}
}

func countPhase(s *model.State, d int, ph model.Phase) int {
	n := 0
	for i := range s.Pods {
		if p := &s.Pods[i]; p.Owner == uint8(d+1) && p.Phase == ph {
			n++
		}
	}
	return n
}

// TestUpstreamFirstPendingIndexes: k8s.io/kubernetes@v1.36.3,
// pkg/controller/job/indexed_job_utils_test.go TestFirstPendingIndexes, by
// model.CountIndexes and IndexCounts.Pending. The rows' pods without an
// index, with a negative one or with one at or past completions ("last
// pods active or succeeded": index 6 of 6; "mixed": no index and -3) are
// left out of their rows: the model's controller never creates such pods,
// and upstream's firstPendingIndexes skips them too, so the wanted indexes
// are the same without them.
func TestUpstreamFirstPendingIndexes(t *testing.T) {
	for _, tc := range []struct {
		name             string
		cnt, completions int
		active           []indexPod
		succeeded        []int
		failed           []int
		want             []int
	}{
		{name: "cnt greater than completions", cnt: 5, completions: 3, want: []int{0, 1, 2}},
		{name: "cnt less than completions", cnt: 2, completions: 5, want: []int{0, 1}},
		{name: "first pods active", cnt: 3, completions: 10,
			active: []indexPod{{0, model.Running}, {1, model.Pending}}, want: []int{2, 3, 4}},
		{name: "last pods active or succeeded", cnt: 6, completions: 6,
			succeeded: []int{4, 5}, want: []int{0, 1, 2, 3}},
		{name: "mixed", cnt: 5, completions: 20,
			active:    []indexPod{{3, model.Pending}, {5, model.Running}, {8, model.Pending}},
			succeeded: []int{2, 3, 4, 9}, want: []int{0, 1, 6, 7, 10}},
		{name: "with failed indexes", cnt: 5, completions: 20,
			active:    []indexPod{{3, model.Pending}, {9, model.Pending}},
			succeeded: []int{1, 5, 9}, failed: []int{2, 6, 7}, want: []int{0, 4, 8, 10, 11}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.AddNodes(1, build.Node())
			tmpl := b.AddTemplate(build.Template("batch").Requests(1, 1))
			d := b.AddJob("batch", tmpl, 1)
			b.Config(d).Job = model.JobSpec{Completions: tc.completions, BackoffLimit: 6, Indexed: true}
			b.Slots = len(tc.active) + 1
			u, s, err := b.Build(0)
			if err != nil {
				t.Fatal(err)
			}
			for i, ip := range tc.active {
				s.Pods[i] = model.PodState{Phase: ip.phase, Owner: uint8(d + 1), Template: uint8(tmpl), Ordinal: uint8(ip.index + 1)}
				if ip.phase == model.Running {
					s.Pods[i].Node = 1
				}
			}
			ds := &s.Deps[d]
			for _, k := range tc.succeeded {
				model.SetJobIndex(ds, tc.completions, k, model.IndexSucceeded)
			}
			for _, k := range tc.failed {
				model.SetJobIndex(ds, tc.completions, k, model.IndexFailed)
			}
			c := model.CountIndexes(u, s, d)
			if got := c.Pending(nil, tc.cnt); !slices.Equal(got, tc.want) {
				t.Errorf("pending indexes %v, want %v", got, tc.want)
			}
		})
	}
}

// TestUpstreamCalculateFailedIndexes: k8s.io/kubernetes@v1.36.3,
// pkg/controller/job/indexed_job_utils_test.go TestCalculateFailedIndexes,
// by model.CountIndexes. A pod's job-index-failure-count annotation is its
// index's failures counted so far (the index's status byte in the model);
// status.failedIndexes given before are failed indexes. Left out: "pod
// without finalizer is ignored" (the model counts a failed pod once, as it
// goes, and keeps no tracking finalizer), "pod outside completions is
// ignored" and "prev failed indexes outside the completions" (indexes the
// model's controller never creates). The rows of TestIsIndexFailed
// (indexed_job_utils_test.go) with backoffLimitPerIndex are here too; its
// "matching FailIndex pod failure policy" row is not: the model has no
// exit codes, and a Failed pod present failed before its containers ran,
// so no onExitCodes rule matches it (docs/divergences.md, job,
// "podFailurePolicy: exit codes are not modelled"; the environment chooses
// the rule's match when a pod whose containers ran fails).
func TestUpstreamCalculateFailedIndexes(t *testing.T) {
	type failedPod struct{ index, failureCount int }
	for _, tc := range []struct {
		name               string
		completions, limit int
		prevFailed         []int
		pods               []failedPod
		wantFailed         []int
	}{
		{name: "one new index failed", completions: 2, limit: 1,
			pods: []failedPod{{0, 0}, {1, 1}}, wantFailed: []int{1}},
		{name: "extend the failed indexes", completions: 2, limit: 0, prevFailed: []int{0},
			pods: []failedPod{{1, 0}}, wantFailed: []int{0, 1}},
		{name: "prev failed indexes empty", completions: 2, limit: 0,
			pods: []failedPod{{1, 0}}, wantFailed: []int{1}},
		{name: "TestIsIndexFailed: failed pod exceeding backoffLimitPerIndex, when backoffLimitPerIndex=0", completions: 2, limit: 0,
			pods: []failedPod{{0, 0}}, wantFailed: []int{0}},
		{name: "TestIsIndexFailed: failed pod exceeding backoffLimitPerIndex, when backoffLimitPerIndex=1", completions: 2, limit: 1,
			pods: []failedPod{{1, 1}}, wantFailed: []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.AddNodes(1, build.Node())
			tmpl := b.AddTemplate(build.Template("batch").Requests(1, 1))
			d := b.AddJob("batch", tmpl, 1)
			b.Config(d).Job = model.JobSpec{Completions: tc.completions, BackoffLimit: 6, Indexed: true,
				PerIndex: true, BackoffLimitPerIndex: tc.limit, MaxFailedIndexes: -1}
			b.Slots = len(tc.pods) + 1
			u, s, err := b.Build(0)
			if err != nil {
				t.Fatal(err)
			}
			ds := &s.Deps[d]
			for i, fp := range tc.pods {
				s.Pods[i] = model.PodState{Phase: model.Failed, Owner: uint8(d + 1), Template: uint8(tmpl), Node: 1, Ordinal: uint8(fp.index + 1)}
				model.SetJobIndex(ds, tc.completions, fp.index, model.JobIndexState(fp.failureCount))
			}
			for _, k := range tc.prevFailed {
				model.SetJobIndex(ds, tc.completions, k, model.IndexFailed)
			}
			c := model.CountIndexes(u, s, d)
			var got []int
			for k := range tc.completions {
				if c.IsFailed(k) {
					got = append(got, k)
				}
			}
			if !slices.Equal(got, tc.wantFailed) {
				t.Errorf("failed indexes %v, want %v", got, tc.wantFailed)
			}
		})
	}
}
