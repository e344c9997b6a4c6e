package deschedulerdiff

import (
	"context"
	"fmt"
	_ "unsafe" // go:linkname

	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/discovery"
	discoveryfake "k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	scalefake "k8s.io/client-go/scale/fake"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/controller/disruption"

	"k8s.io/apimachinery/pkg/api/meta/testrestmapper"
)

// dcSync is the disruption controller's sync of one budget
// (pkg/controller/disruption/disruption.go, v1.36.3: trySync, then
// failSafe on an error), reached by go:linkname because it is unexported.
//
//go:linkname dcSync k8s.io/kubernetes/pkg/controller/disruption.(*DisruptionController).sync
func dcSync(dc *disruption.DisruptionController, ctx context.Context, key string) error

// Disruption is kube-controller-manager's disruption controller, run in
// process over informer caches that are filled directly (never
// started), writing budget statuses to a fake clientset. One instance
// serves many snapshots: Statuses replaces the caches' contents.
type Disruption struct {
	dc      *disruption.DisruptionController
	client  *fake.Clientset
	stores  []cache.Store
	factory informers.SharedInformerFactory
}

// NewDisruption builds the controller as its own tests do (a static REST
// mapper, fake scale and discovery clients: the snapshots' pods belong to
// ReplicaSets of Deployments, which the controller's finders resolve
// without them).
func NewDisruption(ctx context.Context) *Disruption {
	client := fake.NewClientset()
	f := informers.NewSharedInformerFactory(client, 0)
	var fd discovery.DiscoveryInterface = &discoveryfake.FakeDiscovery{Fake: &core.Fake{}}
	dc := disruption.NewDisruptionController(ctx,
		f.Core().V1().Pods(), f.Policy().V1().PodDisruptionBudgets(), f.Core().V1().ReplicationControllers(),
		f.Apps().V1().ReplicaSets(), f.Apps().V1().Deployments(), f.Apps().V1().StatefulSets(),
		client, testrestmapper.TestOnlyStaticRESTMapper(runtime.NewScheme()), &scalefake.FakeScaleClient{}, fd)
	return &Disruption{dc: dc, client: client, factory: f, stores: []cache.Store{
		f.Core().V1().Pods().Informer().GetStore(), f.Policy().V1().PodDisruptionBudgets().Informer().GetStore(),
		f.Apps().V1().ReplicaSets().Informer().GetStore(), f.Apps().V1().Deployments().Informer().GetStore()}}
}

// Statuses syncs every budget of o once and returns the budgets with
// the status the controller wrote.
func (d *Disruption) Statuses(ctx context.Context, o *objects) ([]*policyv1.PodDisruptionBudget, error) {
	lists := [][]any{nil, nil, nil, nil}
	for _, p := range o.pods {
		lists[0] = append(lists[0], p.DeepCopy())
	}
	for _, b := range o.pdbs {
		lists[1] = append(lists[1], b.DeepCopy())
	}
	for _, rs := range o.replicaSets {
		lists[2] = append(lists[2], rs.DeepCopy())
	}
	for _, dep := range o.deployments {
		lists[3] = append(lists[3], dep.DeepCopy())
	}
	for i, st := range d.stores {
		if err := st.Replace(lists[i], "1"); err != nil {
			return nil, err
		}
	}
	// The empty namespace lists the budgets of every namespace.
	old, err := d.client.PolicyV1().PodDisruptionBudgets(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	for _, b := range old.Items {
		if err := d.client.PolicyV1().PodDisruptionBudgets(b.Namespace).Delete(ctx, b.Name, metav1.DeleteOptions{}); err != nil {
			return nil, err
		}
	}
	var out []*policyv1.PodDisruptionBudget
	for _, b := range o.pdbs {
		pdbs := d.client.PolicyV1().PodDisruptionBudgets(b.Namespace)
		if _, err := pdbs.Create(ctx, b.DeepCopy(), metav1.CreateOptions{}); err != nil {
			return nil, err
		}
		if err := dcSync(d.dc, ctx, b.Namespace+"/"+b.Name); err != nil {
			return nil, fmt.Errorf("sync %s: %w", b.Name, err)
		}
		got, err := pdbs.Get(ctx, b.Name, metav1.GetOptions{})
		if err != nil {
			return nil, err
		}
		out = append(out, got)
	}
	return out, nil
}
