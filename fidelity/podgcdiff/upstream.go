package podgcdiff

import (
	"context"
	"sync"
	"time"
	_ "unsafe" // go:linkname

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/kubernetes/pkg/controller/podgc"
)

// gcOrphaned is the pod garbage collector's pass over the pods bound to
// nodes that no longer exist (k8s.io/kubernetes v1.36.3), reached by
// go:linkname because it is unexported.
//
//go:linkname gcOrphaned k8s.io/kubernetes/pkg/controller/podgc.(*PodGCController).gcOrphaned
func gcOrphaned(gcc *podgc.PodGCController, ctx context.Context, pods []*v1.Pod, nodes []*v1.Node)

const namespace = "default"

// Upstream runs the case through a PodGCController built by
// NewPodGCInternal over a fake clientset holding the nodes that exist and
// every pod, with no quarantine, and one gcOrphaned pass. A pod's answer
// is read from the clientset's deletes: deleted with grace period 0, and
// counted unless the pod, as the collector's status patch left it, has
// the DisruptionTarget condition.
func Upstream(c Case) ([]Answer, error) {
	r, err := StartUpstream(c, 0)
	if err != nil {
		return nil, err
	}
	return r.First, nil
}

// Run is a case in upstream's collector with a quarantine: First holds
// every pod's answer after the first gcOrphaned pass, the one that sees
// the nodes missing and quarantines them.
type Run struct {
	First []Answer
	c     Case
	ctx   context.Context
	gcc   *podgc.PodGCController
	pods  []*v1.Pod
	nodes []*v1.Node
	rec   *deletes
}

// StartUpstream builds the controller with the given quarantine and runs
// its first pass.
func StartUpstream(c Case, quarantine time.Duration) (*Run, error) {
	r := &Run{c: c, ctx: context.Background()}
	var objs []runtime.Object
	for i, deleted := range c.Deleted {
		if deleted {
			continue
		}
		n := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: NodeName(i)}}
		r.nodes = append(r.nodes, n)
		objs = append(objs, n)
	}
	for i, p := range c.Pods {
		pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: PodName(i), Namespace: namespace}}
		if p.Node >= 0 {
			pod.Spec.NodeName = NodeName(p.Node)
		}
		switch p.Phase {
		case Pending:
			pod.Status.Phase = v1.PodPending
		case Running:
			pod.Status.Phase = v1.PodRunning
		case Terminating:
			pod.Status.Phase = v1.PodRunning
			ts := metav1.Now()
			pod.DeletionTimestamp = &ts
			pod.Finalizers = []string{"batch.kubernetes.io/job-tracking"}
		case Failed:
			pod.Status.Phase = v1.PodFailed
		}
		r.pods = append(r.pods, pod)
		objs = append(objs, pod)
	}
	client := fake.NewClientset(objs...)
	r.rec = record(client)
	f := informers.NewSharedInformerFactory(client, 0)
	r.gcc = podgc.NewPodGCInternal(r.ctx, client, f.Core().V1().Pods(), f.Core().V1().Nodes(), 0, 20*time.Second, quarantine)
	gcOrphaned(r.gcc, r.ctx, r.pods, r.nodes)
	r.First = r.answers()
	return r, nil
}

// Finish runs the pass after the quarantine, over the pods the first
// pass left, and returns the window: a node's pods are collected when
// this pass deletes one of them.
func (r *Run) Finish() Window {
	var left []*v1.Pod
	for i, p := range r.pods {
		if !r.First[i].Deleted {
			left = append(left, p)
		}
	}
	gcOrphaned(r.gcc, r.ctx, left, r.nodes)
	w := Window{First: r.First, Enabled: make([]bool, len(r.c.Deleted)), Final: r.answers()}
	for i, p := range r.c.Pods {
		if !r.First[i].Deleted && w.Final[i].Deleted {
			w.Enabled[p.Node] = true
		}
	}
	return w
}

// answers reads every pod's answer from the deletes so far.
func (r *Run) answers() []Answer {
	out := make([]Answer, len(r.c.Pods))
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	for i := range r.c.Pods {
		if dt, ok := r.rec.forced[PodName(i)]; ok {
			out[i] = Answer{Deleted: true, Counted: !dt}
		}
	}
	return out
}

// deletes records the pods a fake clientset force-deleted, each with
// whether it had the DisruptionTarget condition then.
type deletes struct {
	mu     sync.Mutex
	forced map[string]bool
}

func record(client *fake.Clientset) *deletes {
	d := &deletes{forced: map[string]bool{}}
	tracker := client.Tracker()
	client.PrependReactor("delete", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		del := action.(clienttesting.DeleteAction)
		grace := del.GetDeleteOptions().GracePeriodSeconds
		if grace == nil || *grace != 0 {
			return false, nil, nil
		}
		obj, err := tracker.Get(del.GetResource(), del.GetNamespace(), del.GetName())
		if err != nil {
			return true, nil, err
		}
		dt := false
		for _, cond := range obj.(*v1.Pod).Status.Conditions {
			dt = dt || cond.Type == v1.DisruptionTarget && cond.Status == v1.ConditionTrue
		}
		d.mu.Lock()
		d.forced[del.GetName()] = dt
		d.mu.Unlock()
		return true, nil, tracker.Delete(del.GetResource(), del.GetNamespace(), del.GetName())
	})
	return d
}
