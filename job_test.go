package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// jobManifests is a Deployment web of one 1-CPU pod with an HPA (up to 2
// replicas at 150 % CPU: a large enough CPU change scales it up) and a
// batch Job of the given parallelism and completions whose pods take cpu
// each: on one 4-CPU node, four 750m pods and web fill it.
func jobManifests(cpu string, parallelism int) string {
	p := string(rune('0' + parallelism))
	return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, resources: {requests: {cpu: "1", memory: 1Gi}}}]}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 2
  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 150}}}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  parallelism: ` + p + `
  completions: ` + p + `
  template:
    metadata: {labels: {app: batch}}
    spec:
      restartPolicy: Never
      containers: [{name: work, resources: {requests: {cpu: ` + cpu + `, memory: 1Gi}}}]
`
}

const oneFourCPUNode = `apiVersion: v1
kind: NodeList
items:
- {apiVersion: v1, kind: Node, metadata: {name: a}, status: {allocatable: {cpu: "4", memory: 16Gi}}}
`

const jobIntents = `intents:
- name: pod_always_schedulable
- name: job_completes
  params: {deployment: batch}
events:
- {kind: eventCpuChange, deployment: web, when: afterStable}
`

// TestJobFillsNodeBeforeHPAScaleUp: the Job's four parallel pods fill the
// node, so the HPA's scale-up of web finds no room while they run
// (pod_always_schedulable is violated: the trace has the Job's pods
// running and web's new pod unschedulable); each Job pod completes at
// rest, so the Job is Complete whenever the cluster stops
// (job_completes holds). With two Job pods there is room.
func TestJobFillsNodeBeforeHPAScaleUp(t *testing.T) {
	rep := verifyManifests(t, jobManifests("750m", 4), oneFourCPUNode, jobIntents, true)
	r := rep.Result("pod_always_schedulable")
	if r == nil || r.Verdict != checker.Violated || r.Trace == nil {
		t.Fatalf("pod_always_schedulable: %+v, want violated with a trace", r)
	}
	text := strings.Join(r.Trace.Lines(), "\n")
	for _, want := range []string{"[job-controller] Created pod: batch-", "Started pod batch-4", "Insufficient cpu"} {
		if !strings.Contains(text, want) {
			t.Errorf("trace lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "of job batch completed") {
		t.Errorf("the shortest violation completes a Job pod first:\n%s", text)
	}
	if r := rep.Result("job_completes"); r == nil || r.Verdict != checker.Holds {
		t.Errorf("job_completes: %+v, want holds", r)
	}
	// Two Job pods leave room for web's second pod.
	rep = verifyManifests(t, jobManifests("750m", 2), oneFourCPUNode, jobIntents, true)
	if r := rep.Result("pod_always_schedulable"); r == nil || r.Verdict != checker.Holds {
		t.Errorf("with two Job pods, pod_always_schedulable: %+v, want holds", r)
	}
}

// TestJobCompletesViolated: a Job whose pods are pinned (nodeName) to a
// node they do not fit is rejected by the kubelet pod after pod; the
// second failure exceeds backoffLimit 1 and the Job fails: job_completes
// is violated when the cluster stops, and says why. A Job whose pods fit
// completes.
func TestJobCompletesViolated(t *testing.T) {
	const pinned = `apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  backoffLimit: 1
  template:
    metadata: {labels: {app: batch}}
    spec:
      restartPolicy: Never
      nodeName: a
      containers: [{name: work, resources: {requests: {cpu: "5", memory: 1Gi}}}]
`
	const intents = "intents:\n- name: job_completes\n"
	rep := verifyManifests(t, pinned, oneFourCPUNode, intents, true)
	r := rep.Result("job_completes")
	if r == nil || r.Verdict != checker.Violated || r.Trace == nil {
		t.Fatalf("job_completes: %+v, want violated with a trace", r)
	}
	if !strings.Contains(r.Explanation, "job batch failed: BackoffLimitExceeded (2 failed pods, backoffLimit 1)") {
		t.Errorf("explanation %q does not say why the Job stopped", r.Explanation)
	}
	text := strings.Join(r.Trace.Lines(), "\n")
	for _, want := range []string{"Rejected pod batch-2 on node a at admission", "[job-controller] Job batch failed"} {
		if !strings.Contains(text, want) {
			t.Errorf("trace lacks %q:\n%s", want, text)
		}
	}
	fits := strings.Replace(pinned, `cpu: "5"`, `cpu: "3"`, 1)
	if r := verifyManifests(t, fits, oneFourCPUNode, intents, true).Result("job_completes"); r == nil || r.Verdict != checker.Holds {
		t.Errorf("a Job that fits: job_completes %+v, want holds", r)
	}
}
