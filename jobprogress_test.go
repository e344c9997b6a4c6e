package kivi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// cronJobHistory is a running cluster's dump of CronJob report (a run of
// one 1-cpu pod), suspended so that the cluster can stop (a CronJob that
// may fire again never lets job_completes be judged), with the three
// finished Jobs its successfulJobsHistoryLimit keeps, each with its
// Succeeded pod still listed.
func cronJobHistory() string {
	var b strings.Builder
	b.WriteString(`- apiVersion: batch/v1
  kind: CronJob
  metadata: {name: report, namespace: default}
  spec:
    schedule: "0 3 * * *"
    concurrencyPolicy: Forbid
    suspend: true
    jobTemplate:
      spec:
        template:
          spec: {restartPolicy: Never, containers: [{name: report, resources: {requests: {cpu: "1", memory: 256Mi}}}]}
`)
	for i, node := range []string{"a", "b", "a"} {
		job := fmt.Sprintf("report-2935%d", i)
		fmt.Fprintf(&b, `- apiVersion: batch/v1
  kind: Job
  metadata:
    name: %[1]s
    namespace: default
    ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: report, controller: true}]
  spec:
    completions: 1
    parallelism: 1
    template:
      metadata: {labels: {batch.kubernetes.io/job-name: %[1]s}}
      spec: {restartPolicy: Never, containers: [{name: report, resources: {requests: {cpu: "1", memory: 256Mi}}}]}
  status:
    succeeded: 1
    startTime: "2026-11-2%[2]dT03:00:00Z"
    completionTime: "2026-11-2%[2]dT03:02:00Z"
    conditions:
    - {type: SuccessCriteriaMet, status: "True"}
    - {type: Complete, status: "True"}
- {apiVersion: v1, kind: Pod, metadata: {name: %[1]s-x7k2p, namespace: default, ownerReferences: [{kind: Job, name: %[1]s, controller: true}]}, spec: {nodeName: %[3]s, restartPolicy: Never, containers: [{name: report, resources: {requests: {cpu: "1", memory: 256Mi}}}]}, status: {phase: Succeeded}}
`, job, i+4, node)
	}
	return b.String()
}

// TestFinishedCronJobHistoryDoesNotRunAgain: the finished Jobs a CronJob's
// history keeps are read as finished: they create no pod, their Succeeded
// pods hold no room, and job_completes holds for them. On two 2-cpu nodes
// whose web pods leave 1 cpu each, the three history Jobs run again from
// their specs would need 3 cpu, and one of their pods would find no node
// (pod_always_schedulable's false alarm); a Job read as never run and
// never synced would not be Complete (job_completes' false alarm).
func TestFinishedCronJobHistoryDoesNotRunAgain(t *testing.T) {
	dump := webDump(2, "1", cronJobHistory(), webPod("web-5d4f-a", "a", "1"), webPod("web-5d4f-b", "b", "1"))
	const intents = `intents:
- name: pod_always_schedulable
- name: job_completes
  params: {deployment: report-29350}
`
	cl, warns, err := kivi.LoadClusterDump([]kivi.InputFile{{Name: "dump.yaml", Data: []byte(dump)}},
		&kivi.InputFile{Name: "nodes.yaml", Data: []byte(twoNodes("2"))}, &kivi.InputFile{Name: "intents.yaml", Data: []byte(intents)})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := kivi.Verify(context.Background(), cl, kivi.Options{Checker: checker.Options{Workers: 1, CollectAll: true}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"pod_always_schedulable", "job_completes"} {
		r := rep.Result(name)
		if r == nil || r.Verdict != checker.Holds {
			msg := ""
			if r != nil && r.Trace != nil {
				msg = strings.Join(r.Trace.Lines(), "\n")
			}
			t.Errorf("%s: %+v, want holds (warnings %v)\n%s", name, r, warns, msg)
		}
	}
}

// TestFailedJobAtStartJobCompletes: job_completes naming a Job that had
// failed when the dump was taken is violated with what its status says:
// its reason and counts, or, for a reason the model's controller never
// writes, that it had failed at the start.
func TestFailedJobAtStartJobCompletes(t *testing.T) {
	for _, tc := range []struct {
		spec, status, want string
	}{
		{"backoffLimit: 2", `{failed: 3, conditions: [{type: FailureTarget, status: "True", reason: BackoffLimitExceeded}, {type: Failed, status: "True", reason: BackoffLimitExceeded}]}`,
			"job report failed: BackoffLimitExceeded (3 failed pods, backoffLimit 2)"},
		{"activeDeadlineSeconds: 600", `{succeeded: 1, conditions: [{type: FailureTarget, status: "True", reason: DeadlineExceeded}, {type: Failed, status: "True", reason: DeadlineExceeded}]}`,
			"job report had failed at the start (its status's Failed condition, of a reason the model does not write such as DeadlineExceeded; 1 succeeded, 0 failed pods)"},
	} {
		job := `- apiVersion: batch/v1
  kind: Job
  metadata: {name: report, namespace: default}
  spec:
    completions: 2
    ` + tc.spec + `
    template:
      spec: {restartPolicy: Never, containers: [{name: report, resources: {requests: {cpu: "1", memory: 256Mi}}}]}
  status: ` + tc.status + `
`
		const intents = `intents:
- name: job_completes
  params: {deployment: report}
`
		cl, _, err := kivi.LoadClusterDump([]kivi.InputFile{{Name: "dump.yaml", Data: []byte(webDump(1, "1", job, webPod("web-5d4f-a", "a", "1")))}},
			&kivi.InputFile{Name: "nodes.yaml", Data: []byte(twoNodes("2"))}, &kivi.InputFile{Name: "intents.yaml", Data: []byte(intents)})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := kivi.Verify(context.Background(), cl, kivi.Options{Checker: checker.Options{Workers: 1}})
		if err != nil {
			t.Fatal(err)
		}
		if r := rep.Result("job_completes"); r == nil || r.Verdict != checker.Violated || r.Explanation != tc.want {
			t.Errorf("job_completes: %+v, want violated: %s", r, tc.want)
		}
	}
}
