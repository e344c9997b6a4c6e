package kivi_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// TestHPAMeasuredLoad: read as a running cluster's dump, an HPA's pods
// use the load its status last measured, so its next sync rescales only
// when that load is outside its tolerance of the target, and the report
// states the load when it does; read as manifests to apply, the same
// pods use their requests (100 %) and the HPA rescales at once.
func TestHPAMeasuredLoad(t *testing.T) {
	dump := func(util string) string {
		return webDump(2, "500m", `- apiVersion: autoscaling/v2
  kind: HorizontalPodAutoscaler
  metadata: {name: web, namespace: default}
  spec:
    scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
    minReplicas: 2
    maxReplicas: 4
    metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}]
  status:
    currentMetrics: [{type: Resource, resource: {name: cpu, current: {averageUtilization: `+util+`}}}]
`, webPod("web-6c8-a", "a", "500m"), webPod("web-6c8-b", "b", "500m"))
	}
	const intents = `intents:
- name: replica_num_always_meet_exp
  params: {deployment: web, expReplicas: spec}
`
	for _, c := range []struct {
		util       string
		placed     bool
		want       checker.Verdict
		assumption string
	}{
		{"52", true, checker.Holds, ""},
		{"30", true, checker.Holds, ""}, // below the target, at minReplicas already
		{"90", true, checker.Violated, "the running pods of web (cpu 90 %) use what the input gives them, every other pod exactly its requests, until an eventCpuChange raises one pod's CPU, so the HPA of web (cpu 50 %) rescales"},
		{"52", false, checker.Violated, "every pod uses exactly its requests"},
	} {
		load := kivi.LoadManifests
		if c.placed {
			load = kivi.LoadClusterDump
		}
		rep := verifyLoaded(t, load, dump(c.util), intents)
		if r := rep.Result("replica_num_always_meet_exp"); r == nil || r.Verdict != c.want {
			t.Errorf("%s %% (placed %v): %+v, want %v", c.util, c.placed, r, c.want)
		}
		got := strings.Join(rep.Assumptions, "\n")
		if c.assumption == "" && strings.Contains(got, "HPA") || c.assumption != "" && !strings.Contains(got, c.assumption) {
			t.Errorf("%s %% (placed %v): assumptions %q, want %q", c.util, c.placed, got, c.assumption)
		}
	}
}

// TestRunningPodNamesInTraces: a running cluster's pods keep their names
// in a counterexample and its snapshots, so that the trace names the
// pods `kubectl get pods` shows; pods the trace creates get the model's
// names. The two pods on the failing node are evicted, never the third.
func TestRunningPodNamesInTraces(t *testing.T) {
	dump := webDump(3, "1", "", webPod("web-5d4f-on-b", "b", "1"), webPod("web-5d4f-on-a-1", "a", "1"), webPod("web-5d4f-on-a-2", "a", "1"))
	const intents = `intents:
- name: replica_num_always_meet_min
  params: {deployment: web}
events:
- kind: nodeFailure
  node: a
`
	cl, _, err := kivi.LoadClusterDump([]kivi.InputFile{{Name: "dump.yaml", Data: []byte(dump)}},
		&kivi.InputFile{Name: "nodes.yaml", Data: []byte(twoNodes("4"))}, &kivi.InputFile{Name: "intents.yaml", Data: []byte(intents)})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := kivi.Verify(context.Background(), cl, kivi.Options{Checker: checker.Options{Workers: 1}})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Result("replica_num_always_meet_min")
	if r == nil || r.Verdict != checker.Violated {
		t.Fatalf("replica_num_always_meet_min: %+v, want violated", r)
	}
	lines := strings.Join(r.Trace.Lines(), "\n")
	if !strings.Contains(lines, "Evicting pod web-5d4f-on-a-") || strings.Contains(lines, "web-5d4f-on-b") {
		t.Errorf("the trace does not evict a pod of node a by its name, or names the pod on b:\n%s", lines)
	}
	var names []string
	for _, p := range r.Trace.Initial.Pods {
		names = append(names, p.Name+"@"+p.Node)
	}
	slices.Sort(names)
	if want := []string{"web-5d4f-on-a-1@a", "web-5d4f-on-a-2@a", "web-5d4f-on-b@b"}; !slices.Equal(names, want) {
		t.Errorf("initial snapshot %v, want %v", names, want)
	}
}

// webDump is a running cluster's dump: Deployment web of replicas pods
// requesting cpu each, the other objects (ending in a newline) and the
// pods (webPod).
func webDump(replicas int, cpu, objects string, pods ...string) string {
	return `apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: default}
  spec:
    replicas: ` + strconv.Itoa(replicas) + `
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: web, resources: {requests: {cpu: "` + cpu + `", memory: 256Mi}}}]}
` + objects + strings.Join(pods, "")
}

// webReplicaSet is web's ReplicaSet web-<hash> of a pod template
// asking cpu, at replicas.
func webReplicaSet(hash, cpu string, replicas int) string {
	return `- apiVersion: apps/v1
  kind: ReplicaSet
  metadata:
    name: web-` + hash + `
    namespace: default
    ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, controller: true}]
  spec:
    replicas: ` + strconv.Itoa(replicas) + `
    selector: {matchLabels: {app: web, pod-template-hash: ` + hash + `}}
    template:
      metadata: {labels: {app: web, pod-template-hash: ` + hash + `}}
      spec: {containers: [{name: web, resources: {requests: {cpu: "` + cpu + `", memory: 256Mi}}}]}
`
}

// verifyDump verifies a running cluster's dump on two 4-cpu nodes with
// an intents file, with one worker, settling every intent.
func verifyDump(t *testing.T, dump, intents string) *kivi.Report {
	t.Helper()
	return verifyLoaded(t, kivi.LoadClusterDump, dump, intents)
}

// verifyLoaded is verifyDump with the stream read by load
// (kivi.LoadClusterDump or kivi.LoadManifests).
func verifyLoaded(t *testing.T, load func([]kivi.InputFile, *kivi.InputFile, *kivi.InputFile) (*kivi.Cluster, []kivi.Warning, error), dump, intents string) *kivi.Report {
	t.Helper()
	return verifyLoadedOn(t, load, dump, twoNodes("4"), intents)
}

// verifyLoadedOn is verifyLoaded on the nodes of a nodes file.
func verifyLoadedOn(t *testing.T, load func([]kivi.InputFile, *kivi.InputFile, *kivi.InputFile) (*kivi.Cluster, []kivi.Warning, error), dump, nodes, intents string) *kivi.Report {
	t.Helper()
	cl, _, err := load([]kivi.InputFile{{Name: "dump.yaml", Data: []byte(dump)}},
		&kivi.InputFile{Name: "nodes.yaml", Data: []byte(nodes)}, &kivi.InputFile{Name: "intents.yaml", Data: []byte(intents)})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := kivi.Verify(context.Background(), cl, kivi.Options{Checker: checker.Options{Workers: 1, CollectAll: true}})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// webPod is a running pod of web's ReplicaSet web-<hash> on node: its
// name starts with the ReplicaSet's.
func webPod(name, node, cpu string) string {
	hash := strings.Split(name, "-")[1]
	return `- {apiVersion: v1, kind: Pod, metadata: {name: ` + name + `, namespace: default, labels: {app: web, pod-template-hash: ` + hash + `}, ownerReferences: [{kind: ReplicaSet, name: web-` + hash + `, controller: true}]}, spec: {nodeName: ` + node + `, containers: [{name: web, resources: {requests: {cpu: "` + cpu + `", memory: 256Mi}}}]}, status: {phase: Running}}
`
}

// TestMidRolloutDumpGoesOn: a running cluster caught in the middle of a
// rollout (web: 2 replicas, maxUnavailable 0; ReplicaSet web-6c8 of the
// older template, 1 cpu, runs a pod on each 4-cpu node; the new set
// web-9f1, 1 replica, has a Pending pod the dump leaves out) goes on
// with it: the new template's pod (3.5 cpu) fits on no node, so
// pod_always_schedulable is violated. A new template of 2 cpu rolls out.
// Without the ReplicaSets the dump's pods are taken as the current
// template's and nothing is left to roll out.
func TestMidRolloutDumpGoesOn(t *testing.T) {
	for _, c := range []struct {
		name, cpu string
		sets      bool
		want      checker.Verdict
	}{
		{"new template fits nowhere", "3500m", true, checker.Violated},
		{"new template fits", "2", true, checker.Holds},
		{"no ReplicaSets in the dump", "3500m", false, checker.Holds},
	} {
		t.Run(c.name, func(t *testing.T) {
			sets := ""
			if c.sets {
				sets = webReplicaSet("6c8", "1", 2) + webReplicaSet("9f1", c.cpu, 1)
			}
			dump := strings.Replace(webDump(2, c.cpu, sets, webPod("web-6c8-a", "a", "1"), webPod("web-6c8-b", "b", "1")),
				"    selector:", "    strategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}\n    selector:", 1)
			rep := verifyDump(t, dump, "intents:\n- name: pod_always_schedulable\n")
			if r := rep.Result("pod_always_schedulable"); r == nil || r.Verdict != c.want {
				t.Fatalf("pod_always_schedulable: %+v, want %v", r, c.want)
			}
		})
	}
}
