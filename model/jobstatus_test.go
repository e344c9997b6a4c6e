package model

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// jobStatusCluster is namedCluster with Job batch (parallelism 2,
// completions 4, Indexed when indexed) of the given status, and pods on
// node s1.
func jobStatusCluster(indexed bool, st *JobStatusDecl, pods ...InitialPod) *Cluster {
	c := namedCluster()
	four := 4
	jd := &JobDecl{Completions: &four, Status: st}
	if indexed {
		jd.CompletionMode = "Indexed"
	}
	c.Deployments = append(c.Deployments, DeploymentDecl{Name: "batch", Template: "t", Replicas: 2, Kind: "Job", Job: jd})
	for i := range pods {
		pods[i].Deployment = "batch"
	}
	c.Nodes[1].Pods = append(c.Nodes[1].Pods, pods...)
	return c
}

// TestJobStatusAtStart: a Job's status at the start is its state's: its
// counts, its condition (a Failed one of a reason the model never writes
// as JobFailedOther), an Indexed Job's completed indexes, and its initial
// pods with their indexes; a Job that is not finished starts queued, so
// that its controller's first sync creates what remains, a finished one
// does not.
func TestJobStatusAtStart(t *testing.T) {
	one, three := 1, 3
	for _, tc := range []struct {
		name    string
		indexed bool
		st      *JobStatusDecl
		pods    []InitialPod
		want    JobCondition
		queued  bool
		indexes []int // the completed indexes
		podIdx  []int // the pods' indexes
	}{
		{"no status", false, nil, nil, JobRunning, true, nil, nil},
		{"running", false, &JobStatusDecl{Succeeded: 2, Failed: 1}, []InitialPod{{}}, JobRunning, true, nil, nil},
		{"Complete", false, &JobStatusDecl{Succeeded: 4, Condition: "Complete"}, nil, JobComplete, false, nil, nil},
		{"Failed", false, &JobStatusDecl{Failed: 7, Condition: "Failed", Reason: "BackoffLimitExceeded"}, nil, JobFailedBackoff, false, nil, nil},
		{"Failed for its deadline", false, &JobStatusDecl{Condition: "Failed", Reason: "DeadlineExceeded"}, nil, JobFailedOther, false, nil, nil},
		{"FailureTarget of its podFailurePolicy", false, &JobStatusDecl{Failed: 1, Condition: "FailureTarget", Reason: "PodFailurePolicy"}, []InitialPod{{}}, JobFailureTarget, true, nil, nil},
		{"FailureTarget of its backoffLimit", false, &JobStatusDecl{Failed: 7, Condition: "FailureTarget", Reason: "BackoffLimitExceeded"}, nil, JobRunning, true, nil, nil},
		{"Indexed", true, &JobStatusDecl{Succeeded: 2, CompletedIndexes: []int{0, 2}}, []InitialPod{{Ordinal: &one}, {Ordinal: &three}}, JobRunning, true, []int{0, 2}, []int{1, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, s, err := jobStatusCluster(tc.indexed, tc.st, tc.pods...).Build()
			if err != nil {
				t.Fatal(err)
			}
			ds := &s.Deps[2]
			if ds.JobFinished != tc.want {
				t.Errorf("condition %s, want %s", ds.JobFinished, tc.want)
			}
			if tc.st != nil && (int(ds.JobSucceeded) != tc.st.Succeeded || int(ds.JobFailed) != tc.st.Failed) {
				t.Errorf("succeeded %d failed %d, want %d and %d", ds.JobSucceeded, ds.JobFailed, tc.st.Succeeded, tc.st.Failed)
			}
			if got := slices.Contains(s.Queues[DeploymentQueue], 2); got != tc.queued {
				t.Errorf("queued %v, want %v", got, tc.queued)
			}
			var done []int
			for k := range 4 {
				if JobIndex(ds, k) == IndexSucceeded {
					done = append(done, k)
				}
			}
			if !slices.Equal(done, tc.indexes) {
				t.Errorf("completed indexes %v, want %v", done, tc.indexes)
			}
			var idx []int
			for _, p := range s.Pods {
				if p.Owner == 3 {
					idx = append(idx, p.IndexOf())
				}
			}
			if tc.podIdx == nil {
				tc.podIdx = slices.Repeat([]int{-1}, len(tc.pods))
			}
			slices.Sort(idx)
			if !slices.Equal(idx, tc.podIdx) {
				t.Errorf("pods' indexes %v, want %v", idx, tc.podIdx)
			}

		})
	}
}

// TestJobStatusAtStartErrors: a status a Job cannot have, or an initial
// pod its status rules out, is an invalid cluster naming the field.
func TestJobStatusAtStartErrors(t *testing.T) {
	zero, two, four := 0, 2, 4
	for _, tc := range []struct {
		name    string
		indexed bool
		st      *JobStatusDecl
		pods    []InitialPod
		want    string
	}{
		{"negative succeeded", false, &JobStatusDecl{Succeeded: -1}, nil, "status.succeeded -1"},
		{"failed beyond the bound", false, &JobStatusDecl{Failed: MaxJobCount + 1}, nil, "status.failed"},
		{"unknown condition", false, &JobStatusDecl{Condition: "Done"}, nil, `condition "Done"`},
		{"indexes of a NonIndexed Job", false, &JobStatusDecl{Succeeded: 1, CompletedIndexes: []int{0}}, nil, "NonIndexed"},
		{"failedIndexes without backoffLimitPerIndex", true, &JobStatusDecl{FailedIndexes: []int{0}}, nil, "without backoffLimitPerIndex"},
		{"an index beyond completions", true, &JobStatusDecl{Succeeded: 1, CompletedIndexes: []int{4}}, nil, "index 4"},
		{"an index twice", true, &JobStatusDecl{Succeeded: 2, CompletedIndexes: []int{1, 1}}, nil, "listed twice"},
		{"succeeded unlike the indexes", true, &JobStatusDecl{Succeeded: 3, CompletedIndexes: []int{1}}, nil, "status.succeeded 3"},
		{"a pod of a finished Job", false, &JobStatusDecl{Condition: "Complete"}, []InitialPod{{}}, "a finished Job's pods are gone"},
		{"an Indexed Job's pod without its index", true, nil, []InitialPod{{}}, "needs its completion index"},
		{"a pod of a completed index", true, &JobStatusDecl{Succeeded: 1, CompletedIndexes: []int{0}}, []InitialPod{{Ordinal: &zero}}, "is in its completedIndexes"},
		{"a pod beyond completions", true, nil, []InitialPod{{Ordinal: &four}}, "completion index 4"},
		{"a NonIndexed Job's pod with an index", false, nil, []InitialPod{{Ordinal: &two}}, "NonIndexed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := jobStatusCluster(tc.indexed, tc.st, tc.pods...).Build()
			if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want an invalid cluster with %q", err, tc.want)
			}
		})
	}
}
