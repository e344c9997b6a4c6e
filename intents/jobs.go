package intents

import (
	"fmt"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// replicaIntents read a workload's replica count or rollout, which a Job
// has not: its pods run to completion.
var replicaIntents = map[string]bool{
	"no_oscillation_replica_num": true, "replica_num_always_meet_min": true, "replica_num_always_meet_exp": true,
	"rollout_completes": true, "pod_balance_across_node": true, "no_scaling_loop": true,
}

// checkKind refuses an intent about a workload of the wrong kind:
// job_completes of anything but a Job, a replica intent of a Job.
func checkKind(u *model.Universe, user string, d int, p Params) error {
	param := "deployment"
	if _, byPos := p["did"]; byPos {
		param = "did"
	}
	name := u.Deployments[d].Name
	switch {
	case user == "job_completes" && u.CronJobOf(d) >= 0:
		return cronJobCompletes(u, u.CronJobOf(d))
	case user == "job_completes" && !u.IsJob(d):
		return &ParamError{Param: param, Msg: fmt.Sprintf("%s %s is not a Job (accepted: a Job: %s)", u.KindWord(d, false), name, kindNames(u, true))}
	case replicaIntents[user] && u.IsJob(d):
		return &ParamError{Param: param, Msg: fmt.Sprintf("job %s has no replica count or rollout for %s to judge: its pods run to completion (accepted: a Deployment or StatefulSet: %s; for a Job, job_completes)", name, user, kindNames(u, false))}
	}
	return nil
}

// kindNames lists the workloads that are Jobs of their own, not
// CronJobs' runs (jobs), or that are not Jobs.
func kindNames(u *model.Universe, jobs bool) string {
	var out []string
	for d := range u.Deployments {
		if u.IsJob(d) == jobs && (!jobs || u.CronJobOf(d) < 0) {
			out = append(out, u.Deployments[d].Name)
		}
	}
	if len(out) == 0 {
		return "none in the input"
	}
	if len(out) > 10 {
		return strings.Join(out[:10], ", ") + fmt.Sprintf(", … (%d in all)", len(out))
	}
	return strings.Join(out, ", ")
}

// jobWatch is job_completes: when the cluster stops, Job d has the
// Complete condition. Nothing is judged before the cluster stops; a Job
// that was never created is not judged.
type jobWatch struct{ d int }

func (w jobWatch) Size() int { return 0 }

func (w jobWatch) Observe(*model.Universe, *model.State, []byte, []model.Mark) string { return "" }

func (w jobWatch) Stuck(u *model.Universe, s *model.State, _ []byte) string {
	ds := &s.Deps[w.d]
	if !ds.Active || ds.JobFinished == model.JobComplete {
		return ""
	}
	name := u.Deployments[w.d].Name
	spec := &u.Configs[ds.Config].Job
	c := model.CountJob(u, s, w.d)
	switch {
	case ds.JobFinished == model.JobFailedPodFailurePolicy:
		return fmt.Sprintf("job %s failed: PodFailurePolicy (a failed pod matched a FailJob rule; %d failed pods, backoffLimit %d)", name, c.Failed, spec.BackoffLimit)
	case ds.JobFinished == model.JobFailureTarget:
		return fmt.Sprintf("job %s is failing: PodFailurePolicy (a failed pod matched a FailJob rule); Failed waits for %d pods terminating", name, c.Terminating)
	case ds.JobFinished == model.JobFailedIndexes || ds.JobFinished == model.JobFailedMaxFailedIndexes ||
		ds.JobFinished == model.JobFailureTargetFailedIndexes || ds.JobFinished == model.JobFailureTargetMaxFailedIndexes:
		return indexedJobFailure(u, s, w.d, c)
	case ds.JobFinished == model.JobSuccessCriteriaMet:
		return fmt.Sprintf("job %s met its success policy (SuccessCriteriaMet), but Complete waits for %d pods terminating", name, c.Terminating)
	case ds.JobFinished == model.JobFailedOther:
		return fmt.Sprintf("job %s had failed at the start (its status's Failed condition, of a reason the model does not write such as DeadlineExceeded; %d succeeded, %d failed pods)", name, c.Succeeded, c.Failed)
	case ds.JobFinished == model.JobFailedBackoff:
		return fmt.Sprintf("job %s failed: BackoffLimitExceeded (%d failed pods, backoffLimit %d)", name, c.Failed, spec.BackoffLimit)
	case c.Failed > spec.BackoffLimit:
		// Upstream's FailureTarget without Failed.
		return fmt.Sprintf("job %s is failing: BackoffLimitExceeded (%d failed pods, backoffLimit %d); Failed waits for %d pods terminating", name, c.Failed, spec.BackoffLimit, c.Terminating)
	case spec.Suspend:
		return fmt.Sprintf("job %s stopped suspended with %d succeeded", name, c.Succeeded)
	}
	pods := model.Counts(s, w.d)
	want := "completions unset"
	if !spec.WorkQueue {
		want = fmt.Sprintf("%d completions", spec.Completions)
	}
	met := c.Succeeded >= spec.Completions
	if spec.WorkQueue {
		met = c.Succeeded > 0
	}
	if met && pods.Running+pods.Pending == 0 && c.Terminating > 0 {
		// Upstream's SuccessCriteriaMet without Complete.
		return fmt.Sprintf("job %s stopped with %d succeeded of %s and %d pods terminating: Complete waits for them", name, c.Succeeded, want, c.Terminating)
	}
	return fmt.Sprintf("job %s stopped with %d succeeded of %s: %d pods running, %d pending", name, c.Succeeded, want, pods.Running, pods.Pending)
}
