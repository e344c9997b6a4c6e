package rolloutdiff

import (
	"context"
	"fmt"
	"strconv"
	"time"
	_ "unsafe" // go:linkname

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/controller/deployment"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"

	"github.com/kivi-go/kivi/model"
)

// syncDeployment is the deployment controller's sync of one deployment
// key (pkg/controller/deployment/deployment_controller.go, v1.36.3),
// reached by go:linkname because it is unexported.
//
//go:linkname syncDeployment k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).syncDeployment
func syncDeployment(dc *deployment.DeploymentController, ctx context.Context, key string) error

// Namespace holds every object of a Case.
const Namespace = "default"

// Upstream is kube-controller-manager's DeploymentController, run in
// process over informer caches that are filled directly (never started),
// writing to a fake clientset. One instance serves many cases: Sync
// replaces the caches' and the clientset's contents.
type Upstream struct {
	dc     *deployment.DeploymentController
	client *fake.Clientset
	stores []cache.Store
}

// NewUpstream builds the controller as NewDeploymentController does for
// kube-controller-manager.
func NewUpstream(ctx context.Context) (*Upstream, error) {
	client := fake.NewClientset()
	f := informers.NewSharedInformerFactory(client, 0)
	dc, err := deployment.NewDeploymentController(ctx, f.Apps().V1().Deployments(), f.Apps().V1().ReplicaSets(), f.Core().V1().Pods(), client)
	if err != nil {
		return nil, err
	}
	return &Upstream{dc: dc, client: client, stores: []cache.Store{
		f.Apps().V1().Deployments().Informer().GetStore(), f.Apps().V1().ReplicaSets().Informer().GetStore(),
		f.Core().V1().Pods().Informer().GetStore()}}, nil
}

var created = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func podTemplate(t int) v1.PodTemplateSpec {
	return v1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: fmt.Sprint("v", t+1)}}},
	}
}

func intOrPercent(v model.IntOrPercent) *intstr.IntOrString {
	x := intstr.FromInt32(int32(v.Value))
	if v.Percent {
		x = intstr.FromString(fmt.Sprint(v.Value, "%"))
	}
	return &x
}

// objects returns the Case's Deployment, ReplicaSets and pods.
func (c *Case) objects() (*appsv1.Deployment, []*appsv1.ReplicaSet, []*v1.Pod) {
	spec := int32(c.Spec)
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: Namespace, UID: "web-uid", Generation: 1,
			CreationTimestamp: metav1.NewTime(created)},
		Spec: appsv1.DeploymentSpec{
			Replicas: &spec,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: podTemplate(c.Template),
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: intOrPercent(c.MaxSurge), MaxUnavailable: intOrPercent(c.MaxUnavailable)}},
		},
	}
	if c.Recreate {
		d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
	}
	d.Spec.Paused = c.Paused
	var sets []*appsv1.ReplicaSet
	var pods []*v1.Pod
	for i, s := range c.Sets {
		hash := fmt.Sprint("h", s.Template+1)
		labels := map[string]string{"app": "web", appsv1.DefaultDeploymentUniqueLabelKey: hash}
		tmpl := podTemplate(s.Template)
		tmpl.Labels = labels
		replicas := int32(s.Replicas)
		name := "web-" + hash
		rs := &appsv1.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: Namespace, UID: types.UID(name + "-uid"), Labels: labels,
				CreationTimestamp: metav1.NewTime(created.Add(time.Duration(i+1) * time.Minute)),
				OwnerReferences:   []metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))},
				Annotations: map[string]string{
					deploymentutil.RevisionAnnotation:        strconv.Itoa(i + 1),
					deploymentutil.DesiredReplicasAnnotation: strconv.Itoa(c.Desired),
					deploymentutil.MaxReplicasAnnotation:     strconv.Itoa(s.MaxReplicas),
				}},
			Spec: appsv1.ReplicaSetSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: labels}, Template: tmpl},
			Status: appsv1.ReplicaSetStatus{Replicas: replicas, FullyLabeledReplicas: replicas, ReadyReplicas: int32(s.Available),
				AvailableReplicas: int32(s.Available), ObservedGeneration: 1},
		}
		rs.Generation = 1
		sets = append(sets, rs)
		for j := range s.Replicas {
			p := &v1.Pod{
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", name, j), Namespace: Namespace,
					UID: types.UID(fmt.Sprintf("%s-%d-uid", name, j)), Labels: labels,
					OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(rs, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"))}},
				Spec:   tmpl.Spec,
				Status: v1.PodStatus{Phase: v1.PodPending},
			}
			if j < s.Available {
				p.Spec.NodeName = "n1"
				p.Status.Phase = v1.PodRunning
				p.Status.Conditions = []v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionTrue,
					LastTransitionTime: metav1.NewTime(created)}}
			}
			pods = append(pods, p)
		}
	}
	return d, sets, pods
}

// Sync runs one syncDeployment of the Case's deployment and returns the
// ReplicaSets as it left them in the clientset.
func (up *Upstream) Sync(ctx context.Context, c *Case) (Result, error) {
	d, sets, pods := c.objects()
	tracker := up.client.Tracker()
	rsAPI := up.client.AppsV1().ReplicaSets(Namespace)
	old, err := rsAPI.List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	for _, rs := range old.Items {
		if err := rsAPI.Delete(ctx, rs.Name, metav1.DeleteOptions{}); err != nil {
			return nil, err
		}
	}
	oldPods, err := up.client.CoreV1().Pods(Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	for _, p := range oldPods.Items {
		if err := up.client.CoreV1().Pods(Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{}); err != nil {
			return nil, err
		}
	}
	_ = up.client.AppsV1().Deployments(Namespace).Delete(ctx, d.Name, metav1.DeleteOptions{})
	lists := [][]any{{d.DeepCopy()}, nil, nil}
	if err := tracker.Add(d.DeepCopy()); err != nil {
		return nil, err
	}
	for _, rs := range sets {
		lists[1] = append(lists[1], rs.DeepCopy())
		if err := tracker.Add(rs.DeepCopy()); err != nil {
			return nil, err
		}
	}
	for _, p := range pods {
		lists[2] = append(lists[2], p.DeepCopy())
		if err := tracker.Add(p.DeepCopy()); err != nil {
			return nil, err
		}
	}
	for i, st := range up.stores {
		if err := st.Replace(lists[i], "1"); err != nil {
			return nil, err
		}
	}
	if err := syncDeployment(up.dc, ctx, Namespace+"/"+d.Name); err != nil {
		return nil, fmt.Errorf("sync: %w", err)
	}
	after, err := rsAPI.List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	r := Result{}
	for _, rs := range after.Items {
		var t int
		if _, err := fmt.Sscanf(rs.Spec.Template.Spec.Containers[0].Image, "v%d", &t); err != nil {
			return nil, fmt.Errorf("ReplicaSet %s: image %q", rs.Name, rs.Spec.Template.Spec.Containers[0].Image)
		}
		o := Out{Replicas: int(*rs.Spec.Replicas)}
		if o.Replicas > 0 {
			o.Desired, _ = strconv.Atoi(rs.Annotations[deploymentutil.DesiredReplicasAnnotation])
			o.Max, _ = strconv.Atoi(rs.Annotations[deploymentutil.MaxReplicasAnnotation])
		}
		r[t-1] = o
	}
	return r, nil
}
