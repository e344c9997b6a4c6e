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
// pods carry container and init-container restarts (a few, or more than
// the model's pod slot holds, model.MaxRestarts), and a Running pod that
// restarted sometimes waits in CrashLoopBackOff, which the model cannot
// tell: it branches over it for every pod that ran and restarted.

// restartCounts are the restarts drawn for a pod's containers.
var restartCounts = []int{0, 0, 1, 2, 3, 5, 300}

// drawRestarts draws the pods' restarts and back-offs and the plugin's
// args.
func drawRestarts(t *rapid.T, s *Snapshot) {
	for i := range s.Pods {
		p := &s.Pods[i]
		p.Restarts = rapid.SampledFrom(restartCounts).Draw(t, "restarts")
		if oneIn(t, 4, "initRestarts") {
			p.InitRestarts = rapid.IntRange(1, 3).Draw(t, "initRestartCount")
		}
		// Only a container that crashed twice waits in a back-off:
		// restartCount is 1 or more then.
		p.CrashLoop = p.Running && !p.Terminating && p.Restarts > 0 && rapid.Bool().Draw(t, "crashLoop")
	}
	pr := &s.Profile
	pr.Deschedule.Enabled = []model.DeschedulePlugin{model.RemovePodsHavingTooManyRestarts}
	a := &pr.Deschedule.TooManyRestarts
	a.PodRestartThreshold = rapid.SampledFrom([]int32{1, 1, 2, 3, 4, 100, 300}).Draw(t, "podRestartThreshold")
	a.IncludingInitContainers = oneIn(t, 3, "includingInitContainers")
	if oneIn(t, 3, "states") {
		a.States = drawSubset(t, model.TooManyRestartsStates(), 1, 2)
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

// restartsStatus writes a pod's container statuses: its restarts on its
// container and its init container's, and the crash it shows: the
// CrashLoopBackOff wait, or the OOM kill before the restart.
func restartsStatus(pod *v1.Pod, p Pod) {
	if p.Restarts == 0 && p.InitRestarts == 0 && !p.CrashLoop && !p.OOMKilled {
		return
	}
	cs := v1.ContainerStatus{Name: "c", RestartCount: int32(p.Restarts), Ready: p.Running && !p.CrashLoop && !p.OOMKilled}
	switch {
	case p.CrashLoop:
		cs.State.Waiting = &v1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}
	case p.OOMKilled:
		cs.State.Terminated = &v1.ContainerStateTerminated{Reason: "OOMKilled", ExitCode: model.OOMKilledExitCode}
	case p.Running:
		cs.State.Running = &v1.ContainerStateRunning{}
	}
	pod.Status.ContainerStatuses = []v1.ContainerStatus{cs}
	if p.InitRestarts > 0 {
		pod.Status.InitContainerStatuses = []v1.ContainerStatus{{Name: "init", RestartCount: int32(p.InitRestarts),
			State: v1.ContainerState{Terminated: &v1.ContainerStateTerminated{Reason: "Completed"}}}}
	}
}

// newRestartsPlugin builds RemovePodsHavingTooManyRestarts with its
// constructor from the profile's args, validated by its own validation.
func (s *Snapshot) newRestartsPlugin(ctx context.Context, h frameworktypes.Handle) (frameworktypes.Plugin, error) {
	d := &s.Profile.Deschedule
	a := d.TooManyRestarts
	args := &removepodshavingtoomanyrestarts.RemovePodsHavingTooManyRestartsArgs{Namespaces: namespaces(d.TooManyRestartsFilter),
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
}
