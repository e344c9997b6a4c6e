package model

import (
	"fmt"
	"strings"
)

// Jobs (batch/v1) share the deployment slots, as StatefulSets do: a
// Deployment whose Kind is KindJob is a Job, with its spec.parallelism in
// DeploymentState.Replicas, its pod template in RS[0] (a Job has no
// revisions), its other spec fields in the configuration
// (DeploymentConfig.Job) and its status in DeploymentState.JobSucceeded,
// JobFailed and JobFinished. The Job controller (controllers/job) keeps
// min(parallelism, completions − succeeded) pods active; a Running pod
// completes through an environment step (events, jobcompletion.go), which
// counts it and frees its slot at once: the pod object of a Succeeded pod
// is not kept (docs/divergences.md, "Job controller"). Job pods of one
// template have no identity, but an Indexed Job's pods carry their
// completion index (indexedjob.go): pods of one index are
// interchangeable for the symmetry reduction. HPAs and kubectl scale, restart, undo and apply never target
// a Job (build and Compile refuse it); PodDisruptionBudgets, quotas,
// spread constraints, affinity, preemption and the descheduler see its
// pods as any owned pod.

// KindJob is a batch/v1 Job.
const KindJob = KindStatefulSet + 1

// JobSpec is the part of a Job's spec a Deployment lacks; parallelism is
// the workload's replicas (DeploymentState.Replicas).
type JobSpec struct {
	// Completions is spec.completions; WorkQueue says it is not set (the
	// Job is complete once some pod succeeded and none is active).
	Completions int
	WorkQueue   bool
	// BackoffLimit is spec.backoffLimit (default 6): the Job fails once
	// more pods than that failed.
	BackoffLimit int
	// Suspend is spec.suspend: the controller creates no pod.
	Suspend bool
	// ReplaceOnlyFailed is podReplacementPolicy Failed (the default with
	// a podFailurePolicy): a pod with a deletion timestamp counts neither
	// as active nor as failed until it is gone, and is not replaced
	// before.
	ReplaceOnlyFailed bool
	// PodFailurePolicy: spec.podFailurePolicy is set, with the rules
	// PodFailureRules[:PodFailureRuleCount] (podfailurepolicy.go; an
	// array, so that configurations compare with ==).
	PodFailurePolicy    bool
	PodFailureRuleCount uint8
	PodFailureRules     [MaxPodFailurePolicyRules]PodFailurePolicyRule
	// Indexed is completionMode Indexed: each pod carries a completion
	// index (indexedjob.go). PerIndex says backoffLimitPerIndex is set,
	// BackoffLimitPerIndex is its value, and MaxFailedIndexes is
	// maxFailedIndexes (-1: not set).
	Indexed              bool
	PerIndex             bool
	BackoffLimitPerIndex int
	MaxFailedIndexes     int
	// SuccessRules[:SuccessRuleCount] are an Indexed Job's
	// successPolicy rules (jobsuccesspolicy.go); none: no successPolicy.
	SuccessRuleCount uint8
	SuccessRules     [MaxSuccessPolicyRules]SuccessPolicyRule
}

// JobCondition is a Job's finished condition (JobFinished).
type JobCondition uint8

const (
	// JobRunning: not finished.
	JobRunning JobCondition = iota
	// JobComplete: the Complete condition (enough pods succeeded).
	JobComplete
	// JobFailedBackoff: the Failed condition, reason
	// BackoffLimitExceeded.
	JobFailedBackoff
	// JobFailureTarget: the interim FailureTarget condition, reason
	// PodFailurePolicy (a FailJob rule matched a failed pod): the Job is
	// not finished yet; its sync deletes its active pods and writes
	// JobFailedPodFailurePolicy once none terminates.
	JobFailureTarget
	// JobFailedPodFailurePolicy: the Failed condition, reason
	// PodFailurePolicy.
	JobFailedPodFailurePolicy
	// JobFailureTargetFailedIndexes and JobFailedIndexes: the interim
	// FailureTarget and the Failed condition, reason FailedIndexes (an
	// Indexed Job with backoffLimitPerIndex whose indexes all succeeded
	// or failed, some failed).
	JobFailureTargetFailedIndexes
	JobFailedIndexes
	// JobFailureTargetMaxFailedIndexes and JobFailedMaxFailedIndexes: the
	// same, reason MaxFailedIndexesExceeded (more failed indexes than
	// maxFailedIndexes).
	JobFailureTargetMaxFailedIndexes
	JobFailedMaxFailedIndexes
	// JobFailedOther: the Failed condition for a reason the model's Job
	// controller never writes (DeadlineExceeded: the model has no clock),
	// read from a running cluster's Job (JobStatusDecl).
	JobFailedOther
	// JobSuccessCriteriaMet: the interim SuccessCriteriaMet condition,
	// reason SuccessPolicy (a successPolicy rule matched,
	// jobsuccesspolicy.go): the Job is not finished yet; its sync deletes
	// its active pods and writes JobComplete once none terminates.
	JobSuccessCriteriaMet
)

// Finished reports whether c is Complete or Failed (util.IsJobFinished).
func (c JobCondition) Finished() bool {
	return c != JobRunning && !c.FailureTarget() && c != JobSuccessCriteriaMet
}

// FailureTarget reports whether c is an interim FailureTarget condition,
// which the Job's sync turns into Failed (Enacted) once no pod of the Job
// terminates.
func (c JobCondition) FailureTarget() bool {
	return c == JobFailureTarget || c == JobFailureTargetFailedIndexes || c == JobFailureTargetMaxFailedIndexes
}

// Enacted is the Failed condition a FailureTarget turns into (c itself
// for any other condition).
func (c JobCondition) Enacted() JobCondition {
	switch c {
	case JobFailureTarget:
		return JobFailedPodFailurePolicy
	case JobFailureTargetFailedIndexes:
		return JobFailedIndexes
	case JobFailureTargetMaxFailedIndexes:
		return JobFailedMaxFailedIndexes
	}
	return c
}

func (c JobCondition) String() string {
	switch c {
	case JobRunning:
		return "running"
	case JobComplete:
		return "Complete"
	case JobFailedBackoff:
		return "Failed (BackoffLimitExceeded)"
	case JobFailureTarget:
		return "FailureTarget (PodFailurePolicy)"
	case JobFailedPodFailurePolicy:
		return "Failed (PodFailurePolicy)"
	case JobFailureTargetFailedIndexes:
		return "FailureTarget (FailedIndexes)"
	case JobFailedIndexes:
		return "Failed (FailedIndexes)"
	case JobFailureTargetMaxFailedIndexes:
		return "FailureTarget (MaxFailedIndexesExceeded)"
	case JobFailedMaxFailedIndexes:
		return "Failed (MaxFailedIndexesExceeded)"
	case JobFailedOther:
		return "Failed (before the start, for a reason the model does not write)"
	case JobSuccessCriteriaMet:
		return "SuccessCriteriaMet (SuccessPolicy)"
	}
	return fmt.Sprintf("JobCondition(%d)", uint8(c))
}

// MaxJobCount bounds a Job's completions and backoffLimit in the model:
// its counters are int16 in the state.
const MaxJobCount = 1 << 14

// JobDecl is what a DeploymentDecl of kind Job declares beyond its
// parallelism (DeploymentDecl.Replicas).
type JobDecl struct {
	// Completions is spec.completions; nil: not set (work queue).
	Completions *int `json:"completions,omitempty"`
	// BackoffLimit is spec.backoffLimit; nil: 6.
	BackoffLimit *int `json:"backoffLimit,omitempty"`
	Suspend      bool `json:"suspend,omitempty"`
	// PodFailurePolicy is spec.podFailurePolicy; nil: not set.
	PodFailurePolicy *PodFailurePolicyDecl `json:"podFailurePolicy,omitempty"`
	// PodReplacementPolicy: "" (the API server's default: Failed with a
	// podFailurePolicy, else TerminatingOrFailed), TerminatingOrFailed or
	// Failed.
	PodReplacementPolicy string `json:"podReplacementPolicy,omitempty"`
	// CompletionMode: "" or NonIndexed, or Indexed (completions
	// required).
	CompletionMode string `json:"completionMode,omitempty"`
	// BackoffLimitPerIndex and MaxFailedIndexes are spec fields of
	// Indexed Jobs; nil: not set.
	BackoffLimitPerIndex *int `json:"backoffLimitPerIndex,omitempty"`
	MaxFailedIndexes     *int `json:"maxFailedIndexes,omitempty"`
	// SuccessPolicy is an Indexed Job's spec.successPolicy; nil: not set.
	SuccessPolicy *SuccessPolicyDecl `json:"successPolicy,omitempty"`
	// Status is the Job's progress at the start (a running cluster's
	// Job, jobstatus.go); nil: none, as a Job just created.
	Status *JobStatusDecl `json:"status,omitempty"`
}

// IsJob reports whether workload d is a Job.
func (u *Universe) IsJob(d int) bool {
	return d >= 0 && d < len(u.Deployments) && u.Deployments[d].Kind == KindJob
}

// jobConfig is a Job's configuration, with the API server's defaults
// (pkg/apis/batch/v1/defaults.go: backoffLimit 6; parallelism 1 is the
// reader's) and validation (completions and backoffLimit ≥ 0).
func jobConfig(template int, d *JobDecl) (DeploymentConfig, error) {
	cfg := DeploymentConfig{PodTemplate: template, Job: JobSpec{WorkQueue: true, BackoffLimit: 6}}
	if d == nil {
		return cfg, nil
	}
	if d.Completions != nil {
		if *d.Completions < 0 || *d.Completions > MaxJobCount {
			return cfg, fmt.Errorf("completions %d (accepted: 0..%d in the model): %w", *d.Completions, MaxJobCount, ErrInvalid)
		}
		cfg.Job.Completions, cfg.Job.WorkQueue = *d.Completions, false
	}
	if d.BackoffLimit != nil {
		if *d.BackoffLimit < 0 || *d.BackoffLimit > MaxJobCount {
			return cfg, fmt.Errorf("backoffLimit %d (accepted: 0..%d in the model): %w", *d.BackoffLimit, MaxJobCount, ErrInvalid)
		}
		cfg.Job.BackoffLimit = *d.BackoffLimit
	}
	cfg.Job.Suspend = d.Suspend
	if err := indexedJobConfig(&cfg.Job, d); err != nil {
		return cfg, err
	}
	if err := successPolicyConfig(&cfg.Job, d); err != nil {
		return cfg, err
	}
	return cfg, podFailurePolicyConfig(&cfg.Job, d)
}

// checkJobDecl refuses what a Job cannot have: a rollout strategy, an HPA
// (the HPA has no scale subresource to read on a Job).
func checkJobDecl(d *DeploymentDecl) error {
	if d.HPA != nil {
		return fmt.Errorf("hpa: a Job cannot be the target of an HPA (accepted: HPAs of Deployments and StatefulSets): %w", ErrInvalid)
	}
	if d.Strategy != "" || d.MaxSurge != "" || d.MaxUnavailable != "" || d.PodManagementPolicy != "" || d.Partition != 0 || d.OrdinalsStart != 0 {
		return fmt.Errorf("strategy, maxSurge, maxUnavailable, podManagementPolicy, partition and ordinalsStart are not Job fields (accepted for kind Job: replicas as parallelism, job): %w", ErrInvalid)
	}
	return checkIndexedCronJob(d)
}

// JobCounts are a Job's pods and status as its controller derives them
// at a sync.
type JobCounts struct {
	// Active: Pending or Running pods.
	Active int
	// Succeeded is status.succeeded; Failed counts the failed pods the
	// status counted (JobFailed) and those still present: Failed ones
	// (but those a podFailurePolicy ignores) and, with
	// podReplacementPolicy TerminatingOrFailed, Terminating ones (deleted,
	// not by the Job controller: upstream counts a pod with a deletion
	// timestamp as failed then).
	Succeeded, Failed int
	// Terminating counts the pods with a deletion timestamp: the Job's
	// final condition waits for them to go, and with podReplacementPolicy
	// Failed they are not replaced before.
	Terminating int
	// FailJob: a Failed pod present matches a FailJob rule of the
	// podFailurePolicy (upstream's getFailJobMessage).
	FailJob bool
	// Failing: the Job's failure is decided (its FailureTarget, a FailJob
	// match or backoffLimit exceeded) while it runs. With
	// podReplacementPolicy Failed its terminating pods then count as
	// failed (in Failed), as upstream counts every pod not terminal once
	// the Job is failing, but those its podFailurePolicy ignores.
	Failing bool
}

// CountJob derives Job d's counts. A Failed pod present is one that
// failed before its containers ran (the kubelet's admission rejection),
// so no onExitCodes rule matches it and its podFailurePolicy outcome is
// known (PodFailureOutcomes).
func CountJob(u *Universe, s *State, d int) JobCounts {
	ds := &s.Deps[d]
	spec := &u.Configs[ds.Config].Job
	c := JobCounts{Succeeded: int(ds.JobSucceeded), Failed: int(ds.JobFailed)}
	owner := uint8(d + 1)
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Owner != owner {
			continue
		}
		switch p.Phase {
		case Pending, Running:
			c.Active++
		case Terminating:
			if !spec.ReplaceOnlyFailed {
				c.Failed++
			}
			c.Terminating++
		case Failed:
			if !spec.PodFailurePolicy {
				c.Failed++
				continue
			}
			var buf [1]PodFailureOutcome
			switch spec.PodFailureOutcomes(p.Failure&^ContainersRan, buf[:0])[0].Action {
			case PodFailureIgnore:
			case PodFailureFailJob:
				c.Failed++
				c.FailJob = true
			default:
				c.Failed++
			}
		}
	}
	// A Job whose successPolicy matched is not failing, whatever failed
	// since: upstream counts its deleted pods as failed only when the
	// finished condition is not SuccessCriteriaMet.
	c.Failing = ds.JobFinished != JobSuccessCriteriaMet && (ds.JobFinished.FailureTarget() || c.FailJob || c.Failed > spec.BackoffLimit)
	if c.Failing && spec.ReplaceOnlyFailed && c.Terminating > 0 {
		for i := range s.Pods {
			if p := &s.Pods[i]; p.Owner == owner && p.Phase == Terminating && !ignoredWhileFailing(spec, p) {
				c.Failed++
			}
		}
	}
	return c
}

// ignoredWhileFailing: the podFailurePolicy of a failing Job ignores its
// terminating pod p, which has no exit code yet (upstream's
// matchPodFailurePolicy on a pod that is not terminal).
func ignoredWhileFailing(spec *JobSpec, p *PodState) bool {
	if !spec.PodFailurePolicy {
		return false
	}
	var buf [1]PodFailureOutcome
	return spec.PodFailureOutcomes(p.Failure&^ContainersRan, buf[:0])[0].Action == PodFailureIgnore
}

// ForgetJobPod is called before the slot of pod i is freed by whoever
// removes it (the kubelet, the pod garbage collector): when it is a
// Terminating or Failed pod of a Job, its failure, which CountJob read
// from the pod, stays counted in the Job's status (upstream's tracking
// finalizer keeps the pod until the Job controller counted it); with a
// podFailurePolicy, as its outcome says (failedPodGone, a choice when
// exit codes decide it). forced: the pod garbage collector deletes it
// from a node that is not Ready (ForceDeletedOutOfService).
func ForgetJobPod(tx *Tx, s *State, i int, forced bool) {
	p := &s.Pods[i]
	if !tx.U.HasJobs || p.Owner == 0 || (p.Phase != Terminating && p.Phase != Failed) {
		return
	}
	if d := int(p.Owner) - 1; tx.U.IsJob(d) {
		// The Job as it was before this step removed any of its pods
		// (Tx.beforeJobPodRemovals): taken now, before this removal's
		// effects, whichever of failedPodGone's paths reads it.
		tx.beforeJobPodRemovals(s)
		failedPodGone(tx, s, d, i, forced)
	}
}

// describeJob renders Job d's status in Describe: its failed count is
// CountJob's (the counted failures and the failed pods present).
func describeJob(b *strings.Builder, u *Universe, s *State, d int) {
	ds := &s.Deps[d]
	cfg := &u.Configs[ds.Config].Job
	if cfg.WorkQueue {
		b.WriteString(" completions unset")
	} else {
		fmt.Fprintf(b, " completions %d", cfg.Completions)
	}
	fmt.Fprintf(b, " succeeded %d failed %d", ds.JobSucceeded, CountJob(u, s, d).Failed)
	if cfg.Suspend {
		b.WriteString(" suspended")
	}
	if ds.JobFinished != JobRunning {
		fmt.Fprintf(b, " %s", ds.JobFinished)
	}
}

// checkJobEvents refuses the commands that cannot act on a Job: kubectl
// scale of a Job (kubectl has no scaler for Jobs), rollout restart and
// undo (a Job has no rollout). kubectl create of a Job is accepted.
func checkJobEvents(u *Universe) error {
	if !u.HasJobs {
		return nil
	}
	for i := range u.Events {
		e := &u.Events[i]
		switch e.Kind {
		case RolloutRestart, RolloutUndo:
			if u.IsJob(e.Deployment) {
				return fmt.Errorf("events[%d] (%s): %s is a Job, which has no rollout (accepted: a Deployment or StatefulSet): %w", i, e.Kind, u.Deployments[e.Deployment].Name, ErrInvalid)
			}
		case ScaleDeployment:
			// A range that covers a Job explores kubectl's failure on it
			// (events/scale.go); naming a Job alone is a mistake.
			if e.MaxDeployment == e.Deployment+1 && u.IsJob(e.Deployment) {
				return fmt.Errorf("events[%d] (%s): %s is a Job, which kubectl scale does not scale (accepted: a Deployment or StatefulSet): %w", i, e.Kind, u.Deployments[e.Deployment].Name, ErrInvalid)
			}
		}
	}
	return nil
}
