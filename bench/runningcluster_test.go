package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// RunningCluster draws a dump of a running cluster of the given size
// from seed, as `kubectl get deployments,pdb,pods -A -o yaml` and
// `kubectl get nodes -o yaml` print it: nodes of 16 cpu in three zones,
// a Deployment per 7.5 nodes of 3 to 60 replicas (half of them spread
// by zone, DoNotSchedule, a third with a budget of maxUnavailable 1),
// their pods on the least loaded node (of the pod's zone, for a spread
// one), and an intents file in which one node fails and comes back.
func RunningCluster(seed uint64, nodes int) (dump, nodeList, intents string) {
	r := rand.New(rand.NewPCG(seed, uint64(nodes)))
	var ns, items, pods strings.Builder
	ns.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	zones := []string{"zone-a", "zone-b", "zone-c"}
	for i := range nodes {
		fmt.Fprintf(&ns, "- {apiVersion: v1, kind: Node, metadata: {name: node-%d, labels: {kubernetes.io/hostname: node-%d, topology.kubernetes.io/zone: %s}}, status: {allocatable: {cpu: \"16\", memory: 64Gi, pods: \"110\"}, conditions: [{type: Ready, status: \"True\"}]}}\n", i, i, zones[i%3])
	}
	used := make([]int, nodes) // millicores
	for d := range max(1, nodes*2/15) {
		name := fmt.Sprintf("svc-%d", d)
		replicas := []int{3, 5, 10, 20, 40, 60}[r.IntN(6)]
		cpu := []int{250, 500, 1000, 2000}[r.IntN(4)]
		spread := r.IntN(2) == 0
		constraint := ""
		if spread {
			constraint = ", topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: " + name + "}}}]"
		}
		container := fmt.Sprintf("containers: [{name: app, image: app, resources: {requests: {cpu: %dm, memory: 1Gi}}}]", cpu)
		fmt.Fprintf(&items, "- {apiVersion: apps/v1, kind: Deployment, metadata: {name: %s, namespace: prod}, spec: {replicas: %d, selector: {matchLabels: {app: %s}}, template: {metadata: {labels: {app: %s}}, spec: {%s%s}}}}\n",
			name, replicas, name, name, container, constraint)
		if r.IntN(3) == 0 {
			fmt.Fprintf(&items, "- {apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: %s, namespace: prod}, spec: {maxUnavailable: 1, selector: {matchLabels: {app: %s}}}}\n", name, name)
		}
		hash := fmt.Sprintf("%08x", r.Uint32())
		for k := range replicas {
			best := -1
			for n := range nodes {
				if (!spread || n%3 == k%3) && used[n]+cpu <= 16000 && (best < 0 || used[n] < used[best]) {
					best = n
				}
			}
			if best < 0 {
				continue // the cluster is full: the pod stays Pending, as in a real one
			}
			used[best] += cpu
			fmt.Fprintf(&pods, "- {apiVersion: v1, kind: Pod, metadata: {name: %s-%s-%05d, namespace: prod, labels: {app: %s, pod-template-hash: %s}, ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: %s-%s, controller: true}]}, spec: {nodeName: node-%d, %s%s}, status: {phase: Running}}\n",
				name, hash, k, name, hash, name, hash, best, container, constraint)
		}
	}
	dump = "apiVersion: v1\nkind: List\nitems:\n" + items.String() + pods.String()
	intents = fmt.Sprintf("intents:\n- name: pod_always_schedulable\n- name: replica_num_always_meet_min\n  params: {deployment: svc-0}\nevents:\n- kind: nodeFailure\n  node: node-%d\n", r.IntN(nodes))
	return dump, ns.String(), intents
}

func loadRunningCluster(tb testing.TB, nodes int) *kivi.Cluster {
	tb.Helper()
	dump, nodeList, intents := RunningCluster(1, nodes)
	c, _, err := kivi.LoadClusterDump([]kivi.InputFile{{Name: "dump.yaml", Data: []byte(dump)}},
		&kivi.InputFile{Name: "nodes.yaml", Data: []byte(nodeList)}, &kivi.InputFile{Name: "intents.yaml", Data: []byte(intents)})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// TestRunningClusterVerdicts: a running cluster's dump at the sizes users
// run, one node failing, verified from where its pods run: every intent is
// settled (bounded by states, not time: no verdict depends on the
// machine's speed).
func TestRunningClusterVerdicts(t *testing.T) {
	for _, nodes := range []int{20, 100, 200} {
		rep, err := kivi.Verify(context.Background(), loadRunningCluster(t, nodes), kivi.Options{ProbeStates: -1, NoDepthFirst: true,
			Checker: checker.Options{Workers: 1, MaxStates: 200_000, CollectAll: true}})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Results {
			if r.Verdict == checker.Unknown {
				t.Errorf("%d nodes: %s unknown (%s) after %d states", nodes, r.Name, r.Reason, rep.Stats.States)
			}
		}
	}
}

// BenchmarkRunningCluster verifies a running cluster's dump from where
// its pods run (kivi verify --current-placement), one node failing: the
// whole verification (phases, report) with one worker, all intents
// settled.
func BenchmarkRunningCluster(b *testing.B) {
	for _, nodes := range []int{20, 100, 200, 300} {
		c := loadRunningCluster(b, nodes)
		pods := 0
		for _, g := range c.Nodes {
			pods += len(g.Pods)
		}
		b.Run(fmt.Sprintf("nodes=%d/pods=%d", nodes, pods), func(b *testing.B) {
			var st checker.Stats
			for b.Loop() {
				rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{Workers: 1, CollectAll: true}})
				if err != nil {
					b.Fatal(err)
				}
				st = rep.Stats
			}
			report(b, st)
		})
	}
}
