package kivi_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	kivi "github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
)

// TestQuotaRefusesReplacementOfPodOnLostNode: a pod evicted from a node
// whose kubelet is gone stays Terminating (nobody confirms its deletion),
// and a count/pods quota still counts it, so the replacement its
// ReplicaSet creates at once is refused for as long as the node stays
// lost: kubernetes/kubernetes#48696 ("Pods in Unknown state should not
// count against namespace quotas": a node outage, the replacements refused
// by the namespace quota). The fix there (#46542) stops charging the
// `pods`, cpu and memory of a pod past its deletion grace period
// (QuotaV1Pod), but count/pods counts every pod object (#117663).
//
// web has two replicas in namespace shop, one on node up and one on node
// lost, NotReady from the start and tainted unreachable:NoExecute: the
// taint manager evicts the pod after its 300 s. rollout_completes, judged
// when the cluster stops, holds when the replacement runs on up and is
// violated when the quota refuses it for ever. With the out-of-service
// taint on lost (the operator's remedy for a node shut down for good),
// the pod garbage collector force-deletes the pod and the quota has room.
func TestQuotaRefusesReplacementOfPodOnLostNode(t *testing.T) {
	const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, resources: {requests: {cpu: 100m, memory: 64Mi}}}]
`
	quota := func(hard string) string {
		return `---
apiVersion: v1
kind: ResourceQuota
metadata: {name: pods, namespace: shop}
spec:
  hard: {` + hard + `}
`
	}
	nodes := func(extraTaint string) string {
		return `apiVersion: v1
kind: NodeList
items:
- {apiVersion: v1, kind: Node, metadata: {name: up}, status: {allocatable: {cpu: "4", memory: 8Gi}}}
- apiVersion: v1
  kind: Node
  metadata: {name: lost}
  spec:
    taints:
    - {key: node.kubernetes.io/unreachable, effect: NoSchedule}` + extraTaint + `
  status:
    allocatable: {cpu: "4", memory: 8Gi}
    conditions: [{type: Ready, status: Unknown}]
`
	}
	const outOfService = `
    - {key: node.kubernetes.io/out-of-service, value: nodeshutdown, effect: NoExecute}`
	// The operator drains the lost node to have its pods rescheduled,
	// giving kubectl drain a timeout: its pods never go, so the drain's
	// wait for them times out and the drain fails, as kubectl's
	// waitForDelete under --timeout.
	const intents = `intents:
- name: rollout_completes
  params: {deployment: web}
events:
- kind: drain
  node: lost
  timeoutRetries: 1
  when: afterStable
`
	const drainFails = "kubectl drain lost failed: the node stays cordoned"
	for _, c := range []struct {
		name, quota, taint string
		want               checker.Verdict // rollout_completes
		trace              string          // in its counterexample
		drainFails         bool            // valid_end_state is violated: the drain times out
	}{
		{"no quota", "", "", checker.Holds, "", true},
		{"pods quota", quota(`pods: "2"`), "", checker.Holds, "", true},
		{"count/pods quota", quota(`count/pods: "2"`), "", checker.Violated,
			"exceeded quota: pods, requested: count/pods=1, used: count/pods=2, limited: count/pods=2", true},
		{"count/pods quota, out-of-service", quota(`count/pods: "2"`), outOfService, checker.Holds, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl, _, err := kivi.LoadManifests([]kivi.InputFile{{Name: "manifests.yaml", Data: []byte(deployment + c.quota)}},
				&kivi.InputFile{Name: "nodes.yaml", Data: []byte(nodes(c.taint))}, &kivi.InputFile{Name: "intents.yaml", Data: []byte(intents)})
			if err != nil {
				t.Fatal(err)
			}
			// One replica runs on each node at the start.
			placed := 0
			for i := range cl.Nodes {
				g := &cl.Nodes[i]
				if slices.Contains(g.Names, "up") || slices.Contains(g.Names, "lost") {
					g.Pods = append(g.Pods, model.InitialPod{Deployment: "web"})
					placed++
				}
			}
			if placed != 2 {
				t.Fatalf("node groups %+v: want up and lost", cl.Nodes)
			}
			rep, err := kivi.Verify(context.Background(), cl, kivi.Options{Checker: checker.Options{Workers: 1, CollectAll: true}})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rep.Results {
				trace := ""
				if r.Trace != nil {
					trace = strings.Join(r.Trace.Lines(), "\n")
				}
				switch r.Name {
				case "rollout_completes":
					if r.Verdict != c.want {
						t.Fatalf("rollout_completes: %v, want %v\n%s", r.Verdict, c.want, trace)
					}
					if r.Verdict != checker.Violated {
						continue
					}
					for _, want := range []string{c.trace, "stays Terminating: node lost is not Ready"} {
						if !strings.Contains(trace, want) {
							t.Errorf("the counterexample does not show %q:\n%s", want, trace)
						}
					}
				case "valid_end_state":
					want := checker.Holds
					if c.drainFails {
						want = checker.Violated
					}
					if r.Verdict != want {
						t.Fatalf("valid_end_state: %v, want %v\n%s", r.Verdict, want, trace)
					}
					if r.Verdict == checker.Violated && !strings.Contains(r.Explanation, drainFails) {
						t.Errorf("valid_end_state: %q, want %q", r.Explanation, drainFails)
					}
				default:
					if r.Verdict != checker.Holds {
						t.Errorf("%s: %v\n%s", r.Name, r.Verdict, trace)
					}
				}
			}
		})
	}
}
