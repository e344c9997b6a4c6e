package preemptiondiff

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	listersv1 "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/latest"
	"k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/names"
	"k8s.io/utils/ptr"

	"github.com/kivi-go/kivi/fidelity/deschedulerdiff"
	"github.com/kivi-go/kivi/fidelity/scheddiff"
	"github.com/kivi-go/kivi/model"
)

// Namespace is the snapshots' one namespace.
const Namespace = deschedulerdiff.Namespace

// Real is kube-scheduler's DefaultPreemption built by its own constructor
// with the default profile's arguments on the default profile's framework
// (scheddiff.Real), and the disruption controller that writes the
// budgets' statuses. The framework's PodNominator is, for each snapshot,
// a new scheduling queue (queue.NewPriorityQueue) holding the snapshot's
// pending pods, as the scheduler's informer handlers add them.
type Real struct {
	sched *scheddiff.Real
	fw    framework.Framework
	ctx   context.Context
	pl    *defaultpreemption.DefaultPreemption
	dc    *deschedulerdiff.Disruption
	// queueInformers are the scheduling queue's informer factory, never
	// started: the queue reads namespaces from it only on events these
	// questions do not send.
	queueInformers informers.SharedInformerFactory
}

// NewReal builds the framework, the plugin and the disruption controller.
func NewReal() (*Real, error) {
	sched, err := scheddiff.NewRealWith()
	if err != nil {
		return nil, err
	}
	fw, ctx := sched.Framework()
	cfg, err := latest.Default()
	if err != nil {
		return nil, err
	}
	var args *config.DefaultPreemptionArgs
	for _, pc := range cfg.Profiles[0].PluginConfig {
		if pc.Name == names.DefaultPreemption {
			args, _ = pc.Args.(*config.DefaultPreemptionArgs)
		}
	}
	if args == nil {
		return nil, fmt.Errorf("the default profile has no DefaultPreemptionArgs")
	}
	pl, err := defaultpreemption.New(ctx, args, fw, feature.Features{})
	if err != nil {
		return nil, err
	}
	return &Real{sched: sched, fw: fw, ctx: ctx, pl: pl, dc: deschedulerdiff.NewDisruption(ctx),
		queueInformers: informers.NewSharedInformerFactory(fake.NewClientset(), 0)}, nil
}

// nominator builds the scheduling queue for o and sets it as the
// framework's PodNominator: every pending pod is added to it as the
// scheduler's event handler adds a new unscheduled pod
// (PriorityQueue.Add), which records the nominations it carries; its pod
// lister holds o's pods, which the nominator checks a nominated pod
// against. The caller closes the queue.
func (r *Real) nominator(o *apiObjects) (*queue.PriorityQueue, error) {
	pods := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, p := range append(append(slices.Clone(o.pods), o.nominees...), o.pending) {
		if err := pods.Add(p); err != nil {
			return nil, err
		}
	}
	q := queue.NewPriorityQueue(r.fw.QueueSortFunc(), r.queueInformers, queue.WithPodLister(listersv1.NewPodLister(pods)))
	for _, p := range append(slices.Clone(o.nominees), o.pending) {
		q.Add(r.ctx, p)
	}
	r.fw.SetPodNominator(q)
	return q, nil
}

// Close stops the framework's informers.
func (r *Real) Close() { r.sched.Close() }

// RealAnswer is the real plugin's answer under each start-time seed.
type RealAnswer struct {
	// Fits: some node passes the filters (no preemption question).
	Fits bool
	// FitNodes are the nodes the pod may be bound to, sorted: its
	// nominated node alone when that passes the filters
	// (evaluateNominatedNode), otherwise every node that passes.
	FitNodes []string
	// Outcomes, one per seed of Snapshot.StartSeeds.
	Outcomes []Outcome
	// Message is the PostFilter's status message (after "preemption: ")
	// when the pod cannot preempt.
	Message string
	// Allowed are the budgets' disruptionsAllowed as the disruption
	// controller computed them, for reports.
	Allowed []int32
}

// apiObjects are a snapshot as the API server holds them.
type apiObjects struct {
	nodes       []*v1.Node
	pods        []*v1.Pod
	nominees    []*v1.Pod
	pending     *v1.Pod
	deployments []*appsv1.Deployment
	replicaSets []*appsv1.ReplicaSet
	pdbs        []*policyv1.PodDisruptionBudget
}

// startBase is the earliest start time.
var startBase = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// toAPI translates the snapshot; pod i starts at startBase plus
// start[i] seconds.
func (s *Snapshot) toAPI(start []int) *apiObjects {
	o := &apiObjects{}
	for i, n := range s.Nodes {
		node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: NodeName(i), UID: types.UID("uid-" + NodeName(i)),
			Labels: map[string]string{model.HostnameKey: NodeName(i)}}}
		if n.Zone != "" {
			node.Labels[zoneKey] = n.Zone
		}
		if n.Tainted {
			node.Spec.Taints = []v1.Taint{{Key: taintKey, Value: taintValue, Effect: v1.TaintEffectNoSchedule}}
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
	replicas := make([]int32, len(s.Apps)+1)
	for _, p := range s.Pods {
		replicas[p.App]++
	}
	replicas[len(s.Apps)] = 1
	for range s.Nominees {
		replicas = append(replicas, 1)
	}
	for a := range replicas {
		name := incomingApp
		switch {
		case a < len(s.Apps):
			name = appName(a)
		case a > len(s.Apps):
			name = nomineeName(a - len(s.Apps) - 1)
		}
		dep := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: Namespace, UID: types.UID("uid-" + name)},
			Spec: appsv1.DeploymentSpec{Replicas: ptr.To(replicas[a]),
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{appLabel: name}}}}
		rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name + "-rs", Namespace: Namespace, UID: types.UID("uid-" + name + "-rs"),
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: name, UID: dep.UID, Controller: ptr.To(true)}}},
			Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To(replicas[a]), Selector: dep.Spec.Selector}}
		o.deployments = append(o.deployments, dep)
		o.replicaSets = append(o.replicaSets, rs)
	}
	for i, p := range s.Pods {
		app := s.Apps[p.App]
		pod := newPod(PodName(i), appName(p.App), app.Priority, app.MilliCPU, app.MemMiB)
		pod.Labels[tierLabel] = app.Tier
		pod.Spec.NodeName = NodeName(p.Node)
		pod.Status.Phase = v1.PodRunning
		pod.Status.StartTime = ptr.To(metav1.NewTime(startBase.Add(time.Duration(start[i]) * time.Second)))
		pod.Status.Conditions = []v1.PodCondition{{Type: v1.PodScheduled, Status: v1.ConditionTrue},
			{Type: v1.PodReady, Status: v1.ConditionTrue}}
		if p.Terminating != NotTerminating {
			pod.DeletionTimestamp = ptr.To(metav1.NewTime(startBase.Add(time.Hour)))
			pod.DeletionGracePeriodSeconds = ptr.To(int64(30))
		}
		if p.Terminating == TerminatingByPreemption {
			pod.Status.Conditions = append(pod.Status.Conditions, v1.PodCondition{Type: v1.DisruptionTarget, Status: v1.ConditionTrue,
				Reason: v1.PodReasonPreemptionByScheduler})
		}
		o.pods = append(o.pods, pod)
	}
	for k, n := range s.Nominees {
		pod := newPod(nomineeName(k)+"-0", nomineeName(k), n.Priority, n.MilliCPU, n.MemMiB)
		if n.Tier != "" {
			pod.Labels[tierLabel] = n.Tier
		}
		pod.Status.Phase = v1.PodPending
		pod.Status.NominatedNodeName = NodeName(n.Node)
		o.nominees = append(o.nominees, pod)
	}
	p := &s.Pending
	pending := newPod("incoming-0", incomingApp, p.Priority, p.MilliCPU, p.MemMiB)
	if p.Never {
		pending.Spec.PreemptionPolicy = ptr.To(v1.PreemptNever)
	}
	if p.Tier != "" {
		pending.Labels[tierLabel] = p.Tier
	}
	if p.ZoneSelector != "" {
		pending.Spec.NodeSelector = map[string]string{zoneKey: p.ZoneSelector}
	}
	if p.Tolerates {
		pending.Spec.Tolerations = append(pending.Spec.Tolerations, v1.Toleration{Key: taintKey, Operator: v1.TolerationOpEqual,
			Value: taintValue, Effect: v1.TaintEffectNoSchedule})
	}
	if p.Spread {
		pending.Spec.TopologySpreadConstraints = []v1.TopologySpreadConstraint{{MaxSkew: int32(p.MaxSkew), TopologyKey: p.SpreadKey,
			WhenUnsatisfiable: v1.DoNotSchedule, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{tierLabel: p.SpreadTier}}}}
	}
	if p.AntiApp >= 0 {
		pending.Spec.Affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{{TopologyKey: p.AntiKey,
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{appLabel: appName(p.AntiApp)}}}}}}
	}
	pending.Status.Phase = v1.PodPending
	if p.NominatedTo != 0 {
		pending.Status.NominatedNodeName = NodeName(p.NominatedTo - 1)
	}
	o.pending = pending
	for i, d := range s.PDBs {
		sel := map[string]string{tierLabel: d.Tier}
		if d.App >= 0 {
			sel = map[string]string{appLabel: appName(d.App)}
		}
		o.pdbs = append(o.pdbs, &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pdb%d", i), Namespace: Namespace,
			UID: types.UID(fmt.Sprintf("uid-pdb%d", i)), Generation: 1},
			Spec: policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: sel},
				MinAvailable: deschedulerdiff.IntOrString(d.MinAvailable), MaxUnavailable: deschedulerdiff.IntOrString(d.MaxUnavailable)}})
	}
	return o
}

// newPod is a pod of Deployment app (through its ReplicaSet) with the
// given priority, one container requesting what is not 0, and the
// tolerations the DefaultTolerationSeconds admission adds.
func newPod(name, app string, priority int32, milliCPU, memMiB int64) *v1.Pod {
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: Namespace, UID: types.UID("uid-" + name),
		Labels: map[string]string{appLabel: app},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: app + "-rs",
			UID: types.UID("uid-" + app + "-rs"), Controller: ptr.To(true)}}}}
	req := v1.ResourceList{}
	if milliCPU > 0 {
		req[v1.ResourceCPU] = *resource.NewMilliQuantity(milliCPU, resource.DecimalSI)
	}
	if memMiB > 0 {
		req[v1.ResourceMemory] = *resource.NewQuantity(memMiB<<20, resource.BinarySI)
	}
	c := v1.Container{Name: "c", Image: "image-" + app}
	if len(req) > 0 {
		c.Resources.Requests = req
	}
	pod.Spec.Containers = []v1.Container{c}
	pod.Spec.Priority = ptr.To(priority)
	pod.Spec.PreemptionPolicy = ptr.To(v1.PreemptLowerPriority)
	for _, key := range []string{v1.TaintNodeNotReady, v1.TaintNodeUnreachable} {
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, v1.Toleration{Key: key, Operator: v1.TolerationOpExists,
			Effect: v1.TaintEffectNoExecute, TolerationSeconds: ptr.To(int64(300))})
	}
	return pod
}

// Preempt asks the real plugin, once per start-time seed.
func (r *Real) Preempt(s *Snapshot) (*RealAnswer, error) {
	ans := &RealAnswer{}
	identity := make([]int, len(s.Pods))
	for i := range identity {
		identity[i] = i
	}
	o := s.toAPI(identity)
	// The pending pods are some of the API server's pods: a budget that
	// selects them expects them.
	pdbs, err := r.dc.StatusesOf(r.ctx, append(append(slices.Clone(o.pods), o.nominees...), o.pending), o.pdbs, o.replicaSets, o.deployments)
	if err != nil {
		return nil, err
	}
	q, err := r.nominator(o)
	if err != nil {
		return nil, err
	}
	defer q.Close()
	for _, b := range pdbs {
		ans.Allowed = append(ans.Allowed, b.Status.DisruptionsAllowed)
	}
	for k, seed := range s.StartSeeds {
		start := rand.New(rand.NewSource(seed)).Perm(len(s.Pods))
		o := s.toAPI(start)
		out, fitNodes, msg, err := r.once(o, pdbs)
		if err != nil {
			return nil, err
		}
		if len(fitNodes) > 0 {
			ans.Fits, ans.FitNodes = true, fitNodes
			return ans, nil
		}
		if k == 0 {
			ans.Message = msg
		} else if msg != ans.Message {
			return nil, fmt.Errorf("the real message depends on start times: %q, %q", ans.Message, msg)
		}
		ans.Outcomes = append(ans.Outcomes, out)
	}
	return ans, nil
}

// once is one scheduling cycle's Filter phase and PostFilter, as
// schedule_one.go and Evaluator.Preempt run them, minus fetching the pod
// from the informer, scoring and actuating the preemption. fitNodes are
// the nodes the pod may be bound to (RealAnswer.FitNodes), none when it
// fits no node.
//
// findNodesThatFitPod's nominated-node-first path is a method of the
// Scheduler, on the snapshot scheduler.New makes, which this harness does
// not build; what it runs is findNodesThatPassFilters on the nominated
// node alone, that is RunFilterPluginsWithNominatedPods on it (no
// extenders), and so does once; schedulePod then takes a single feasible
// node without scoring.
func (r *Real) once(o *apiObjects, pdbs []*policyv1.PodDisruptionBudget) (out Outcome, fitNodes []string, msg string, err error) {
	r.sched.SetSnapshot(o.nodes, o.pods)
	ctx, pod := r.ctx, o.pending
	state := framework.NewCycleState()
	if _, st, _ := r.fw.RunPreFilterPlugins(ctx, state, pod); !st.IsSuccess() {
		return out, nil, "", fmt.Errorf("PreFilter: %v", st)
	}
	nodeInfos := r.fw.SnapshotSharedLister().NodeInfos()
	all, err := nodeInfos.List()
	if err != nil {
		return out, nil, "", err
	}
	if nnn := pod.Status.NominatedNodeName; nnn != "" {
		ni, err := nodeInfos.Get(nnn)
		if err != nil {
			return out, nil, "", err
		}
		if st := r.fw.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni); st.IsSuccess() {
			return out, []string{nnn}, "", nil
		}
	}
	statuses := framework.NewDefaultNodeToStatus()
	for _, ni := range all {
		st := r.fw.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni)
		if st.IsSuccess() {
			fitNodes = append(fitNodes, ni.Node().Name)
			continue
		}
		if !st.IsRejected() {
			return out, nil, "", st.AsError()
		}
		statuses.Set(ni.Node().Name, st)
	}
	if len(fitNodes) > 0 {
		slices.Sort(fitNodes)
		return out, fitNodes, "", nil
	}
	if ok, why := r.pl.PodEligibleToPreemptOthers(ctx, pod, statuses.Get(pod.Status.NominatedNodeName)); !ok {
		return out, nil, why, nil
	}
	potential, err := statuses.NodesForStatusCode(nodeInfos, fwk.Unschedulable)
	if err != nil {
		return out, nil, "", err
	}
	fitError := func(m *framework.NodeToStatus) string {
		fe := &framework.FitError{Pod: pod, NumAllNodes: len(all), Diagnosis: framework.Diagnosis{NodeToStatus: m}}
		fe.Diagnosis.NodeToStatus.SetAbsentNodesStatus(fwk.NewStatus(fwk.UnschedulableAndUnresolvable, "Preemption is not helpful for scheduling"))
		return fe.Error()
	}
	if len(potential) == 0 {
		return out, nil, fitError(framework.NewDefaultNodeToStatus()), nil
	}
	ev := r.pl.Evaluator
	offset, num := ev.GetOffsetAndNumCandidates(int32(len(potential)))
	candidates, m, err := ev.DryRunPreemption(ctx, state, pod, potential, pdbs, offset, num)
	if err != nil && len(candidates) == 0 {
		return out, nil, "", err
	}
	if len(candidates) == 0 {
		return out, nil, fitError(m), nil
	}
	best := ev.SelectCandidate(ctx, candidates)
	out.Node = best.Name()
	for _, v := range best.Victims().Pods {
		if v.DeletionTimestamp != nil {
			continue
		}
		var i int
		if _, err := fmt.Sscanf(v.Name, "pod%d", &i); err != nil {
			return out, nil, "", err
		}
		out.Victims = append(out.Victims, i-1)
	}
	slices.Sort(out.Victims)
	return out, nil, "", nil
}
