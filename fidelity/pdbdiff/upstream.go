package pdbdiff

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	_ "unsafe" // go:linkname

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/meta/testrestmapper"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	discoveryfake "k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	scalefake "k8s.io/client-go/scale/fake"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	"k8s.io/kubernetes/pkg/apis/policy"
	policyv1conv "k8s.io/kubernetes/pkg/apis/policy/v1"
	"k8s.io/kubernetes/pkg/controller/disruption"
	podstorage "k8s.io/kubernetes/pkg/registry/core/pod/storage"

	"github.com/kivi-go/kivi/fidelity/evictionapi"
	"github.com/kivi-go/kivi/model"
)

// dcSync is the disruption controller's sync of one budget
// (pkg/controller/disruption/disruption.go, v1.36.3: trySync, then
// failSafe on an error), reached by go:linkname because it is unexported.
//
//go:linkname dcSync k8s.io/kubernetes/pkg/controller/disruption.(*DisruptionController).sync
func dcSync(dc *disruption.DisruptionController, ctx context.Context, key string) error

// readyLongAgo is the Ready condition's transition time of an available
// pod; a pod Ready but not yet available became Ready just now.
var readyLongAgo = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

var pdbResource = policyv1.SchemeGroupVersion.WithResource("poddisruptionbudgets")

// Upstream is kube-controller-manager's disruption controller, run in
// process over informer stores filled directly (never started), writing
// budget statuses to a fake clientset, which the eviction subresource
// reads and decrements. One instance serves many cases.
type Upstream struct {
	dc                                                 *disruption.DisruptionController
	client                                             *fake.Clientset
	pods, pdbs, replicaSets, deployments, statefulSets cache.Store
}

// NewUpstream builds the controller as its own tests do, with a REST
// mapper that knows batch/v1 Jobs, a scale client that finds no Job's
// scale and a discovery that lists jobs and jobs/status but no
// jobs/scale: what an API server answers, so that a Job owning a selected
// pod takes getScaleController's path to "does not implement the scale
// subresource".
func NewUpstream(ctx context.Context) (*Upstream, error) {
	client := fake.NewSimpleClientset() // no field management: its REST mapper costs milliseconds per write
	f := informers.NewSharedInformerFactory(client, 0)
	scheme := runtime.NewScheme()
	if err := batchv1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	scale := &scalefake.FakeScaleClient{}
	scale.AddReactor("get", "jobs", func(action core.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewNotFound(schema.GroupResource{Group: "batch", Resource: "jobs"}, action.(core.GetAction).GetName())
	})
	disc := &discoveryfake.FakeDiscovery{Fake: &core.Fake{Resources: []*metav1.APIResourceList{{
		GroupVersion: "batch/v1",
		APIResources: []metav1.APIResource{{Name: "jobs", Namespaced: true, Kind: "Job"}, {Name: "jobs/status", Namespaced: true, Kind: "Job"}},
	}}}}
	dc := disruption.NewDisruptionController(ctx,
		f.Core().V1().Pods(), f.Policy().V1().PodDisruptionBudgets(), f.Core().V1().ReplicationControllers(),
		f.Apps().V1().ReplicaSets(), f.Apps().V1().Deployments(), f.Apps().V1().StatefulSets(),
		client, testrestmapper.TestOnlyStaticRESTMapper(scheme), scale, disc)
	return &Upstream{dc: dc, client: client,
		pods: f.Core().V1().Pods().Informer().GetStore(), pdbs: f.Policy().V1().PodDisruptionBudgets().Informer().GetStore(),
		replicaSets: f.Apps().V1().ReplicaSets().Informer().GetStore(), deployments: f.Apps().V1().Deployments().Informer().GetStore(),
		statefulSets: f.Apps().V1().StatefulSets().Informer().GetStore()}, nil
}

func uid(name string) types.UID { return types.UID("uid-" + name) }

func rsName(w int, old bool) string {
	if old {
		return workloadName(w) + "-old"
	}
	return workloadName(w) + "-new"
}

// objects writes the Case as API objects: the workloads (a Deployment
// with its two ReplicaSets, a StatefulSet; a Job exists only as its pods'
// owner reference, which is all the controller reads of it), the pods and
// the budgets, created at generation 1 with the status of a sync before
// any pod existed (observedGeneration 1, every count 0).
func (c *Case) objects() (pods []*v1.Pod, workloads []any, pdbs []*policyv1.PodDisruptionBudget) {
	for i, w := range c.Workloads {
		name, ns := workloadName(i), Namespaces[w.Namespace]
		sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}}
		switch w.Kind {
		case Deployment:
			dep := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: uid(name)},
				Spec: appsv1.DeploymentSpec{Replicas: ptr.To(int32(w.Replicas)), Selector: sel}}
			workloads = append(workloads, dep)
			for _, old := range []bool{false, true} {
				workloads = append(workloads, &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: rsName(i, old), Namespace: ns, UID: uid(rsName(i, old)),
					OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: name, UID: dep.UID, Controller: ptr.To(true)}}},
					Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To(int32(w.Replicas)), Selector: sel}})
			}
		case StatefulSet:
			workloads = append(workloads, &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: uid(name)},
				Spec: appsv1.StatefulSetSpec{Replicas: ptr.To(int32(w.Replicas)), Selector: sel}})
		}
	}
	for i, p := range c.Pods {
		w := c.Workloads[p.Workload]
		pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: PodName(i), Namespace: Namespaces[w.Namespace], UID: uid(PodName(i)),
			Labels: map[string]string{"app": workloadName(p.Workload), "tier": w.Tier}},
			Spec: v1.PodSpec{NodeName: "n0", Containers: []v1.Container{{Name: "c", Image: "img"}}}}
		switch w.Kind {
		case Deployment:
			pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rsName(p.Workload, p.OldRevision),
				UID: uid(rsName(p.Workload, p.OldRevision)), Controller: ptr.To(true)}}
		case StatefulSet:
			pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: workloadName(p.Workload),
				UID: uid(workloadName(p.Workload)), Controller: ptr.To(true)}}
		case Job:
			pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: workloadName(p.Workload),
				UID: uid(workloadName(p.Workload)), Controller: ptr.To(true)}}
		}
		ready := func(s v1.ConditionStatus, at time.Time) {
			pod.Status.Conditions = []v1.PodCondition{{Type: v1.PodReady, Status: s, LastTransitionTime: metav1.NewTime(at)}}
		}
		deleted := func() { pod.DeletionTimestamp = ptr.To(metav1.NewTime(readyLongAgo.Add(time.Hour))) }
		pod.Status.Phase = v1.PodRunning
		switch p.State {
		case PendingUnbound:
			pod.Status.Phase, pod.Spec.NodeName = v1.PodPending, ""
		case PendingBound:
			pod.Status.Phase = v1.PodPending
		case Ready:
			ready(v1.ConditionTrue, readyLongAgo)
		case ReadyNotAvailable:
			ready(v1.ConditionTrue, time.Now())
		case NotReady:
			ready(v1.ConditionFalse, readyLongAgo)
		case TerminatingReady:
			ready(v1.ConditionTrue, readyLongAgo)
			deleted()
		case TerminatingNotReady:
			ready(v1.ConditionFalse, readyLongAgo)
			deleted()
		case TerminatingPending:
			pod.Status.Phase = v1.PodPending
			deleted()
		case Failed:
			pod.Status.Phase = v1.PodFailed
			ready(v1.ConditionFalse, readyLongAgo)
		}
		pods = append(pods, pod)
	}
	for i, b := range c.PDBs {
		pdb := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: pdbName(i), Namespace: Namespaces[b.Namespace],
			UID: uid(pdbName(i)), Generation: 1},
			Spec:   policyv1.PodDisruptionBudgetSpec{MinAvailable: intOrString(b.MinAvailable), MaxUnavailable: intOrString(b.MaxUnavailable)},
			Status: policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1}}
		if ml := b.matchLabels(); ml != nil {
			pdb.Spec.Selector = &metav1.LabelSelector{MatchLabels: ml}
		}
		if b.Policy != "" {
			pdb.Spec.UnhealthyPodEvictionPolicy = ptr.To(policyv1.UnhealthyPodEvictionPolicyType(b.Policy))
		}
		pdbs = append(pdbs, pdb)
	}
	return pods, workloads, pdbs
}

// intOrString is a manifest's value as the API holds it: a percentage
// as a string, an integer as an int.
func intOrString(v string) *intstr.IntOrString {
	if v == "" {
		return nil
	}
	if strings.HasSuffix(v, "%") {
		return ptr.To(intstr.FromString(v))
	}
	n, _ := strconv.Atoi(v)
	return ptr.To(intstr.FromInt32(int32(n)))
}

// setBudgets makes the client hold exactly pdbs.
func (up *Upstream) setBudgets(ctx context.Context, pdbs []*policyv1.PodDisruptionBudget) error {
	old, err := up.client.PolicyV1().PodDisruptionBudgets(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, b := range old.Items {
		if err := up.client.Tracker().Delete(pdbResource, b.Namespace, b.Name); err != nil {
			return err
		}
	}
	for _, b := range pdbs {
		if err := up.client.Tracker().Add(b.DeepCopy()); err != nil {
			return err
		}
	}
	return nil
}

// budgets are the client's budgets in the Case's order.
func (up *Upstream) budgets(ctx context.Context, c *Case) ([]*policyv1.PodDisruptionBudget, error) {
	var out []*policyv1.PodDisruptionBudget
	for i, b := range c.PDBs {
		got, err := up.client.PolicyV1().PodDisruptionBudgets(Namespaces[b.Namespace]).Get(ctx, pdbName(i), metav1.GetOptions{})
		if err != nil {
			return nil, err
		}
		out = append(out, got)
	}
	return out, nil
}

// sync fills the controller's stores with pods, the workloads and the
// client's budgets, and syncs every budget once.
func (up *Upstream) sync(ctx context.Context, c *Case, pods []*v1.Pod, workloads []any) error {
	pdbs, err := up.budgets(ctx, c)
	if err != nil {
		return err
	}
	lists := map[cache.Store][]any{up.pods: nil, up.pdbs: nil, up.replicaSets: nil, up.deployments: nil, up.statefulSets: nil}
	for _, p := range pods {
		lists[up.pods] = append(lists[up.pods], p.DeepCopy())
	}
	for _, b := range pdbs {
		lists[up.pdbs] = append(lists[up.pdbs], b)
	}
	for _, w := range workloads {
		switch o := w.(type) {
		case *appsv1.Deployment:
			lists[up.deployments] = append(lists[up.deployments], o.DeepCopy())
		case *appsv1.ReplicaSet:
			lists[up.replicaSets] = append(lists[up.replicaSets], o.DeepCopy())
		case *appsv1.StatefulSet:
			lists[up.statefulSets] = append(lists[up.statefulSets], o.DeepCopy())
		}
	}
	for st, l := range lists {
		if err := st.Replace(l, "1"); err != nil {
			return err
		}
	}
	for _, b := range pdbs {
		if err := dcSync(up.dc, ctx, b.Namespace+"/"+b.Name); err != nil {
			return fmt.Errorf("sync %s: %w", b.Name, err)
		}
	}
	return nil
}

// Run is upstream's answer to the Case.
func (up *Upstream) Run(ctx context.Context, c *Case) (Result, error) {
	pods, workloads, pdbs := c.objects()
	if err := up.setBudgets(ctx, pdbs); err != nil {
		return Result{}, err
	}
	if err := up.sync(ctx, c, pods, workloads); err != nil {
		return Result{}, err
	}
	synced, err := up.budgets(ctx, c)
	if err != nil {
		return Result{}, err
	}
	var r Result
	for _, b := range synced {
		cond := apimeta.FindStatusCondition(b.Status.Conditions, policyv1.DisruptionAllowedCondition)
		r.Statuses = append(r.Statuses, Status{int(b.Status.CurrentHealthy), int(b.Status.DesiredHealthy), int(b.Status.ExpectedPods),
			int(b.Status.DisruptionsAllowed), cond != nil && cond.Reason == policyv1.SyncFailedReason})
	}
	// evict runs evictions from the synced state.
	evict := func(order []int, resync bool) ([]Answer, error) {
		if err := up.setBudgets(ctx, synced); err != nil {
			return nil, err
		}
		st, err := evictionapi.NewPodStore(pods)
		if err != nil {
			return nil, err
		}
		ev := evictionapi.NewStorage(st, up.client.PolicyV1())
		var out []Answer
		for _, i := range order {
			a, err := answer(ctx, ev, PodName(i), Namespaces[c.Workloads[c.Pods[i].Workload].Namespace])
			if err != nil {
				return nil, err
			}
			out = append(out, a)
			if resync {
				now, err := st.Pods()
				if err != nil {
					return nil, err
				}
				if err := up.sync(ctx, c, now, workloads); err != nil {
					return nil, err
				}
			}
		}
		return out, nil
	}
	for i := range c.Pods {
		a, err := evict([]int{i}, false)
		if err != nil {
			return Result{}, err
		}
		r.Alone = append(r.Alone, a[0])
	}
	if r.Sequence, err = evict(c.Evictions, c.Resync); err != nil {
		return Result{}, err
	}
	return r, nil
}

// answer posts a policy/v1 Eviction of the pod and reads the response as
// a client does: nil error (201), or the 429 or 500 status, whose message
// and disruption-budget cause make the Reason.
func answer(ctx context.Context, ev *podstorage.EvictionREST, name, ns string) (Answer, error) {
	in := &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, DeleteOptions: &metav1.DeleteOptions{}}
	var e policy.Eviction
	if err := policyv1conv.Convert_v1_Eviction_To_policy_Eviction(in, &e, nil); err != nil {
		return Answer{}, err
	}
	out, err := ev.Create(genericapirequest.WithNamespace(ctx, ns), name, &e, nil, &metav1.CreateOptions{})
	var status metav1.Status
	switch {
	case err != nil:
		se, ok := err.(*apierrors.StatusError)
		if !ok {
			return Answer{}, err
		}
		status = se.ErrStatus
	default:
		if st, ok := out.(*metav1.Status); ok {
			status = *st
		}
	}
	if status.Status == metav1.StatusSuccess {
		return Answer{Outcome: model.EvictionAllowed}, nil
	}
	reason := status.Message
	if status.Details != nil {
		for _, cause := range status.Details.Causes {
			if cause.Type == policyv1.DisruptionBudgetCause {
				reason += " " + cause.Message
			}
		}
	}
	switch status.Code {
	case 429:
		return Answer{Outcome: model.EvictionBudgetExhausted, Reason: reason}, nil
	case 500:
		return Answer{Outcome: model.EvictionMultipleBudgets, Reason: reason}, nil
	}
	return Answer{}, fmt.Errorf("evicting %s: %d %s", name, status.Code, reason)
}
