package kivi_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// restartsPolicy is a DeschedulerPolicy with RemovePodsHavingTooManyRestarts
// at podRestartThreshold THRESHOLD.
const restartsPolicy = `---
apiVersion: descheduler/v1alpha2
kind: DeschedulerPolicy
profiles:
- name: restarts
  pluginConfig:
  - name: RemovePodsHavingTooManyRestarts
    args: {podRestartThreshold: THRESHOLD}
  plugins:
    deschedule: {enabled: [RemovePodsHavingTooManyRestarts]}
`

// leakingCache is a Deployment of one pod limited to 300Mi, 44Mi above its
// request: a memory leak (eventMemoryChange) OOM-kills its container.
const leakingCache = `apiVersion: apps/v1
kind: Deployment
metadata: {name: cache}
spec:
  replicas: 1
  selector: {matchLabels: {app: cache}}
  template:
    metadata: {labels: {app: cache}}
    spec:
      containers: [{name: c, resources: {requests: {cpu: 100m, memory: 256Mi}, limits: {memory: 300Mi}}}]
`

// TestTooManyRestartsEvictsDumpedPod: a running cluster's pod whose
// containers restarted 5 times (its status' restartCount) is evicted by
// RemovePodsHavingTooManyRestarts at a threshold of 5 or less, which
// takes web below its two replicas for a while; at 6 nothing restarts
// any more in the model and the replicas hold.
func TestTooManyRestartsEvictsDumpedPod(t *testing.T) {
	crashing := `- {apiVersion: v1, kind: Pod, metadata: {name: web-6c8-a, namespace: default, labels: {app: web, pod-template-hash: 6c8}, ownerReferences: [{kind: ReplicaSet, name: web-6c8, controller: true}]}, spec: {nodeName: a, containers: [{name: web, resources: {requests: {cpu: 500m, memory: 256Mi}}}]}, status: {phase: Running, containerStatuses: [{name: web, restartCount: 5}]}}
`
	const intents = "intents:\n- name: replica_num_always_meet_min\n  params: {deployment: web}\n"
	for _, c := range []struct {
		threshold int
		want      checker.Verdict
	}{{3, checker.Violated}, {5, checker.Violated}, {6, checker.Holds}} {
		dump := webDump(2, "500m", "", crashing, webPod("web-6c8-b", "b", "500m")) +
			strings.ReplaceAll(restartsPolicy, "THRESHOLD", strconv.Itoa(c.threshold))
		rep := verifyLoaded(t, kivi.LoadClusterDump, dump, intents)
		r := rep.Result("replica_num_always_meet_min")
		if r == nil || r.Verdict != c.want {
			t.Fatalf("podRestartThreshold %d: replica_num_always_meet_min %+v, want %v", c.threshold, r, c.want)
		}
		if c.want == checker.Violated && !strings.Contains(strings.Join(r.Trace.Lines(), "\n"), "RemovePodsHavingTooManyRestarts: pod web-6c8-a on node a restarted 5 times") {
			t.Errorf("podRestartThreshold %d: the trace does not show the eviction:\n%s", c.threshold, strings.Join(r.Trace.Lines(), "\n"))
		}
	}
}

// TestTooManyRestartsEvictsAfterOOMKill: cache's memory leaks past its
// 300Mi limit, the kernel OOM-kills its container and the kubelet
// restarts it in place: one restart, which RemovePodsHavingTooManyRestarts
// at podRestartThreshold 1 answers with an eviction (cache drops below
// its one replica), at 2 does not; without the plugin nothing evicts.
func TestTooManyRestartsEvictsAfterOOMKill(t *testing.T) {
	const intents = `intents:
- name: replica_num_always_meet_min
  params: {deployment: cache}
events:
- {kind: eventMemoryChange, deployment: cache, maxDelta: 80Mi}
`
	for _, c := range []struct {
		policy string
		want   checker.Verdict
	}{
		{strings.ReplaceAll(restartsPolicy, "THRESHOLD", "1"), checker.Violated},
		{strings.ReplaceAll(restartsPolicy, "THRESHOLD", "2"), checker.Holds},
		{"", checker.Holds},
	} {
		rep := verifyManifests(t, leakingCache+c.policy, memoryPressureNodes, intents, true)
		if r := rep.Result("replica_num_always_meet_min"); r == nil || r.Verdict != c.want {
			t.Errorf("policy %q: replica_num_always_meet_min %+v, want %v", c.policy, r, c.want)
		}
	}
}

// TestCrashLoopingPodEvictedThroughItsBudget: cache runs one replica
// under a PodDisruptionBudget of minAvailable 1, and PodLifeTime (any
// pod may be old enough: the model has no clock) tries to evict it every
// cycle. The budget refuses while the pod is Ready. After an OOM kill the
// pod may be crash-looping at a cycle, not Ready: under
// unhealthyPodEvictionPolicy AlwaysAllow the Eviction API lets it go
// (cache drops below its one replica); under IfHealthyBudget the budget,
// short of healthy pods, still refuses; without the leak nothing
// crashes.
func TestCrashLoopingPodEvictedThroughItsBudget(t *testing.T) {
	const cache = leakingCache + `---
apiVersion: descheduler/v1alpha2
kind: DeschedulerPolicy
profiles:
- name: lifetime
  pluginConfig:
  - name: PodLifeTime
    args: {maxPodLifeTimeSeconds: 86400}
  plugins:
    deschedule: {enabled: [PodLifeTime]}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: cache}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: cache}}
`
	leak := "events:\n- {kind: eventMemoryChange, deployment: cache, maxDelta: 80Mi}\n"
	for _, c := range []struct {
		name, policy, events string
		want                 checker.Verdict
	}{
		{"AlwaysAllow, OOM kills", "  unhealthyPodEvictionPolicy: AlwaysAllow\n", leak, checker.Violated},
		{"IfHealthyBudget, OOM kills", "", leak, checker.Holds},
		{"AlwaysAllow, no leak", "  unhealthyPodEvictionPolicy: AlwaysAllow\n", "", checker.Holds},
	} {
		intents := "intents:\n- name: replica_num_always_meet_min\n  params: {deployment: cache}\n" + c.events
		rep := verifyManifests(t, cache+c.policy, memoryPressureNodes, intents, true)
		r := rep.Result("replica_num_always_meet_min")
		if r == nil || r.Verdict != c.want {
			t.Fatalf("%s: replica_num_always_meet_min %+v, want %v", c.name, r, c.want)
		}
		if c.want == checker.Violated && !strings.Contains(strings.Join(r.Trace.Lines(), "\n"), "CrashLoopBackOff or OOMKilled") {
			t.Errorf("%s: the trace does not say the pod was crash-looping:\n%s", c.name, strings.Join(r.Trace.Lines(), "\n"))
		}
	}
}
