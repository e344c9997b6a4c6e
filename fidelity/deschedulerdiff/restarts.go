package deschedulerdiff

import (
	"context"
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"sigs.k8s.io/descheduler/pkg/framework/plugins/removepodshavingtoomanyrestarts"
	frameworktypes "sigs.k8s.io/descheduler/pkg/framework/types"

	"github.com/kivi-go/kivi/model"
)

// The Deschedule plugin RemovePodsHavingTooManyRestarts. Its snapshots'
// pods carry container and init-container restarts (a few, or around and
// above what the model's pod slot holds, model.MaxRestarts), reported as
// the kubelet reports them: a Running pod that restarted sometimes waits
// in CrashLoopBackOff, and is then not Ready; a Pending pod (its init
// containers not done, its app container waiting in PodInitializing)
// whose init container restarted shows it waiting in CrashLoopBackOff,
// terminated with an error before its restart, or running again. The
// model cannot tell when a cycle falls in a back-off: it branches over it
// for every pod that ran and restarted, and, with includingInitContainers,
// for every Pending pod whose init containers restarted.

// restartCounts are the restarts drawn for a pod's containers: a few,
// and around and above what the model's pod slot holds
// (model.MaxRestarts).
var restartCounts = []int{0, 0, 1, 2, 3, 5, 254, 255, 256, 300, 1000}

// drawRestarts draws the pods' restarts and back-offs and the plugin's
// args.
func drawRestarts(t *rapid.T, s *Snapshot) {
	for i := range s.Pods {
		p := &s.Pods[i]
		// A Pending pod's app container has not started (the phase turns
		// Running once it has): only its init containers may have
		// restarted, as often as not here so that Pending pods show it.
		if p.Running {
			p.Restarts = rapid.SampledFrom(restartCounts).Draw(t, "restarts")
		}
		if oneIn(t, 4, "initRestarts") || !p.Running && !p.Terminating && rapid.Bool().Draw(t, "pendingInitRestarts") {
			p.InitRestarts = rapid.IntRange(1, 3).Draw(t, "initRestartCount")
		}
		// Only a container that crashed twice waits in a back-off:
		// restartCount is 1 or more then. A Pending pod's init container
		// that restarted waits in its back-off, or has just failed again
		// (terminated with an error), or runs again.
		p.CrashLoop = p.Running && !p.Terminating && p.Restarts > 0 && rapid.Bool().Draw(t, "crashLoop")
		if !p.Running && !p.Terminating && p.InitRestarts > 0 {
			switch rapid.IntRange(0, 2).Draw(t, "initState") {
			case 0:
				p.InitCrashLoop = true
			case 1:
				p.InitFailed = true
			}
		}
	}
	pr := &s.Profile
	pr.Deschedule.Enabled = []model.DeschedulePlugin{model.RemovePodsHavingTooManyRestarts}
	a := &pr.Deschedule.TooManyRestarts
	a.PodRestartThreshold = rapid.SampledFrom([]int32{1, 1, 2, 3, 4, 100, 255, 256, 300}).Draw(t, "podRestartThreshold")
	a.IncludingInitContainers = oneIn(t, 3, "includingInitContainers")
	if oneIn(t, 3, "states") {
		a.States = drawSubset(t, model.TooManyRestartsStates(), 1, 2)
	}
	// The plugin's labelSelector, over the pods' labels as the
	// DefaultEvictor's is drawn (podSelectors).
	if oneIn(t, 4, "restartsLabelSelector") {
		pr.Deschedule.TooManyRestartsFilter.LabelSelector = new(cloneLabels(rapid.SampledFrom(podSelectors).Draw(t, "restartsSelector")))
	}
}

// restartsOf is the pod's restart count as the plugin with args a reads
// it.
func restartsOf(p Pod, a *model.TooManyRestartsArgs) int {
	if a.IncludingInitContainers {
		return p.Restarts + p.InitRestarts
	}
	return p.Restarts
}

// restartsStatus writes a pod's container statuses as the kubelet
// reports them: its restarts on its container and its init container's,
// and the crash it shows: the CrashLoopBackOff wait, or the OOM kill
// before the restart. Until the crashed container runs again it is not
// ready, and neither is the pod (its Ready condition, apiPod), which is
// what the disruption controller and the Eviction API read. A Pending
// pod's app container waits in PodInitializing while its init container
// waits in CrashLoopBackOff, is terminated with an error before its
// restart, or runs; a Running pod's init container has completed.
func restartsStatus(pod *v1.Pod, p Pod) {
	if p.Restarts == 0 && p.InitRestarts == 0 && !p.CrashLoop && !p.OOMKilled {
		return
	}
	cs := v1.ContainerStatus{Name: "c", RestartCount: int32(p.Restarts), Ready: p.ready()}
	switch {
	case p.CrashLoop:
		cs.State.Waiting = &v1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}
	case p.OOMKilled:
		cs.State.Terminated = &v1.ContainerStateTerminated{Reason: "OOMKilled", ExitCode: model.OOMKilledExitCode}
	case p.Running:
		cs.State.Running = &v1.ContainerStateRunning{}
	default:
		cs.State.Waiting = &v1.ContainerStateWaiting{Reason: "PodInitializing"}
	}
	pod.Status.ContainerStatuses = []v1.ContainerStatus{cs}
	if p.InitRestarts > 0 {
		init := v1.ContainerStatus{Name: "init", RestartCount: int32(p.InitRestarts)}
		switch {
		case p.InitCrashLoop:
			init.State.Waiting = &v1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}
		case p.InitFailed:
			init.State.Terminated = &v1.ContainerStateTerminated{Reason: "Error", ExitCode: 1}
		case p.Running:
			init.State.Terminated = &v1.ContainerStateTerminated{Reason: "Completed"}
			init.Ready = true
		default:
			init.State.Running = &v1.ContainerStateRunning{}
		}
		pod.Status.InitContainerStatuses = []v1.ContainerStatus{init}
	}
}

// crashing reports whether the Running pod's container shows a crash: it
// waits in CrashLoopBackOff or is terminated OOMKilled, so it is not
// ready, and neither is the pod.
func (p Pod) crashing() bool { return p.Running && (p.CrashLoop || p.OOMKilled) }

// ready reports whether the pod is Ready: Running, its container
// running, and its readiness probe passing.
func (p Pod) ready() bool { return p.Running && !p.crashing() && !p.NotReady }

// newRestartsPlugin builds RemovePodsHavingTooManyRestarts with its
// constructor from the profile's args, validated by its own validation.
func (s *Snapshot) newRestartsPlugin(ctx context.Context, h frameworktypes.Handle) (frameworktypes.Plugin, error) {
	d := &s.Profile.Deschedule
	a := d.TooManyRestarts
	args := &removepodshavingtoomanyrestarts.RemovePodsHavingTooManyRestartsArgs{Namespaces: namespaces(d.TooManyRestartsFilter),
		LabelSelector:       apiSelector(d.TooManyRestartsFilter.LabelSelector),
		PodRestartThreshold: a.PodRestartThreshold, IncludingInitContainers: a.IncludingInitContainers, States: a.States}
	if err := removepodshavingtoomanyrestarts.ValidateRemovePodsHavingTooManyRestartsArgs(args); err != nil {
		return nil, err
	}
	return removepodshavingtoomanyrestarts.New(ctx, args, h)
}

// fmtRestarts writes the plugin's args.
func fmtRestarts(b *strings.Builder, s *Snapshot) {
	if s.Plugin != TooManyRestarts {
		return
	}
	d := &s.Profile.Deschedule
	a := d.TooManyRestarts
	fmt.Fprintf(b, ", podRestartThreshold %d, includingInitContainers %v, states %v", a.PodRestartThreshold, a.IncludingInitContainers, a.States)
	fmtFilter(b, d.TooManyRestartsFilter)
	if sel := d.TooManyRestartsFilter.LabelSelector; sel != nil {
		fmt.Fprintf(b, ", labelSelector %s", fmtSelector(*sel))
	}
}
