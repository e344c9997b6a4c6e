package model

import "fmt"

// A running cluster's Job starts from its progress (docs/inputs.md,
// "From a running cluster"): JobDecl.Status is what its status says, read
// into the Job's status in the initial state (DeploymentState.JobSucceeded,
// JobFailed, JobFinished and, for an Indexed Job, JobIndexes). A finished
// Job (Complete or Failed) stays a workload of the model, which its
// controller leaves alone and whose job_completes says how it ended; it
// has no pod. A running Job's active pods are initial pods of the node
// groups (an Indexed Job's with their completion index, InitialPod.Ordinal),
// and its first sync creates what remains.

// JobStatusDecl is a Job's status at the start.
type JobStatusDecl struct {
	// Succeeded is status.succeeded (an Indexed Job's: how many indexes
	// completedIndexes holds); Failed is status.failed, the failed pods
	// counted toward backoffLimit.
	Succeeded int `json:"succeeded,omitempty"`
	Failed    int `json:"failed,omitempty"`
	// Condition is the Job's finished or failing condition whose status
	// is "True": "" (none: running), Complete, Failed or FailureTarget;
	// Reason is its reason (BackoffLimitExceeded, PodFailurePolicy,
	// FailedIndexes, MaxFailedIndexesExceeded, DeadlineExceeded, …).
	Condition string `json:"condition,omitempty"`
	Reason    string `json:"reason,omitempty"`
	// CompletedIndexes and FailedIndexes are an Indexed Job's
	// status.completedIndexes and status.failedIndexes (the latter with
	// backoffLimitPerIndex only), as index lists.
	CompletedIndexes []int `json:"completedIndexes,omitempty"`
	FailedIndexes    []int `json:"failedIndexes,omitempty"`
}

// JobStatusCondition is the model's condition for a status's condition
// and reason. A FailureTarget of reason BackoffLimitExceeded is running: the
// model keeps no interim condition for it, and its sync finds the failed
// count beyond backoffLimit again. A FailureTarget of a reason the model
// does not write (DeadlineExceeded) is read as its Failed end: the Job's
// pods are already being deleted.
func JobStatusCondition(st *JobStatusDecl) (JobCondition, error) {
	switch st.Condition {
	case "":
		return JobRunning, nil
	case "Complete":
		return JobComplete, nil
	case "SuccessCriteriaMet":
		// The interim condition of a successPolicy match (or, upstream,
		// of completions reached, which the model keeps none of: its
		// sync finds them reached again).
		if st.Reason == "SuccessPolicy" {
			return JobSuccessCriteriaMet, nil
		}
		return JobRunning, nil
	case "Failed", "FailureTarget":
	default:
		return JobRunning, fmt.Errorf("condition %q (accepted: \"\", Complete, SuccessCriteriaMet, Failed, FailureTarget): %w", st.Condition, ErrInvalid)
	}
	failed := map[string]JobCondition{
		"BackoffLimitExceeded":     JobFailedBackoff,
		"PodFailurePolicy":         JobFailedPodFailurePolicy,
		"FailedIndexes":            JobFailedIndexes,
		"MaxFailedIndexesExceeded": JobFailedMaxFailedIndexes,
	}
	target := map[string]JobCondition{
		"BackoffLimitExceeded":     JobRunning,
		"PodFailurePolicy":         JobFailureTarget,
		"FailedIndexes":            JobFailureTargetFailedIndexes,
		"MaxFailedIndexesExceeded": JobFailureTargetMaxFailedIndexes,
	}
	m := failed
	if st.Condition == "FailureTarget" {
		m = target
	}
	if c, ok := m[st.Reason]; ok {
		return c, nil
	}
	return JobFailedOther, nil
}

// applyJobStatus writes Job d's status at the start into ds: its counts,
// its condition and an Indexed Job's indexes, checked as the API server
// checks a Job's status (pkg/apis/batch/validation validateJobStatus:
// counts ≥ 0, indexes below completions, completedIndexes only for an
// Indexed Job, failedIndexes only with backoffLimitPerIndex and apart from
// completedIndexes).
func applyJobStatus(ds *DeploymentState, spec *JobSpec, st *JobStatusDecl) error {
	if st.Succeeded < 0 || st.Succeeded > MaxJobCount {
		return fmt.Errorf("status.succeeded %d (accepted: 0..%d in the model): %w", st.Succeeded, MaxJobCount, ErrInvalid)
	}
	if st.Failed < 0 || st.Failed > MaxJobCount {
		return fmt.Errorf("status.failed %d (accepted: 0..%d in the model): %w", st.Failed, MaxJobCount, ErrInvalid)
	}
	cond, err := JobStatusCondition(st)
	if err != nil {
		return fmt.Errorf("status.%w", err)
	}
	if !spec.Indexed && (len(st.CompletedIndexes) > 0 || len(st.FailedIndexes) > 0) {
		return fmt.Errorf("status.completedIndexes, failedIndexes: set for a Job of completionMode NonIndexed (accepted: none): %w", ErrInvalid)
	}
	if len(st.FailedIndexes) > 0 && !spec.PerIndex {
		return fmt.Errorf("status.failedIndexes: set without backoffLimitPerIndex (accepted: none): %w", ErrInvalid)
	}
	if spec.Indexed {
		if st.Succeeded != len(st.CompletedIndexes) {
			return fmt.Errorf("status.succeeded %d: an Indexed Job's succeeded counts its completedIndexes, %d of them (accepted: %d): %w", st.Succeeded, len(st.CompletedIndexes), len(st.CompletedIndexes), ErrInvalid)
		}
		for _, l := range []struct {
			field string
			ks    []int
			v     JobIndexState
		}{{"completedIndexes", st.CompletedIndexes, IndexSucceeded}, {"failedIndexes", st.FailedIndexes, IndexFailed}} {
			for _, k := range l.ks {
				if k < 0 || k >= spec.Completions {
					return fmt.Errorf("status.%s: index %d (accepted: 0..%d, below completions): %w", l.field, k, spec.Completions-1, ErrInvalid)
				}
				if JobIndex(ds, k) != 0 {
					return fmt.Errorf("status.%s: index %d is listed twice, or in completedIndexes and failedIndexes (accepted: each index once): %w", l.field, k, ErrInvalid)
				}
				SetJobIndex(ds, spec.Completions, k, l.v)
			}
		}
	}
	ds.JobSucceeded, ds.JobFailed, ds.JobFinished = int16(st.Succeeded), int16(st.Failed), cond
	return nil
}

// jobNeeds is the most pods Job d's spec can ask for at once from its
// status at the start: none once finished.
func jobNeeds(d *DeploymentDecl, parallelism int) int {
	if d.Job == nil || d.Job.Status == nil {
		return parallelism
	}
	if c, err := JobStatusCondition(d.Job.Status); err == nil && c.Finished() {
		return 0
	}
	return parallelism
}

// initialJobPodIndex checks an initial pod of Job d against its status
// and returns its PodState.Ordinal (an Indexed Job's index plus one): a
// finished Job has no pod, and an Indexed Job's pod has an index below
// completions that is neither completed nor failed.
func initialJobPodIndex(ds *DeploymentState, spec *JobSpec, p *InitialPod) (uint8, error) {
	if ds.JobFinished.Finished() {
		return 0, fmt.Errorf("a pod of Job %s, which is %s (accepted: none: a finished Job's pods are gone): %w", p.Deployment, ds.JobFinished, ErrInvalid)
	}
	if !spec.Indexed {
		if p.Ordinal != nil {
			return 0, fmt.Errorf("ordinal: set for a pod of Job %s, of completionMode NonIndexed (accepted: only an Indexed Job's pod has one, its completion index): %w", p.Deployment, ErrInvalid)
		}
		return 0, nil
	}
	if p.Ordinal == nil || p.Count > 1 {
		return 0, fmt.Errorf("ordinal: a pod of Indexed Job %s needs its completion index, one pod each (accepted: 0..%d): %w", p.Deployment, spec.Completions-1, ErrInvalid)
	}
	k := *p.Ordinal
	if k < 0 || k >= spec.Completions {
		return 0, fmt.Errorf("ordinal: completion index %d of a pod of Job %s (accepted: 0..%d, below completions): %w", k, p.Deployment, spec.Completions-1, ErrInvalid)
	}
	switch JobIndex(ds, k) {
	case IndexSucceeded:
		return 0, fmt.Errorf("ordinal: completion index %d of a pod of Job %s is in its completedIndexes (accepted: an index still pending): %w", k, p.Deployment, ErrInvalid)
	case IndexFailed:
		return 0, fmt.Errorf("ordinal: completion index %d of a pod of Job %s is in its failedIndexes (accepted: an index still pending): %w", k, p.Deployment, ErrInvalid)
	}
	return uint8(k + 1), nil
}
