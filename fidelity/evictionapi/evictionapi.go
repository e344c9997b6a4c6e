// Package evictionapi is the API server's Eviction subresource
// (pkg/registry/core/pod/storage/eviction.go, v1.36.3) over an in-memory
// pod store, for the differential tests that evict pods (pdbdiff,
// deschedulerdiff).
package evictionapi

import (
	"context"
	"fmt"
	"strconv"
	_ "unsafe" // go:linkname

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/rest"
	policyclient "k8s.io/client-go/kubernetes/typed/policy/v1"
	"k8s.io/utils/ptr"

	api "k8s.io/kubernetes/pkg/apis/core"
	corev1conv "k8s.io/kubernetes/pkg/apis/core/v1"
	podstorage "k8s.io/kubernetes/pkg/registry/core/pod/storage"
)

// NewStorage is the pod registry's constructor of the eviction
// subresource, reached by go:linkname because it is unexported. Its
// Create is the Eviction API: canIgnorePDB, the budgets selecting the pod
// (more than one: 500), the unhealthy-pod policy, checkAndDecrement (429
// when disruptionsAllowed is 0; otherwise the budget's status is
// decremented through the client), then the pod's deletion through the
// store.
//
//go:linkname NewStorage k8s.io/kubernetes/pkg/registry/core/pod/storage.newEvictionStorage
func NewStorage(store rest.StandardStorage, podDisruptionBudgetClient policyclient.PodDisruptionBudgetsGetter) *podstorage.EvictionREST

// PodStore is the pod storage the eviction subresource reads, updates
// (the DisruptionTarget condition) and deletes through: internal pods in
// memory. A deleted pod keeps its deletion timestamp until the kubelet
// would remove it, unless it is terminal or unbound, which the pod
// strategy deletes at once (grace period 0). Methods the eviction does
// not call panic through the nil embedded interface.
type PodStore struct {
	rest.StandardStorage
	pods  map[string]*api.Pod
	order []string
	rv    int
	// Deleted names the pods deleted, each once, in order.
	Deleted []string
}

// NewPodStore stores pods.
func NewPodStore(pods []*v1.Pod) (*PodStore, error) {
	st := &PodStore{pods: map[string]*api.Pod{}}
	for _, p := range pods {
		var out api.Pod
		if err := corev1conv.Convert_v1_Pod_To_core_Pod(p, &out, nil); err != nil {
			return nil, err
		}
		st.rv++
		out.ResourceVersion = strconv.Itoa(st.rv)
		st.pods[p.Name] = &out
		st.order = append(st.order, p.Name)
	}
	return st, nil
}

// Pods is the pods still stored, in the order given, as a controller's
// informer has them.
func (st *PodStore) Pods() ([]*v1.Pod, error) {
	var out []*v1.Pod
	for _, name := range st.order {
		p, ok := st.pods[name]
		if !ok {
			continue
		}
		var v v1.Pod
		if err := corev1conv.Convert_core_Pod_To_v1_Pod(p, &v, nil); err != nil {
			return nil, err
		}
		out = append(out, &v)
	}
	return out, nil
}

func (st *PodStore) New() runtime.Object { return &api.Pod{} }

func (st *PodStore) Get(_ context.Context, name string, _ *metav1.GetOptions) (runtime.Object, error) {
	p, ok := st.pods[name]
	if !ok {
		return nil, apierrors.NewNotFound(api.Resource("pods"), name)
	}
	return p.DeepCopy(), nil
}

func (st *PodStore) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, _ rest.ValidateObjectFunc,
	_ rest.ValidateObjectUpdateFunc, _ bool, _ *metav1.UpdateOptions) (runtime.Object, bool, error) {
	old, ok := st.pods[name]
	if !ok {
		return nil, false, apierrors.NewNotFound(api.Resource("pods"), name)
	}
	obj, err := objInfo.UpdatedObject(ctx, old.DeepCopy())
	if err != nil {
		return nil, false, err
	}
	p := obj.(*api.Pod)
	st.rv++
	p.ResourceVersion = strconv.Itoa(st.rv)
	st.pods[name] = p
	return p.DeepCopy(), false, nil
}

func (st *PodStore) Delete(_ context.Context, name string, _ rest.ValidateObjectFunc, options *metav1.DeleteOptions) (runtime.Object, bool, error) {
	p, ok := st.pods[name]
	if !ok {
		return nil, false, apierrors.NewNotFound(api.Resource("pods"), name)
	}
	if pre := options.Preconditions; pre != nil && pre.ResourceVersion != nil && *pre.ResourceVersion != p.ResourceVersion {
		return nil, false, apierrors.NewConflict(api.Resource("pods"), name, fmt.Errorf("resourceVersion %s, precondition %s", p.ResourceVersion, *pre.ResourceVersion))
	}
	if p.Spec.NodeName == "" || p.Status.Phase == api.PodFailed || p.Status.Phase == api.PodSucceeded {
		delete(st.pods, name)
		st.Deleted = append(st.Deleted, name)
		return p.DeepCopy(), true, nil
	}
	if p.DeletionTimestamp == nil {
		p.DeletionTimestamp = ptr.To(metav1.Now())
		st.Deleted = append(st.Deleted, name)
	}
	return p.DeepCopy(), false, nil
}
