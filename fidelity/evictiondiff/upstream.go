package evictiondiff

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	statsapi "k8s.io/kubelet/pkg/apis/stats/v1alpha1"
	"k8s.io/kubernetes/pkg/kubelet/eviction"
	testingclock "k8s.io/utils/clock/testing"
)

// housekeeping is the kubelet's eviction monitoring interval
// (evictionMonitoringPeriod, 10 s).
const housekeeping = 10 * time.Second

// maxCycles bounds a run: every pod evicted, then the quiet cycles.
const maxCycles = 64

// ThresholdConfig returns the kubelet's thresholds for c as
// ParseThresholdConfig builds them at start, with enforceNodeAllocatable:
// [pods] (the default). An evictionHard without memory.available (the
// case's "none") lists nodefs.available only, so that the kubelet's
// defaults are replaced, as a KubeletConfiguration's evictionHard replaces
// them.
func (c *Case) ThresholdConfig() (eviction.Config, error) {
	hard := map[string]string{"nodefs.available": "10%"}
	if c.Hard != "" {
		hard["memory.available"] = c.Hard
	}
	statement := func(v string) map[string]string {
		if v == "" {
			return nil
		}
		return map[string]string{"memory.available": v}
	}
	th, err := eviction.ParseThresholdConfig([]string{"pods"}, hard, statement(c.Soft), statement(c.Grace), statement(c.MinimumReclaim))
	if err != nil {
		return eviction.Config{}, err
	}
	return eviction.Config{PressureTransitionPeriod: 5 * time.Minute, MaxPodGracePeriodSeconds: 30, Thresholds: th}, nil
}

// handshake is the fake summary provider: every Get announces a
// housekeeping cycle on ready and waits for the driver's summary; a closed
// summaries channel ends the manager's goroutine.
type handshake struct {
	ready     chan struct{}
	summaries chan *statsapi.Summary
}

func (h *handshake) Get(context.Context, bool) (*statsapi.Summary, error) {
	h.ready <- struct{}{}
	s, ok := <-h.summaries
	if !ok {
		// The run is over: end the housekeeping loop, which has no other
		// way out.
		runtime.Goexit()
	}
	return s, nil
}

func (h *handshake) GetCPUAndMemoryStats(ctx context.Context) (*statsapi.Summary, error) {
	return h.Get(ctx, false)
}

type noImageFs struct{}

func (noImageFs) HasDedicatedImageFs(context.Context) (bool, error)     { return false, nil }
func (noImageFs) HasDedicatedContainerFs(context.Context) (bool, error) { return false, nil }

type noGC struct{}

func (noGC) DeleteUnusedImages(context.Context) error        { return nil }
func (noGC) DeleteAllUnusedContainers(context.Context) error { return nil }

// Upstream runs the real eviction manager on c: one housekeeping cycle
// per summary, the clock moving 10 s between quiet cycles and 1 s for an
// evicted pod's cleanup, until the pods are all evicted or the node has
// been quiet for longer than the soft grace period.
func (c *Case) Upstream() (Result, error) {
	cfg, err := c.ThresholdConfig()
	if err != nil {
		return Result{}, err
	}
	clock := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	h := &handshake{ready: make(chan struct{}), summaries: make(chan *statsapi.Summary)}
	kills := make(chan int)
	var mu sync.Mutex
	pods := make([]*v1.Pod, len(c.Pods))
	for i, p := range c.Pods {
		pods[i] = c.pod(i, p)
	}
	active := slices.Clone(pods)
	kill := func(pod *v1.Pod, _ bool, _ *int64, _ func(*v1.PodStatus)) error {
		kills <- slices.Index(pods, pod)
		return nil
	}
	m, _ := eviction.NewManager(h, cfg, kill, noGC{}, noGC{}, &record.FakeRecorder{},
		&v1.ObjectReference{Kind: "Node", Name: "node"}, clock, false)
	podFunc := func() []*v1.Pod {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(active)
	}
	m.Start(context.Background(), noImageFs{}, podFunc, func(*v1.Pod) bool { return true }, time.Nanosecond)
	defer close(h.summaries)

	var r Result
	grace, _ := time.ParseDuration(c.Grace)
	quietFor := grace + 3*housekeeping
	// stuck bounds every wait for the manager's goroutine in real time.
	const stuck = 20 * time.Second
	if err := wait(h.ready, stuck); err != nil {
		return r, err
	}
	var quiet time.Duration
	for range maxCycles {
		// The fake clock's tickers stay waiters after Stop: count the new
		// ones from here.
		waiters := clock.Waiters()
		mu.Lock()
		h.summaries <- c.summary(clock.Now(), active, pods)
		mu.Unlock()
		select {
		case p := <-kills:
			r.Evicted = append(r.Evicted, p)
			// waitForPodsCleanup polls every second from a timer and a
			// ticker: the pod is gone at the first tick.
			for deadline := time.Now().Add(stuck); clock.Waiters() < waiters+2; runtime.Gosched() {
				if time.Now().After(deadline) {
					return r, fmt.Errorf("the eviction manager does not wait for the evicted pod's cleanup")
				}
			}
			mu.Lock()
			active = slices.DeleteFunc(active, func(q *v1.Pod) bool { return q == pods[p] })
			mu.Unlock()
			r.Condition = r.Condition || m.IsUnderMemoryPressure()
			clock.Step(time.Second)
			if err := wait(h.ready, stuck); err != nil {
				return r, err
			}
			quiet = 0
		case <-h.ready:
			r.Condition = r.Condition || m.IsUnderMemoryPressure()
			if quiet >= quietFor {
				return r, nil
			}
			clock.Step(housekeeping)
			quiet += housekeeping
		case <-time.After(stuck):
			return r, fmt.Errorf("the eviction manager's housekeeping cycle does not end")
		}
	}
	return r, fmt.Errorf("the eviction manager did not settle in %d cycles", maxCycles)
}

// pod is pod i as the API server stores it.
func (c *Case) pod(i int, p Pod) *v1.Pod {
	res := v1.ResourceRequirements{}
	if p.Request > 0 {
		res.Requests = v1.ResourceList{v1.ResourceMemory: *resource.NewQuantity(p.Request*mi, resource.BinarySI)}
	}
	if p.Limit > 0 {
		res.Limits = v1.ResourceList{v1.ResourceMemory: *resource.NewQuantity(p.Limit*mi, resource.BinarySI)}
	}
	prio := p.Priority
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: PodName(i), Namespace: "default", UID: types.UID(PodName(i))},
		Spec:       v1.PodSpec{Priority: &prio, Containers: []v1.Container{{Name: "c", Resources: res}}},
		Status:     v1.PodStatus{Phase: v1.PodRunning},
	}
}

const mi = 1 << 20

// summary is the node's stats at now: the daemons use the reservations,
// the pods' cgroup is limited to capacity less them.
func (c *Case) summary(now time.Time, active, pods []*v1.Pod) *statsapi.Summary {
	t := metav1.NewTime(now)
	var used uint64
	var podStats []statsapi.PodStats
	for _, pod := range active {
		i := slices.Index(pods, pod)
		u := uint64(c.Pods[i].Usage * mi)
		used += u
		podStats = append(podStats, statsapi.PodStats{
			PodRef: statsapi.PodReference{Name: pod.Name, Namespace: pod.Namespace, UID: string(pod.UID)},
			Memory: &statsapi.MemoryStats{Time: t, WorkingSetBytes: &u},
		})
	}
	capacity := uint64(c.Capacity * mi)
	limit := uint64((c.Capacity - c.Reserved) * mi)
	nodeWS := uint64(c.Reserved*mi) + used
	nodeAvail, podsAvail := sub0(capacity, nodeWS), sub0(limit, used)
	return &statsapi.Summary{
		Node: statsapi.NodeStats{
			NodeName: "node",
			Memory:   &statsapi.MemoryStats{Time: t, AvailableBytes: &nodeAvail, WorkingSetBytes: &nodeWS},
			SystemContainers: []statsapi.ContainerStats{{Name: statsapi.SystemContainerPods,
				Memory: &statsapi.MemoryStats{Time: t, AvailableBytes: &podsAvail, WorkingSetBytes: &used}}},
		},
		Pods: podStats,
	}
}

func sub0(a, b uint64) uint64 {
	if b > a {
		return 0
	}
	return a - b
}

// wait receives from ch, or fails after d of real time.
func wait(ch <-chan struct{}, d time.Duration) error {
	select {
	case <-ch:
		return nil
	case <-time.After(d):
		return fmt.Errorf("the eviction manager's housekeeping loop does not start a cycle")
	}
}
