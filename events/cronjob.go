package events

import (
	"github.com/kivi-go/kivi/model"
)

// CronJobSchedule is a CronJob's schedule firing: the CronJob controller
// (pkg/controller/cronjob, syncCronJob) creates a Job of its jobTemplate,
// or, by its concurrencyPolicy, skips the firing (Forbid while a run is
// active) or deletes the active run first (Replace). The model has no
// clock, so the schedule's times are not modelled: once the cluster is
// quiescent (ControllerAndHPAQueuesEmpty, as every other environment
// event), any CronJob that is not suspended may fire, one per step; a
// schedule fires every minute at most and the controllers react in
// milliseconds, so a firing in the middle of a controller's work is a
// rare interleaving left out (docs/divergences.md, "CronJob
// controller").
//
// A run is one of the CronJob's run slots (model.CronJob.Runs): the
// firing starts the new run in a slot whose run is not active. With
// Allow, a firing while each slot's run is active needs more runs than
// the model holds, and reaches model.BoundCronJobRuns.
type CronJobSchedule struct{ unanalysed }

var _ model.Process = CronJobSchedule{}

func (CronJobSchedule) Name() string { return "cronJobSchedule" }

func (CronJobSchedule) Enabled(u *model.Universe, s *model.State) bool {
	if len(u.CronJobs) == 0 || !atRest(s) {
		return false
	}
	for c := range u.CronJobs {
		if fires(u, s, c) {
			return true
		}
	}
	return false
}

// fires reports whether CronJob c's schedule may fire: not suspended;
// with Forbid, no run active; with Allow under the assumption
// model.Options.CronJobRuns, fewer runs active than it allows.
func fires(u *model.Universe, s *model.State, c int) bool {
	cj := &u.CronJobs[c]
	switch {
	case cj.Suspend:
		return false
	case cj.Policy == model.ForbidConcurrent:
		return model.FreeCronJobRun(u, s, c) >= 0
	case cj.Policy == model.AllowConcurrent && u.Options.CronJobRuns > 0:
		return model.ActiveCronJobRuns(u, s, c) < u.Options.CronJobRuns
	}
	return true
}

// Step fires one CronJob; which one is a choice.
func (CronJobSchedule) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	var candidates []int
	for c := range u.CronJobs {
		if fires(u, s, c) {
			candidates = append(candidates, c)
		}
	}
	if len(candidates) == 0 {
		return
	}
	c := candidates[tx.Choose(len(candidates))]
	cj := &u.CronJobs[c]
	d := model.FreeCronJobRun(u, s, c)
	if d < 0 {
		switch cj.Policy {
		case model.ReplaceConcurrent:
			d = cj.Runs[0]
			replaceRun(tx, s, d)
		default:
			if tx.Tracing() {
				tx.Log(cronJobComponent, "CronJob %s fires while its %d runs are active (model bound: %d concurrent runs with concurrencyPolicy Allow)", cj.Name, len(cj.Runs), len(cj.Runs))
			}
			s.ReachBound(model.BoundCronJobRuns)
			return
		}
	}
	model.StartJobRun(s, d)
	if tx.Tracing() {
		tx.Log(cronJobComponent, "Created job %s (CronJob %s, concurrencyPolicy %s)", u.Deployments[d].Name, cj.Name, cj.Policy)
	}
}

// cronJobComponent names the CronJob controller in trace lines.
const cronJobComponent = "cronjob-controller"

// replaceRun deletes the active run in slot d as concurrencyPolicy
// Replace does: the Job is deleted with background propagation, and the
// garbage collector deletes its active pods.
func replaceRun(tx *model.Tx, s *model.State, d int) {
	owner := uint8(d + 1)
	if tx.Tracing() {
		tx.Log(cronJobComponent, "Deleted job %s (concurrencyPolicy Replace)", tx.U.Deployments[d].Name)
	}
	for i := range s.Pods {
		if p := &s.Pods[i]; p.Owner == owner && p.Active() {
			s.MarkTerminating(i)
			if tx.Tracing() {
				tx.Log(cronJobComponent, "Deleted pod: %s (job %s replaced)", s.PodRef(i), tx.U.Deployments[d].Name)
			}
		}
	}
}

var _ model.Footprinter = CronJobSchedule{}

// DisabledBy: the phase, then quiescence, then the runs' workloads.
func (CronJobSchedule) DisabledBy(_ *model.Universe, s *model.State) model.Footprint {
	var rest model.Footprint
	rest.AddDeployments()
	return atRestDisabledBy(s, rest)
}
