package deschedulerdiff

import (
	"context"
	"fmt"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"pgregory.net/rapid"

	"sigs.k8s.io/descheduler/pkg/framework/plugins/podlifetime"
	"sigs.k8s.io/descheduler/pkg/framework/plugins/removefailedpods"
	frameworktypes "sigs.k8s.io/descheduler/pkg/framework/types"

	"github.com/kivi-go/kivi/model"
)

// The Deschedule plugins RemoveFailedPods and PodLifeTime. Their
// snapshots have pods in every phase the model has: Failed ones (rejected
// at admission, with a status reason the real pod carries and the model
// does not keep), Pending ones bound to a node (some of them showing
// ContainerCreating, which the model cannot tell), Running and
// terminating ones, each of some age (which the model does not know
// either). The model branches over what it cannot tell, so each real run
// must be one of its branches.

// maxLifetimePods bounds these snapshots' pods: with an age limit
// PodLifeTime branches over every set of matching pods.
const maxLifetimePods = 8

// ages are the pods' ages, limits the plugins' age limits drawn.
var (
	ages   = []int{5, 600, 7200, 200000}
	limits = []uint{0, 60, 3600, 86400}
)

// possibleReasons are the admission reasons the kubelet can give pod p
// (model: admissionReasons): the pod count when every pod slot fits on
// its node and still exceeds it, cpu and memory when requested, and
// NodeAffinity when its zone nodeSelector fails its node.
func (s *Snapshot) possibleReasons(p Pod) []string {
	d, n := s.Deps[p.Dep], s.Nodes[p.Node]
	var out []string
	if len(s.Pods)+1 > n.MaxPods {
		out = append(out, "OutOfpods")
	}
	if d.MilliCPU > 0 {
		out = append(out, "OutOfcpu")
	}
	if d.MemMiB > 0 {
		out = append(out, "OutOfmemory")
	}
	if d.ZoneSelector != "" && d.ZoneSelector != n.Zone {
		out = append(out, "NodeAffinity")
	}
	return out
}

// drawLifetime draws the pods' phases, reasons and ages and the plugin's
// args.
func drawLifetime(t *rapid.T, s *Snapshot) {
	for i := range s.Pods {
		p := &s.Pods[i]
		p.AgeSeconds = rapid.SampledFrom(ages).Draw(t, "age")
		if rs := s.possibleReasons(*p); len(rs) > 0 && !p.Terminating && rapid.IntRange(0, 2).Draw(t, "failed") == 0 {
			p.Failed, p.Running, p.Reason = true, false, rapid.SampledFrom(rs).Draw(t, "reason")
		}
		if !p.Running && !p.Failed && !p.Terminating {
			p.Creating = rapid.Bool().Draw(t, "creating")
		}
		if s.Plugin == PodLifeTime && p.Running && !p.Terminating && oneIn(t, 3, "restarted") {
			// A container OOM-killed (the model's only crash) and
			// restarted: it may show the kill until its restart, or
			// from its second crash on the back-off before it.
			p.Restarts = rapid.IntRange(1, 3).Draw(t, "lifetimeRestarts")
			switch rapid.IntRange(0, 2).Draw(t, "crash") {
			case 1:
				p.OOMKilled = true
			case 2:
				p.CrashLoop = true
			}
		}
	}
	pr := &s.Profile
	pr.EvictFailedBarePods = oneIn(t, 4, "evictFailedBarePods")
	reasons := []string{"OutOfpods", "OutOfcpu", "OutOfmemory", "NodeAffinity", "CrashLoopBackOff"}
	switch s.Plugin {
	case RemoveFailedPods:
		pr.Deschedule.Enabled = []model.DeschedulePlugin{model.RemoveFailedPods}
		a := &pr.Deschedule.FailedPods
		if rapid.Bool().Draw(t, "reasons") {
			a.Reasons = drawSubset(t, reasons, 1, 3)
		}
		if oneIn(t, 8, "exitCodes") {
			a.ExitCodes = []int32{1}
		}
		if oneIn(t, 6, "excludeOwnerKinds") {
			a.ExcludeOwnerKinds = []string{rapid.SampledFrom([]string{"ReplicaSet", "Job"}).Draw(t, "ownerKind")}
		}
		a.MinPodLifetimeSeconds = rapid.SampledFrom(limits).Draw(t, "minPodLifetimeSeconds")
	case PodLifeTime:
		pr.Deschedule.Enabled = []model.DeschedulePlugin{model.PodLifeTime}
		a := &pr.Deschedule.PodLifeTime
		if rapid.Bool().Draw(t, "maxAge") {
			a.MaxPodLifeTimeSeconds = ptr.To(rapid.SampledFrom(limits).Draw(t, "maxPodLifeTimeSeconds"))
		}
		if a.MaxPodLifeTimeSeconds == nil || rapid.Bool().Draw(t, "states") {
			a.States = drawSubset(t, []string{"Running", "Pending", "Failed", "ContainerCreating", "NodeAffinity", "CrashLoopBackOff", "OOMKilled", "Succeeded"}, 1, 3)
		}
		if oneIn(t, 10, "exitCodes") {
			a.ExitCodes = []int32{rapid.SampledFrom([]int32{1, model.OOMKilledExitCode}).Draw(t, "exitCode")}
		}
		switch rapid.IntRange(0, 7).Draw(t, "ownerKinds") {
		case 0:
			a.IncludeOwnerKinds = []string{rapid.SampledFrom([]string{"ReplicaSet", "Job"}).Draw(t, "ownerKind")}
		case 1:
			a.ExcludeOwnerKinds = []string{rapid.SampledFrom([]string{"ReplicaSet", "Job"}).Draw(t, "ownerKind")}
		}
	}
}

// lifetimeStatus writes what the real pod shows of p beyond its phase:
// a Failed pod's phase and reason (its containers never ran: no
// container status), a creating pod's waiting container, its age.
func lifetimeStatus(pod *v1.Pod, p Pod) {
	pod.CreationTimestamp = metav1.NewTime(time.Now().Add(-time.Duration(p.AgeSeconds) * time.Second))
	if p.Failed {
		pod.Status.Phase, pod.Status.Reason = v1.PodFailed, p.Reason
		pod.Status.Message = "Pod was rejected: " + p.Reason
	}
	if p.Creating {
		pod.Status.ContainerStatuses = []v1.ContainerStatus{{Name: "c", State: v1.ContainerState{
			Waiting: &v1.ContainerStateWaiting{Reason: "ContainerCreating"}}}}
	}
}

// newLifetimePlugin builds RemoveFailedPods or PodLifeTime with its
// constructor from the profile's args, validated by its own validation.
func (s *Snapshot) newLifetimePlugin(ctx context.Context, h frameworktypes.Handle) (frameworktypes.Plugin, error) {
	d := &s.Profile.Deschedule
	if s.Plugin == RemoveFailedPods {
		a := d.FailedPods
		args := &removefailedpods.RemoveFailedPodsArgs{Namespaces: namespaces(d.FailedPodsFilter), Reasons: a.Reasons,
			ExitCodes: a.ExitCodes, ExcludeOwnerKinds: a.ExcludeOwnerKinds, IncludingInitContainers: a.IncludingInitContainers,
			MinPodLifetimeSeconds: ptr.To(a.MinPodLifetimeSeconds)}
		if err := removefailedpods.ValidateRemoveFailedPodsArgs(args); err != nil {
			return nil, err
		}
		return removefailedpods.New(ctx, args, h)
	}
	a := d.PodLifeTime
	args := &podlifetime.PodLifeTimeArgs{Namespaces: namespaces(d.PodLifeTimeFilter), MaxPodLifeTimeSeconds: a.MaxPodLifeTimeSeconds,
		States: a.States, ExitCodes: a.ExitCodes}
	if len(a.IncludeOwnerKinds)+len(a.ExcludeOwnerKinds) > 0 {
		args.OwnerKinds = &podlifetime.OwnerKinds{Include: a.IncludeOwnerKinds, Exclude: a.ExcludeOwnerKinds}
	}
	if err := podlifetime.ValidatePodLifeTimeArgs(args); err != nil {
		return nil, err
	}
	return podlifetime.New(ctx, args, h)
}

// fmtLifetime writes the Deschedule plugins' args.
func fmtLifetime(b *strings.Builder, s *Snapshot) {
	d := &s.Profile.Deschedule
	switch s.Plugin {
	case RemoveFailedPods:
		a := d.FailedPods
		fmt.Fprintf(b, ", reasons %v, exitCodes %v, excludeOwnerKinds %v, minPodLifetimeSeconds %d, evictFailedBarePods %v",
			a.Reasons, a.ExitCodes, a.ExcludeOwnerKinds, a.MinPodLifetimeSeconds, s.Profile.EvictFailedBarePods)
		fmtFilter(b, d.FailedPodsFilter)
	case PodLifeTime:
		a := d.PodLifeTime
		if a.MaxPodLifeTimeSeconds != nil {
			fmt.Fprintf(b, ", maxPodLifeTimeSeconds %d", *a.MaxPodLifeTimeSeconds)
		}
		fmt.Fprintf(b, ", states %v, exitCodes %v, ownerKinds include %v exclude %v", a.States, a.ExitCodes, a.IncludeOwnerKinds, a.ExcludeOwnerKinds)
		fmtFilter(b, d.PodLifeTimeFilter)
	}
}
