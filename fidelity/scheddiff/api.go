package scheddiff

import (
	"fmt"
	"maps"
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kivi-go/kivi/model"
)

// The pending pod's ReplicaSet: its name, and the labels of its pods (the
// Deployment's label plus the pod-template-hash the Deployment controller
// adds), which are its selector.
const (
	rsName       = "incoming"
	appLabel     = "app"
	hashLabel    = "pod-template-hash"
	incomingApp  = "incoming"
	incomingHash = "6b9f5c7d8"
	namespace    = "default"
)

// pendingReplicaSet is the ReplicaSet of the pending pod and of the
// existing pods marked SameRS.
func pendingReplicaSet() *appsv1.ReplicaSet {
	sel := map[string]string{appLabel: incomingApp, hashLabel: incomingHash}
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: rsName, Namespace: namespace, UID: "rs-incoming"},
		Spec: appsv1.ReplicaSetSpec{Selector: &metav1.LabelSelector{MatchLabels: sel},
			Template: v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: sel}}},
	}
}

// ToAPI translates s to API objects: the nodes, the bound pods and the
// pending pod. A snapshot of Kivi's inputs stands for a cluster whose nodes
// carry Kivi's `hostname` label, as the model's nodes do.
func (s *Snapshot) ToAPI() ([]*v1.Node, []*v1.Pod, *v1.Pod) {
	var nodes []*v1.Node
	for i, n := range s.Nodes {
		labels := maps.Clone(n.Labels)
		if labels == nil {
			labels = map[string]string{}
		}
		labels[v1.LabelHostname] = NodeName(i)
		if _, ok := labels[model.KiviHostnameKey]; s.KiviInput && !ok {
			labels[model.KiviHostnameKey] = NodeName(i)
		}
		nodes = append(nodes, apiNode(NodeName(i), labels, n.Taints, n.MilliCPU, n.MemMiB, n.MaxPods, n.Ready, n.Down, n.Scalar))
	}
	var pods []*v1.Pod
	for i, e := range s.Existing {
		p := apiPod(fmt.Sprintf("pod%d", i+1), e.Labels, e.Req)
		p.Spec.NodeName = NodeName(e.Node)
		p.Status.Phase = v1.PodRunning
		switch {
		case e.SameRS:
			ownBy(p)
			// The pending pod's ReplicaSet: its pod template's terms.
			applyPodAffinity(p, s.Pending.PodAffinity, s.Pending.PodAntiAffinity)
			s.Pending.Ports.applyTo(p)
		case e.Bare:
			applyPodAffinity(p, e.PodAffinity, e.PodAntiAffinity)
			e.Ports.applyTo(p)
		default:
			// A ReplicaSet of its own: a pod-template-hash of its own.
			p.Labels[hashLabel] = fmt.Sprintf("h%d", i+1)
			applyPodAffinity(p, e.PodAffinity, e.PodAntiAffinity)
			e.Ports.applyTo(p)
		}
		admit(p)
		pods = append(pods, p)
	}
	pe := &s.Pending
	pending := apiPod("pending", pe.Labels, pe.Req)
	pending.Status.Phase = v1.PodPending
	ownBy(pending)
	pe.applyTo(pending)
	applyPodAffinity(pending, pe.PodAffinity, pe.PodAntiAffinity)
	pe.Ports.applyTo(pending)
	admit(pending)
	return nodes, pods, pending
}

// apiPod is a pod with one container requesting req.
func apiPod(name string, labels map[string]string, req Requests) *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, UID: types.UID("pod-" + name), Labels: maps.Clone(labels)},
		Spec:       v1.PodSpec{Containers: []v1.Container{apiContainer("c", req)}},
	}
}

// apiContainer is a container requesting req; a zero request is left out
// unless req.ExplicitZero.
func apiContainer(name string, req Requests) v1.Container {
	requests := v1.ResourceList{}
	if req.MilliCPU > 0 || req.ExplicitZero {
		requests[v1.ResourceCPU] = *resourceMilli(req.MilliCPU)
	}
	if req.MemMiB > 0 || req.ExplicitZero {
		requests[v1.ResourceMemory] = *resourceMiB(req.MemMiB)
	}
	var limits v1.ResourceList
	for k, v := range req.Scalar {
		if v == 0 {
			continue
		}
		if limits == nil {
			limits = v1.ResourceList{}
		}
		requests[v1.ResourceName(k)] = *resource.NewQuantity(v, resource.DecimalSI)
		limits[v1.ResourceName(k)] = *resource.NewQuantity(v, resource.DecimalSI)
	}
	return v1.Container{Name: name, Image: "app", Resources: v1.ResourceRequirements{Requests: requests, Limits: limits}}
}

func resourceMilli(m int64) *resource.Quantity {
	return resource.NewMilliQuantity(m, resource.DecimalSI)
}
func resourceMiB(m int64) *resource.Quantity { return resource.NewQuantity(m<<20, resource.BinarySI) }

// ownBy makes p a pod of the pending pod's ReplicaSet.
func ownBy(p *v1.Pod) {
	yes := true
	p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rsName, UID: "rs-incoming", Controller: &yes}}
}

// nodeTerm is a model selector (MatchExpressions only) as a node selector
// term: a requirement on model.NodeNameField is a matchFields one.
func nodeTerm(s *model.Selector) v1.NodeSelectorTerm {
	var t v1.NodeSelectorTerm
	for _, r := range s.MatchExpressions {
		if r.Key == model.NodeNameField {
			t.MatchFields = append(t.MatchFields, v1.NodeSelectorRequirement{Key: metav1.ObjectNameField,
				Operator: v1.NodeSelectorOperator(r.Operator), Values: r.Values})
			continue
		}
		t.MatchExpressions = append(t.MatchExpressions, v1.NodeSelectorRequirement{Key: r.Key,
			Operator: v1.NodeSelectorOperator(r.Operator), Values: r.Values})
	}
	return t
}

// labelSelector is a model selector as a label selector (nil stays nil).
func labelSelector(s *model.Selector) *metav1.LabelSelector {
	if s == nil {
		return nil
	}
	ls := &metav1.LabelSelector{MatchLabels: maps.Clone(s.MatchLabels)}
	for _, r := range s.MatchExpressions {
		ls.MatchExpressions = append(ls.MatchExpressions, metav1.LabelSelectorRequirement{Key: r.Key,
			Operator: metav1.LabelSelectorOperator(r.Operator), Values: r.Values})
	}
	return ls
}

// apiNode is one node: labels must already hold kubernetes.io/hostname
// (the kubelet sets it). A node that is not Ready has the Ready condition
// and the node lifecycle controller's taints down says (NodeDown).
func apiNode(name string, labels map[string]string, taints []model.Taint, milliCPU, memMiB int64, maxPods int, ready bool, down NodeDown, scalar map[string]int64) *v1.Node {
	res := v1.ResourceList{
		v1.ResourceCPU:    *resource.NewMilliQuantity(milliCPU, resource.DecimalSI),
		v1.ResourceMemory: *resource.NewQuantity(memMiB<<20, resource.BinarySI),
		v1.ResourcePods:   *resource.NewQuantity(int64(maxPods), resource.DecimalSI),
	}
	for k, v := range scalar {
		res[v1.ResourceName(k)] = *resource.NewQuantity(v, resource.DecimalSI)
	}
	node := &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("node-" + name), Labels: labels},
		Status:     v1.NodeStatus{Capacity: res, Allocatable: res},
	}
	for _, t := range taints {
		node.Spec.Taints = append(node.Spec.Taints, v1.Taint{Key: t.Key, Value: t.Value, Effect: v1.TaintEffect(t.Effect)})
	}
	cond := v1.ConditionTrue
	if !ready {
		cond = down.condition()
		for _, t := range down.taints() {
			node.Spec.Taints = append(node.Spec.Taints, v1.Taint{Key: t.Key, Effect: v1.TaintEffect(t.Effect)})
		}
	}
	node.Status.Conditions = []v1.NodeCondition{{Type: v1.NodeReady, Status: cond}}
	return node
}

// applyTo writes pe's scheduling constraints (nodeSelector, node
// affinity, tolerations, topology spread constraints) into pending's spec.
func (pe *Pending) applyTo(pending *v1.Pod) {
	pending.Spec.NodeSelector = maps.Clone(pe.NodeSelector)
	var aff v1.NodeAffinity
	if len(pe.Required) > 0 {
		ns := &v1.NodeSelector{}
		for i := range pe.Required {
			ns.NodeSelectorTerms = append(ns.NodeSelectorTerms, nodeTerm(&pe.Required[i]))
		}
		aff.RequiredDuringSchedulingIgnoredDuringExecution = ns
	}
	for _, t := range pe.Preferred {
		aff.PreferredDuringSchedulingIgnoredDuringExecution = append(aff.PreferredDuringSchedulingIgnoredDuringExecution,
			v1.PreferredSchedulingTerm{Weight: int32(t.Weight), Preference: nodeTerm(&t.Term)})
	}
	if aff.RequiredDuringSchedulingIgnoredDuringExecution != nil || len(aff.PreferredDuringSchedulingIgnoredDuringExecution) > 0 {
		if pending.Spec.Affinity == nil {
			pending.Spec.Affinity = &v1.Affinity{}
		}
		pending.Spec.Affinity.NodeAffinity = &aff
	}
	for _, t := range pe.Tolerations {
		pending.Spec.Tolerations = append(pending.Spec.Tolerations, v1.Toleration{Key: t.Key,
			Operator: v1.TolerationOperator(t.Operator), Value: t.Value, Effect: v1.TaintEffect(t.Effect),
			TolerationSeconds: t.TolerationSeconds})
	}
	if !pe.KiviLifecycle {
		pending.Spec.Tolerations = withDefaultTolerationSeconds(pending.Spec.Tolerations)
	}
	for _, c := range pe.Spread {
		tsc := v1.TopologySpreadConstraint{MaxSkew: int32(c.MaxSkew), TopologyKey: c.Key,
			WhenUnsatisfiable: v1.DoNotSchedule, LabelSelector: labelSelector(c.Selector), MatchLabelKeys: slices.Clone(c.MatchLabelKeys)}
		if c.When == model.ScheduleAnyway {
			tsc.WhenUnsatisfiable = v1.ScheduleAnyway
		}
		if c.MinDomains > 0 {
			m := int32(c.MinDomains)
			tsc.MinDomains = &m
		}
		if c.AffinityPolicy != "" {
			p := v1.NodeInclusionPolicy(c.AffinityPolicy)
			tsc.NodeAffinityPolicy = &p
		}
		if c.TaintsPolicy != "" {
			p := v1.NodeInclusionPolicy(c.TaintsPolicy)
			tsc.NodeTaintsPolicy = &p
		}
		pending.Spec.TopologySpreadConstraints = append(pending.Spec.TopologySpreadConstraints, tsc)
	}
}

// withDefaultTolerationSeconds is what the DefaultTolerationSeconds
// admission plugin (plugin/pkg/admission/defaulttolerationseconds) adds
// to a pod: `Exists NoExecute` tolerations of the not-ready and
// unreachable taints for 300 s, each unless the pod has a toleration of
// that key (or of every key) with effect NoExecute (or every effect).
func withDefaultTolerationSeconds(tols []v1.Toleration) []v1.Toleration {
	for _, key := range []string{v1.TaintNodeNotReady, v1.TaintNodeUnreachable} {
		has := false
		for _, t := range tols {
			if (t.Key == key || t.Key == "") && (t.Effect == v1.TaintEffectNoExecute || t.Effect == "") {
				has = true
			}
		}
		if !has {
			sec := int64(model.DefaultTolerationSeconds)
			tols = append(tols, v1.Toleration{Key: key, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: &sec})
		}
	}
	return tols
}
