package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// indexedJob is an Indexed Job batch of three indexes, run two at a time,
// with backoffLimitPerIndex 0 and the podFailurePolicy given.
func indexedJob(policy string) string {
	return `apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  completionMode: Indexed
  completions: 3
  parallelism: 2
  backoffLimitPerIndex: 0` + policy + `
  template:
    metadata: {labels: {app: batch}}
    spec:
      restartPolicy: Never
      containers: [{name: work, resources: {requests: {cpu: "1", memory: 1Gi}}}]
`
}

// TestIndexedJobDrain: an Indexed Job with backoffLimitPerIndex 0 whose
// index's pod a drain evicts fails with FailedIndexes once its other
// indexes completed (the eviction is the index's one failure too many,
// the index is not retried); with the rule that ignores failures with the
// DisruptionTarget condition the index's pod is recreated and the Job
// completes.
func TestIndexedJobDrain(t *testing.T) {
	for _, c := range []struct {
		name, policy string
		want         checker.Verdict
	}{
		{"no policy", "", checker.Violated},
		{"Ignore DisruptionTarget", ignoreDisruption, checker.Holds},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := verifyManifests(t, indexedJob(c.policy), twoFourCPUNodes, drainA, true)
			r := rep.Result("job_completes")
			if r == nil || r.Verdict != c.want {
				t.Fatalf("job_completes: %+v, want %v", r, c.want)
			}
			if c.want != checker.Violated {
				return
			}
			if r.Trace == nil {
				t.Fatal("no trace")
			}
			text := strings.Join(r.Trace.Lines(), "\n") + "\n" + r.Explanation
			for _, want := range []string{"kubectl drain a: evicting pod batch-", "failed: FailedIndexes: failed indexes ", "2 of 3 succeeded"} {
				if !strings.Contains(text, want) {
					t.Errorf("trace lacks %q:\n%s", want, text)
				}
			}
		})
	}
}
