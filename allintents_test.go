package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestAllSettlesIntentsPastAViolation: settling every intent (--all), a
// run goes on past one intent's violation, so an intent that only breaks
// later in the same runs gets its own verdict. Scaling web up at once
// leaves it short of its spec (replica_num_always_meet_min), and only
// afterwards do its pods preempt two of batch's (batch below 2); every
// run to batch's violation passes through web's.
func TestAllSettlesIntentsPastAViolation(t *testing.T) {
	const manifests = `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 100000
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: batch}
spec:
  replicas: 3
  selector: {matchLabels: {app: batch}}
  template:
    metadata: {labels: {app: batch}}
    spec:
      containers: [{name: a, resources: {requests: {cpu: "1"}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      priorityClassName: high
      containers: [{name: a, resources: {requests: {cpu: "1"}}}]
`
	const intents = `intents:
- name: replica_num_always_meet_min
  params: {deployment: web}
- name: replica_num_always_meet_exp
  params: {deployment: batch, expReplicas: 2}
events:
- kind: scaleDeployment
  deployment: web
  replicas: 3
  when: afterStable
`
	rep := verifyManifests(t, manifests, twoNodes("2"), intents, true)
	for _, name := range []string{"replica_num_always_meet_min", "replica_num_always_meet_exp", "pod_always_schedulable"} {
		if r := rep.Result(name); r == nil || r.Verdict != checker.Violated {
			t.Errorf("%s: %+v, want violated", name, r)
		}
	}
	// web's monitor, having fired, watches no more: its line appears once
	// in batch's counterexample, at the step that broke web's intent.
	if r := rep.Result("replica_num_always_meet_exp"); r != nil && r.Trace != nil {
		if n := strings.Count(strings.Join(r.Trace.Lines(), "\n"), "[replica_num_always_meet_min]"); n != 1 {
			t.Errorf("web's violation shows %d times in batch's counterexample, want once:\n%s", n, strings.Join(r.Trace.Lines(), "\n"))
		}
	}
	if r := rep.Result("valid_end_state"); r == nil || r.Verdict != checker.Holds {
		t.Errorf("valid_end_state: %+v, want holds", r)
	}
}

// TestAllJudgesTheEndPastAViolation: past a monitor's violation (--all)
// the end of the run is judged too. Every run scales web from 2 to 3,
// short of its spec at once, and every run's drain waits for ever on the
// budget of 100 %: valid_end_state is violated, not cut off by web's
// violation.
func TestAllJudgesTheEndPastAViolation(t *testing.T) {
	const manifests = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: a, resources: {requests: {cpu: 100m}}}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  minAvailable: "100%"
  selector: {matchLabels: {app: web}}
`
	const intents = `intents:
- name: replica_num_always_meet_min
  params: {deployment: web}
events:
- {kind: scaleDeployment, deployment: web, replicas: 3, when: afterStable}
- {kind: drain, node: a, when: afterStable}
`
	rep := verifyManifests(t, manifests, twoNodes("2"), intents, true)
	for _, name := range []string{"replica_num_always_meet_min", "valid_end_state"} {
		if r := rep.Result(name); r == nil || r.Verdict != checker.Violated {
			t.Errorf("%s: %+v, want violated", name, r)
		}
	}
}
