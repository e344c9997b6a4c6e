package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// podFailurePolicyJob is a Job batch of one pod to complete, with
// backoffLimit and the podFailurePolicy given (YAML under spec, "" for
// none).
func podFailurePolicyJob(backoffLimit, policy string) string {
	return `apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  backoffLimit: ` + backoffLimit + policy + `
  template:
    metadata: {labels: {app: batch}}
    spec:
      restartPolicy: Never
      containers: [{name: work, resources: {requests: {cpu: "1", memory: 1Gi}}}]
`
}

// twoFourCPUNodes are nodes a and b, 4 CPUs and 16Gi each.
var twoFourCPUNodes = fourCPUNodes("16Gi")

// fourCPUNodes are nodes a and b of 4 CPUs and the memory given.
func fourCPUNodes(memory string) string {
	return `apiVersion: v1
kind: NodeList
items:
- {apiVersion: v1, kind: Node, metadata: {name: a}, status: {allocatable: {cpu: "4", memory: ` + memory + `}}}
- {apiVersion: v1, kind: Node, metadata: {name: b}, status: {allocatable: {cpu: "4", memory: ` + memory + `}}}
`
}

// drainA drains node a once the cluster is stable: a Job pod running
// there is evicted (the eviction API adds the DisruptionTarget
// condition) and its replacement runs on b.
const drainA = `intents:
- name: job_completes
  params: {deployment: batch}
events:
- {kind: drain, node: a, when: afterStable}
`

const (
	ignoreDisruption = `
  podFailurePolicy:
    rules:
    - action: Ignore
      onPodConditions: [{type: DisruptionTarget}]`
	failJobOn137 = `
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes: {containerName: work, operator: In, values: [137]}`
	ignoreThenFailJob = `
  podFailurePolicy:
    rules:
    - action: Ignore
      onPodConditions: [{type: DisruptionTarget, status: "True"}]
    - action: FailJob
      onExitCodes: {operator: In, values: [137]}`
)

// TestPodFailurePolicyDrain: a Job with backoffLimit 0 whose pod a drain
// evicts fails (the eviction counts against backoffLimit); with the rule
// that ignores failures with the DisruptionTarget condition it completes,
// its pod replaced once the evicted one is gone. A FailJob rule on the
// exit code the kubelet gives a killed container (137) fails a Job with
// the default backoffLimit at once when the drain kills its pod, unless
// the Ignore rule for DisruptionTarget comes first.
func TestPodFailurePolicyDrain(t *testing.T) {
	for _, c := range []struct {
		name, backoffLimit, policy string
		want                       checker.Verdict
		trace                      string
	}{
		{"no policy", "0", "", checker.Violated, "failed: BackoffLimitExceeded"},
		{"Ignore DisruptionTarget", "0", ignoreDisruption, checker.Holds, ""},
		{"FailJob on exit code 137", "6", failJobOn137, checker.Violated, "failed: PodFailurePolicy"},
		{"Ignore DisruptionTarget before FailJob", "6", ignoreThenFailJob, checker.Holds, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := verifyManifests(t, podFailurePolicyJob(c.backoffLimit, c.policy), twoFourCPUNodes, drainA, true)
			r := rep.Result("job_completes")
			if r == nil || r.Verdict != c.want {
				t.Fatalf("job_completes: %+v, want %v", r, c.want)
			}
			if c.trace == "" {
				return
			}
			if r.Trace == nil {
				t.Fatal("no trace")
			}
			text := strings.Join(r.Trace.Lines(), "\n") + "\n" + r.Explanation
			for _, want := range []string{"kubectl drain a: evicting pod batch-1", c.trace} {
				if !strings.Contains(text, want) {
					t.Errorf("trace lacks %q:\n%s", want, text)
				}
			}
		})
	}
}

// TestPodFailurePolicyMemoryPressure: the kubelet's node-pressure
// eviction gives its pod the DisruptionTarget condition too (reason
// TerminationByKubelet): a Job whose pod's memory grows past its node's
// allocatable fails with backoffLimit 0 and completes with the rule that
// ignores DisruptionTarget.
func TestPodFailurePolicyMemoryPressure(t *testing.T) {
	nodes := fourCPUNodes("2Gi")
	const intents = `intents:
- name: job_completes
  params: {deployment: batch}
events:
- {kind: eventMemoryChange, deployment: batch, maxDelta: 2Gi}
`
	for _, c := range []struct {
		name, policy string
		want         checker.Verdict
	}{
		{"no policy", "", checker.Violated},
		{"Ignore DisruptionTarget", ignoreDisruption, checker.Holds},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := verifyManifests(t, podFailurePolicyJob("0", c.policy), nodes, intents, true)
			r := rep.Result("job_completes")
			if r == nil || r.Verdict != c.want {
				t.Fatalf("job_completes: %+v, want %v", r, c.want)
			}
			if c.want == checker.Violated && !strings.Contains(strings.Join(r.Trace.Lines(), "\n"), "Evicted pod batch-") {
				t.Errorf("the counterexample evicts no pod:\n%s", strings.Join(r.Trace.Lines(), "\n"))
			}
		})
	}
}
