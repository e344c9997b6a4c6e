// Package incidents is a library of real incidents: public failure
// reports restated as Kubernetes manifests, each in a folder with its
// nodes, its intents file and a fixed twin (the configuration the
// maintainers or the reporter recommended). README.md lists them.
//
// The folders are embedded, so that `kivi cases` lists the incidents and
// `kivi verify --case NAME` runs one (--no-violation its fixed twin).
package incidents

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/inputs/manifest"
	"github.com/kivi-go/kivi/intents"
	"github.com/kivi-go/kivi/model"
)

// Files holds every incident folder: NAME/{manifests,nodes,intents}.yaml
// and NAME/fixed/ with the same three files, with any Deployment manifest
// the intents file applies beside them.
//
//go:embed */*.yaml */fixed/*.yaml
var Files embed.FS

// Incident describes one folder.
type Incident struct {
	// Name is the folder and the --case name.
	Name string
	// Link is the public report.
	Link string
	// Title is a one-line summary of what was reported.
	Title string
	// Controller is the controller at fault.
	Controller string
	// Expect is the intent the written configuration violates; the fixed
	// twin violates none.
	Expect string
}

// List returns the incidents in the order of README.md.
func List() []Incident {
	return []Incident{
		{"spread-counts-tainted-node", "https://github.com/kubernetes/kubernetes/issues/116118",
			"hostname spread counts a tainted control-plane node: the 4th of 7 pods is Pending", "scheduler (PodTopologySpread)", "pod_always_schedulable"},
		{"drain-spread-cordoned-domain", "https://github.com/kubernetes/kubernetes/issues/106127",
			"a node drained during an upgrade still counts as a spread domain: evicted pods stay Pending", "scheduler (PodTopologySpread) under node maintenance", "pod_always_schedulable"},
		{"spread-cordoned-node", "https://github.com/kubernetes/kubernetes/issues/106396",
			"hostname spread counts a cordoned node: the 5th of 5 pods is Pending", "scheduler (PodTopologySpread, cordon)", "pod_always_schedulable"},
		{"kops-coredns-control-plane", "https://github.com/kubernetes/kops/pull/17472",
			"kops 1.33's CoreDNS hard hostname spread on one control plane + one worker: the 2nd replica is Pending", "scheduler (PodTopologySpread, taints)", "pod_always_schedulable"},
		{"zone-outage-spread", "https://github.com/kubernetes/kubernetes/issues/123019",
			"a zone's only node fails: the zone still counts, the evicted pod finds no node", "scheduler (PodTopologySpread) after node failure", "pod_always_schedulable"},
		{"zone-capacity-spread", "https://github.com/kubernetes/kubernetes/issues/116978",
			"a zone out of capacity blocks a hard zone spread although other zones have room", "scheduler (PodTopologySpread, resources)", "pod_always_schedulable"},
		{"hpa-beyond-capacity", "https://github.com/kubernetes/kubernetes/issues/82285",
			"the HPA scales past what the cluster holds: new pods are Pending", "HPA", "pod_always_schedulable"},
		{"rebalance-after-upgrade", "https://github.com/libero/reviewer/issues/1221",
			"after node upgrades a returning node stays empty: the replicas pile up on one node", "scheduler and node lifecycle; no descheduler", "pod_balance_across_node"},
		{"nodename-noexecute-loop", "https://github.com/keikoproj/kube-forensics/issues/5",
			"a pod pinned by nodeName to a NoExecute-tainted node is rejected and recreated forever", "kubelet admission (TaintToleration) with nodeName, ReplicaSet", "no_oscillation_rejection"},
		{"removeduplicates-no-room", "https://github.com/kubernetes-sigs/descheduler/issues/1237",
			"RemoveDuplicates evicts a duplicate that fits nowhere else: it comes back, forever", "descheduler (RemoveDuplicates)", "no_oscillation_eviction"},
		{"spread-descheduler-full-node", "https://github.com/kubernetes-sigs/descheduler/issues/604",
			"soft topology balancing moves a pod towards a node that cannot take it: an eviction loop", "descheduler (RemovePodsViolatingTopologySpreadConstraint)", "no_oscillation_eviction"},
		{"lownodeutilization-large-pod-loop", "https://github.com/kubernetes-sigs/descheduler/issues/1695",
			"LowNodeUtilization evicts a pod that puts any node above the target: it is evicted again wherever it lands", "descheduler (LowNodeUtilization)", "no_oscillation_eviction"},
		{"tekton-webhook-reapply-below-hpa-min", "https://github.com/tektoncd/pipeline/issues/4892",
			"re-applying the webhook Deployment (replicas: 1) scales it below its HPA minimum of 2", "deployment controller under kubectl apply, against the HPA", "replica_num_always_meet_min"},
		{"n8n-hpa-max-during-rollout", "https://github.com/n8n-io/terraform-aws-n8n/issues/51",
			"n8n's default HPA maximum exceeds the node group at node_max: under load around a rollout, pods are Pending", "HPA (maxReplicas beyond the node group)", "pod_always_schedulable"},
		{"worker-failure-tainted-master", "https://github.com/kubernetes/kubernetes/issues/83315",
			"the only worker fails: the evicted pods cannot go to the tainted master and stay Pending", "node lifecycle (NotReady eviction), scheduler (taints)", "pod_always_schedulable"},
		{"rollout-surge-no-room", "https://github.com/JiRaska/open-bank-oss/pull/3544",
			"a one-replica rollout (maxSurge 1, maxUnavailable 0) needs room for a second copy: the new pod is Pending forever", "deployment controller (RollingUpdate surge) on a full cluster", "pod_always_schedulable"},
		{"rollout-surge-exceeds-quota", "https://github.com/kubernetes/kubernetes/issues/89209",
			"a one-replica rollout (maxSurge 1, maxUnavailable 0) in a namespace whose quota allows one pod: the surge pod is refused and the rollout never finishes", "deployment controller (RollingUpdate surge) under a ResourceQuota", "rollout_completes"},
		{"rollout-required-anti-affinity", "https://github.com/kubernetes/kubernetes/issues/116891",
			"three replicas with required hostname anti-affinity on three nodes: the rollout's surge pod is Pending forever", "deployment controller (RollingUpdate surge) with the scheduler's InterPodAffinity", "pod_always_schedulable"},
		{"hostnetwork-surge-wedges-rollout", "https://github.com/openshift/cluster-ingress-operator/pull/219",
			"three routers on the host's network, one per worker, rolled out with maxSurge 1 and maxUnavailable 0: the surge router finds every node's ports taken and the rollout wedges", "deployment controller (RollingUpdate surge) with the scheduler's NodePorts", "pod_always_schedulable"},
		{"descheduler-evicts-all-replicas", "https://github.com/kubernetes-sigs/descheduler/issues/1712",
			"RemoveDuplicates evicts two of three replicas in one cycle: one replica is left", "descheduler (RemoveDuplicates) without a PodDisruptionBudget", "replica_num_always_meet_exp"},
		{"pihole-rollout-downtime", "https://github.com/MoJo2600/pihole-kubernetes/issues/397",
			"a one-replica rollout with maxUnavailable 1 deletes the only pod before its replacement runs: 0 replicas", "deployment controller (RollingUpdate maxUnavailable)", "replica_num_always_meet_min"},
		{"preferred-affinity-eviction-loop", "https://github.com/kubernetes-sigs/descheduler/issues/1707",
			"RemovePodsViolatingNodeAffinity evicts for a preferred node that has no room: the pod comes back to a standard node, forever", "descheduler (RemovePodsViolatingNodeAffinity, preferred)", "no_oscillation_eviction"},
		{"noexecute-toleration-seconds-loop", "https://github.com/kubernetes/kubernetes/issues/117520",
			"pods tolerating a NoExecute taint for 10 s are scheduled onto the tainted node and evicted again and again", "scheduler and taint manager (NoExecute with tolerationSeconds)", "no_oscillation_eviction"},
		{"drain-blocked-by-pdb", "https://github.com/kubernetes/kubernetes/issues/66811",
			"a PodDisruptionBudget with minAvailable = replicas refuses every eviction: kubectl drain waits for ever, the node upgrade stalls", "kubectl drain against a PodDisruptionBudget (Eviction API)", "valid_end_state"},
		{"drain-takes-app-down", "https://github.com/kubernetes/kubernetes/issues/31487",
			"draining nodes one at a time without a PodDisruptionBudget evicts both replicas of a deployment: 0 replicas", "kubectl drain without a PodDisruptionBudget", "replica_num_always_meet_exp"},
		{"preemption-ignores-pdb", "https://github.com/kubernetes/kubernetes/issues/91492",
			"a higher-priority pod preempts a replica its PodDisruptionBudget protects: budgets only steer preemption", "scheduler (DefaultPreemption) against a PodDisruptionBudget", "replica_num_always_meet_exp"},
		{"memory-pressure-toleration-loop", "https://github.com/kubernetes/kubernetes/issues/72846",
			"a pod that tolerates the memory-pressure taint is scheduled back onto the node under pressure and evicted by its kubelet, forever", "kubelet eviction manager (memory) and scheduler (tolerated memory-pressure taint)", "no_oscillation_eviction"},
		{"leastallocated-fragments-large-job", "https://github.com/siutsin/otaru/pull/2805",
			"LeastAllocated spreads the apps thin: a 2Gi Job pod fits no node although 4.5Gi are free in all", "scheduler (NodeResourcesFit LeastAllocated)", "pod_always_schedulable"},
		{"job-disruptions-exhaust-backofflimit", "https://github.com/kelos-dev/kelos/issues/1348",
			"a podFailurePolicy that counts DisruptionTarget: two node scale-downs exhaust backoffLimit 1 and fail the Job", "Job controller (podFailurePolicy Count) under evictions", "job_completes"},
		{"indexed-job-eviction-fails-index", "https://github.com/TangleML/tangle/pull/327",
			"an Indexed Job with backoffLimitPerIndex 0 loses its pod to a node failure: the index fails, the Job fails", "Job controller (backoffLimitPerIndex, maxFailedIndexes) after a node failure", "job_completes"},
		{"statefulset-stuck-on-lost-node", "https://github.com/rancher/rke2/issues/3913",
			"a powered-off worker never comes back: the StatefulSet's pod stays Terminating on it for ever and is never replaced", "node lifecycle and StatefulSet controller (a pod deleted on a node lost for good)", "rollout_completes"},
		{"lone-worker-notready-not-moved", "https://github.com/kubernetes/kubernetes/issues/55713",
			"one master, one worker: the worker is shut down, every zone is in FullDisruption and its pods are never moved", "node lifecycle (zone states: the master disruption mode taints no node)", "rollout_completes"},
		{"rollout-zone-spread-skew", "https://github.com/kubernetes/kubernetes/issues/121284",
			"a rolling release of 3 pods spread over 2 zones (maxSkew 2) counts the old pods: every new pod lands in one zone", "scheduler (PodTopologySpread) during a Deployment rollout", "pod_balance_across_node"},
		{"job-replacement-waits-lost-node", "https://github.com/kubernetes/enhancements/issues/6262",
			"a Job with podReplacementPolicy Failed loses its node for good: the pod stays Terminating and is never replaced", "Job controller (podReplacementPolicy Failed) with a node lost for good", "job_completes"},
		{"highnodeutilization-mostallocated-outweighed", "https://github.com/deckhouse/deckhouse/pull/22511",
			"MostAllocated at weight 1 is outweighed by the default spreading: HighNodeUtilization evicts a pod the scheduler puts back, for ever", "descheduler (HighNodeUtilization) against kube-scheduler's score weights", "no_oscillation_eviction"},
		{"tekton-webhook-pdb-blocks-drain", "https://github.com/tektoncd/pipeline/issues/3654",
			"a PodDisruptionBudget minAvailable 80% rounds up to the webhook's single replica: every node drain waits for ever", "kubectl drain against a PodDisruptionBudget percentage (HPA at its minimum)", "valid_end_state"},
		{"mindomains-pinned-zones", "https://github.com/MaterializeInc/materialize/pull/36516",
			"a zone spread with minDomains 3 on replicas pinned to one zone: the global minimum is 0 and the second replica is Pending", "scheduler (PodTopologySpread minDomains, node affinity)", "pod_always_schedulable"},
		{"daemonset-overhead-no-room", "https://github.com/aws/karpenter-provider-aws/issues/6015",
			"a 15 vCPU pod on the 16 vCPU node launched for it: the DaemonSets' 1.5 vCPU leave it no room", "scheduler (NodeResourcesFit) with the DaemonSets' reservations", "pod_always_schedulable"},
		{"cronjob-allow-runs-pile-up", "https://github.com/digitalocean/clusterlint/issues/95",
			"a CronJob with concurrencyPolicy Allow fires while its run is still active: the overlapping run's pod is Pending", "CronJob controller (concurrencyPolicy Allow)", "pod_always_schedulable"},
		{"quota-blocks-hpa-scale-up", "https://github.com/veryfront/veryfront-code/issues/188",
			"the HPA scales the renderer past what the namespace's limits.cpu quota holds: pod creation is refused, 4 of 6 replicas", "HPA against a ResourceQuota (ReplicaSet creation refused)", "rollout_completes"},
		{"preemption-during-rollout", "https://github.com/kubernetes/kubernetes/issues/102382",
			"a high-priority node agent's rollout deletes its old pod first: the new pod preempts db on that node instead of waiting for the old one to go", "scheduler (DefaultPreemption) while a pod terminates", "replica_num_always_meet_exp"},
		{"core-node-pod-limit", "https://github.com/2i2c-org/infrastructure/issues/8916",
			"the core node pool at its maximum, its node at its 59-pod limit with CPU and memory to spare: the ACME solver is Pending", "scheduler (NodeResourcesFit, the node's pod limit) with the DaemonSets' pods", "pod_always_schedulable"},
		{"gitops-replicas-below-hpa-min", "https://github.com/uberswe/createmod.com/pull/1097",
			"Argo CD's self-heal resets spec.replicas to 2 below the HPA's minimum of 4: the HPA scales back up, killing and recreating pods in a loop", "GitOps self-heal (Argo CD) against the HPA's minReplicas", "no_scaling_loop"},
		{"lownodeutilization-anti-affinity-loop", "https://github.com/kubernetes-sigs/descheduler/issues/335",
			"LowNodeUtilization evicts a pod whose required anti-affinity only its own node satisfies: it is placed there again, for ever", "descheduler (LowNodeUtilization without nodeFit) against a required pod anti-affinity", "no_oscillation_eviction"},
	}
}

// Get returns the incident of that name.
func Get(name string) (Incident, bool) {
	i := slices.IndexFunc(List(), func(in Incident) bool { return in.Name == name })
	if i < 0 {
		return Incident{}, false
	}
	return List()[i], true
}

// Names lists the incident names.
func Names() []string {
	var out []string
	for _, in := range List() {
		out = append(out, in.Name)
	}
	return out
}

// Load reads an incident (fixed: its fixed twin) into a cluster with the
// manifest reader, as `kivi verify -f manifests.yaml --nodes nodes.yaml
// --intents intents.yaml` does.
func Load(name string, fixed bool) (*model.Cluster, []manifest.Warning, error) {
	if _, ok := Get(name); !ok {
		return nil, nil, fmt.Errorf("no incident %q", name)
	}
	dir := name
	if fixed {
		dir = path.Join(name, "fixed")
	}
	read := func(file string) (manifest.File, error) {
		p := path.Join(dir, file)
		data, err := fs.ReadFile(Files, p)
		return manifest.File{Name: path.Join("examples/incidents", p), Data: data}, err
	}
	var files [3]manifest.File
	for i, f := range []string{"manifests.yaml", "nodes.yaml", "intents.yaml"} {
		var err error
		if files[i], err = read(f); err != nil {
			return nil, nil, err
		}
	}
	r, err := manifest.LoadStream([]manifest.File{files[0]}, &files[1], &files[2], manifest.Options{
		KnownIntent: func(n string) bool { _, ok := intents.UserName(n); return ok },
		IntentNames: intents.Names(),
		// A manifest an event applies (manifest: web-v2.yaml) is read
		// from the embedded folder, next to the intents file.
		ReadFile: func(name string) ([]byte, error) {
			rel, ok := strings.CutPrefix(filepath.ToSlash(name), "examples/incidents/")
			if !ok {
				return nil, fs.ErrNotExist
			}
			return fs.ReadFile(Files, rel)
		},
	})
	if err != nil {
		return nil, nil, err
	}
	r.Cluster.Name = name
	if fixed {
		r.Cluster.Name = name + "-fixed"
	}
	return r.Cluster, r.Warnings, nil
}
