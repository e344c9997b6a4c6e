package stsdiff

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	_ "unsafe" // go:linkname

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	appsdefaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	"k8s.io/kubernetes/pkg/controller/statefulset"
	"k8s.io/kubernetes/pkg/features"
)

// The StatefulSet controller's own functions (pkg/controller/statefulset,
// v1.36.3), reached by go:linkname because they are unexported:
// getPodsForStatefulSet lists and claims the set's pods, syncStatefulSet
// runs UpdateStatefulSet (defaultStatefulSetControl: revisions, then
// updateStatefulSet, then the status) on them; sync runs the two after its
// consistency store's check, which only decides whether a sync runs now.
// newRevision builds the ControllerRevision of a set's template.
//
//go:linkname getPodsForStatefulSet k8s.io/kubernetes/pkg/controller/statefulset.(*StatefulSetController).getPodsForStatefulSet
func getPodsForStatefulSet(ssc *statefulset.StatefulSetController, ctx context.Context, set *appsv1.StatefulSet, selector labels.Selector) ([]*v1.Pod, error)

//go:linkname syncStatefulSet k8s.io/kubernetes/pkg/controller/statefulset.(*StatefulSetController).syncStatefulSet
func syncStatefulSet(ssc *statefulset.StatefulSetController, ctx context.Context, set *appsv1.StatefulSet, pods []*v1.Pod) error

//go:linkname newRevision k8s.io/kubernetes/pkg/controller/statefulset.newRevision
func newRevision(set *appsv1.StatefulSet, revision int64, collisionCount *int32) (*appsv1.ControllerRevision, error)

// Namespace holds every object of a Case.
const Namespace = "default"

// Upstream is kube-controller-manager's StatefulSetController, run in
// process over informer caches that are filled directly (never started),
// writing to a fake clientset. One instance serves many cases: Sync
// replaces the caches' and the clientset's contents.
type Upstream struct {
	ssc    *statefulset.StatefulSetController
	client *fake.Clientset
	// stores: the StatefulSet, pod and ControllerRevision caches.
	stores [3]cache.Store
	// gate is MaxUnavailableStatefulSet's value before the first Sync.
	gate bool
	// syncs counts the Syncs, for the sets' UIDs.
	syncs int
}

// NewUpstream builds the controller as NewStatefulSetController does for
// kube-controller-manager. Close restores the feature gate Sync sets.
func NewUpstream(ctx context.Context) *Upstream {
	client := fake.NewSimpleClientset() // no field management: its REST mapper costs milliseconds per write
	f := informers.NewSharedInformerFactory(client, 0)
	ssc := statefulset.NewStatefulSetController(ctx, f.Core().V1().Pods(), f.Apps().V1().StatefulSets(),
		f.Core().V1().PersistentVolumeClaims(), f.Apps().V1().ControllerRevisions(), client)
	return &Upstream{ssc: ssc, client: client, gate: utilfeature.DefaultFeatureGate.Enabled(features.MaxUnavailableStatefulSet),
		stores: [3]cache.Store{f.Apps().V1().StatefulSets().Informer().GetStore(), f.Core().V1().Pods().Informer().GetStore(),
			f.Apps().V1().ControllerRevisions().Informer().GetStore()}}
}

// Close restores the MaxUnavailableStatefulSet feature gate.
func (up *Upstream) Close() error {
	return utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{string(features.MaxUnavailableStatefulSet): up.gate})
}

var created = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func podTemplate(t int) v1.PodTemplateSpec {
	return v1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: fmt.Sprint("v", t+1)}}},
	}
}

// objects returns the Case's StatefulSet, ControllerRevisions and pods,
// and the revision name of each template.
func (c *Case) objects(uid k8stypes.UID) (*appsv1.StatefulSet, []*appsv1.ControllerRevision, []*v1.Pod, map[string]int, error) {
	replicas := int32(c.Replicas)
	set := &appsv1.StatefulSet{
		TypeMeta: metav1.TypeMeta{Kind: "StatefulSet", APIVersion: "apps/v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: Namespace, UID: uid, Generation: 1,
			CreationTimestamp: metav1.NewTime(created)},
		Spec: appsv1.StatefulSetSpec{
			Replicas:            &replicas,
			Selector:            &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			ServiceName:         "web",
			PodManagementPolicy: appsv1.OrderedReadyPodManagement,
			UpdateStrategy:      appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType},
		},
	}
	if c.Parallel {
		set.Spec.PodManagementPolicy = appsv1.ParallelPodManagement
	}
	if c.Start > 0 {
		set.Spec.Ordinals = &appsv1.StatefulSetOrdinals{Start: int32(c.Start)}
	}
	if !c.OnDelete {
		partition := int32(c.Partition)
		ru := &appsv1.RollingUpdateStatefulSetStrategy{Partition: &partition}
		if c.MaxUnavailable != nil {
			x := intstr.FromInt32(int32(c.MaxUnavailable.Value))
			if c.MaxUnavailable.Percent {
				x = intstr.FromString(fmt.Sprint(c.MaxUnavailable.Value, "%"))
			}
			ru.MaxUnavailable = &x
		}
		set.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType, RollingUpdate: ru}
	}
	// The revisions of v1..v3, as getStatefulSetRevisions builds them
	// from the set as the API server stores it (defaulted).
	names := map[string]int{}
	var revs [Templates]*appsv1.ControllerRevision
	for t := range revs {
		s := set.DeepCopy()
		s.Spec.Template = podTemplate(t)
		appsdefaults.SetObjectDefaults_StatefulSet(s)
		var collisions int32
		r, err := newRevision(s, int64(t+1), &collisions)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		r.Namespace = Namespace
		revs[t], names[r.Name] = r, t
	}
	set.Spec.Template = podTemplate(c.Shape.Spec())
	appsdefaults.SetObjectDefaults_StatefulSet(set)
	revisions := []*appsv1.ControllerRevision{revs[0]}
	set.Status = appsv1.StatefulSetStatus{ObservedGeneration: 1, CurrentRevision: revs[0].Name, UpdateRevision: revs[0].Name}
	if c.Shape.TwoRevisions() {
		revisions = append(revisions, revs[1])
		set.Status.UpdateRevision = revs[1].Name
		if c.RolledBackCurrent {
			set.Status.CurrentRevision = revs[1].Name
		}
	}
	var pods []*v1.Pod
	for _, p := range c.Pods {
		name := "web-" + strconv.Itoa(p.Ordinal)
		tmpl := podTemplate(p.Template)
		pod := &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: Namespace, UID: k8stypes.UID(name + "-uid"),
				Labels: map[string]string{"app": "web", appsv1.ControllerRevisionHashLabelKey: revs[p.Template].Name,
					appsv1.StatefulSetPodNameLabel: name, appsv1.PodIndexLabel: strconv.Itoa(p.Ordinal)},
				OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(set, appsv1.SchemeGroupVersion.WithKind("StatefulSet"))}},
			Spec:   tmpl.Spec,
			Status: v1.PodStatus{Phase: v1.PodPending},
		}
		pod.Spec.Hostname, pod.Spec.Subdomain = name, set.Spec.ServiceName
		switch p.Phase {
		case Running:
			pod.Spec.NodeName = "n1"
			pod.Status.Phase = v1.PodRunning
			ready := v1.ConditionTrue
			if p.Unready {
				ready = v1.ConditionFalse
			}
			pod.Status.Conditions = []v1.PodCondition{{Type: v1.PodReady, Status: ready, LastTransitionTime: metav1.NewTime(created)}}
		case Failed:
			pod.Spec.NodeName = "n1"
			pod.Status.Phase = v1.PodFailed
		}
		if p.Terminating {
			ts := metav1.NewTime(created.Add(time.Minute))
			pod.DeletionTimestamp = &ts
			grace := int64(30)
			pod.DeletionGracePeriodSeconds = &grace
		}
		pods = append(pods, pod)
	}
	return set, revisions, pods, names, nil
}

// Sync runs one sync of the Case's StatefulSet and returns the pods it
// created and deleted, read from the clientset's actions.
func (up *Upstream) Sync(ctx context.Context, c *Case) (Result, error) {
	// Each case is a new StatefulSet object: the controller remembers, by
	// set UID and generation, which revisions matched its template.
	up.syncs++
	set, revisions, pods, names, err := c.objects(k8stypes.UID(fmt.Sprint("web-uid-", up.syncs)))
	if err != nil {
		return Result{}, err
	}
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{string(features.MaxUnavailableStatefulSet): c.MaxUnavailable != nil}); err != nil {
		return Result{}, err
	}
	if err := up.reset(ctx); err != nil {
		return Result{}, err
	}
	tracker := up.client.Tracker()
	lists := [3][]any{{set.DeepCopy()}}
	if err := tracker.Add(set.DeepCopy()); err != nil {
		return Result{}, err
	}
	for _, p := range pods {
		lists[1] = append(lists[1], p.DeepCopy())
		if err := tracker.Add(p.DeepCopy()); err != nil {
			return Result{}, err
		}
	}
	for _, r := range revisions {
		lists[2] = append(lists[2], r.DeepCopy())
		if err := tracker.Add(r.DeepCopy()); err != nil {
			return Result{}, err
		}
	}
	for i, st := range up.stores {
		if err := st.Replace(lists[i], "1"); err != nil {
			return Result{}, err
		}
	}
	up.client.ClearActions()
	selector, err := metav1.LabelSelectorAsSelector(set.Spec.Selector)
	if err != nil {
		return Result{}, err
	}
	owned, err := getPodsForStatefulSet(up.ssc, ctx, set, selector)
	if err != nil {
		return Result{}, fmt.Errorf("listing pods: %w", err)
	}
	if len(owned) != len(pods) {
		return Result{}, fmt.Errorf("the controller claims %d pods of %d", len(owned), len(pods))
	}
	if err := syncStatefulSet(up.ssc, ctx, set, owned); err != nil {
		return Result{}, fmt.Errorf("sync: %w", err)
	}
	r := Result{Created: map[int]int{}}
	for _, a := range up.client.Actions() {
		if a.GetResource().Resource != "pods" {
			continue
		}
		switch a := a.(type) {
		case k8stesting.CreateAction:
			p := a.GetObject().(*v1.Pod)
			o, err := ordinal(p.Name)
			if err != nil {
				return Result{}, err
			}
			t, ok := names[p.Labels[appsv1.ControllerRevisionHashLabelKey]]
			if !ok {
				return Result{}, fmt.Errorf("pod %s: revision %q", p.Name, p.Labels[appsv1.ControllerRevisionHashLabelKey])
			}
			if p.Spec.Containers[0].Image != fmt.Sprint("v", t+1) {
				return Result{}, fmt.Errorf("pod %s of revision v%d has image %s", p.Name, t+1, p.Spec.Containers[0].Image)
			}
			r.Created[o] = t
		case k8stesting.DeleteAction:
			o, err := ordinal(a.GetName())
			if err != nil {
				return Result{}, err
			}
			r.Deleted = append(r.Deleted, o)
		}
	}
	// A pod may be deleted twice in one sync: a Failed replica under
	// Parallel is deleted by processReplica and again by the
	// maxUnavailable rolling update (NotFound counts as deleted).
	slices.Sort(r.Deleted)
	r.Deleted = slices.Compact(r.Deleted)
	return r, nil
}

func ordinal(name string) (int, error) {
	o, err := strconv.Atoi(strings.TrimPrefix(name, "web-"))
	if err != nil {
		return 0, fmt.Errorf("pod name %q", name)
	}
	return o, nil
}

// reset empties the clientset of the previous case's objects.
func (up *Upstream) reset(ctx context.Context) error {
	pods, err := up.client.CoreV1().Pods(Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, p := range pods.Items {
		if err := up.client.CoreV1().Pods(Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{}); err != nil {
			return err
		}
	}
	revs, err := up.client.AppsV1().ControllerRevisions(Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, r := range revs.Items {
		if err := up.client.AppsV1().ControllerRevisions(Namespace).Delete(ctx, r.Name, metav1.DeleteOptions{}); err != nil {
			return err
		}
	}
	_ = up.client.AppsV1().StatefulSets(Namespace).Delete(ctx, "web", metav1.DeleteOptions{})
	return nil
}
