package kubeletadmitdiff

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/admission"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/tools/record"
	resourcehelper "k8s.io/component-helpers/resource"
	statsapi "k8s.io/kubelet/pkg/apis/stats/v1alpha1"
	api "k8s.io/kubernetes/pkg/apis/core"
	apiv1 "k8s.io/kubernetes/pkg/apis/core/v1"
	"k8s.io/kubernetes/pkg/kubelet/eviction"
	"k8s.io/kubernetes/pkg/kubelet/lifecycle"
	"k8s.io/kubernetes/pkg/kubelet/preemption"
	schedulerframework "k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/plugin/pkg/admission/defaulttolerationseconds"
	testingclock "k8s.io/utils/clock/testing"
)

// systemNodeCritical is PriorityClass system-node-critical's value.
const systemNodeCritical = 2000001000

// Result is one side's answer for the new pod: the reason of its
// rejection ("" admitted) and the running pods the kubelet preempted to
// admit a critical pod (indices into Case.Pods, the DaemonSet's pod
// after them), in increasing order. Alternatives, the model's only, are
// the sets of pods it may preempt, one per choice among pods its
// preemption leaves tied (nil when it has no choice): upstream takes the
// last of them in the order it lists its pods, a map's order.
type Result struct {
	Reason       string
	Preempted    []int   `json:",omitempty"`
	Alternatives [][]int `json:",omitempty"`
}

func (r Result) String() string {
	switch {
	case r.Reason == "" && len(r.Alternatives) > 0:
		return fmt.Sprintf("admitted, preempting one of %v", r.Alternatives)
	case r.Reason == "" && len(r.Preempted) > 0:
		return fmt.Sprintf("admitted, preempting %v", r.Preempted)
	case r.Reason == "":
		return "admitted"
	}
	return "rejected: " + r.Reason
}

// agree reports whether the model's answer m covers upstream's u on
// case c: the same reason, and upstream's preempted pods one of the
// model's choices, up to pods that are alike (of one spec, both Running
// or both Terminating): the model takes the lowest of its identical pods,
// upstream any.
func agree(c *Case, m, u Result) bool {
	if m.Reason != u.Reason {
		return false
	}
	want := c.kinds(u.Preempted)
	choices := m.Alternatives
	if choices == nil {
		choices = [][]int{m.Preempted}
	}
	return slices.ContainsFunc(choices, func(a []int) bool { return slices.Equal(c.kinds(a), want) })
}

// kinds are the pods (indices into c.Pods, the DaemonSet's pod after
// them) as what tells them apart, sorted: their Pod, the DaemonSet's
// pod's Spec -1.
func (c *Case) kinds(pods []int) []Pod {
	out := make([]Pod, 0, len(pods))
	for _, i := range pods {
		if i < len(c.Pods) {
			out = append(out, c.Pods[i])
		} else {
			out = append(out, Pod{Spec: -1})
		}
	}
	slices.SortFunc(out, func(a, b Pod) int {
		if a.Spec != b.Spec {
			return a.Spec - b.Spec
		}
		if a.Terminating == b.Terminating {
			return 0
		}
		if b.Terminating {
			return -1
		}
		return 1
	})
	return out
}

// Kubelet is the real kubelet's admission, the handlers of
// pkg/kubelet (v1.36) that this comparison covers, in the kubelet's
// order: the eviction manager's (managerImpl.Admit) and the predicate
// admit handler (lifecycle.NewPredicateAdmitHandler) with the critical
// pod admission handler (preemption.NewCriticalPodAdmissionHandler).
// The eviction manager comes from eviction.NewManager: Pressured's has
// run one housekeeping cycle on a summary below its threshold, so that
// it reports the MemoryPressure condition; Calm's never ran.
type Kubelet struct {
	Calm, Pressured lifecycle.PodAdmitHandler
	stop            func()
}

// pressureSummary is a node whose memory.available (50Mi) is below the
// default hard threshold (100Mi).
type pressureSummary struct{ blocked chan struct{} }

func (p *pressureSummary) Get(context.Context, bool) (*statsapi.Summary, error) {
	if p.blocked != nil {
		// Later cycles wait until Close: the condition stays.
		<-p.blocked
		return nil, fmt.Errorf("closed")
	}
	p.blocked = make(chan struct{})
	t := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	avail, ws := uint64(50<<20), uint64(974<<20)
	return &statsapi.Summary{Node: statsapi.NodeStats{NodeName: NodeName,
		Memory: &statsapi.MemoryStats{Time: t, AvailableBytes: &avail, WorkingSetBytes: &ws},
		SystemContainers: []statsapi.ContainerStats{{Name: statsapi.SystemContainerPods,
			Memory: &statsapi.MemoryStats{Time: t, AvailableBytes: &avail, WorkingSetBytes: &ws}}}}}, nil
}

func (p *pressureSummary) GetCPUAndMemoryStats(ctx context.Context) (*statsapi.Summary, error) {
	return p.Get(ctx, false)
}

type noImageFs struct{}

func (noImageFs) HasDedicatedImageFs(context.Context) (bool, error)     { return false, nil }
func (noImageFs) HasDedicatedContainerFs(context.Context) (bool, error) { return false, nil }

type noGC struct{}

func (noGC) DeleteUnusedImages(context.Context) error        { return nil }
func (noGC) DeleteAllUnusedContainers(context.Context) error { return nil }

// NewKubelet starts the real eviction managers; Close stops them.
func NewKubelet() (*Kubelet, error) {
	th, err := eviction.ParseThresholdConfig([]string{"pods"}, map[string]string{"memory.available": "100Mi"}, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	cfg := eviction.Config{PressureTransitionPeriod: 5 * time.Minute, MaxPodGracePeriodSeconds: 30, Thresholds: th}
	clock := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	kill := func(*corev1.Pod, bool, *int64, func(*corev1.PodStatus)) error { return nil }
	ref := &corev1.ObjectReference{Kind: "Node", Name: NodeName}
	_, calm := eviction.NewManager(&pressureSummary{}, cfg, kill, noGC{}, noGC{}, &record.FakeRecorder{}, ref, clock, false)
	summary := &pressureSummary{}
	m, pressured := eviction.NewManager(summary, cfg, kill, noGC{}, noGC{}, &record.FakeRecorder{}, ref, clock, false)
	ctx, cancel := context.WithCancel(context.Background())
	m.Start(ctx, noImageFs{}, func() []*corev1.Pod { return nil }, func(*corev1.Pod) bool { return true }, time.Hour)
	k := &Kubelet{Calm: calm, Pressured: pressured, stop: func() {
		cancel()
		if summary.blocked != nil {
			close(summary.blocked)
		}
	}}
	for deadline := time.Now().Add(20 * time.Second); !m.IsUnderMemoryPressure(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			k.Close()
			return nil, fmt.Errorf("upstream: the eviction manager does not report MemoryPressure")
		}
	}
	return k, nil
}

// Close stops the eviction managers' housekeeping.
func (k *Kubelet) Close() { k.stop() }

// Admission is the real kubelet's answer for the case's new pod, the
// pods it runs given as the kubelet gives them to its admit handlers
// (every pod bound to it that is not terminal, Terminating ones with a
// deletion timestamp).
func (k *Kubelet) Admission(c *Case, pipe Pipeline) (Result, error) {
	node := c.v1Node()
	var running []*corev1.Pod
	for i, p := range c.Pods {
		pod, err := c.v1Pod(p.Spec, fmt.Sprintf("p%d", i), pipe)
		if err != nil {
			return Result{}, err
		}
		pod.Status.Phase = corev1.PodRunning
		if p.Terminating {
			ts := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			pod.DeletionTimestamp = &ts
		}
		running = append(running, pod)
	}
	if c.Daemon != nil {
		d, err := c.daemonPod(pipe)
		if err != nil {
			return Result{}, err
		}
		running = append(running, d)
	}
	pod, err := c.v1Pod(c.New, "new", pipe)
	if err != nil {
		return Result{}, err
	}
	attrs := &lifecycle.PodAdmitAttributes{Pod: pod, OtherPods: running, Operation: lifecycle.AddOperation}
	evictionAdmit := k.Calm
	if c.Node.MemoryPressure {
		evictionAdmit = k.Pressured
	}
	if r := evictionAdmit.Admit(attrs); !r.Admit {
		return Result{Reason: r.Reason + " (" + strings.TrimSuffix(r.Message, ". ") + ")"}, nil
	}
	var res Result
	getNode := func(context.Context, bool) (*corev1.Node, error) { return node.DeepCopy(), nil }
	killPod := func(p *corev1.Pod, _ bool, _ *int64, _ func(*corev1.PodStatus)) error {
		res.Preempted = append(res.Preempted, slices.Index(running, p))
		return nil
	}
	active := func() []*corev1.Pod {
		if c.NoDaemonPreemption && c.Daemon != nil {
			return slices.Clone(running[:len(running)-1])
		}
		return slices.Clone(running)
	}
	failures := preemption.NewCriticalPodAdmissionHandler(active, killPod, &record.FakeRecorder{})
	noPlugins := func(*schedulerframework.NodeInfo, *lifecycle.PodAdmitAttributes) error { return nil }
	r := lifecycle.NewPredicateAdmitHandler(getNode, failures, noPlugins).Admit(attrs)
	if !r.Admit {
		res.Reason = r.Reason
	}
	slices.Sort(res.Preempted)
	return res, nil
}

// Pipeline is how the real side builds the pods. The zero Pipeline is
// the API server's; the other settings are wrong pipelines that
// TestPlantedPipelines expects the comparison to catch.
type Pipeline struct {
	// NoPodDefaults skips SetDefaults_Pod (requests from limits).
	NoPodDefaults bool
	// NoOverhead leaves out the RuntimeClass's overhead.
	NoOverhead bool
	// NoDefaultTolerations skips the DefaultTolerationSeconds admission.
	NoDefaultTolerations bool
	// NoPodLevel leaves out the pod-level resources.
	NoPodLevel bool
}

// v1Node is the Node as its kubelet reports it: the labels of the case
// and the kubelet's own, taints, allocatable.
func (c *Case) v1Node() *corev1.Node {
	labels := map[string]string{corev1.LabelHostname: NodeName, corev1.LabelOSStable: "linux", corev1.LabelArchStable: "amd64"}
	for k, v := range c.Node.Labels {
		labels[k] = v
	}
	alloc := corev1.ResourceList{
		corev1.ResourceCPU:              resource.MustParse(c.Node.CPU),
		corev1.ResourceMemory:           resource.MustParse(c.Node.Memory),
		corev1.ResourceEphemeralStorage: resource.MustParse(c.Node.Storage),
		corev1.ResourcePods:             *resource.NewQuantity(int64(c.Node.Pods), resource.DecimalSI),
	}
	if c.Node.Dongles >= 0 {
		alloc[Dongle] = *resource.NewQuantity(int64(c.Node.Dongles), resource.DecimalSI)
	}
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: NodeName, Labels: labels},
		Status: corev1.NodeStatus{Allocatable: alloc, Capacity: alloc}}
	for _, t := range c.Node.Taints {
		n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: t.Key, Value: t.Value, Effect: corev1.TaintEffect(t.Effect)})
	}
	if c.Node.MemoryPressure {
		// The node lifecycle controller's taint for the condition.
		n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: corev1.TaintNodeMemoryPressure, Effect: corev1.TaintEffectNoSchedule})
	}
	return n
}

// v1Pod is a pod of spec i as the API server stores it: the spec the
// model reads (Spec.PodSpec) decoded, defaulted (SetObjectDefaults_Pod),
// with the priority of its PriorityClass, the RuntimeClass's overhead and
// the DefaultTolerationSeconds admission's tolerations.
func (c *Case) v1Pod(i int, name string, pipe Pipeline) (*corev1.Pod, error) {
	return storedPod(c.Specs[i], c.Specs[i].PodSpec(), name, workloadName(i), pipe)
}

// daemonPod is the DaemonSet's pod on the node as the DaemonSet
// controller creates it (bound to the node; its added tolerations do
// not matter to another pod's admission) and the API server stores it.
func (c *Case) daemonPod(pipe Pipeline) (*corev1.Pod, error) {
	spec := c.Daemon.daemonSpec()
	spec["nodeName"] = NodeName
	pod, err := storedPod(*c.Daemon, spec, "daemon", "daemon", pipe)
	if err != nil {
		return nil, err
	}
	pod.Status.Phase = corev1.PodRunning
	return pod, nil
}

// storedPod is a pod of spec s, written as spec, as the API server
// stores it.
func storedPod(s Spec, spec map[string]any, name, app string, pipe Pipeline) (*corev1.Pod, error) {
	raw, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID(name),
		Labels: map[string]string{"app": app}}}
	if s.OS != "" {
		pod.Labels[corev1.LabelOSStable] = s.OS
	}
	if err := json.Unmarshal(raw, &pod.Spec); err != nil {
		return nil, err
	}
	if pipe.NoPodLevel {
		pod.Spec.Resources = nil
	}
	if s.Critical {
		prio := int32(systemNodeCritical)
		pod.Spec.Priority = &prio
	}
	if s.RuntimeClass && !pipe.NoOverhead {
		pod.Spec.Overhead = corev1.ResourceList{}
		for k, v := range Overhead() {
			pod.Spec.Overhead[corev1.ResourceName(k)] = resource.MustParse(v)
		}
	}
	if !pipe.NoPodDefaults {
		apiv1.SetObjectDefaults_Pod(pod)
	}
	if pipe.NoDefaultTolerations {
		return pod, nil
	}
	var in api.Pod
	if err := apiv1.Convert_v1_Pod_To_core_Pod(pod, &in, nil); err != nil {
		return nil, err
	}
	plugin := defaulttolerationseconds.NewDefaultTolerationSeconds()
	plugin.InspectFeatureGates(utilfeature.DefaultFeatureGate)
	a := admission.NewAttributesRecord(&in, nil, api.Kind("Pod").WithVersion("version"), "default", name,
		api.Resource("pods").WithVersion("version"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
	if err := plugin.Admit(context.Background(), a, nil); err != nil {
		return nil, err
	}
	out := &corev1.Pod{}
	if err := apiv1.Convert_core_Pod_To_v1_Pod(&in, out, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// containerResources are spec s's containers' aggregate requests
// (resourcehelper.AggregateContainerRequests) and each resource's
// largest container limit, the containers defaulted as the API server
// stores them.
func containerResources(s Spec) (aggregate, largest corev1.ResourceList) {
	s.PodRequests, s.PodLimits = nil, nil
	raw, err := json.Marshal(s.PodSpec())
	if err != nil {
		panic(err) // maps of strings, numbers and lists always marshal
	}
	pod := &corev1.Pod{}
	if err := json.Unmarshal(raw, &pod.Spec); err != nil {
		panic(err)
	}
	apiv1.SetObjectDefaults_Pod(pod)
	largest = corev1.ResourceList{}
	for _, c := range slices.Concat(pod.Spec.Containers, pod.Spec.InitContainers) {
		for name, q := range c.Resources.Limits {
			if l, ok := largest[name]; !ok || q.Cmp(l) > 0 {
				largest[name] = q
			}
		}
	}
	return resourcehelper.AggregateContainerRequests(pod, resourcehelper.PodResourcesOptions{}), largest
}
