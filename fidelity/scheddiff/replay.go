package scheddiff

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	kivisched "github.com/kivi-go/kivi/controllers/scheduler"
	"github.com/kivi-go/kivi/model"
)

// This file replays the scheduling steps of the model's counterexamples
// through the real framework (issue #18, item 3). Unlike a Snapshot, a
// model state has many deployments and templates, Terminating pods, pods
// bound but not yet started, node reservations and nodes that crashed; so
// it gets a translator of its own (StateToAPI), which shares the node and
// pod-spec translation with ToAPI.

// reservedNamespace holds the placeholder pods that stand for a node's
// reservation: pods of another namespace take resources and pod slots
// but are never counted by PodTopologySpread or InterPodAffinity, as the
// model's reservation is not.
const reservedNamespace = "kube-system"

// rsOf names the ReplicaSet of deployment d's pods of template t, and is
// also their pod-template-hash. The model's system default spread
// constraints count the pods with the incoming pod's owner and template
// (controllers/scheduler/cycle.go count); upstream counts the pods that
// the owning ReplicaSet's selector (the template's labels plus
// pod-template-hash) matches, which is the same set when each (owner,
// template) pair has its own hash.
func rsOf(d, t int) string { return fmt.Sprintf("d%d-t%d", d, t) }

// ReplicaSets are the ReplicaSets of every deployment and template of u,
// for NewRealWith: helper.DefaultSelector reads a pod's owning
// ReplicaSet through the informers.
func ReplicaSets(u *model.Universe) []runtime.Object {
	var out []runtime.Object
	for d := range u.Deployments {
		for t := range u.Templates {
			sel := podLabels(u, d+1, t)
			out = append(out, &appsv1.ReplicaSet{
				ObjectMeta: metav1.ObjectMeta{Name: rsOf(d, t), Namespace: namespace, UID: types.UID("rs-" + rsOf(d, t))},
				Spec: appsv1.ReplicaSetSpec{Selector: &metav1.LabelSelector{MatchLabels: sel},
					Template: v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: sel}}},
			})
		}
	}
	return out
}

// podLabels are the labels of a pod of template t owned by deployment
// owner-1 (0: a bare pod, which has only its template's labels).
func podLabels(u *model.Universe, owner, t int) map[string]string {
	l := maps.Clone(u.Templates[t].Labels)
	if l == nil {
		l = map[string]string{}
	}
	if owner != 0 {
		l[hashLabel] = rsOf(owner-1, t)
	}
	return l
}

// StateAPI is one scheduling question of a model state as API objects.
type StateAPI struct {
	Nodes   []*v1.Node
	Pods    []*v1.Pod
	Pending *v1.Pod
}

// StateToAPI translates the question "where does pod slot pod go in s"
// to API objects. Model units are read as millicores and MiB, as in
// ToModel.
//   - Nodes keep their names and compiled labels, Kivi's hostname alias
//     included: a Kivi input stands for a cluster whose nodes carry that
//     label (Compile adds it for Kivi's inputs only). A node that is not
//     Ready (NotReady, or Unhealthy: crashed) has the Ready condition
//     and the node lifecycle controller's taints of its status (downOf).
//   - A node's reservation (resources and pod slots the model does not
//     track) is placeholder pods in another namespace: they count for
//     NodeResourcesFit and for the scores as the reservation does in the
//     model (Universe.Requested), and for nothing else. With a reserved
//     resource but no reserved pod slot, one placeholder carries it and
//     the node gets one more pod slot for it.
//   - Every bound pod (Pending, Running or Terminating; unbound and Failed pods are
//     not in the scheduler's snapshot) requests its template's requests;
//     a Terminating pod has a deletion timestamp, which PodTopologySpread
//     skips as the model does. Owned pods carry their ReplicaSet's
//     labels and owner reference (rsOf), and every pod its template's
//     inter-pod affinity and containers that leave out the requests its
//     template's non-zero requests say are missing (templateContainers).
func StateToAPI(u *model.Universe, s *model.State, pod int) StateAPI {
	var out StateAPI
	for i := range u.Nodes {
		// A deleted Node object is in no informer's list.
		if s.Nodes[i].Status == model.NodeDeleted {
			continue
		}
		n := &u.Nodes[i]
		labels := maps.Clone(n.Labels)
		maxPods := n.MaxPods
		placeholders := n.ReservedPods
		if placeholders == 0 && (n.ReservedCPU > 0 || n.ReservedMemory > 0 || slices.ContainsFunc(n.ReservedScalar, func(v int64) bool { return v > 0 })) {
			placeholders, maxPods = 1, maxPods+1
		}
		st := s.Nodes[i].Status
		node := apiNode(n.Name, labels, n.Taints, n.CPU, n.Memory, maxPods,
			st == model.Ready, downOf(st), listedScalar(u, n))
		stateTaints(node, &s.Nodes[i])
		out.Nodes = append(out.Nodes, node)
		for k := range placeholders {
			var req Requests
			if k == 0 {
				req = Requests{MilliCPU: n.ReservedCPU, MemMiB: n.ReservedMemory, Scalar: scalarOf(u, n.ReservedScalar)}
			}
			// Explicit requests, zeros included: a placeholder is scored
			// as exactly what it reserves.
			req.ExplicitZero = true
			p := apiPod(fmt.Sprintf("reserved-%s-%d", n.Name, k), nil, req)
			p.Namespace = reservedNamespace
			p.Spec.NodeName = n.Name
			p.Status.Phase = v1.PodRunning
			out.Pods = append(out.Pods, p)
		}
	}
	for i := range s.Pods {
		q := &s.Pods[i]
		// The scheduler's cache holds assigned pods that are not
		// terminal: its informer drops Failed pods (a kubelet's
		// admission rejection or node-pressure eviction).
		if i == pod || !model.InSchedulerCache(q) {
			continue
		}
		p := statePod(u, i, q)
		admit(p)
		p.Spec.NodeName = u.Nodes[q.Node-1].Name
		switch q.Phase {
		case model.Pending:
			p.Status.Phase = v1.PodPending
		case model.Running:
			p.Status.Phase = v1.PodRunning
		case model.Terminating:
			p.Status.Phase = v1.PodRunning
			now := metav1.Now()
			p.DeletionTimestamp = &now
		}
		out.Pods = append(out.Pods, p)
	}
	q := &s.Pods[pod]
	out.Pending = statePod(u, pod, q)
	out.Pending.Status.Phase = v1.PodPending
	t := &u.Templates[q.Template]
	pe := Pending{NodeSelector: t.NodeSelector, Required: t.Required, Preferred: t.Preferred, Tolerations: t.Tolerations,
		KiviLifecycle: u.Options.KiviLifecycle}
	for _, c := range t.Spread {
		sp := Spread{MaxSkew: c.MaxSkew, Key: c.TopologyKey, When: c.When, Selector: c.Selector,
			AffinityPolicy: "Ignore", TaintsPolicy: "Ignore", MatchLabelKeys: c.MatchLabelKeys}
		// The model's default minDomains is 1, which is what upstream
		// does with the field unset (and it is only valid with
		// DoNotSchedule).
		if c.MinDomains > 1 {
			sp.MinDomains = c.MinDomains
		}
		if c.HonorNodeAffinity {
			sp.AffinityPolicy = "Honor"
		}
		if c.HonorNodeTaints {
			sp.TaintsPolicy = "Honor"
		}
		pe.Spread = append(pe.Spread, sp)
	}
	pe.applyTo(out.Pending)
	if t.NodeName != 0 {
		out.Pending.Spec.NodeName = u.Nodes[t.NodeName-1].Name
	}
	admit(out.Pending)
	return out
}

// stateTaints writes what the state says of a node beyond its readiness
// into its API object, as the controllers that set them would: a
// drain's cordon (spec.unschedulable, and the node lifecycle
// controller's node.kubernetes.io/unschedulable:NoSchedule taint) and
// the MemoryPressure condition with its taint.
func stateTaints(node *v1.Node, ns *model.NodeState) {
	if ns.Cordoned {
		node.Spec.Unschedulable = true
		node.Spec.Taints = append(node.Spec.Taints, v1.Taint{Key: v1.TaintNodeUnschedulable, Effect: v1.TaintEffectNoSchedule})
	}
	if ns.MemoryPressure {
		node.Spec.Taints = append(node.Spec.Taints, v1.Taint{Key: v1.TaintNodeMemoryPressure, Effect: v1.TaintEffectNoSchedule})
		node.Status.Conditions = append(node.Status.Conditions, v1.NodeCondition{Type: v1.NodeMemoryPressure, Status: v1.ConditionTrue})
	}
}

// statePod is pod slot i as an API pod: its template's labels and
// requests, and for an owned pod its ReplicaSet's hash and owner.
func statePod(u *model.Universe, i int, q *model.PodState) *v1.Pod {
	t := &u.Templates[q.Template]
	p := apiPod(fmt.Sprintf("pod%d", i+1), podLabels(u, int(q.Owner), int(q.Template)), Requests{})
	p.Spec.Containers = templateContainers(t, scalarOf(u, t.Scalar))
	p.Spec.Containers[0].Ports = templatePorts(t)
	aff, anti := templateAffinity(t)
	applyPodAffinity(p, aff, anti)
	if q.Owner != 0 {
		yes := true
		name := rsOf(int(q.Owner)-1, int(q.Template))
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: name,
			UID: types.UID("rs-" + name), Controller: &yes}}
	}
	return p
}

// StepVerdict is the outcome of one replayed scheduling decision.
type StepVerdict struct {
	// Pod is the pod slot scheduled; Placed the node the model bound it
	// to, "" when the model found no feasible node.
	Pod    int
	Placed string
	// Class is "" when the real framework agrees (Placed is among its
	// top-scoring nodes, or it rejects every node when Placed is ""), a
	// class name (several joined by "+") when only the counterfactuals of
	// those known classes make it agree, or Unexplained.
	Class string
	// SameSets: without any counterfactual, both schedulers have the same
	// feasible and the same top-scoring nodes (stronger than agreement,
	// which only asks that the model's pick be one the real scheduler
	// could make; reported, not required).
	SameSets    bool
	Model, Real Answer
}

// stepClass is a known disagreement class as it applies to a model state:
// the names and counterfactuals are those of Classes, and applies looks at
// the universe and state instead of a Snapshot.
type stepClass struct {
	name    string
	applies func(u *model.Universe, s *model.State, pod int) bool
}

var stepClasses = []stepClass{
	{"image-locality-not-modelled", func(*model.Universe, *model.State, int) bool { return true }},
}

// classFix is the counterfactual of the class of Classes named name.
func classFix(name string) Variation {
	for _, c := range Classes {
		if c.Name == name {
			return c.Fix
		}
	}
	panic("scheddiff: no class " + name)
}

// templateUsesKey reports whether template t refers to node label key k.
func templateUsesKey(t *model.PodTemplate, k string) bool {
	s := Snapshot{Pending: Pending{NodeSelector: t.NodeSelector, Required: t.Required, Preferred: t.Preferred}}
	for _, c := range t.Spread {
		s.Pending.Spread = append(s.Pending.Spread, Spread{Key: c.TopologyKey})
	}
	return s.usesKey(k)
}

// Replayer replays the scheduling decisions of one universe through a
// real framework whose informers hold that universe's ReplicaSets.
type Replayer struct {
	U    *model.Universe
	Real *Real
}

// NewReplayer builds the real framework for u.
func NewReplayer(u *model.Universe) (*Replayer, error) { return NewReplayerConfig(u, nil) }

// NewReplayerConfig builds the real framework for u from the
// KubeSchedulerConfiguration document u was read with (nil: the
// defaults), as NewRealConfig loads it.
func NewReplayerConfig(u *model.Universe, config []byte) (*Replayer, error) {
	r, err := NewRealConfig(config, ReplicaSets(u)...)
	if err != nil {
		return nil, err
	}
	return &Replayer{U: u, Real: r}, nil
}

// Close stops the framework's informers.
func (rp *Replayer) Close() { rp.Real.Close() }

// Judge replays one decision: the model scheduled pod slot pod of s on
// node placed (-1: it found no feasible node). It asks the real framework
// the same question and, on a disagreement, tries the applicable known
// classes as Classify does: each alone, then all together (reduced to the
// ones needed).
func (rp *Replayer) Judge(s *model.State, pod, placed int) (StepVerdict, error) {
	u := rp.U
	feasible, top := kivisched.Decide(u, s, pod)
	names := func(ns []int) []string {
		var out []string
		for _, n := range ns {
			out = append(out, u.Nodes[n].Name)
		}
		slices.Sort(out)
		return out
	}
	v := StepVerdict{Pod: pod, Model: Answer{Feasible: names(feasible), Top: names(top)}}
	if placed >= 0 {
		v.Placed = u.Nodes[placed].Name
	}
	agrees := func(x Variation) (Answer, error) {
		a := StateToAPI(u, s, pod)
		ra, err := rp.Real.Decide(a.Nodes, a.Pods, a.Pending)
		if err != nil {
			// As realAnswer: a framework error schedules the pod nowhere.
			return Answer{Detail: "framework error: " + err.Error()}, nil
		}
		return Answer{Feasible: ra.Feasible, Top: ra.Top(x.Without...), Detail: realDetail(ra)}, nil
	}
	ok := func(a Answer) bool {
		if placed < 0 {
			return len(a.Feasible) == 0
		}
		return slices.Contains(a.Top, v.Placed)
	}
	var err error
	if v.Real, err = agrees(Variation{}); err != nil {
		return v, err
	}
	v.SameSets = v.Model.Same(v.Real)
	if ok(v.Real) {
		return v, nil
	}
	var all Variation
	var applicable []string
	for _, c := range stepClasses {
		if !c.applies(u, s, pod) {
			continue
		}
		a, err := agrees(classFix(c.name))
		if err != nil {
			return v, err
		}
		if ok(a) {
			v.Class = c.name
			return v, nil
		}
		all = all.merge(classFix(c.name))
		applicable = append(applicable, c.name)
	}
	if a, err := agrees(all); err != nil || !ok(a) {
		v.Class = Unexplained
		return v, err
	}
	// Drop every class the others explain the disagreement without.
	for i := 0; i < len(applicable); {
		rest := slices.Delete(slices.Clone(applicable), i, i+1)
		var x Variation
		for _, n := range rest {
			x = x.merge(classFix(n))
		}
		if a, err := agrees(x); err == nil && ok(a) {
			applicable = rest
			continue
		}
		i++
	}
	v.Class = strings.Join(applicable, "+")
	return v, nil
}

// realDetail renders the real framework's rejections and scores.
func realDetail(ra RealAnswer) string {
	var b strings.Builder
	if ra.PreFilter != "" {
		fmt.Fprintf(&b, "  PreFilter rejected the pod: %s\n", ra.PreFilter)
	}
	for _, n := range slices.Sorted(maps.Keys(ra.Rejected)) {
		fmt.Fprintf(&b, "  node %s: %s\n", n, ra.Rejected[n])
	}
	for _, n := range slices.Sorted(maps.Keys(ra.Scores)) {
		fmt.Fprintf(&b, "  node %s:", n)
		var total int64
		for _, p := range slices.Sorted(maps.Keys(ra.Scores[n])) {
			fmt.Fprintf(&b, " %s %d", p, ra.Scores[n][p])
			total += ra.Scores[n][p]
		}
		fmt.Fprintf(&b, " = %d\n", total)
	}
	return b.String()
}
