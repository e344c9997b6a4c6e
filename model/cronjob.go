package model

import (
	"fmt"
	"strings"
)

// CronJobs (batch/v1) are modelled on the model's Jobs: a CronJob holds
// one Job workload slot per run it may have active at once (its runs,
// CronJob.Runs), each a Job of the CronJob's jobTemplate that is not
// created at the start. A run slot holds successive runs: a firing of the
// schedule (events, cronjob.go) starts a new run in a slot whose run is
// not active (never started, Complete or Failed) by resetting its status,
// so a CronJob's history costs no state. The model has no clock: the
// schedule fires at any moment the cluster is quiet, never while
// suspended (docs/divergences.md, "CronJob controller").
//
// Forbid and Replace need one slot (no run overlaps another); Allow has
// MaxCronJobRuns, and a firing while every run is active reaches
// BoundCronJobRuns.

// ConcurrencyPolicy is a CronJob's spec.concurrencyPolicy.
type ConcurrencyPolicy uint8

const (
	// AllowConcurrent (the default): runs may overlap.
	AllowConcurrent ConcurrencyPolicy = iota
	// ForbidConcurrent: a firing while a run is active is skipped.
	ForbidConcurrent
	// ReplaceConcurrent: a firing while a run is active deletes that run
	// (its pods) and starts a new one.
	ReplaceConcurrent
)

func (p ConcurrencyPolicy) String() string {
	switch p {
	case AllowConcurrent:
		return "Allow"
	case ForbidConcurrent:
		return "Forbid"
	case ReplaceConcurrent:
		return "Replace"
	}
	return fmt.Sprintf("ConcurrencyPolicy(%d)", uint8(p))
}

// ParseConcurrencyPolicy reads spec.concurrencyPolicy ("" is Allow, the
// API server's default).
func ParseConcurrencyPolicy(s string) (ConcurrencyPolicy, error) {
	switch s {
	case "", "Allow":
		return AllowConcurrent, nil
	case "Forbid":
		return ForbidConcurrent, nil
	case "Replace":
		return ReplaceConcurrent, nil
	}
	return 0, fmt.Errorf("concurrencyPolicy %q (accepted: Allow, Forbid, Replace): %w", s, ErrInvalid)
}

// MaxCronJobRuns is how many runs of a CronJob with concurrencyPolicy
// Allow the model holds at once.
const MaxCronJobRuns = 2

// CronJobDecl marks a workload of kind Job as a run slot of a CronJob;
// the slots of one CronJob share its Name and declaration.
type CronJobDecl struct {
	Name              string `json:"name"`
	ConcurrencyPolicy string `json:"concurrencyPolicy,omitempty"`
	Suspend           bool   `json:"suspend,omitempty"`
}

// CronJob is a CronJob of the universe.
type CronJob struct {
	Name    string
	Policy  ConcurrencyPolicy
	Suspend bool
	// Runs are the CronJob's run slots (workload indices).
	Runs []int
}

// CronJobOf is the CronJob (index into Universe.CronJobs) whose run
// workload d is, or -1.
func (u *Universe) CronJobOf(d int) int {
	if d < 0 || d >= len(u.Deployments) {
		return -1
	}
	return u.Deployments[d].CronJob - 1
}

// compileCronJobs groups the run slots the deployments declare into
// u.CronJobs. A run is a Job that no command creates: it exists once
// the schedule fires.
func (u *Universe) compileCronJobs(decls []DeploymentDecl) error {
	index := map[string]int{}
	for d := range decls {
		cd := decls[d].CronJob
		if cd == nil {
			continue
		}
		where := func(err error) error { return fmt.Errorf("deployments[%d] (%s).cronJob: %w", d, decls[d].Name, err) }
		if u.Deployments[d].Kind != KindJob {
			return where(fmt.Errorf("only a workload of kind Job is a CronJob's run (accepted: kind Job): %w", ErrInvalid))
		}
		if decls[d].Created == nil || *decls[d].Created {
			return where(fmt.Errorf("a CronJob's run exists once its schedule fires (accepted: created: false): %w", ErrInvalid))
		}
		policy, err := ParseConcurrencyPolicy(cd.ConcurrencyPolicy)
		if err != nil {
			return where(err)
		}
		c, ok := index[cd.Name]
		if !ok {
			c = len(u.CronJobs)
			index[cd.Name] = c
			u.CronJobs = append(u.CronJobs, CronJob{Name: cd.Name, Policy: policy, Suspend: cd.Suspend})
		}
		cj := &u.CronJobs[c]
		if cj.Policy != policy || cj.Suspend != cd.Suspend {
			return where(fmt.Errorf("CronJob %s: its runs declare different concurrencyPolicy or suspend (accepted: the same for every run): %w", cd.Name, ErrInvalid))
		}
		cj.Runs = append(cj.Runs, d)
		u.Deployments[d].CronJob = c + 1
	}
	for _, cj := range u.CronJobs {
		limit := 1
		if cj.Policy == AllowConcurrent {
			limit = MaxCronJobRuns
		}
		if len(cj.Runs) > limit {
			return fmt.Errorf("CronJob %s: %d runs with concurrencyPolicy %s (accepted: at most %d): %w", cj.Name, len(cj.Runs), cj.Policy, limit, ErrInvalid)
		}
	}
	return nil
}

// ActiveCronJobRuns counts the active runs of CronJob c.
func ActiveCronJobRuns(u *Universe, s *State, c int) int {
	n := 0
	for _, d := range u.CronJobs[c].Runs {
		if ds := &s.Deps[d]; ds.Active && !ds.JobFinished.Finished() {
			n++
		}
	}
	return n
}

// CronJobRunNames lists the run workloads of CronJob c.
func (u *Universe) CronJobRunNames(c int) string {
	var names []string
	for _, d := range u.CronJobs[c].Runs {
		names = append(names, u.Deployments[d].Name)
	}
	return strings.Join(names, ", ")
}

// FreeCronJobRun is the first run slot of CronJob c whose run is not
// active (never started, Complete or Failed), or -1.
func FreeCronJobRun(u *Universe, s *State, c int) int {
	for _, d := range u.CronJobs[c].Runs {
		if ds := &s.Deps[d]; !ds.Active || ds.JobFinished.Finished() {
			return d
		}
	}
	return -1
}

// StartJobRun starts a new run of a CronJob in run slot d: the Job is
// created afresh (no pod succeeded, none failed, not finished) and
// queued for its controller. The pods of the slot's previous run that
// are still present (Failed pods the pod garbage collector has not
// removed, Terminating ones) belong to the previous Job: JobFailed starts
// at minus their number, so CountJob counts none of them and
// ForgetJobPod's count as they leave brings it back to zero.
func StartJobRun(s *State, d int) {
	ds := &s.Deps[d]
	ds.Active = true
	ds.JobSucceeded, ds.JobFinished, ds.QuotaRefused = 0, JobRunning, 0
	owner := uint8(d + 1)
	old := 0
	for i := range s.Pods {
		if p := &s.Pods[i]; p.Owner == owner && (p.Phase == Terminating || p.Phase == Failed) {
			old++
		}
	}
	ds.JobFailed = int16(-old)
	s.Enqueue(DeploymentQueue, d)
}

// checkCronJobEvents refuses a command that creates a CronJob's run: its
// schedule does.
func checkCronJobEvents(u *Universe) error {
	if len(u.CronJobs) == 0 {
		return nil
	}
	for i := range u.Events {
		e := &u.Events[i]
		if e.Kind == CreateTargetDeployment && u.CronJobOf(e.Deployment) >= 0 {
			return fmt.Errorf("events[%d] (%s): %s is a run of CronJob %s, which its schedule creates (accepted: a workload that is not a CronJob's run): %w", i, e.Kind, u.Deployments[e.Deployment].Name, u.CronJobs[u.CronJobOf(e.Deployment)].Name, ErrInvalid)
		}
	}
	return nil
}
