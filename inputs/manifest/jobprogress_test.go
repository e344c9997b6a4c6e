package manifest

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/controllers/job"
	"github.com/kivi-go/kivi/model"
)

// dumpJob is a Job of a dump in namespace batch: spec holds its
// parallelism, completions and other fields ("" for none), status its
// status as JSON ("" for none); its pods request 1 cpu.
func dumpJob(name, spec, status string) string {
	var b strings.Builder
	b.WriteString("- apiVersion: batch/v1\n  kind: Job\n  metadata: {name: " + name + ", namespace: batch}\n  spec:\n")
	if spec != "" {
		for _, f := range strings.Split(spec, ", ") {
			b.WriteString("    " + f + "\n")
		}
	}
	b.WriteString("    template:\n      metadata: {labels: {job: " + name + "}}\n")
	b.WriteString("      spec: {restartPolicy: Never, containers: [{name: c, image: i, resources: {requests: {cpu: \"1\", memory: 1Gi}}}]}\n")
	if status != "" {
		b.WriteString("  status: " + status + "\n")
	}
	return b.String()
}

// jobPodOf is a pod of Job name in the dump, on node ("" unbound) in
// phase, with labels.
func jobPodOf(name, pod, node, phase string, labels ...string) string {
	return dumpPod("batch", pod, "Job/"+name, node, phase, "1", append([]string{"job: " + name}, labels...)...)
}

func loadJobDump(objs ...string) (*Result, error) {
	stream := "apiVersion: v1\nkind: List\nitems:\n" + strings.Join(objs, "")
	return LoadStream([]File{{Name: "dump.yaml", Data: []byte(stream)}}, &File{Name: "nodes.yaml", Data: []byte(dumpNodes)}, nil,
		Options{CurrentPlacement: true})
}

// TestCurrentPlacementJobProgress: a running cluster's Job starts from its
// status. A finished Job (Complete, Failed, a completionTime, succeeded ≥
// completions) keeps its status, has no pod and is not queued; a running
// Job's bound active pods run on their nodes up to what it still wants,
// and its first sync creates only what remains; an Indexed Job's completed
// indexes are its status and its pods keep their indexes; a suspended
// Job's pods are left out.
func TestCurrentPlacementJobProgress(t *testing.T) {
	for _, tc := range []struct {
		name string
		objs []string
		// placed is the placement (placement()); cond, succeeded and
		// failed the Job's status in the initial state; created the pods
		// its first sync creates (-1: it is not queued).
		placed            []string
		cond              model.JobCondition
		succeeded, failed int
		created           int
		indexes           []int // an Indexed Job's pods' indexes, sorted
		warn              string
	}{
		{
			name: "Complete",
			objs: []string{
				dumpJob("report", "", `{succeeded: 1, completionTime: "2026-11-20T03:00:00Z", conditions: [{type: Complete, status: "True"}]}`),
				jobPodOf("report", "report-x1", "n1", "Succeeded"),
			},
			cond: model.JobComplete, succeeded: 1, created: -1,
			warn: "1 pod (batch/report-x1) is being deleted or has finished",
		},
		{
			name: "Failed",
			objs: []string{
				dumpJob("report", "backoffLimit: 2", `{failed: 3, conditions: [{type: FailureTarget, status: "True", reason: BackoffLimitExceeded}, {type: Failed, status: "True", reason: BackoffLimitExceeded}]}`),
				jobPodOf("report", "report-x1", "n1", "Failed"),
			},
			cond: model.JobFailedBackoff, failed: 3, created: -1,
		},
		{
			name: "Failed for its deadline",
			objs: []string{dumpJob("report", "activeDeadlineSeconds: 60", `{conditions: [{type: Failed, status: "True", reason: DeadlineExceeded}]}`)},
			cond: model.JobFailedOther, created: -1,
		},
		{
			name: "a completionTime only",
			objs: []string{dumpJob("report", "", `{succeeded: 1, completionTime: "2026-11-20T03:00:00Z"}`)},
			cond: model.JobComplete, succeeded: 1, created: -1,
		},
		{
			name: "as many succeeded as completions",
			objs: []string{
				dumpJob("report", "completions: 3, parallelism: 3", `{succeeded: 4}`),
				jobPodOf("report", "report-x1", "n2", "Running"),
			},
			cond: model.JobComplete, succeeded: 3, created: -1,
			warn: "1 pod (batch/report-x1) belongs to a finished Job",
		},
		{
			name: "running: 2 of 5 succeeded, 1 of 2 active",
			objs: []string{
				dumpJob("etl", "completions: 5, parallelism: 2", `{active: 1, succeeded: 2, failed: 1}`),
				jobPodOf("etl", "etl-a", "n2", "Running"),
				jobPodOf("etl", "etl-b", "n1", "Succeeded"),
			},
			placed: []string{"etl@n2"}, cond: model.JobRunning, succeeded: 2, failed: 1, created: 1,
		},
		{
			name: "running: 4 of 5 succeeded, a pod more than it wants",
			objs: []string{
				dumpJob("etl", "completions: 5, parallelism: 2", `{active: 2, succeeded: 4}`),
				jobPodOf("etl", "etl-b", "n1", "Pending"),
				jobPodOf("etl", "etl-a", "n2", "Running"),
			},
			placed: []string{"etl@n2"}, cond: model.JobRunning, succeeded: 4, created: 0,
			warn: "1 pod (batch/etl-b) is more than its Job still wants",
		},
		{
			name: "running: a pod missing from the dump",
			objs: []string{
				dumpJob("etl", "completions: 5, parallelism: 2", `{active: 2}`),
				jobPodOf("etl", "etl-a", "n3", "Pending"),
			},
			placed: []string{"etl@n3"}, cond: model.JobRunning, created: 1,
			warn: "Job batch/etl: 2 active pods, of which the dump has 1",
		},
		{
			name: "Indexed",
			objs: []string{
				dumpJob("shard", "completions: 4, parallelism: 2, completionMode: Indexed", `{active: 2, succeeded: 2, completedIndexes: "0,2"}`),
				jobPodOf("shard", "shard-1-abcde", "n1", "Running", jobCompletionIndex+`: "1"`),
				jobPodOf("shard", "shard-2-fghij", "n2", "Running", jobCompletionIndex+`: "2"`),
				jobPodOf("shard", "shard-3-klmno", "n3", "Running"),
			},
			placed: []string{"shard-1@n1", "shard-3@n3"}, cond: model.JobRunning, succeeded: 2, created: 0,
			indexes: []int{0, 2},
			warn:    "1 pod (batch/shard-2-fghij) is more than its Job still wants",
		},
		{
			name: "Indexed, an index pending",
			objs: []string{
				dumpJob("shard", "completions: 4, parallelism: 2, completionMode: Indexed", `{active: 1, succeeded: 1, completedIndexes: "0"}`),
				jobPodOf("shard", "shard-2-fghij", "n2", "Running", jobCompletionIndex+`: "2"`),
			},
			placed: []string{"shard-2@n2"}, cond: model.JobRunning, succeeded: 1, created: 1,
			indexes: []int{0},
		},
		{
			name: "suspended",
			objs: []string{
				dumpJob("etl", "completions: 5, parallelism: 2, suspend: true", `{active: 1, succeeded: 2}`),
				jobPodOf("etl", "etl-a", "n2", "Running"),
			},
			cond: model.JobRunning, succeeded: 2, created: 0,
			warn: "1 pod (batch/etl-a) belongs to a suspended Job",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := loadJobDump(tc.objs...)
			if err != nil {
				t.Fatal(err)
			}
			got := placement(t, r)
			if !slices.Equal(got, tc.placed) {
				t.Errorf("placement %v, want %v", got, tc.placed)
			}
			u, s, err := r.Cluster.Build()
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range u.Nodes {
				if n.ReservedCPU != 0 {
					t.Errorf("node %s reserves %d millicores, want none: a Job's pods are its own or gone", n.Name, n.ReservedCPU)
				}
			}
			ds := &s.Deps[0]
			if ds.JobFinished != tc.cond || int(ds.JobSucceeded) != tc.succeeded || int(ds.JobFailed) != tc.failed {
				t.Errorf("status %s succeeded %d failed %d, want %s succeeded %d failed %d", ds.JobFinished, ds.JobSucceeded, ds.JobFailed, tc.cond, tc.succeeded, tc.failed)
			}
			var done []int
			for k := range u.Configs[ds.Config].Job.Completions {
				if model.JobIndex(ds, k) == model.IndexSucceeded {
					done = append(done, k)
				}
			}
			if !slices.Equal(done, tc.indexes) {
				t.Errorf("completed indexes %v, want %v", done, tc.indexes)
			}
			queued := slices.Contains(s.Queues[model.DeploymentQueue], 0)
			if queued != (tc.created >= 0) {
				t.Errorf("queued %v, want %v", queued, tc.created >= 0)
			}
			if tc.created >= 0 {
				before := countPods(s)
				tx := model.NewTx(u)
				tx.Begin(nil, false)
				job.Sync(tx, s, 0)
				if n := countPods(s) - before; n != tc.created {
					t.Errorf("the first sync creates %d pods, want %d", n, tc.created)
				}
				if ds := &s.Deps[0]; ds.JobFinished != tc.cond {
					t.Errorf("after the first sync the Job is %s, want %s", ds.JobFinished, tc.cond)
				}
			}
			if tc.warn != "" && !slices.ContainsFunc(r.Warnings, func(w Warning) bool { return strings.Contains(w.Msg, tc.warn) }) {
				t.Errorf("no warning %q in %v", tc.warn, r.Warnings)
			}
		})
	}
}

// countPods counts the pods in their slots.
func countPods(s *model.State) int {
	n := 0
	for _, p := range s.Pods {
		if p.Phase != model.Free {
			n++
		}
	}
	return n
}

// TestCurrentPlacementJobStatusErrors: a Job status the API server
// refuses is an input error naming the field.
func TestCurrentPlacementJobStatusErrors(t *testing.T) {
	for _, tc := range []struct {
		name, spec, status, want string
	}{
		{"negative succeeded", "", `{succeeded: -1}`, "status.succeeded: -1 (accepted: an integer ≥ 0"},
		{"negative active", "", `{active: -2}`, "status.active: -2"},
		{"Complete and Failed", "", `{conditions: [{type: Complete, status: "True"}, {type: Failed, status: "True"}]}`, "Complete and Failed are both"},
		{"completedIndexes of a NonIndexed Job", "completions: 3", `{completedIndexes: "0"}`, "for a Job of completionMode NonIndexed"},
		{"completedIndexes beyond completions", "completions: 3, completionMode: Indexed", `{completedIndexes: "0,3"}`, "index 3 is not below completions"},
		{"completedIndexes out of order", "completions: 5, completionMode: Indexed", `{completedIndexes: "2,1"}`, `"1" does not come after 2`},
		{"completedIndexes not an index", "completions: 5, completionMode: Indexed", `{completedIndexes: "a"}`, `"a" is not an index`},
		{"failedIndexes without backoffLimitPerIndex", "completions: 3, completionMode: Indexed", `{failedIndexes: "1"}`, "without spec.backoffLimitPerIndex"},
		{"an index succeeded and failed", "completions: 3, completionMode: Indexed, backoffLimitPerIndex: 1", `{completedIndexes: "1", failedIndexes: "1"}`, "index 1 is in completedIndexes too"},
		{"a count of the wrong type", "", `{succeeded: "2"}`, "status.succeeded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadJobDump(dumpJob("etl", tc.spec, tc.status))
			if err == nil || !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want an input error with %q", err, tc.want)
			}
		})
	}
}
