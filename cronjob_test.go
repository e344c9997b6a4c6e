package kivi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// cronJobManifests is jobManifests' Deployment web and its HPA next to a
// CronJob report of the given concurrencyPolicy whose runs are two 750m
// pods: one run and web's second pod fit on one 4-CPU node, two
// overlapping runs fill what web leaves.
func cronJobManifests(policy string) string {
	web, _, _ := strings.Cut(jobManifests("750m", 2), "---\napiVersion: batch/v1")
	return web + `---
apiVersion: batch/v1
kind: CronJob
metadata: {name: report}
spec:
  schedule: "*/10 * * * *"
  concurrencyPolicy: ` + policy + `
  jobTemplate:
    spec:
      parallelism: 2
      completions: 2
      template:
        metadata: {labels: {app: report}}
        spec:
          restartPolicy: Never
          containers: [{name: work, resources: {requests: {cpu: 750m, memory: 1Gi}}}]
`
}

const cronJobIntents = `intents:
- name: pod_always_schedulable
events:
- {kind: eventCpuChange, deployment: web, when: afterStable}
`

// TestCronJobRunsOverlapBeforeHPAScaleUp: with concurrencyPolicy Allow
// the schedule fires again while a run is active, and the two runs' four
// pods and web's two do not fit on the node: pod_always_schedulable is
// violated (by web's new pod or by the second run's, whichever comes
// last), the trace showing both runs (report-1, report-2). With Forbid no run overlaps another, one run
// leaves room for web's second pod, and the property holds although the
// CronJob fires again after every run.
func TestCronJobRunsOverlapBeforeHPAScaleUp(t *testing.T) {
	rep := verifyManifests(t, cronJobManifests("Allow"), oneFourCPUNode, cronJobIntents, true)
	r := rep.Result("pod_always_schedulable")
	if r == nil || r.Verdict != checker.Violated || r.Trace == nil {
		t.Fatalf("Allow: pod_always_schedulable: %+v, want violated with a trace", r)
	}
	text := strings.Join(r.Trace.Lines(), "\n")
	for _, want := range []string{"Created job report-1 (CronJob report", "Created job report-2 (CronJob report", "Created pod: report-2-1 (job report-2)", "Insufficient cpu"} {
		if !strings.Contains(text, want) {
			t.Errorf("trace lacks %q:\n%s", want, text)
		}
	}
	rep = verifyManifests(t, cronJobManifests("Forbid"), oneFourCPUNode, cronJobIntents, true)
	if r := rep.Result("pod_always_schedulable"); r == nil || r.Verdict != checker.Holds {
		t.Errorf("Forbid: pod_always_schedulable: %+v, want holds", r)
	}
}

// TestCronJobAllowBound: an Allow CronJob whose runs never end (their
// pods do not fit) fires while both its runs are active: the model's
// bound on concurrent runs is reached and the verdict is Unknown, saying
// so, never Holds.
func TestCronJobAllowBound(t *testing.T) {
	big := strings.Replace(cronJobManifests("Allow"), "cpu: 750m", `cpu: "1"`, 1)
	rep := verifyManifests(t, big, oneFourCPUNode, "intents:\n- name: no_kernel_panic\n", true)
	r := rep.Result("no_kernel_panic")
	if r == nil || r.Verdict != checker.Unknown || !strings.HasPrefix(r.Bound, "model bound: a CronJob with concurrencyPolicy Allow fires while 2 of its runs are active") {
		t.Fatalf("no_kernel_panic: %+v, want unknown (model bound: the CronJob's runs)", r)
	}
	// With Forbid the CronJob never needs a second run.
	forbid := strings.Replace(big, "concurrencyPolicy: Allow", "concurrencyPolicy: Forbid", 1)
	if r := verifyManifests(t, forbid, oneFourCPUNode, "intents:\n- name: no_kernel_panic\n", true).Result("no_kernel_panic"); r == nil || r.Verdict != checker.Holds {
		t.Errorf("Forbid: no_kernel_panic %+v, want holds", r)
	}
}

// TestCronJobCompletesRefused: job_completes naming a CronJob is an input
// error suggesting pod_always_schedulable.
func TestCronJobCompletesRefused(t *testing.T) {
	_, _, err := kivi.LoadManifests([]kivi.InputFile{{Name: "manifests.yaml", Data: []byte(cronJobManifests("Forbid"))}},
		&kivi.InputFile{Name: "nodes.yaml", Data: []byte(oneFourCPUNode)},
		&kivi.InputFile{Name: "intents.yaml", Data: []byte("intents:\n- name: job_completes\n  params: {deployment: report}\n")})
	if err == nil || !strings.Contains(err.Error(), "intents.yaml") || !strings.Contains(err.Error(), "pod_always_schedulable") {
		t.Errorf("job_completes of a CronJob: %v, want an error in intents.yaml suggesting pod_always_schedulable", err)
	}
}

// TestCronJobRunsAssumed: Options.CronJobRuns (--cronjob-runs) replaces
// the Allow bound by an assumption the report states: with one run at a
// time the overlap of TestCronJobRunsOverlapBeforeHPAScaleUp is not
// explored and the property holds; with two it is, and is violated; the
// runs that never end of TestCronJobAllowBound no longer end the run
// Unknown.
func TestCronJobRunsAssumed(t *testing.T) {
	verify := func(manifests, intents string, runs int) *kivi.Report {
		t.Helper()
		return verifyInput(t, input{manifests: manifests, nodes: oneFourCPUNode, intents: intents,
			opts: kivi.Options{CronJobRuns: runs, Checker: checker.Options{CollectAll: true}}})
	}
	for _, c := range []struct {
		name, manifests, intents, intent string
		runs                             int
		want                             checker.Verdict
	}{
		{"one run at a time", cronJobManifests("Allow"), cronJobIntents, "pod_always_schedulable", 1, checker.Holds},
		{"two runs overlap", cronJobManifests("Allow"), cronJobIntents, "pod_always_schedulable", 2, checker.Violated},
		{"runs that never end", strings.Replace(cronJobManifests("Allow"), "cpu: 750m", `cpu: "1"`, 1), "intents:\n- name: no_kernel_panic\n", "no_kernel_panic", 2, checker.Holds},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := verify(c.manifests, c.intents, c.runs)
			if r := rep.Result(c.intent); r == nil || r.Verdict != c.want {
				t.Fatalf("%s: %+v, want %v", c.intent, r, c.want)
			}
			if text := strings.Join(rep.Assumptions, "\n"); !strings.Contains(text, fmt.Sprintf("(--cronjob-runs %d)", c.runs)) {
				t.Errorf("assumptions %q, want the CronJob runs'", rep.Assumptions)
			}
		})
	}
	c, _, err := kivi.LoadManifests([]kivi.InputFile{{Name: "manifests.yaml", Data: []byte(cronJobManifests("Allow"))}},
		&kivi.InputFile{Name: "nodes.yaml", Data: []byte(oneFourCPUNode)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kivi.Verify(context.Background(), c, kivi.Options{CronJobRuns: 3}); err == nil || !strings.Contains(err.Error(), "CronJobRuns 3 (accepted: 0 for no assumption, or 1..2)") {
		t.Errorf("CronJobRuns 3: %v, want an input error", err)
	}
}
