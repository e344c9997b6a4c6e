package deschedulerdiff

import (
	"context"
	_ "unsafe" // go:linkname

	"github.com/kivi-go/kivi/fidelity/evictionapi"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	policyclient "k8s.io/client-go/kubernetes/typed/policy/v1"

	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/apis/policy"
	policyv1conv "k8s.io/kubernetes/pkg/apis/policy/v1"
	podstorage "k8s.io/kubernetes/pkg/registry/core/pod/storage"
)

// evictionAPI answers policy/v1 Evictions with the API server's own
// eviction subresource over an evictionapi.PodStore, the budgets read and written
// through pdbs (a fake clientset holding them with their status).
type evictionAPI struct {
	rest  *podstorage.EvictionREST
	store *evictionapi.PodStore
}

func newEvictionAPI(pods []*v1.Pod, pdbs policyclient.PodDisruptionBudgetsGetter) (*evictionAPI, error) {
	st, err := evictionapi.NewPodStore(pods)
	if err != nil {
		return nil, err
	}
	return &evictionAPI{rest: evictionapi.NewStorage(st, pdbs), store: st}, nil
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
