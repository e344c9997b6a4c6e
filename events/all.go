package events

import (
	"fmt"

	"github.com/kivi-go/kivi/model"
)

// ForEvent returns the process of u.Events[i]. u must be compiled.
func ForEvent(u *model.Universe, i int, opts ...Option) model.Process {
	if i < 0 || i >= len(u.Events) {
		panic(fmt.Sprintf("events: event %d of %d", i, len(u.Events)))
	}
	c := resolve(opts)
	switch u.Events[i].Kind {
	case model.CPUChange:
		return CPUChange{usageRise: usageRise{event: i}}
	case model.MemoryChange:
		return MemoryChange{usageRise: usageRise{event: i}}
	case model.KernelPanic:
		return KernelPanic{event: i, assert: c.kernelPanicAssert}
	case model.Maintenance:
		return Maintenance{event: i}
	case model.NodeFailure:
		return NodeFailure{event: i}
	case model.CreateTargetDeployment:
		return CreateTargetDeployment{command{i}}
	case model.ApplyDeployment:
		return ApplyDeployment{command{i}}
	case model.CreateDeployment:
		return CreateDeployment{command{i}}
	case model.ScaleDeployment:
		return ScaleDeployment{command{i}}
	case model.RolloutRestart:
		return RolloutRestart{command{i}}
	case model.RolloutUndo:
		return RolloutUndo{command{i}}
	case model.RolloutPause:
		return RolloutPause{command{i}}
	case model.RolloutResume:
		return RolloutResume{command{i}}
	case model.Drain:
		return Drain{event: i}
	case model.DeleteNode:
		return DeleteNode{event: i}
	}
	panic(fmt.Sprintf("events: event %d has unknown kind %s", i, u.Events[i].Kind))
}

// All returns every environment process of u: the init process, the CPU
// pattern process when some template has a pattern, the Job pods'
// completions when some workload is a Job, the CronJobs' schedule
// when there are CronJobs, then one process per event in
// u.Events order.
func All(u *model.Universe, opts ...Option) []model.Process {
	ps := []model.Process{Init{}}
	if u.HasPatterns {
		ps = append(ps, CPUPattern{})
	}
	if u.HasJobs {
		ps = append(ps, JobPodCompletion{})
	}
	if len(u.CronJobs) > 0 {
		ps = append(ps, CronJobSchedule{})
	}
	for i := range u.Events {
		ps = append(ps, ForEvent(u, i, opts...))
	}
	return ps
}
