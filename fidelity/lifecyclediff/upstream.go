package lifecyclediff

import (
	"context"
	"fmt"
	"maps"
	"math"
	"reflect"
	"sync"
	"time"
	"unsafe" // go:linkname, and the taint eviction queue's clock

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/admission"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/utils/clock"
	testingclock "k8s.io/utils/clock/testing"

	api "k8s.io/kubernetes/pkg/apis/core"
	apiv1 "k8s.io/kubernetes/pkg/apis/core/v1"
	"k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/controller/nodelifecycle"
	"k8s.io/kubernetes/pkg/controller/podgc"
	"k8s.io/kubernetes/pkg/controller/tainteviction"
	"k8s.io/kubernetes/plugin/pkg/admission/defaulttolerationseconds"
)

// The node lifecycle controller's and the taint eviction controller's
// passes (k8s.io/kubernetes v1.36.3), reached by go:linkname because
// they are unexported: monitorNodeHealth reads every node's Ready
// condition, queues the nodes that are not Ready for their NoExecute
// taint, and computes the zone states (handleDisruption, which sets each
// zone's tainting rate or stops it); doNoExecuteTaintingPass taints the
// queued nodes as the zones' rate limiters let it; doNoScheduleTaintingPass
// gives a node the NoSchedule taints of its conditions; handleNodeUpdate
// is the taint eviction controller's processing of a node's NoExecute
// taints: processPodOnNode for every pod bound to it.
//
//go:linkname monitorNodeHealth k8s.io/kubernetes/pkg/controller/nodelifecycle.(*Controller).monitorNodeHealth
func monitorNodeHealth(nc *nodelifecycle.Controller, ctx context.Context) error

//go:linkname doNoExecuteTaintingPass k8s.io/kubernetes/pkg/controller/nodelifecycle.(*Controller).doNoExecuteTaintingPass
func doNoExecuteTaintingPass(nc *nodelifecycle.Controller, ctx context.Context)

//go:linkname doNoScheduleTaintingPass k8s.io/kubernetes/pkg/controller/nodelifecycle.(*Controller).doNoScheduleTaintingPass
func doNoScheduleTaintingPass(nc *nodelifecycle.Controller, ctx context.Context, nodeName string) error

// nodeUpdateItem has the layout of tainteviction's nodeUpdateItem.
type nodeUpdateItem struct{ nodeName string }

//go:linkname handleNodeUpdate k8s.io/kubernetes/pkg/controller/tainteviction.(*Controller).handleNodeUpdate
func handleNodeUpdate(tc *tainteviction.Controller, ctx context.Context, item nodeUpdateItem)

// gcTerminating is the pod garbage collector's pass over terminating
// pods: it force-deletes those bound to a node that is not Ready and
// carries the out-of-service taint (no feature gate: NodeOutOfServiceVolumeDetach
// went GA in v1.28 and was removed).
//
//go:linkname gcTerminating k8s.io/kubernetes/pkg/controller/podgc.(*PodGCController).gcTerminating
func gcTerminating(gcc *podgc.PodGCController, ctx context.Context, pods []*v1.Pod)

// The node lifecycle controller's flags, at kube-controller-manager's
// defaults except the eviction rate (see Upstream).
const (
	nodeMonitorPeriod           = 5 * time.Second
	nodeStartupGracePeriod      = time.Minute
	nodeMonitorGracePeriod      = 50 * time.Second
	secondaryEvictionLimiterQPS = 0.01
	largeClusterThreshold       = 50
	unhealthyZoneThreshold      = 0.55
	namespace                   = "default"
	// excludeDisruptionLabel leaves a node out of the zone states.
	excludeDisruptionLabel = "node.kubernetes.io/exclude-disruption"
)

// Upstream runs a Case through the real code: the pods through the
// DefaultTolerationSeconds admission plugin (after the API server's
// validation of their tolerations), the nodes through a node lifecycle
// controller built by NewNodeLifecycleController over informer stores
// filled directly and a fake clientset (three monitorNodeHealth passes,
// each with a NoExecute tainting pass, then a NoSchedule tainting pass
// per node), then the
// nodes as that left them through a taint eviction controller built by
// tainteviction.New (handleNodeUpdate per node). The controller's
// --node-eviction-rate is unlimited: the rate limit spaces the taints of
// a zone's nodes in time (one every 10 s by default), which the model has
// no notion of; it only postpones a taint in a zone in the normal state.
// With Case.TaintEvictionOnly the node lifecycle controller's passes
// are left out: the taint eviction controller judges the nodes' taints
// as the case gives them. The operator's out-of-service taint goes on its
// nodes before the taint eviction controller sees them. The eviction queue's timers run on a
// fake clock: a pod deleted at once has had a delete with its grace
// period when its worker has run (the clientset deletes as the API
// server does: gracefulDeletion); a pod to be deleted later has a timer,
// whose span is the least tolerationSeconds. Then the clock runs past
// every timer and the pod garbage collector's gcTerminating runs: the
// pods it deletes with grace period 0 are force-deleted.
type Upstream struct {
	plugin *defaulttolerationseconds.Plugin
	// zones is a node lifecycle controller for its ComputeZoneState.
	zones *nodelifecycle.Controller
}

// NewUpstream returns the upstream runner.
func NewUpstream(ctx context.Context) (*Upstream, error) {
	p := defaulttolerationseconds.NewDefaultTolerationSeconds()
	p.InspectFeatureGates(utilfeature.DefaultFeatureGate)
	nc, _, err := newNodeLifecycleController(ctx, fake.NewSimpleClientset())
	if err != nil {
		return nil, err
	}
	return &Upstream{plugin: p, zones: nc}, nil
}

// newNodeLifecycleController builds a node lifecycle controller over
// client and a fresh informer factory, which it returns unstarted.
func newNodeLifecycleController(ctx context.Context, client *fake.Clientset) (*nodelifecycle.Controller, informers.SharedInformerFactory, error) {
	f := informers.NewSharedInformerFactory(client, 0)
	nc, err := nodelifecycle.NewNodeLifecycleController(ctx, f.Coordination().V1().Leases(), f.Core().V1().Pods(), f.Core().V1().Nodes(),
		f.Apps().V1().DaemonSets(), client, nodeMonitorPeriod, nodeStartupGracePeriod, nodeMonitorGracePeriod,
		float32(math.Inf(1)), secondaryEvictionLimiterQPS, largeClusterThreshold, unhealthyZoneThreshold)
	return nc, f, err
}

// admit validates p's tolerations as the API server does and runs the
// DefaultTolerationSeconds plugin on it.
func (up *Upstream) admit(ctx context.Context, p *v1.Pod) error {
	var in api.Pod
	if err := apiv1.Convert_v1_Pod_To_core_Pod(p, &in, nil); err != nil {
		return err
	}
	if errs := validation.ValidateTolerations(in.Spec.Tolerations, field.NewPath("spec", "tolerations"), validation.PodValidationOptions{}); len(errs) > 0 {
		return fmt.Errorf("pod %s: %v", p.Name, errs.ToAggregate())
	}
	attrs := admission.NewAttributesRecord(&in, nil, api.Kind("Pod").WithVersion("version"), p.Namespace, p.Name,
		api.Resource("pods").WithVersion("version"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
	if err := up.plugin.Admit(ctx, attrs, nil); err != nil {
		return err
	}
	return apiv1.Convert_core_Pod_To_v1_Pod(&in, p, nil)
}

func (c *Case) v1Nodes(now metav1.Time) []*v1.Node {
	var out []*v1.Node
	for i, n := range c.Nodes {
		node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: NodeName(i), UID: types.UID("uid-" + NodeName(i)), Labels: map[string]string{zoneLabel: ZoneName(n.Zone)}}}
		if n.ExcludeDisruption {
			node.Labels[excludeDisruptionLabel] = ""
		}
		for _, t := range n.Taints {
			node.Spec.Taints = append(node.Spec.Taints, v1.Taint{Key: t.Key, Value: t.Value, Effect: v1.TaintEffect(t.Effect)})
		}
		node.Status.Conditions = []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionStatus(n.Ready.String()),
			LastHeartbeatTime: now, LastTransitionTime: now}}
		out = append(out, node)
	}
	return out
}

func (c *Case) v1Pods(now metav1.Time) []*v1.Pod {
	var out []*v1.Pod
	for i, p := range c.Pods {
		pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: PodName(i), Namespace: namespace, UID: types.UID("uid-" + PodName(i))},
			Spec: v1.PodSpec{NodeName: NodeName(p.Node), Containers: []v1.Container{{Name: "c", Image: "i"}}}}
		for _, t := range p.Tolerations {
			pod.Spec.Tolerations = append(pod.Spec.Tolerations, v1.Toleration{Key: t.Key, Operator: v1.TolerationOperator(t.Operator),
				Value: t.Value, Effect: v1.TaintEffect(t.Effect), TolerationSeconds: t.Seconds})
		}
		switch p.Phase {
		case Pending:
			pod.Status.Phase = v1.PodPending
		case Running:
			pod.Status.Phase = v1.PodRunning
		case Terminating:
			pod.Status.Phase = v1.PodRunning
			pod.DeletionTimestamp = &now
		case Failed:
			pod.Status.Phase = v1.PodFailed
		}
		if pod.Status.Phase == v1.PodRunning {
			pod.Status.Conditions = []v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionTrue}}
		}
		out = append(out, pod)
	}
	return out
}

// unexported returns a pointer to the unexported field name of the struct
// ptr points to.
func unexported[T any](ptr any, name string) *T {
	f := reflect.ValueOf(ptr).Elem().FieldByName(name)
	if !f.IsValid() {
		panic(fmt.Sprintf("no field %s in %T", name, ptr))
	}
	return (*T)(unsafe.Pointer(f.UnsafeAddr()))
}

// Run is upstream's answer to c.
func (up *Upstream) Run(ctx context.Context, c *Case) (Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	now := metav1.Now()
	nodes, pods := c.v1Nodes(now), c.v1Pods(now)
	var objs []runtime.Object
	for _, n := range nodes {
		objs = append(objs, n)
	}
	for _, p := range pods {
		if err := up.admit(ctx, p); err != nil {
			return Result{}, err
		}
		objs = append(objs, p)
	}
	client := fake.NewSimpleClientset(objs...)
	deletes := gracefulDeletion(client)

	nc, f, err := newNodeLifecycleController(ctx, client)
	if err != nil {
		return Result{}, err
	}
	for _, n := range nodes {
		if err := f.Core().V1().Nodes().Informer().GetIndexer().Add(n); err != nil {
			return Result{}, err
		}
	}
	for _, p := range pods {
		if err := f.Core().V1().Pods().Informer().GetIndexer().Add(p); err != nil {
			return Result{}, err
		}
	}
	if !c.TaintEvictionOnly {
		if err := nodeLifecyclePasses(ctx, nc, nodes); err != nil {
			return Result{}, err
		}
	}

	r := c.newResult()
	g := informers.NewSharedInformerFactory(client, 0)
	podInformer, nodeInformer := g.Core().V1().Pods(), g.Core().V1().Nodes()
	if err := controller.AddPodNodeNameIndexer(podInformer.Informer()); err != nil {
		return Result{}, err
	}
	tc, err := tainteviction.New(ctx, client, podInformer, nodeInformer, "taint-eviction-controller")
	if err != nil {
		return Result{}, err
	}
	var finals []*v1.Node
	for i, n := range nodes {
		final, err := client.CoreV1().Nodes().Get(ctx, n.Name, metav1.GetOptions{})
		if err != nil {
			return Result{}, err
		}
		if c.Nodes[i].OutOfService {
			// kubectl taint nodes NODE node.kubernetes.io/out-of-service=nodeshutdown:NoExecute
			final.Spec.Taints = append(final.Spec.Taints, v1.Taint{Key: outOfServiceKey, Value: outOfServiceValue, Effect: v1.TaintEffectNoExecute})
			if final, err = client.CoreV1().Nodes().Update(ctx, final, metav1.UpdateOptions{}); err != nil {
				return Result{}, err
			}
		}
		finals = append(finals, final)
		var taints []Taint
		for _, t := range final.Spec.Taints {
			taints = append(taints, Taint{Key: t.Key, Value: t.Value, Effect: string(t.Effect)})
		}
		r.Nodes = append(r.Nodes, NodeAnswer{NoExecute: controllerKeys(taints, "NoExecute"), NoSchedule: controllerKeys(taints, "NoSchedule")})
		if err := nodeInformer.Informer().GetIndexer().Add(final); err != nil {
			return Result{}, err
		}
	}
	for _, p := range pods {
		if err := podInformer.Informer().GetIndexer().Add(p); err != nil {
			return Result{}, err
		}
	}
	q := *unexported[*tainteviction.TimedWorkerQueue](tc, "taintEvictionQueue")
	clk := testingclock.NewFakeClock(now.Time)
	*unexported[clock.WithDelayedExecution](q, "clock") = clk
	for _, n := range nodes {
		handleNodeUpdate(tc, ctx, nodeUpdateItem{nodeName: n.Name})
	}
	wg := unexported[sync.WaitGroup](q, "workerWG")
	wg.Wait()
	evicted := deletes.evicted()
	q.Lock()
	workers := *unexported[map[string]*tainteviction.TimedWorker](q, "workers")
	for i, p := range pods {
		if evicted[p.Name] {
			r.Pods[i].Eviction = AtOnce
		} else if w := workers[namespace+"/"+p.Name]; w != nil {
			r.Pods[i] = PodAnswer{Eviction: Later, Seconds: int64(w.FireAt.Sub(w.CreatedAt) / time.Second)}
		}
	}
	q.Unlock()

	// The later evictions fall due, then the pod garbage collector runs.
	clk.Step(24 * time.Hour)
	wg.Wait()
	h := informers.NewSharedInformerFactory(client, 0)
	gcc := podgc.NewPodGC(ctx, client, h.Core().V1().Pods(), h.Core().V1().Nodes(), 0)
	for _, n := range finals {
		if err := h.Core().V1().Nodes().Informer().GetIndexer().Add(n); err != nil {
			return Result{}, err
		}
	}
	list, err := client.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return Result{}, err
	}
	var left []*v1.Pod
	for i := range list.Items {
		p := &list.Items[i]
		if err := h.Core().V1().Pods().Informer().GetIndexer().Add(p); err != nil {
			return Result{}, err
		}
		left = append(left, p)
	}
	gcTerminating(gcc, ctx, left)
	forced := deletes.forced()
	for i, p := range pods {
		r.Pods[i].ForceDeleted = forced[p.Name]
	}
	return r, nil
}

// nodeLifecyclePasses runs the node lifecycle controller nc over nodes:
// three passes of monitorNodeHealth, each with a NoExecute tainting pass,
// then a NoSchedule tainting pass per node. Three passes: a zone none of
// whose nodes counts in the zone states (all excluded) is dropped from
// them and gets a tainter at the normal rate again only a pass or two
// after the controller enters the master disruption mode
// (handleDisruption, classifyNodes), which the model, without time, does
// not wait for.
func nodeLifecyclePasses(ctx context.Context, nc *nodelifecycle.Controller, nodes []*v1.Node) error {
	for range 3 {
		if err := monitorNodeHealth(nc, ctx); err != nil {
			return err
		}
		doNoExecuteTaintingPass(nc, ctx)
	}
	for _, n := range nodes {
		if err := doNoScheduleTaintingPass(nc, ctx, n.Name); err != nil {
			return err
		}
	}
	return nil
}

// podDeletes records the pod deletions a fake clientset received.
type podDeletes struct {
	mu sync.Mutex
	// graceful: deleted with the pod's grace period (the taint eviction
	// controller's DeleteOptions{}); forced: removed with a grace period
	// of 0 (the pod garbage collector's).
	graceful, forcedRemoved map[string]bool
}

func (d *podDeletes) evicted() map[string]bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return maps.Clone(d.graceful)
}

func (d *podDeletes) forced() map[string]bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return maps.Clone(d.forcedRemoved)
}

// gracefulDeletion has client delete pods as the API server does
// (the pod strategy's CheckGracefulDelete): a pod bound to a node, not
// terminal, deleted with a grace period other than 0, only gets a deletion
// timestamp (its kubelet removes it; a kubelet that is down never does),
// and a pod that already has one stays as it is; a terminal pod, or a
// deletion with grace period 0, removes the object. It returns the record
// of the deletions.
func gracefulDeletion(client *fake.Clientset) *podDeletes {
	d := &podDeletes{graceful: map[string]bool{}, forcedRemoved: map[string]bool{}}
	tracker := client.Tracker()
	client.PrependReactor("delete", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		del := action.(clienttesting.DeleteAction)
		gvr, ns, name := del.GetResource(), del.GetNamespace(), del.GetName()
		obj, err := tracker.Get(gvr, ns, name)
		if err != nil {
			return true, nil, err
		}
		pod := obj.(*v1.Pod)
		grace := del.GetDeleteOptions().GracePeriodSeconds
		force := grace != nil && *grace == 0
		d.mu.Lock()
		if force {
			d.forcedRemoved[name] = true
		} else {
			d.graceful[name] = true
		}
		d.mu.Unlock()
		terminal := pod.Status.Phase == v1.PodFailed || pod.Status.Phase == v1.PodSucceeded
		if force || terminal || pod.Spec.NodeName == "" {
			return true, nil, tracker.Delete(gvr, ns, name)
		}
		if pod.DeletionTimestamp != nil {
			return true, pod, nil
		}
		pod = pod.DeepCopy()
		ts := metav1.Now()
		pod.DeletionTimestamp = &ts
		return true, pod, tracker.Update(gvr, pod, ns)
	})
	return d
}
