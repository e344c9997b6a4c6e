package incidents_test

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/examples/incidents"
	"github.com/kivi-go/kivi/report"
)

// traceChecks assert, for each incident, a property of its counterexample
// that matches what the report describes. lines are Trace.Lines; loop
// is the part after the cycle marker (empty for a finite trace).
var traceChecks = map[string]func(t *testing.T, lines, loop []string){
	// "The Pods of Statefulset running on this node become Terminating
	// forever": agent-1 is lost, its db pod is evicted and stays
	// Terminating, and no db pod is created again after the failure.
	"statefulset-stuck-on-lost-node": func(t *testing.T, lines, _ []string) {
		f := firstIndex(lines, `\[node\] Node agent-1 failed for good`)
		s := firstIndex(lines, `\[kubelet\] Pod db-\d stays Terminating: node agent-1 is not Ready`)
		if f < 0 || s < f {
			t.Fatalf("want agent-1 lost and a db pod stuck Terminating on it")
		}
		if created := matching(lines[f:], `create Pod db-\d`); len(created) != 0 {
			t.Errorf("want no db pod created after the loss; got %q", created)
		}
		if len(matching(lines, `Node agent-1 recovered`)) != 0 {
			t.Errorf("agent-1 comes back")
		}
	},
	// "With 1 master + 1 node - it occurs": worker-1 is lost, the node
	// controller taints no node (the master disruption mode), nothing is
	// evicted or created again, and the cluster rests with nginx's pods
	// still bound to worker-1.
	"lone-worker-notready-not-moved": func(t *testing.T, lines, _ []string) {
		f := firstIndex(lines, `\[node\] Node worker-1 failed for good`)
		h := firstIndex(lines, `\[node-lifecycle-controller\] Node worker-1 is not Ready: no taint, every zone is in FullDisruption`)
		if f < 0 || h < f {
			t.Fatalf("want worker-1 lost and its taint held back by the master disruption mode")
		}
		for _, bad := range []string{`tainted node.kubernetes.io/`, `Evicting pod `, `Created pod `} {
			if got := matching(lines[f:], bad); len(got) != 0 {
				t.Errorf("want nothing tainted, evicted or created after the loss; got %q", got)
			}
		}
		wantLast(t, lines, "Marking the 2 pods on node worker-1 not Ready")
	},
	// "Only three pods got scheduled; others are in pending state": three
	// placements on the workers, none on the control plane, then the 4th
	// pod has no feasible node.
	"spread-counts-tainted-node": func(t *testing.T, lines, _ []string) {
		placed := matching(lines, `\[kube-scheduler\] Scheduled pod \S+ on node worker-\d`)
		if len(placed) != 3 || len(matching(lines, `Scheduled pod \S+ on node control-plane`)) != 0 {
			t.Errorf("want exactly three pods placed, all on workers, before the failure; got %q", placed)
		}
		wantLast(t, lines, "cannot be scheduled: 0/")
	},
	// The cordoned (drained) node still counts: the pods it evicts find
	// no node although two workers have room.
	"drain-spread-cordoned-domain": func(t *testing.T, lines, _ []string) {
		m := firstIndex(lines, `\[node\] Node \S+ goes down for maintenance`)
		e := firstIndex(lines, `\[taint-eviction-controller\] Evicting pod `)
		if m < 0 || e < m {
			t.Errorf("want a maintenance that evicts pods before the failure")
		}
		wantLast(t, lines, "cannot be scheduled: 0/")
	},
	// "The fifth pod can not be scheduled": four placements, none on the
	// cordoned node-5.
	"spread-cordoned-node": func(t *testing.T, lines, _ []string) {
		placed := matching(lines, `\[kube-scheduler\] Scheduled pod \S+ on node `)
		if len(placed) != 4 || len(matching(placed, `node-5`)) != 0 {
			t.Errorf("want four pods placed, none on the cordoned node-5; got %q", placed)
		}
		wantLast(t, lines, "cannot be scheduled: 0/")
	},
	// "Only one pod is scheduled onto the worker node; the second is
	// pending".
	"kops-coredns-control-plane": func(t *testing.T, lines, _ []string) {
		placed := matching(lines, `\[kube-scheduler\] Scheduled pod \S+ on node `)
		if len(placed) != 1 || len(matching(placed, `nodes-a`)) != 1 {
			t.Errorf("want one replica placed, on the worker; got %q", placed)
		}
		wantLast(t, lines, "cannot be scheduled: 0/")
	},
	// node4 (zone E02) fails, its pod is evicted once its 300 s toleration
	// of the unreachable taint is over, and the replacement has no
	// feasible node although E01 and E03 have room.
	"zone-outage-spread": func(t *testing.T, lines, _ []string) {
		f := firstIndex(lines, `\[node\] Node node4 failed`)
		e := firstIndex(lines, `\[taint-eviction-controller\] Evicting pod \S+ from node node4: it tolerated the taint node.kubernetes.io/unreachable for 300 s`)
		if f < 0 || e < f {
			t.Errorf("want node4 to fail and its pod to be evicted before the failure")
		}
		wantLast(t, lines, "cannot be scheduled: 0/")
	},
	// The bad zone takes one pod; five are placed and the 6th is Pending
	// although the other zones have room (4 CPU each).
	"zone-capacity-spread": func(t *testing.T, lines, _ []string) {
		placed := matching(lines, `\[kube-scheduler\] Scheduled pod \S+ on node `)
		if len(placed) != 5 || len(matching(placed, `node-a`)) != 1 {
			t.Errorf("want five placements, one in the bad zone; got %q", placed)
		}
		wantLast(t, lines, "cannot be scheduled: 0/")
	},
	// The HPA asks for more replicas than the single worker holds (four
	// pods of 200m on 800m) and the next pod is Pending.
	"hpa-beyond-capacity": func(t *testing.T, lines, _ []string) {
		re := regexp.MustCompile(`\[horizontal-pod-autoscaler\] Scaling deployment \S+ from \d+ to (\d+) replicas`)
		top := 0
		for _, l := range lines {
			if m := re.FindStringSubmatch(l); m != nil {
				n, _ := strconv.Atoi(m[1])
				top = max(top, n)
			}
		}
		if top <= 4 {
			t.Errorf("want the HPA to ask for more than the 4 pods the node holds; it asked for %d", top)
		}
		if n := len(matching(lines, `\[kubelet\] Started pod \S+ on node worker-1`)); n != 4 {
			t.Errorf("want 4 pods running before the failure, got %d", n)
		}
		wantLast(t, lines, "cannot be scheduled: 0/")
	},
	// "Node upgrades can lead to both replicas of a set living on the same
	// node": node-1 is drained, its pods move to node-2, node-1 comes back
	// empty and the settled cluster stays lopsided.
	"rebalance-after-upgrade": func(t *testing.T, lines, _ []string) {
		start := firstIndex(lines, `\[node\] Node node-1 goes down for maintenance`)
		end := firstIndex(lines, `\[node\] Node node-1 is back from maintenance`)
		if start < 0 || end < start {
			t.Fatalf("want node-1's maintenance to start and end")
		}
		if n := len(matching(lines[start:end], `\[kubelet\] Started pod \S+ on node node-2`)); n == 0 {
			t.Errorf("want node-1's pods recreated on node-2 during its maintenance")
		}
		wantLast(t, lines, "The pods are unbalanced across the nodes: skew 4")
	},
	// "The fight between the job controller and kube-controller-manager":
	// the loop creates the pod on node-a without the scheduler, node-a's
	// kubelet rejects it for the NoExecute taint, and the ReplicaSet
	// creates the next one.
	"nodename-noexecute-loop": func(t *testing.T, _, loop []string) {
		if len(matching(loop, `\[kubelet\] Rejected pod forensics-worker-\d+ on node node-a at admission: TaintToleration`)) == 0 ||
			len(matching(loop, `\[replicaset-controller\] Created pod forensics-worker-\d+`)) == 0 {
			t.Errorf("want the loop to create the pod and node-a's kubelet to reject it for the taint: %q", loop)
		}
		if len(matching(loop, `^\[\d+\]\[kube-scheduler\]`)) != 0 {
			t.Errorf("the pinned pod should bypass the scheduler: %q", loop)
		}
	},
	// "An unending cycle of scheduling and eviction": the duplicate is
	// evicted from large-1 and its replacement is placed on large-1 again.
	"removeduplicates-no-room": func(t *testing.T, _, loop []string) {
		if len(matching(loop, `\[descheduler\] RemoveDuplicates: pod \S+ .*on node large-1`)) == 0 ||
			len(matching(loop, `\[kube-scheduler\] Scheduled pod \S+ on node large-1`)) == 0 {
			t.Errorf("want the loop to evict a duplicate from large-1 and place it back there: %q", loop)
		}
	},
	// The descheduler evicts for the soft constraint and the replacement
	// cannot go to the node that is below average (worker-1 is full).
	"spread-descheduler-full-node": func(t *testing.T, _, loop []string) {
		if len(matching(loop, `RemovePodsViolatingTopologySpreadConstraint: pod \S+ violates`)) == 0 {
			t.Errorf("want a topology-spread eviction in the loop: %q", loop)
		}
		placed := matching(loop, `\[kube-scheduler\] Scheduled pod \S+ on node `)
		if len(placed) == 0 || len(matching(placed, `worker-1`)) != 0 {
			t.Errorf("want the replacement placed on a node other than the full worker-1: %q", placed)
		}
	},
	// "The pod will be evicted in a loop": the large pod is evicted from
	// an overutilized node and its replacement is started on a worker
	// again, which is then overutilized in turn.
	"lownodeutilization-large-pod-loop": func(t *testing.T, _, loop []string) {
		if len(matching(loop, `\[descheduler\] LowNodeUtilization: pod analytics-\d+ on overutilized node worker-\d \(requests: cpu \d+%, memory 75%`)) == 0 ||
			len(matching(loop, `\[kubelet\] Started pod analytics-\d+ on node worker-\d`)) == 0 {
			t.Errorf("want the loop to start the large pod on a worker and evict it from there at 75 %% memory: %q", loop)
		}
	},
	// "Reapplication of Deployment yaml will cause the replicaset to scale
	// back to 1": the HPA takes the webhook to 2, kubectl apply configures
	// it, a pod is deleted and 1 replica is left.
	// "Each ArgoCD sync reset replicas to 2, then the HPA immediately
	// scaled back up to 4, killing and recreating pods in a loop": the
	// loop holds the self-heal, the ReplicaSet's deletions and the HPA's
	// scale back to its minimum.
	"gitops-replicas-below-hpa-min": func(t *testing.T, _, loop []string) {
		heal := firstIndex(loop, `\[gitops\] self-heal: deployment createmod drifted from the file in the repository: applied again, configured \(spec.replicas 4 → 2\)`)
		del := firstIndex(loop, `\[replicaset-controller\] Deployment createmod has too many replicas: deleting 2`)
		up := firstIndex(loop, `\[horizontal-pod-autoscaler\] Scaling deployment createmod from 2 to 4 replicas`)
		create := firstIndex(loop, `\[replicaset-controller\] Deployment createmod has too few replicas: creating 2`)
		if heal < 0 || del < 0 || up < 0 || create < 0 {
			t.Errorf("want the loop to hold the self-heal to 2, two deletions, the HPA back to 4 and two creations (%d, %d, %d, %d)", heal, del, up, create)
		}
	},
	"tekton-webhook-reapply-below-hpa-min": func(t *testing.T, lines, _ []string) {
		h := firstIndex(lines, `\[horizontal-pod-autoscaler\] Scaling deployment tekton-pipelines-webhook from 1 to 2 replicas`)
		a := firstIndex(lines, `\[kubectl\] kubectl apply: deployment tekton-pipelines-webhook configured`)
		d := firstIndex(lines, `\[replicaset-controller\] Deleting pod tekton-pipelines-webhook-`)
		if h < 0 || a < h || d < a {
			t.Errorf("want the HPA to scale 1 → 2, then kubectl apply, then a pod deleted (%d, %d, %d)", h, a, d)
		}
		wantLast(t, lines, "fewer replicas than its minimum (HPA minReplicas, or spec.replicas): 1, minimum 2")
	},
	// "The HPAs scaled toward their maxima and left pods Pending with
	// Insufficient cpu": the HPA asks for its maximum of 8, the two nodes
	// at node_max hold six pods, and the 7th is Pending.
	"n8n-hpa-max-during-rollout": func(t *testing.T, lines, _ []string) {
		if firstIndex(lines, `\[horizontal-pod-autoscaler\] Scaling deployment n8n-main from \d+ to 8 replicas`) < 0 {
			t.Errorf("want the HPA to scale n8n-main to its maximum of 8")
		}
		if n := len(matching(lines, `\[kube-scheduler\] Scheduled pod n8n-main-\d+ on node node-[12]`)); n != 6 {
			t.Errorf("want the two nodes to take six pods before the failure, got %d", n)
		}
		wantLast(t, lines, "cannot be scheduled: 0/2 nodes are available")
	},
	// "Kubernetes cluster does not allocate pods" after dev-slave dies: both
	// pods ran on dev-slave, it goes NotReady, they are evicted once their
	// 300 s tolerations are over, and the first replacement has no node
	// (dev-master is tainted).
	"worker-failure-tainted-master": func(t *testing.T, lines, _ []string) {
		f := firstIndex(lines, `\[node\] Node dev-slave failed: it is NotReady`)
		if len(matching(lines[:max(f, 0)], `\[kubelet\] Started pod nginx-\d+ on node dev-slave`)) != 2 {
			t.Errorf("want both nginx pods running on dev-slave before it fails")
		}
		if n := len(matching(lines, `\[taint-eviction-controller\] Evicting pod nginx-\d+ from node dev-slave`)); f < 0 || n < 1 {
			t.Errorf("want dev-slave to fail and its pods to be evicted (%d, %d)", f, n)
		}
		if len(matching(lines, `Scheduled pod \S+ on node dev-master`)) != 0 {
			t.Errorf("nothing should be placed on the tainted dev-master")
		}
		wantLast(t, lines, "cannot be scheduled: 0/2 nodes are available")
	},
	// "Kubernetes must schedule the new pod before it may stop the old
	// one": the release is applied, a second pod is created while the old
	// one still runs, and it finds no node.
	"rollout-surge-no-room": func(t *testing.T, lines, _ []string) {
		run := firstIndex(lines, `\[kubelet\] Started pod delegation-1 on node worker-1`)
		a := firstIndex(lines, `\[kubectl\] kubectl apply: deployment delegation configured`)
		c := firstIndex(lines, `\[replicaset-controller\] Created pod delegation-2`)
		if run < 0 || a < run || c < a {
			t.Errorf("want delegation-1 running, then kubectl apply, then the surge pod created (%d, %d, %d)", run, a, c)
		}
		if n := len(matching(lines, `\[replicaset-controller\] Deleting pod `)); n != 0 {
			t.Errorf("the old pod should still run when the surge pod fails (maxUnavailable 0): %d deletions", n)
		}
		wantLast(t, lines, "Pod delegation-2 cannot be scheduled: 0/3 nodes are available")
	},
	// "a positive surge can cause the rollout to wedge": three routers
	// run on the three workers, the release is applied, the surge router
	// finds every node's host ports taken, and no old router is deleted
	// (maxUnavailable 0).
	"hostnetwork-surge-wedges-rollout": func(t *testing.T, lines, _ []string) {
		if n := len(matching(lines, `\[kubelet\] Started pod router-default-\d on node worker-\d`)); n != 3 {
			t.Errorf("want three routers started, one per worker: %d", n)
		}
		a := firstIndex(lines, `\[kubectl\] kubectl apply: deployment router-default configured`)
		c := firstIndex(lines, `\[replicaset-controller\] Created pod router-default-4`)
		if a < 0 || c < a {
			t.Errorf("want kubectl apply, then the surge router created (%d, %d)", a, c)
		}
		if n := len(matching(lines, `\[replicaset-controller\] Deleting pod `)); n != 0 {
			t.Errorf("no old router should be deleted (maxUnavailable 0): %d deletions", n)
		}
		wantLast(t, lines, "Pod router-default-4 cannot be scheduled: 0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports")
	},
	// "A new replicaset was created with errors ... new pod can not be
	// created": test-1 runs, the release is applied, the quota refuses
	// the new ReplicaSet's pod, and the old pod stays.
	"rollout-surge-exceeds-quota": func(t *testing.T, lines, _ []string) {
		run := firstIndex(lines, `\[kubelet\] Started pod test-1 on node worker-`)
		a := firstIndex(lines, `\[kubectl\] kubectl apply: deployment test configured`)
		refused := firstIndex(lines, `\[replicaset-controller\] Error creating a pod of deployment test: pods is forbidden: exceeded quota: rqtest, requested: pods=1, used: pods=1, limited: pods=1`)
		if run < 0 || a < run || refused < a {
			t.Errorf("want test-1 running, then kubectl apply, then the quota's refusal (%d, %d, %d)", run, a, refused)
		}
		if n := len(matching(lines, `\[replicaset-controller\] (Deleting|Created) pod test-`)); n != 1 {
			t.Errorf("want test-1 created and nothing else created or deleted: %d", n)
		}
	},
	// "the newly created pod will be pending": the three replicas run on
	// the three nodes, the release is applied, the surge pod is created
	// while all three still run, and no node is left to it.
	"rollout-required-anti-affinity": func(t *testing.T, lines, _ []string) {
		if n := len(matching(lines, `\[kubelet\] Started pod nginx-deployment-\d on node worker-\d`)); n != 3 {
			t.Errorf("want the three replicas running before the release, got %d", n)
		}
		a := firstIndex(lines, `\[kubectl\] kubectl apply: deployment nginx-deployment configured`)
		c := firstIndex(lines, `\[replicaset-controller\] Created pod nginx-deployment-4`)
		if a < 0 || c < a {
			t.Errorf("want kubectl apply, then the surge pod created (%d, %d)", a, c)
		}
		if n := len(matching(lines, `\[replicaset-controller\] Deleting pod `)); n != 0 {
			t.Errorf("no old pod should stop before the surge pod runs (maxUnavailable 0): %d deletions", n)
		}
		wantLast(t, lines, "Pod nginx-deployment-4 cannot be scheduled: 0/3 nodes are available")
	},
	// "Pods are repeatedly evicted from one non-preemptible node and
	// rescheduled onto another non-preemptible node": the loop evicts the
	// worker for the preemptible node's weight and places it on a
	// standard node, never on the full preemptible one.
	"preferred-affinity-eviction-loop": func(t *testing.T, _, loop []string) {
		if len(matching(loop, `\[descheduler\] RemovePodsViolatingNodeAffinity: pod worker-\d+ prefers node preemptible-1 \(weight 100\) to its node standard-\d`)) == 0 {
			t.Errorf("want the loop to evict the worker from a standard node for preemptible-1: %q", loop)
		}
		placed := matching(loop, `\[kube-scheduler\] Scheduled pod worker-\d+ on node `)
		if len(placed) == 0 || len(matching(placed, `preemptible-1`)) != 0 {
			t.Errorf("want the replacement placed on a standard node: %q", placed)
		}
	},
	// "The pod will be deleted from the one node, and then new pods will
	// be scheduled there repeatedly": the taint manager evicts a pod from
	// the tainted node after its 10 s and the replacement is scheduled
	// there again.
	"noexecute-toleration-seconds-loop": func(t *testing.T, _, loop []string) {
		if len(matching(loop, `\[taint-eviction-controller\] Evicting pod nginx-\d+: it tolerated the NoExecute taints of node member2-control-plane for 10 s`)) == 0 ||
			len(matching(loop, `\[kube-scheduler\] Scheduled pod nginx-\d+ on node member2-control-plane`)) == 0 {
			t.Errorf("want the loop to evict from member2-control-plane after 10 s and schedule there again: %q", loop)
		}
	},
	// "the descheduler may evict them all at once": one cycle evicts two
	// of the three replicas, the kubelet removes both, one is left.
	"descheduler-evicts-all-replicas": func(t *testing.T, lines, _ []string) {
		if n := len(matching(lines, `\[descheduler\] Evicting pod web-\d from node spot-1`)); n != 2 {
			t.Errorf("want two evictions from spot-1, got %d", n)
		}
		if len(matching(lines, `Error evicting pod`)) != 0 {
			t.Errorf("no budget, no refused eviction")
		}
		wantLast(t, lines, "fewer replicas than expected: 1, expected 2")
	},
	// "Downtime during Rolling Update": after the upgrade is applied the
	// only pod is deleted while its replacement has not started, and the
	// DNS server has no replica.
	"pihole-rollout-downtime": func(t *testing.T, lines, _ []string) {
		a := firstIndex(lines, `\[kubectl\] kubectl apply: deployment pihole configured`)
		d := firstIndex(lines, `\[kubelet\] Deleted pod pihole-1 on node \S+, deployment pihole now has 0 replicas`)
		if a < 0 || d < a {
			t.Errorf("want kubectl apply, then the old pod deleted with 0 replicas left (%d, %d)", a, d)
		}
		if len(matching(lines, `\[kubelet\] Started pod pihole-2 `)) != 0 {
			t.Errorf("the replacement should not have started when the old pod goes")
		}
		wantLast(t, lines, "fewer replicas than its minimum (HPA minReplicas, or spec.replicas): 0, minimum 1")
	},
	// "kubectl drain got stuck": the drain of the node running web's only
	// replica is refused (429) by the budget, and nothing ever changes
	// that: the cluster stops with the drain waiting.
	"drain-blocked-by-pdb": func(t *testing.T, lines, _ []string) {
		wantLast(t, lines, `kubectl drain node-a: error when evicting pods/"web-1" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 1 healthy pods and has 1 currently`)
		if len(matching(lines, `node/node-a drained`)) != 0 {
			t.Errorf("node-a should never be drained")
		}
	},
	// "Watch as one of my deployments gets fully killed": node-a is
	// drained and uncordoned, then node-b's drain evicts the last replica
	// before any replacement runs.
	"drain-takes-app-down": func(t *testing.T, lines, _ []string) {
		u := firstIndex(lines, `\[kubectl\] kubectl uncordon node-a`)
		b := firstIndex(lines, `\[kubectl\] kubectl drain node-b: evicting pod api-\d`)
		if u < 0 || b < u {
			t.Errorf("want node-a drained and uncordoned before node-b's drain evicts (%d, %d)", u, b)
		}
		wantLast(t, lines, "fewer replicas than expected: 0, expected 1")
	},
	// "First the old DaemonSet pod was terminated, then the StatefulSet
	// pod was terminated ... by kube-scheduler": the agent's old pod is
	// deleted, its replacement fits nowhere while the old one terminates,
	// and preempts db's pod on node-a before the old agent is gone.
	"preemption-during-rollout": func(t *testing.T, lines, _ []string) {
		d := firstIndex(lines, `\[replicaset-controller\] Deleting pod agent-1`)
		p := firstIndex(lines, `\[kube-scheduler\] Pod agent-2 cannot be scheduled yet: .* It is nominated to node node-a and preempts db-\d`)
		g := firstIndex(lines, `\[kubelet\] Deleted pod agent-1 on node node-a`)
		if d < 0 || p < d || g >= 0 && g < p {
			t.Errorf("want agent-1 deleted, then agent-2 preempting a db pod on node-a while agent-1 terminates (%d, %d, %d)", d, p, g)
		}
		wantLast(t, lines, "fewer replicas than expected: 1, expected 2")
	},
	// "Preemption can easily violate PDBs": the batch pod fits nowhere,
	// every candidate node's victims include a web replica its budget
	// protects, and the scheduler preempts one anyway.
	"preemption-ignores-pdb": func(t *testing.T, lines, _ []string) {
		if len(matching(lines, `\[kube-scheduler\] Pod batch-1 cannot be scheduled yet: .* preempts web-\d`)) != 1 {
			t.Errorf("want batch-1 to preempt a web replica")
		}
		wantLast(t, lines, "fewer replicas than expected: 1, expected 2")
	},
	// "It will be scheduling pod to the node continuously, the kubelet
	// evict pod from the node continuously": node-a goes under memory
	// pressure through the critical agent's growth, web is the pod its
	// kubelet evicts, and the loop places web on node-a again, where it is
	// evicted again.
	"memory-pressure-toleration-loop": func(t *testing.T, lines, loop []string) {
		if firstIndex(lines, `\[kubelet\] Node node-a has condition MemoryPressure`) < 0 {
			t.Errorf("want node-a to report MemoryPressure")
		}
		if len(matching(lines, `\[kubelet\] Evicted pod node-agent-`)) != 0 {
			t.Errorf("the system-node-critical agent must never be evicted")
		}
		if len(matching(loop, `\[kube-scheduler\] Scheduled pod web-\d+ on node node-a`)) == 0 ||
			len(matching(loop, `\[kubelet\] Evicted pod web-\d+ from node node-a: The node was low on resource: memory`)) == 0 {
			t.Errorf("want the loop to place web on node-a and the kubelet to evict it there: %q", loop)
		}
	},
	// "Spread too thin across all 5 nodes for any single one to fit it":
	// one app on each node, then the Job's pod fits none although every
	// node has 1.5Gi free.
	"leastallocated-fragments-large-job": func(t *testing.T, lines, _ []string) {
		placed := matching(lines, `\[kube-scheduler\] Scheduled pod app-\S+ on node node-(\d)`)
		nodes := map[string]bool{}
		for _, l := range placed {
			nodes[l[len(l)-1:]] = true
		}
		if len(placed) != 3 || len(nodes) != 3 {
			t.Errorf("want three apps placed, one per node, before the Job; got %q", placed)
		}
		wantLast(t, lines, "Pod teslamate-verify-pitr-1 cannot be scheduled: 0/3 nodes are available: 3 Insufficient memory")
	},
	// "The first pod ... was deleted for node scale-down, the retry pod ...
	// was also deleted for node scale-down, the Job then reported
	// BackoffLimitExceeded": two evictions, each counted by rule 0.
	"job-disruptions-exhaust-backofflimit": func(t *testing.T, lines, _ []string) {
		a := firstIndex(lines, `\[kubectl\] kubectl drain node-a: evicting pod kelos-task-1`)
		b := firstIndex(lines, `\[kubectl\] kubectl drain node-b: evicting pod kelos-task-2`)
		if a < 0 || b < a {
			t.Errorf("want the drain of node-a to evict the first pod and that of node-b its retry (%d, %d)", a, b)
		}
		if n := len(matching(lines, `failed \(DisruptionTarget.*\): rule 0 of the podFailurePolicy \(Count\) matches`)); n != 2 {
			t.Errorf("want both evictions counted by the Count rule, got %d", n)
		}
		wantLast(t, lines, "Job kelos-task failed: BackoffLimitExceeded")
	},
	// "A pod deleted by ... node loss therefore fails its index
	// immediately and the Job never creates a replacement": the taint
	// eviction controller evicts the task from the lost node, index 0
	// fails and no second pod is ever created.
	"indexed-job-eviction-fails-index": func(t *testing.T, lines, _ []string) {
		e := firstIndex(lines, `\[taint-eviction-controller\] Evicting pod tangle-task-0-1 from node node-a`)
		f := firstIndex(lines, `\[job-controller\] Index 0 of job tangle-task failed \(1 failures, backoffLimitPerIndex 0\)`)
		if e < 0 || f < e {
			t.Errorf("want the eviction from node-a, then index 0 failed (%d, %d)", e, f)
		}
		if n := len(matching(lines, `\[job-controller\] Created pod: `)); n != 1 {
			t.Errorf("want no replacement pod, got %d creations", n)
		}
		wantLast(t, lines, "Job tangle-task failed: MaxFailedIndexesExceeded")
	},
	// "When restarting, k8s scheduling will start p31, p32, and p33 in
	// area a2": the restart's three new pods are all placed in a2 while
	// old pods still run, and once the old pods are gone the skew is 3.
	"rollout-zone-spread-skew": func(t *testing.T, lines, _ []string) {
		r := firstIndex(lines, `\[kubectl\] kubectl rollout restart: deployment app restarted`)
		if r < 0 {
			t.Fatalf("want the rollout restart")
		}
		placed := matching(lines[r:], `\[kube-scheduler\] Scheduled pod app-\d on node `)
		if len(placed) != 3 || len(matching(placed, `on node node-a2$`)) != 3 {
			t.Errorf("want the three new pods all placed in zone a2; got %q", placed)
		}
		if n := len(matching(lines[r:], `\[replicaset-controller\] Deleting pod app-[123]$`)); n != 3 {
			t.Errorf("want the three old pods deleted, got %d", n)
		}
		wantLast(t, lines, "The pods are unbalanced across the nodes: skew 3")
	},
	// "JobSet will not trigger restart as it is waiting for underlying
	// pods be terminated": node-a is lost, trainer-1 is evicted and stays
	// Terminating, and the Job never creates a replacement.
	"job-replacement-waits-lost-node": func(t *testing.T, lines, _ []string) {
		f := firstIndex(lines, `\[node\] Node node-a failed for good`)
		e := firstIndex(lines, `\[taint-eviction-controller\] Evicting pod trainer-1 from node node-a`)
		if f < 0 || e < f {
			t.Fatalf("want node-a lost, then trainer-1 evicted from it (%d, %d)", f, e)
		}
		if n := len(matching(lines, `\[job-controller\] Created pod: `)); n != 1 {
			t.Errorf("want no replacement pod (podReplacementPolicy Failed), got %d creations", n)
		}
		if len(matching(lines, `completed|Node node-a recovered`)) != 0 {
			t.Errorf("neither the trainer nor node-a should come back")
		}
		wantLast(t, lines, "Pod trainer-1 stays Terminating: node node-a is not Ready to confirm its deletion")
	},
	// "The default scheduler then immediately refills the same node": the
	// loop evicts a web pod from an underutilized node and the scheduler
	// places its replacement on that same node.
	"highnodeutilization-mostallocated-outweighed": func(t *testing.T, _, loop []string) {
		re := regexp.MustCompile(`\[descheduler\] HighNodeUtilization: pod web-\d+ on underutilized node (\S+) `)
		node := ""
		for _, l := range loop {
			if m := re.FindStringSubmatch(l); m != nil {
				node = m[1]
				break
			}
		}
		if node == "" || node == "node-1" {
			t.Fatalf("want the loop to evict web from an underutilized node other than db's node-1: %q", loop)
		}
		if len(matching(loop, `\[kube-scheduler\] Scheduled pod web-\d+ on node `+node+`$`)) == 0 {
			t.Errorf("want the replacement placed back on %s: %q", node, loop)
		}
	},
	// "Allowed disruptions: 0, Current: 1, Desired: 1": the drain of the
	// node with the webhook's only pod is refused for ever, the HPA never
	// scales it, and no node is drained.
	"tekton-webhook-pdb-blocks-drain": func(t *testing.T, lines, _ []string) {
		wantLast(t, lines, `error when evicting pods/"tekton-pipelines-webhook-1" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget. The disruption budget tekton-pipelines-webhook needs 1 healthy pods and has 1 currently`)
		if len(matching(lines, `drained|Scaling deployment`)) != 0 {
			t.Errorf("no node should be drained and the HPA should stay at its minimum")
		}
	},
	// "Only one pod can be scheduled at a time, leaving additional
	// replicas stuck pending": replica r1's pod goes to a node of the
	// pinned zone, r2's finds none, the empty az1-node-2 failing the
	// spread, every node of another zone the node affinity.
	"mindomains-pinned-zones": func(t *testing.T, lines, _ []string) {
		placed := matching(lines, `\[kube-scheduler\] Scheduled pod \S+ on node `)
		if len(placed) != 1 || len(matching(placed, `cluster-u1-replica-r\d-0 on node az1-node-\d`)) != 1 {
			t.Errorf("want one replica placed, in the pinned zone; got %q", placed)
		}
		wantLast(t, lines, "cannot be scheduled: 0/6 nodes are available: 2 node(s) didn't match pod topology spread constraints, 4 node(s) didn't match Pod's node affinity/selector")
	},
	// "The 15vCPU required workload could not be scheduled on that node":
	// 15 CPU would fit the node's 15 890m, the DaemonSets' 1.5 CPU do not
	// leave it.
	"daemonset-overhead-no-room": func(t *testing.T, lines, _ []string) {
		if got := matching(lines, `Scheduled pod`); len(got) != 0 {
			t.Errorf("want no pod placed; got %q", got)
		}
		wantLast(t, lines, "Pod workload-1 cannot be scheduled: 0/1 nodes are available: 1 Insufficient cpu")
	},
	// "Job-pods created from subsequent cron intervals pile up ... pods
	// that stay pending": the second run is created while the first is
	// still active, and its pod finds no node.
	"cronjob-allow-runs-pile-up": func(t *testing.T, lines, _ []string) {
		r1 := firstIndex(lines, `\[kubelet\] Started pod report-1-1 `)
		r2 := firstIndex(lines, `\[cronjob-controller\] Created job report-2 \(CronJob report, concurrencyPolicy Allow\)`)
		if r1 < 0 || r2 < r1 {
			t.Fatalf("want run report-1 running before report-2 is created")
		}
		if got := matching(lines[r1:], `report-1.*(Succeeded|[Cc]omplete)`); len(got) != 0 {
			t.Errorf("want report-1 still active when report-2 is created; got %q", got)
		}
		wantLast(t, lines, "Pod report-2-1 cannot be scheduled: 0/2 nodes are available: 2 Insufficient cpu")
	},
	// "Error creating: pods ... is forbidden: exceeded quota:
	// resource-quota, requested: limits.cpu=3, used: limits.cpu=21500m,
	// limited: limits.cpu=24": the HPA asks for more than four renderers,
	// the fifth is refused with the report's numbers, and no pod is ever
	// Pending (the nodes have room; the quota is what stops it).
	"quota-blocks-hpa-scale-up": func(t *testing.T, lines, _ []string) {
		if len(matching(lines, `\[horizontal-pod-autoscaler\] Scaling deployment veryfront-renderer from 4 to \d+ replicas`)) == 0 {
			t.Errorf("want the HPA to scale the renderer beyond 4")
		}
		if len(matching(lines, `\[replicaset-controller\] Error creating a pod of deployment veryfront-renderer: pods is forbidden: exceeded quota: resource-quota, requested: limits.cpu=3, used: limits.cpu=21500m, limited: limits.cpu=24$`)) == 0 {
			t.Errorf("want the quota to refuse the renderer's fifth pod with the report's numbers")
		}
		if n := len(matching(lines, `\[kubelet\] Started pod veryfront-renderer-\d+ `)); n != 4 {
			t.Errorf("want 4 renderers started, got %d", n)
		}
		if got := matching(lines, `cannot be scheduled`); len(got) != 0 {
			t.Errorf("want no pod Pending; got %q", got)
		}
	},
	// "0/2 nodes are available: 1 Too many pods, 1 node(s) had
	// untolerated taint(s)": every core pod is placed on core-1, none on
	// the tainted user node, and the solver, the 60th pod, finds no slot.
	"core-node-pod-limit": func(t *testing.T, lines, _ []string) {
		if n := len(matching(lines, `\[kube-scheduler\] Scheduled pod core-\d+ on node core-1$`)); n != 56 {
			t.Errorf("want the 56 core pods placed on core-1, got %d", n)
		}
		if got := matching(lines, `on node user-1`); len(got) != 0 {
			t.Errorf("want nothing on the user node; got %q", got)
		}
		wantLast(t, lines, "Pod cm-acme-http-solver-1 cannot be scheduled: 0/2 nodes are available: 1 Too many pods, 1 node(s) had untolerated taint(s)")
	},
	// "Each time the descheduler runs, it evicts the pod for this app,
	// which is promptly re-scheduled on the same node": the loop evicts an
	// app pod from node-a and places its replacement on node-a, never on
	// node-b, and evicts no worker.
	"lownodeutilization-anti-affinity-loop": func(t *testing.T, _, loop []string) {
		if len(matching(loop, `\[descheduler\] Evicting pod app-\d+ from node node-a`)) == 0 {
			t.Errorf("want the loop to evict an app pod from node-a")
		}
		placed := matching(loop, `\[kube-scheduler\] Scheduled pod app-\d+ on node `)
		if len(placed) == 0 || len(matching(placed, `on node node-a$`)) != len(placed) {
			t.Errorf("want the replacement placed on node-a again; got %q", placed)
		}
		if got := matching(loop, `Evicting pod worker`); len(got) != 0 {
			t.Errorf("want no worker evicted; got %q", got)
		}
	},
}

func TestIncidents(t *testing.T) {
	if len(incidents.List()) != len(traceChecks) {
		t.Errorf("%d incidents, %d trace checks", len(incidents.List()), len(traceChecks))
	}
	for _, in := range incidents.List() {
		t.Run(in.Name, func(t *testing.T) {
			rep := verify(t, in.Name, false)
			r := rep.Result(in.Expect)
			if r == nil || r.Verdict != checker.Violated {
				t.Fatalf("%s: %s = %+v, want violated", in.Name, in.Expect, r)
			}
			if v := rep.Violated(); len(v) != 1 || v[0].Name != in.Expect {
				t.Errorf("violated: %v, want only %s", names(v), in.Expect)
			}
			lines := r.Trace.Lines()
			var loop []string
			if i := slices.Index(lines, report.CycleMarker); i >= 0 {
				loop = lines[i+1:]
			} else if r.Trace.LoopStart >= 0 {
				t.Fatalf("a cycle without its marker")
			}
			traceChecks[in.Name](t, lines, loop)
			if t.Failed() {
				t.Logf("counterexample:\n%s", strings.Join(lines, "\n"))
			}
		})
		t.Run(in.Name+"/fixed", func(t *testing.T) {
			rep := verify(t, in.Name, true)
			if v := rep.Violated(); len(v) != 0 {
				t.Fatalf("fixed twin violates %v", names(v))
			}
			for _, r := range rep.Results {
				if r.Verdict != checker.Holds {
					t.Errorf("fixed twin: %s is %v (%s), want holds", r.Name, r.Verdict, r.Reason)
				}
			}
			if !rep.Complete {
				t.Errorf("fixed twin: the run did not explore every behaviour")
			}
			if rep.Result(in.Expect) == nil {
				t.Errorf("fixed twin does not check %s", in.Expect)
			}
		})
	}
}

func verify(t *testing.T, name string, fixed bool) *kivi.Report {
	t.Helper()
	c, warns, err := incidents.Load(name, fixed)
	if err != nil {
		t.Fatal(err)
	}
	// Every field of an incident is one the model reads: a warning would
	// mean part of the report is silently not modelled.
	for _, w := range warns {
		t.Errorf("warning: %s", w)
	}
	rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{Workers: 1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d states in %v", c.Name, rep.Stats.States, rep.Elapsed)
	return rep
}

func names(rs []kivi.IntentResult) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Name)
	}
	return out
}

func matching(lines []string, pattern string) []string {
	re := regexp.MustCompile(pattern)
	var out []string
	for _, l := range lines {
		if re.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

func firstIndex(lines []string, pattern string) int {
	re := regexp.MustCompile(pattern)
	return slices.IndexFunc(lines, re.MatchString)
}

func wantLast(t *testing.T, lines []string, sub string) {
	t.Helper()
	if len(lines) == 0 || !strings.Contains(lines[len(lines)-1], sub) {
		t.Errorf("want the last line to contain %q", sub)
	}
}
