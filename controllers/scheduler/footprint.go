package scheduler

import "github.com/kivi-go/kivi/model"

var _ model.Footprinter = Scheduler{}

// StaticFootprint: a scheduling cycle reads every node and pod (fit and
// spreading), binds pods (pool to node), feeds the kubelet and HPA
// queues, keeps its drain atomic and may fail the state; with priorities
// it may preempt pods.
func (Scheduler) StaticFootprint(u *model.Universe) (reads, writes model.Footprint) {
	var f model.Footprint
	f.AddPods()
	for _, q := range [...]model.Queue{model.SchedulerQueue, model.KubeletQueue, model.HPAQueue} {
		f.AddQueue(q)
	}
	f.Add(model.CompAtomic)
	f.Add(model.CompFailed)
	if u.CanPreempt() {
		// Preemption deletes victims: their owners' deployment queue
		// and the eviction marks.
		f.AddQueue(model.DeploymentQueue)
		f.Add(model.CompMarks)
	}
	return f, f
}

// StepFootprint is the static footprint: a cycle may look at every node.
func (sch Scheduler) StepFootprint(u *model.Universe, _ *model.State) (reads, writes model.Footprint) {
	return sch.StaticFootprint(u)
}

// DisabledBy: the scheduler waits for its queue.
func (Scheduler) DisabledBy(*model.Universe, *model.State) model.Footprint {
	return model.QueueFootprint(model.SchedulerQueue)
}
