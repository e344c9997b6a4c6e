package jobdiff

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	_ "unsafe" // go:linkname

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	batchinformers "k8s.io/client-go/informers/batch/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	schedulinginformers "k8s.io/client-go/informers/scheduling/v1alpha2"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	batchdefaults "k8s.io/kubernetes/pkg/apis/batch/v1"
	"k8s.io/kubernetes/pkg/controller/job"
	"k8s.io/utils/clock"
	testingclock "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"

	"github.com/kivi-go/kivi/model"
)

// The Job controller's own functions (pkg/controller/job, v1.36.3),
// reached by go:linkname because they are unexported:
// newControllerWithClock is NewController with a clock of the caller's;
// syncJob is the controller's sync of one Job key.
//
//go:linkname newControllerWithClock k8s.io/kubernetes/pkg/controller/job.newControllerWithClock
func newControllerWithClock(ctx context.Context, kubeClient clientset.Interface, clock clock.WithTicker,
	podInformer coreinformers.PodInformer, jobInformer batchinformers.JobInformer,
	workloadInformer schedulinginformers.WorkloadInformer, podGroupInformer schedulinginformers.PodGroupInformer) (*job.Controller, error)

//go:linkname syncJob k8s.io/kubernetes/pkg/controller/job.(*Controller).syncJob
func syncJob(jm *job.Controller, ctx context.Context, key string) error

// Namespace holds every object of a Case.
const Namespace = "default"

// Upstream is kube-controller-manager's Job controller, run in process
// over informer caches that are filled directly (never started), writing
// to a fake clientset, with a fake clock. One instance serves many cases:
// Sync replaces the caches' and the clientset's contents, and names each
// case's Job anew, as the controller keeps per-Job memory by key and UID
// (expectations, the consistency store, the pod-failure backoff records).
type Upstream struct {
	jm     *job.Controller
	client *fake.Clientset
	clock  *testingclock.FakeClock
	// stores: the Job and pod caches.
	stores [2]cache.Store
	// syncs counts the Syncs, for the Jobs' names; created counts the pods
	// created, for their names (the fake clientset does not generate
	// names).
	syncs, created int
}

var created = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// NewUpstream builds the controller as NewController does for
// kube-controller-manager, with a fake clock.
func NewUpstream(ctx context.Context) (*Upstream, error) {
	client := fake.NewSimpleClientset() // no field management: its REST mapper costs milliseconds per write
	f := informers.NewSharedInformerFactory(client, 0)
	clk := testingclock.NewFakeClock(created)
	jm, err := newControllerWithClock(ctx, client, clk, f.Core().V1().Pods(), f.Batch().V1().Jobs(),
		f.Scheduling().V1alpha2().Workloads(), f.Scheduling().V1alpha2().PodGroups())
	if err != nil {
		return nil, err
	}
	up := &Upstream{jm: jm, client: client, clock: clk,
		stores: [2]cache.Store{f.Batch().V1().Jobs().Informer().GetStore(), f.Core().V1().Pods().Informer().GetStore()}}
	client.PrependReactor("create", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if p, ok := a.(k8stesting.CreateAction).GetObject().(*v1.Pod); ok && p.Name == "" {
			up.created++
			p.Name = p.GenerateName + "new-" + strconv.Itoa(up.created)
		}
		return false, nil, nil
	})
	return up, nil
}

func podTemplate(jobUID k8stypes.UID, name string) v1.PodTemplateSpec {
	return v1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{batchv1.ControllerUidLabel: string(jobUID), batchv1.JobNameLabel: name}},
		Spec: v1.PodSpec{RestartPolicy: v1.RestartPolicyNever,
			Containers: []v1.Container{{Name: "c", Image: "batch"}}},
	}
}

// objects returns the Case's Job and pods, the Job named name.
func (c *Case) objects(name string, now time.Time) (*batchv1.Job, []*v1.Pod) {
	uid := k8stypes.UID(name + "-uid")
	j := &batchv1.Job{
		TypeMeta: metav1.TypeMeta{Kind: "Job", APIVersion: "batch/v1"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: Namespace, UID: uid, Generation: 1,
			CreationTimestamp: metav1.NewTime(created)},
		Spec: batchv1.JobSpec{
			Parallelism:    ptr.To(int32(c.Parallelism)),
			BackoffLimit:   ptr.To(int32(c.BackoffLimit)),
			Suspend:        ptr.To(c.Suspend),
			Selector:       &metav1.LabelSelector{MatchLabels: map[string]string{batchv1.ControllerUidLabel: string(uid)}},
			Template:       podTemplate(uid, name),
			CompletionMode: ptr.To(batchv1.NonIndexedCompletion),
		},
	}
	if c.Completions != nil {
		j.Spec.Completions = ptr.To(int32(*c.Completions))
	}
	if c.HasPolicy {
		j.Spec.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{}}
		for _, r := range c.Policy {
			rule := batchv1.PodFailurePolicyRule{Action: batchv1.PodFailurePolicyAction(r.Action)}
			switch {
			case len(r.ExitCodes) > 0:
				op := batchv1.PodFailurePolicyOnExitCodesOpIn
				if r.NotIn {
					op = batchv1.PodFailurePolicyOnExitCodesOpNotIn
				}
				rule.OnExitCodes = &batchv1.PodFailurePolicyOnExitCodesRequirement{Operator: op, Values: r.ExitCodes}
			case r.OnDisruptionTarget:
				rule.OnPodConditions = []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: v1.DisruptionTarget, Status: v1.ConditionTrue}}
			default:
				rule.OnPodConditions = []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: "ConfigIssue", Status: v1.ConditionTrue}}
			}
			j.Spec.PodFailurePolicy.Rules = append(j.Spec.PodFailurePolicy.Rules, rule)
		}
	}
	if c.ReplaceOnlyFailed {
		j.Spec.PodReplacementPolicy = ptr.To(batchv1.Failed)
	}
	batchdefaults.SetObjectDefaults_Job(j)
	j.Status = batchv1.JobStatus{Succeeded: int32(c.Succeeded), Failed: int32(c.Failed),
		UncountedTerminatedPods: &batchv1.UncountedTerminatedPods{}}
	if !c.Suspend {
		j.Status.StartTime = ptr.To(metav1.NewTime(created))
	}
	if c.BackoffTarget {
		j.Status.Conditions = append(j.Status.Conditions, batchv1.JobCondition{Type: batchv1.JobFailureTarget, Status: v1.ConditionTrue,
			Reason: batchv1.JobReasonBackoffLimitExceeded, LastTransitionTime: metav1.NewTime(created)})
	}
	if c.SuccessCriteriaMet {
		j.Status.Conditions = append(j.Status.Conditions, batchv1.JobCondition{Type: batchv1.JobSuccessCriteriaMet, Status: v1.ConditionTrue,
			Reason: batchv1.JobReasonCompletionsReached, LastTransitionTime: metav1.NewTime(created)})
	}
	// A finished pod's finish: an hour ago, or a second ago.
	finished := now.Add(-time.Hour)
	if c.RecentFailure {
		finished = now.Add(-time.Second)
	}
	var pods []*v1.Pod
	for i, p := range c.Pods {
		tmpl := podTemplate(uid, name)
		pod := &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name + "-" + podName(i), Namespace: Namespace, UID: k8stypes.UID(name + "-" + podName(i) + "-uid"),
				Labels: tmpl.Labels, CreationTimestamp: metav1.NewTime(created),
				OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(j, batchv1.SchemeGroupVersion.WithKind("Job"))}},
			Spec:   tmpl.Spec,
			Status: v1.PodStatus{Phase: v1.PodPending},
		}
		if p.Phase != Pending {
			pod.Spec.NodeName = "n1"
			pod.Status.StartTime = ptr.To(metav1.NewTime(created))
		}
		switch p.Phase {
		case Running:
			pod.Status.Phase = v1.PodRunning
			pod.Status.Conditions = []v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionTrue, LastTransitionTime: metav1.NewTime(created)}}
		case Succeeded, Failed:
			pod.Status.Phase = v1.PodSucceeded
			code := int32(0)
			if p.Phase == Failed {
				pod.Status.Phase, code = v1.PodFailed, p.ExitCode
			}
			if p.Phase == Succeeded || code != 0 {
				pod.Status.ContainerStatuses = []v1.ContainerStatus{{Name: "c", State: v1.ContainerState{Terminated: &v1.ContainerStateTerminated{
					ExitCode: code, StartedAt: metav1.NewTime(created), FinishedAt: metav1.NewTime(finished)}}}}
			}
		}
		if p.DisruptionTarget {
			pod.Status.Conditions = append(pod.Status.Conditions, v1.PodCondition{Type: v1.DisruptionTarget, Status: v1.ConditionTrue,
				Reason: "EvictionByEvictionAPI", LastTransitionTime: metav1.NewTime(finished)})
		}
		if p.Terminating {
			pod.DeletionTimestamp = ptr.To(metav1.NewTime(finished))
			pod.DeletionGracePeriodSeconds = ptr.To(int64(30))
		}
		if p.Active() || p.Tracking != Counted {
			pod.Finalizers = []string{batchv1.JobTrackingFinalizer}
		}
		if !p.Active() {
			// A failure the policy ignores is counted nowhere
			// (trackJobStatusAndRemoveFinalizers: countFailed false).
			ignored := c.HasPolicy && p.Phase != Succeeded && c.action(p) == "Ignore"
			switch {
			case p.Tracking == Counted && p.Phase == Succeeded:
				j.Status.Succeeded++
			case p.Tracking == Counted && !ignored:
				j.Status.Failed++
			case p.Tracking == Uncounted && p.Phase == Succeeded:
				j.Status.UncountedTerminatedPods.Succeeded = append(j.Status.UncountedTerminatedPods.Succeeded, pod.UID)
			case p.Tracking == Uncounted && !ignored:
				j.Status.UncountedTerminatedPods.Failed = append(j.Status.UncountedTerminatedPods.Failed, pod.UID)
			}
		}
		pods = append(pods, pod)
	}
	active := 0
	for _, p := range c.Pods {
		if p.Active() {
			active++
		}
	}
	j.Status.Active = int32(active)
	c.indexedObjects(j, pods)
	return j, pods
}

// Sync runs one sync of the Case's Job and returns the pods it created
// and deleted, read from the clientset's actions, and the Job's condition
// and counts as it wrote them.
func (up *Upstream) Sync(ctx context.Context, c *Case) (Result, error) {
	up.syncs++
	name := fmt.Sprint("job", up.syncs)
	now := created.Add(24 * time.Hour)
	up.clock.SetTime(now)
	j, pods := c.objects(name, now)
	if err := up.reset(ctx); err != nil {
		return Result{}, err
	}
	tracker := up.client.Tracker()
	lists := [2][]any{{j.DeepCopy()}}
	if err := tracker.Add(j.DeepCopy()); err != nil {
		return Result{}, err
	}
	index := map[string]int{}
	for i, p := range pods {
		index[p.Name] = i
		lists[1] = append(lists[1], p.DeepCopy())
		if err := tracker.Add(p.DeepCopy()); err != nil {
			return Result{}, err
		}
	}
	for i, st := range up.stores {
		if err := st.Replace(lists[i], "1"); err != nil {
			return Result{}, err
		}
	}
	up.client.ClearActions()
	if err := syncJob(up.jm, ctx, Namespace+"/"+name); err != nil {
		return Result{}, fmt.Errorf("sync: %w", err)
	}
	var r Result
	for _, a := range up.client.Actions() {
		if a.GetResource().Resource != "pods" {
			continue
		}
		switch a := a.(type) {
		case k8stesting.CreateAction:
			p := a.GetObject().(*v1.Pod)
			if !strings.HasPrefix(p.GenerateName, name+"-") {
				return Result{}, fmt.Errorf("created pod %s (generateName %s)", p.Name, p.GenerateName)
			}
			r.Created++
			if k := createdIndex(p); k >= 0 {
				r.Indexes = append(r.Indexes, k)
			}
		case k8stesting.DeleteAction:
			i, ok := index[a.GetName()]
			if !ok {
				return Result{}, fmt.Errorf("deleted pod %s", a.GetName())
			}
			r.Deleted = append(r.Deleted, i)
		}
	}
	slices.Sort(r.Deleted)
	r.Deleted = slices.Compact(r.Deleted)
	slices.Sort(r.Indexes)
	after, err := up.client.BatchV1().Jobs(Namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return Result{}, err
	}
	r.Succeeded, r.Failed = int(after.Status.Succeeded), int(after.Status.Failed)
	if after.Status.FailedIndexes != nil {
		r.FailedIndexes = *after.Status.FailedIndexes
	}
	if u := after.Status.UncountedTerminatedPods; u != nil && len(u.Succeeded)+len(u.Failed) > 0 {
		return Result{}, fmt.Errorf("pods left uncounted: %v", u)
	}
	for _, cond := range after.Status.Conditions {
		if cond.Status != v1.ConditionTrue {
			continue
		}
		if f, ok := indexedCondition(cond); ok {
			if f.Finished() || r.Finished == model.JobRunning {
				r.Finished = f
			}
			continue
		}
		switch {
		case cond.Type == batchv1.JobComplete:
			r.Finished = model.JobComplete
		case cond.Type == batchv1.JobSuccessCriteriaMet && cond.Reason == batchv1.JobReasonSuccessPolicy:
			if r.Finished == model.JobRunning {
				r.Finished = model.JobSuccessCriteriaMet
			}
		case cond.Type == batchv1.JobFailed && cond.Reason == batchv1.JobReasonBackoffLimitExceeded:
			r.Finished = model.JobFailedBackoff
		case cond.Type == batchv1.JobFailed && cond.Reason == batchv1.JobReasonPodFailurePolicy:
			r.Finished = model.JobFailedPodFailurePolicy
		case cond.Type == batchv1.JobFailureTarget && cond.Reason == batchv1.JobReasonPodFailurePolicy:
			if r.Finished == model.JobRunning {
				r.Finished = model.JobFailureTarget
			}
		case cond.Type == batchv1.JobFailed:
			return Result{}, fmt.Errorf("condition %s: %s", cond.Type, cond.Reason)
		}
	}
	return r, nil
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
	jobs, err := up.client.BatchV1().Jobs(Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, j := range jobs.Items {
		if err := up.client.BatchV1().Jobs(Namespace).Delete(ctx, j.Name, metav1.DeleteOptions{}); err != nil {
			return err
		}
	}
	return nil
}
