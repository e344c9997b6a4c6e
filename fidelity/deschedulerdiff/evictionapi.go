package deschedulerdiff

import (
	"context"
	"fmt"
	_ "unsafe" // go:linkname

	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	policyclient "k8s.io/client-go/kubernetes/typed/policy/v1"

	v1 "k8s.io/api/core/v1"
	api "k8s.io/kubernetes/pkg/apis/core"
	corev1conv "k8s.io/kubernetes/pkg/apis/core/v1"
	"k8s.io/kubernetes/pkg/apis/policy"
	policyv1conv "k8s.io/kubernetes/pkg/apis/policy/v1"
	podstorage "k8s.io/kubernetes/pkg/registry/core/pod/storage"
)

// newEvictionStorage is the pod registry's constructor of the eviction
// subresource (pkg/registry/core/pod/storage/eviction.go, v1.36.3),
// reached by go:linkname because it is unexported. Its Create is the
// Eviction API: canIgnorePDB, the budgets selecting the pod (more than
// one: 500), the unhealthy-pod policy, checkAndDecrement (429 when
// disruptionsAllowed is 0; otherwise the budget's status is decremented
// through the client), then the pod's deletion through the store.
//
//go:linkname newEvictionStorage k8s.io/kubernetes/pkg/registry/core/pod/storage.newEvictionStorage
func newEvictionStorage(store rest.StandardStorage, podDisruptionBudgetClient policyclient.PodDisruptionBudgetsGetter) *podstorage.EvictionREST

// podStore is the pod storage the eviction subresource reads, updates
// (the DisruptionTarget condition) and deletes through: an in-memory map
// of internal pods. A deleted pod stays, with a deletion timestamp, as a
// pod with a grace period does until the kubelet removes it. Methods the
// eviction does not call panic through the nil embedded interface.
type podStore struct {
	rest.StandardStorage
	pods    map[string]*api.Pod
	deleted []string
}

func newPodStore(pods []*v1.Pod) (*podStore, error) {
	st := &podStore{pods: map[string]*api.Pod{}}
	for _, p := range pods {
		var out api.Pod
		if err := corev1conv.Convert_v1_Pod_To_core_Pod(p, &out, nil); err != nil {
			return nil, err
		}
		out.ResourceVersion = "1"
		st.pods[p.Name] = &out
	}
	return st, nil
}

func (st *podStore) New() runtime.Object { return &api.Pod{} }

func (st *podStore) Get(_ context.Context, name string, _ *metav1.GetOptions) (runtime.Object, error) {
	p, ok := st.pods[name]
	if !ok {
		return nil, apierrors.NewNotFound(api.Resource("pods"), name)
	}
	return p.DeepCopy(), nil
}

func (st *podStore) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, _ rest.ValidateObjectFunc,
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
	p.ResourceVersion = fmt.Sprint(len(p.ResourceVersion) + 1)
	st.pods[name] = p
	return p.DeepCopy(), false, nil
}

func (st *podStore) Delete(_ context.Context, name string, _ rest.ValidateObjectFunc, options *metav1.DeleteOptions) (runtime.Object, bool, error) {
	p, ok := st.pods[name]
	if !ok {
		return nil, false, apierrors.NewNotFound(api.Resource("pods"), name)
	}
	if pre := options.Preconditions; pre != nil && pre.ResourceVersion != nil && *pre.ResourceVersion != p.ResourceVersion {
		return nil, false, apierrors.NewConflict(api.Resource("pods"), name, fmt.Errorf("resourceVersion %s, precondition %s", p.ResourceVersion, *pre.ResourceVersion))
	}
	if p.DeletionTimestamp == nil {
		now := metav1.Now()
		p.DeletionTimestamp = &now
		st.deleted = append(st.deleted, name)
	}
	return p.DeepCopy(), false, nil
}

// evictionAPI answers policy/v1 Evictions with the API server's own
// eviction subresource over a podStore, the budgets read and written
// through pdbs (a fake clientset holding them with their status).
type evictionAPI struct {
	rest  *podstorage.EvictionREST
	store *podStore
}

func newEvictionAPI(pods []*v1.Pod, pdbs policyclient.PodDisruptionBudgetsGetter) (*evictionAPI, error) {
	st, err := newPodStore(pods)
	if err != nil {
		return nil, err
	}
	return &evictionAPI{rest: newEvictionStorage(st, pdbs), store: st}, nil
}

// Evict posts the eviction and returns the error a client receives: nil
// when the pod is deleted, the 429 or 500 the API server answers
// otherwise.
func (e *evictionAPI) Evict(ctx context.Context, ev *policyv1.Eviction) error {
	var in policy.Eviction
	if err := policyv1conv.Convert_v1_Eviction_To_policy_Eviction(ev, &in, nil); err != nil {
		return err
	}
	ctx = genericapirequest.WithNamespace(ctx, ev.Namespace)
	out, err := e.rest.Create(ctx, ev.Name, &in, nil, &metav1.CreateOptions{})
	if err != nil {
		return err
	}
	// A Status that is not Success is the response's code and body (the
	// handler writes it so), which the client turns into an error.
	if st, ok := out.(*metav1.Status); ok && st.Status != metav1.StatusSuccess {
		return &apierrors.StatusError{ErrStatus: *st}
	}
	return nil
}
