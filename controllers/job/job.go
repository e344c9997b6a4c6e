// Package job is the model's Job controller (pkg/controller/job, v1.36):
// one sync of one Job, which the deployment controller's process runs for
// the Jobs among the workloads of its queue (controllers/deployment), as
// it does for StatefulSets, so every wake-up of a workload (a pod
// deleted, evicted, rejected or completed) reaches it unchanged.
//
// A sync is upstream's syncJob on the model's pods (NonIndexed
// completion mode; an Indexed Job's pods carry their completion index, its
// sync creates the pending indexes and judges its failed indexes,
// indexed.go and model/indexedjob.go):
//
//   - a finished Job (Complete or Failed) is left alone;
//   - failed pods are counted (model.CountJob: the failures already
//     counted, plus the Failed pods and the pods with a deletion
//     timestamp, as podReplacementPolicy TerminatingOrFailed counts
//     them); more than backoffLimit of them fail the Job
//     (BackoffLimitExceeded), whose active pods are deleted, once no pod
//     of it is terminating: upstream's interim FailureTarget, which the
//     model does not keep (each sync meanwhile finds the same failures,
//     its terminating pods counted, and deletes no more);
//   - otherwise manageJob: the Job wants min(parallelism, completions −
//     succeeded) active pods (parallelism while no pod succeeded when
//     completions is unset, then none more), none while suspended, and
//     creates the missing ones, each through the quota admission
//     (model.QuotaRefusal: the slow-start batch stops at its first
//     refusal and the Job is retried once the quota has room);
//   - the Job is Complete once succeeded ≥ completions (some pod
//     succeeded, with completions unset), no pod is active and no pod of
//     it is terminating: upstream writes the interim SuccessCriteriaMet
//     condition first and Complete at a sync that finds no terminating
//     pod (enactJobFinished); the model keeps no interim condition, as
//     nothing it changes is read (the Job wants no pod any more), and the
//     kubelet's removal of the last terminating pod queues the Job.
//
// An Indexed Job's successPolicy (model/jobsuccesspolicy.go) is tried
// after the failure criteria: a match sets the interim SuccessCriteriaMet,
// the sync deletes the Job's active pods and writes Complete once none
// terminates; from then on no failure criterion is evaluated.
//
// With a podFailurePolicy (model/podfailurepolicy.go) a failed pod's
// outcome is decided as it leaves (model.ForgetJobPod): a FailJob match
// sets the interim FailureTarget, which the sync keeps until no pod of the
// Job terminates (its active pods deleted) and then turns into Failed
// (reason PodFailurePolicy). With podReplacementPolicy Failed (the
// default with a policy) a terminating pod is replaced only once gone.
//
// With a static spec the active pods never exceed what the Job wants,
// so the surplus deletion of manageJob (parallelism lowered) is never
// needed. A Running pod succeeds through an environment step
// (events/jobcompletion.go), which counts it in status.succeeded and
// frees its slot. Trace lines use the kube-controller-manager event
// texts ("Created pod: …", "Job completed").
package job

import (
	"strconv"

	"github.com/kivi-go/kivi/model"
)

// Component names the controller in trace lines.
const Component = "job-controller"

// Sync is one sync of Job d. It never asks to be synced again at once:
// every change it waits for (a pod completing, failing or going away)
// queues the Job.
func Sync(tx *model.Tx, s *model.State, d int) (requeue bool) {
	u := tx.U
	ds := &s.Deps[d]
	if !ds.Active || ds.JobFinished.Finished() {
		return false
	}
	spec := &u.Configs[ds.Config].Job
	name := u.Deployments[d].Name
	c := model.CountJob(u, s, d)
	if ds.JobFinished == model.JobSuccessCriteriaMet {
		// The pre-existing SuccessCriteriaMet comes first: no failure
		// criterion is evaluated any more.
		enactSuccessPolicy(tx, s, d, c)
		return false
	}
	if c.FailJob && ds.JobFinished == model.JobRunning {
		// getFailJobMessage: a Failed pod present matches a FailJob rule.
		// It comes before the success criteria, met or not: the pod failed
		// while active (rejected at admission, evicted by the kubelet), so
		// no sync before its failure found them met (no pod active), and
		// upstream's SuccessCriteriaMet, which would stop the policy, is
		// not there yet.
		ds.JobFinished = model.JobFailureTarget
		if tx.Tracing() {
			tx.Log(Component, "Job %s reached its failure target: PodFailurePolicy: a failed pod matches a FailJob rule of the podFailurePolicy", name)
		}
	}
	var ic model.IndexCounts
	if spec.Indexed {
		ic = model.CountIndexes(u, s, d)
		if ds.JobFinished == model.JobRunning && c.Failed <= spec.BackoffLimit {
			indexedFailureTarget(tx, spec, ds, name, &ic)
		}
	}
	if ds.JobFinished.FailureTarget() {
		// A FailJob rule matched (model.ForgetJobPod), or the indexes
		// failed the Job: the FailureTarget condition is kept until
		// Failed, as upstream's is.
		if terminating := c.Terminating + deleteActivePods(tx, s, d); terminating > 0 {
			if tx.Tracing() {
				tx.Log(Component, "Job %s has its failure target: %s: Failed waits for %s to terminate", name, failureReason(ds.JobFinished), terminatingPods(terminating))
			}
			return false
		}
		ds.JobFinished = ds.JobFinished.Enacted()
		if tx.Tracing() {
			tx.Log(Component, "Job %s failed: %s", name, failureMessage(ds.JobFinished))
		}
		return false
	}
	if c.Failed > spec.BackoffLimit {
		if terminating := c.Terminating + deleteActivePods(tx, s, d); terminating > 0 {
			// Upstream's interim FailureTarget: the Job creates nothing
			// more, and the next sync, which the removal of its last
			// terminating pod queues, finds it failed again.
			if tx.Tracing() {
				tx.Log(Component, "Job %s reached its failure target: BackoffLimitExceeded (%d failed pods, backoffLimit %d): Failed waits for %s to terminate", name, c.Failed, spec.BackoffLimit, terminatingPods(terminating))
			}
			return false
		}
		ds.JobFinished = model.JobFailedBackoff
		if tx.Tracing() {
			tx.Log(Component, "Job %s failed: BackoffLimitExceeded: Job has reached the specified backoff limit (%d failed pods, backoffLimit %d)", name, c.Failed, spec.BackoffLimit)
		}
		return false
	}
	if rule := successPolicyMatch(spec, ds); rule >= 0 {
		ds.JobFinished = model.JobSuccessCriteriaMet
		if tx.Tracing() {
			tx.Log(Component, "Job %s met its success criteria: SuccessPolicy: rule %d of the successPolicy matches (%s succeeded)", name, rule, indexes(ic.Succeeded))
		}
		enactSuccessPolicy(tx, s, d, c)
		return false
	}
	active := c.Active
	if !spec.Suspend {
		want := WantActive(spec, int(ds.Replicas), c)
		if spec.ReplaceOnlyFailed {
			// podReplacementPolicy Failed: a terminating pod is replaced
			// once it is gone.
			want -= c.Terminating
		}
		if diff := want - active; diff > 0 {
			var indexes []int
			if spec.Indexed {
				// firstPendingIndexes: the lowest indexes not succeeded,
				// failed, active or (podReplacementPolicy Failed)
				// terminating.
				indexes = ic.Pending(nil, diff)
				diff = len(indexes)
			}
			active += createPods(tx, s, d, diff, indexes)
		}
	}
	c.Active = active
	complete := successCriteriaMet(spec, c)
	if complete && c.Terminating > 0 {
		if tx.Tracing() {
			tx.Log(Component, "Job %s met its success criteria (%d succeeded): Complete waits for %s to terminate", name, c.Succeeded, terminatingPods(c.Terminating))
		}
		complete = false
	}
	if complete {
		ds.JobFinished = model.JobComplete
		if tx.Tracing() {
			tx.Log(Component, "Job %s completed (%d succeeded)", name, c.Succeeded)
		}
	}
	return false
}

// successCriteriaMet: enough pods succeeded (some, with completions
// unset) and none is active.
func successCriteriaMet(spec *model.JobSpec, c model.JobCounts) bool {
	if c.Active > 0 {
		return false
	}
	if spec.WorkQueue {
		return c.Succeeded > 0
	}
	return c.Succeeded >= spec.Completions
}

// indexes is "1 index" or "n indexes".
func indexes(n int) string {
	if n == 1 {
		return "1 index"
	}
	return strconv.Itoa(n) + " indexes"
}

// terminatingPods is "1 pod" or "n pods".
func terminatingPods(n int) string {
	if n == 1 {
		return "1 pod"
	}
	return strconv.Itoa(n) + " pods"
}

// WantActive is manageJob's wantActive: with completions set, the
// remaining completions up to parallelism; unset, parallelism until some
// pod succeeded, then the pods still active.
func WantActive(spec *model.JobSpec, parallelism int, c model.JobCounts) int {
	parallelism = max(0, parallelism)
	if spec.WorkQueue {
		if c.Succeeded > 0 {
			return c.Active
		}
		return parallelism
	}
	return max(0, min(parallelism, spec.Completions-c.Succeeded))
}

// createPods creates n pods of Job d, each in the lowest free pod slot,
// and returns how many it created: the slow-start batch stops at a quota
// refusal, and with no free slot the model reaches its pod-slot bound.
func createPods(tx *model.Tx, s *model.State, d, n int, indexes []int) int {
	u := tx.U
	ds := &s.Deps[d]
	tmpl := int(ds.RS[0].Template) - 1
	t := &u.Templates[tmpl]
	name := u.Deployments[d].Name
	for k := range n {
		if msg, refused := u.QuotaRefusal(s, tmpl); refused {
			// Retried once the quota admits the pod
			// (controllers/deployment quota.go).
			ds.QuotaRefused = uint8(tmpl + 1)
			if tx.Tracing() {
				tx.Log(Component, "Error creating: pods is forbidden: %s (job %s)", msg, name)
			}
			return k
		}
		j := model.FreeSlot(s)
		if j < 0 {
			if tx.Tracing() {
				tx.Log(Component, "No free pod slot for a new pod of job %s (model bound: %d pod slots)", name, len(s.Pods))
			}
			s.ReachBound(model.BoundPodSlots)
			return k
		}
		p := model.PodState{Phase: model.Pending, Owner: uint8(d + 1), Template: uint8(tmpl)}
		if indexes != nil {
			// The completion index (annotation, label, hostname).
			p.Ordinal = uint8(indexes[k] + 1)
		}
		p.CPU, p.Memory = t.StartUsage()
		if len(t.Pattern) > 0 {
			p.CPU, p.Pattern = int32(t.Pattern[0].CPU), 1
		}
		s.Pods[j] = p
		if tx.Tracing() {
			if indexes != nil {
				tx.Log(Component, "Created pod: %s (job %s, index %d)", s.PodRef(j), name, indexes[k])
			} else {
				tx.Log(Component, "Created pod: %s (job %s)", s.PodRef(j), name)
			}
		}
		if t.NodeName != 0 {
			// spec.nodeName bypasses the scheduler.
			s.Pods[j].Node = uint16(t.NodeName)
			s.Enqueue(model.KubeletQueue, j)
			model.AssignedPodAdded(u, s, j)
			continue
		}
		s.Enqueue(model.SchedulerQueue, j)
	}
	return n
}

// deleteActivePods is deleteActivePods of a failed Job: every Pending or
// Running pod becomes Terminating, for the kubelet to remove. It returns
// how many it deleted.
func deleteActivePods(tx *model.Tx, s *model.State, d int) (deleted int) {
	return deletePods(tx, s, d, "failed")
}

// deletePods is deleteActivePods of a Job that failed or met its success
// policy (why, for the trace).
func deletePods(tx *model.Tx, s *model.State, d int, why string) (deleted int) {
	owner := uint8(d + 1)
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Owner != owner || !p.Active() {
			continue
		}
		s.MarkTerminating(i)
		deleted++
		if tx.Tracing() {
			tx.Log(Component, "Deleted pod: %s (job %s %s)", s.PodRef(i), tx.U.Deployments[d].Name, why)
		}
	}
	return deleted
}
