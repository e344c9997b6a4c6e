package deschedulerdiff

import (
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kivi-go/kivi/model"
)

// Namespace is the namespace of a Dep or budget that names none: the
// one namespace of the single-namespace snapshots.
const Namespace = "default"

// systemCriticalPriority is scheduling.SystemCriticalPriority: a pod at
// or above it is system-critical (the DefaultEvictor's
// SystemCriticalPods protection).
const systemCriticalPriority = 2000000000

// objects are a snapshot as API objects, as the API server would hold
// them after admission.
type objects struct {
	nodes       []*v1.Node
	pods        []*v1.Pod
	deployments []*appsv1.Deployment
	replicaSets []*appsv1.ReplicaSet
	pdbs        []*policyv1.PodDisruptionBudget
	namespaces  []*v1.Namespace
}

// deletedAt is the deletion timestamp of the terminating pods.
var deletedAt = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func rsName(d int) string { return depName(d) + "-rs" }

// ToAPI translates the snapshot. Nodes carry the hostname label, the
// Ready condition, and when cordoned spec.unschedulable and the
// node.kubernetes.io/unschedulable taint (the node lifecycle controller
// adds it). Pods are owned by their Dep's ReplicaSet, which the
// Deployment owns; they carry the tolerations the API server's
// DefaultTolerationSeconds admission adds, priority 0 (the Priority
// admission's default) or 2000000000 (system-cluster-critical), one
// container whose image names the Dep (RemoveDuplicates' owner key), and
// only the requests that are not 0. A Running pod is Ready unless it is
// crashing or its readiness probe fails (Pod.ready).
func (s *Snapshot) ToAPI() *objects {
	o := &objects{}
	for i, n := range s.Nodes {
		node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: NodeName(i), UID: types.UID("uid-" + NodeName(i)),
			Labels: map[string]string{model.HostnameKey: NodeName(i)}}}
		if n.Zone != "" {
			node.Labels[ZoneKey] = n.Zone
		}
		if n.Disk != "" {
			node.Labels[DiskKey] = n.Disk
		}
		for _, t := range n.Taints {
			node.Spec.Taints = append(node.Spec.Taints, v1.Taint{Key: t.Key, Value: t.Value, Effect: v1.TaintEffect(t.Effect)})
		}
		if n.Cordoned {
			node.Spec.Unschedulable = true
			node.Spec.Taints = append(node.Spec.Taints, v1.Taint{Key: unschedulableKey, Effect: v1.TaintEffectNoSchedule})
		}
		alloc := v1.ResourceList{
			v1.ResourceCPU:    *resource.NewMilliQuantity(n.MilliCPU, resource.DecimalSI),
			v1.ResourceMemory: *resource.NewQuantity(n.MemMiB<<20, resource.BinarySI),
			v1.ResourcePods:   *resource.NewQuantity(int64(n.MaxPods), resource.DecimalSI),
		}
		node.Status.Capacity, node.Status.Allocatable = alloc, alloc.DeepCopy()
		node.Status.Conditions = []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue}}
		o.nodes = append(o.nodes, node)
	}
	for i, d := range s.Deps {
		dep := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: depName(i), Namespace: d.namespace(), UID: types.UID("uid-" + depName(i))},
			Spec: appsv1.DeploymentSpec{Replicas: ptr.To(int32(d.Replicas)),
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{appLabel: depName(i)}}}}
		rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: rsName(i), Namespace: d.namespace(), UID: types.UID("uid-" + rsName(i)),
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: dep.Name, UID: dep.UID, Controller: ptr.To(true)}}},
			Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To(int32(d.Replicas)), Selector: dep.Spec.Selector}}
		o.deployments = append(o.deployments, dep)
		o.replicaSets = append(o.replicaSets, rs)
	}
	for i, p := range s.Pods {
		o.pods = append(o.pods, s.apiPod(i, p))
	}
	o.namespaces = s.apiNamespaces()
	for i, b := range s.PDBs {
		pdb := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pdb%d", i), Namespace: b.namespace(),
			UID: types.UID(fmt.Sprintf("uid-pdb%d", i)), Generation: 1},
			Spec: policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: b.MatchLabels},
				MinAvailable: IntOrString(b.MinAvailable), MaxUnavailable: IntOrString(b.MaxUnavailable)}}
		if b.AlwaysAllow {
			pdb.Spec.UnhealthyPodEvictionPolicy = ptr.To(policyv1.AlwaysAllow)
		}
		o.pdbs = append(o.pdbs, pdb)
	}
	return o
}

// IntOrString is a budget's minAvailable or maxUnavailable as the API
// writes it (nil stays nil).
func IntOrString(v *model.IntOrPercent) *intstr.IntOrString {
	if v == nil {
		return nil
	}
	if v.Percent {
		return ptr.To(intstr.FromString(fmt.Sprintf("%d%%", v.Value)))
	}
	return ptr.To(intstr.FromInt32(int32(v.Value)))
}

func (s *Snapshot) apiPod(i int, p Pod) *v1.Pod {
	d := s.Deps[p.Dep]
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: PodName(i), Namespace: d.namespace(), UID: types.UID("uid-" + PodName(i)),
		Labels: map[string]string{appLabel: depName(p.Dep), tierKey: d.Tier},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rsName(p.Dep),
			UID: types.UID("uid-" + rsName(p.Dep)), Controller: ptr.To(true)}}}}
	req := v1.ResourceList{}
	if d.MilliCPU > 0 {
		req[v1.ResourceCPU] = *resource.NewMilliQuantity(d.MilliCPU, resource.DecimalSI)
	}
	if d.MemMiB > 0 {
		req[v1.ResourceMemory] = *resource.NewQuantity(d.MemMiB<<20, resource.BinarySI)
	}
	c := v1.Container{Name: "c", Image: "image-" + depName(p.Dep)}
	if len(req) > 0 {
		c.Resources.Requests = req
	}
	if d.Guaranteed {
		c.Resources.Limits = req.DeepCopy()
	}
	pod.Spec.Containers = []v1.Container{c}
	pod.Spec.NodeName = NodeName(p.Node)
	pod.Spec.Priority = ptr.To(int32(0))
	if d.Critical {
		pod.Spec.Priority = ptr.To(int32(systemCriticalPriority))
		pod.Spec.PriorityClassName = "system-cluster-critical"
	}
	if d.ZoneSelector != "" {
		pod.Spec.NodeSelector = map[string]string{ZoneKey: d.ZoneSelector}
	}
	for _, t := range d.Tolerations {
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, v1.Toleration{Key: t.Key, Operator: v1.TolerationOperator(t.Operator),
			Value: t.Value, Effect: v1.TaintEffect(t.Effect), TolerationSeconds: t.TolerationSeconds})
	}
	for _, key := range []string{v1.TaintNodeNotReady, v1.TaintNodeUnreachable} {
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, v1.Toleration{Key: key, Operator: v1.TolerationOpExists,
			Effect: v1.TaintEffectNoExecute, TolerationSeconds: ptr.To(int64(300))})
	}
	for _, sc := range d.Spread {
		c := v1.TopologySpreadConstraint{MaxSkew: int32(sc.MaxSkew), TopologyKey: sc.Key,
			WhenUnsatisfiable: v1.UnsatisfiableConstraintAction(sc.When.String()),
			LabelSelector:     &metav1.LabelSelector{MatchLabels: sc.selector(p.Dep, d)},
			MatchLabelKeys:    sc.matchLabelKeys()}
		if sc.HonorTaints {
			c.NodeTaintsPolicy = ptr.To(v1.NodeInclusionPolicyHonor)
		}
		if sc.IgnoreAffinty {
			c.NodeAffinityPolicy = ptr.To(v1.NodeInclusionPolicyIgnore)
		}
		pod.Spec.TopologySpreadConstraints = append(pod.Spec.TopologySpreadConstraints, c)
	}
	apiAffinity(pod, p.Dep, d)
	if p.Terminating {
		pod.DeletionTimestamp = ptr.To(metav1.NewTime(deletedAt))
		pod.DeletionGracePeriodSeconds = ptr.To(int64(30))
	}
	pod.Status.Phase = v1.PodPending
	pod.Status.Conditions = []v1.PodCondition{{Type: v1.PodScheduled, Status: v1.ConditionTrue}}
	// The kubelet's Ready condition: False while a container is not
	// ready (a failing readiness probe, a crash until the container runs
	// again) or has not started, which the disruption controller's
	// currentHealthy and the Eviction API's unhealthyPodEvictionPolicy
	// read (IsPodReady). A Pending pod whose init containers restarted is
	// not Initialized either. A pod rejected at admission (Failed) gets
	// its phase and reason only.
	ready := v1.ConditionFalse
	if p.ready() {
		ready = v1.ConditionTrue
	}
	if p.Running {
		pod.Status.Phase = v1.PodRunning
	} else if p.InitRestarts > 0 {
		pod.Status.Conditions = append(pod.Status.Conditions, v1.PodCondition{Type: v1.PodInitialized, Status: v1.ConditionFalse})
	}
	if !p.Failed {
		pod.Status.Conditions = append(pod.Status.Conditions, v1.PodCondition{Type: v1.PodReady, Status: ready})
	}
	lifetimeStatus(pod, p)
	restartsStatus(pod, p)
	s.evictorStatus(pod, p)
	return pod
}
