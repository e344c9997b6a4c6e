package model

import (
	"fmt"
	"strings"
)

// A Job's podFailurePolicy (batch/v1, pkg/controller/job
// pod_failure_policy.go in v1.36): its rules are matched in order against
// a pod that failed, and the first that matches decides what the failure
// does (FailJob: the Job fails at once; Ignore: it does not count against
// backoffLimit; Count: it does; FailIndex: Indexed Jobs only). A Job with
// a podFailurePolicy replaces only failed pods (podReplacementPolicy
// Failed, the API server's default then): a deleted pod counts neither as
// active nor as failed until it is terminal, and the Job creates no
// replacement meanwhile.
//
// The model reads two facts of a pod (PodFailureFacts, recorded on the pod
// when it is deleted): the DisruptionTarget condition, which the
// scheduler's preemption, the eviction API (kubectl drain, the
// descheduler) and the taint manager add before they delete a pod, and
// whether its containers ran. It has no exit codes: when a pod whose
// containers ran fails, whether an onExitCodes rule matches is the
// environment's choice (PodFailureOutcomes lists the outcomes the rules
// can tell apart). A pod that never ran has no terminated container, so
// no onExitCodes rule matches it (upstream's getMatchingContainerFromList
// skips containers without a terminated state). An onPodConditions
// pattern other than DisruptionTarget True never matches in the model (the
// reader warns).

// PodFailureFacts are what a podFailurePolicy reads of a failed pod.
type PodFailureFacts uint8

const (
	// DisruptionTarget: the pod carries the DisruptionTarget condition
	// (status True).
	DisruptionTarget PodFailureFacts = 1 << iota
	// ContainersRan: the pod was Running when it was deleted, so its
	// containers end with exit codes (the kubelet's, when it kills them,
	// or the application's).
	ContainersRan
	// Preempted: the scheduler deleted the pod as a preemption victim,
	// so its DisruptionTarget condition has the reason
	// PreemptionByScheduler, which the scheduler's
	// PodEligibleToPreemptOthers reads of a terminating pod. Recorded
	// for every victim (MarkPreempted), where DisruptionTarget is
	// recorded only for the pods a podFailurePolicy reads.
	Preempted

	allPodFailureFacts = DisruptionTarget | ContainersRan | Preempted
)

func (f PodFailureFacts) String() string {
	var parts []string
	if f&DisruptionTarget != 0 {
		parts = append(parts, "DisruptionTarget")
	}
	if f&ContainersRan != 0 {
		parts = append(parts, "containers ran")
	}
	if f&Preempted != 0 {
		parts = append(parts, "preempted")
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// PodFailurePolicyAction is a rule's action.
type PodFailurePolicyAction uint8

const (
	// PodFailureCount: the failure counts against backoffLimit (also
	// what a failure no rule matches does).
	PodFailureCount PodFailurePolicyAction = iota
	// PodFailureFailJob: the Job fails at once (reason PodFailurePolicy)
	// and its active pods are deleted.
	PodFailureFailJob
	// PodFailureIgnore: the failure does not count; the pod is replaced.
	PodFailureIgnore
	// PodFailureFailIndex: the pod's index fails (Indexed Jobs with
	// backoffLimitPerIndex, which the reader refuses otherwise).
	PodFailureFailIndex
)

func (a PodFailurePolicyAction) String() string {
	switch a {
	case PodFailureCount:
		return "Count"
	case PodFailureFailJob:
		return "FailJob"
	case PodFailureIgnore:
		return "Ignore"
	case PodFailureFailIndex:
		return "FailIndex"
	}
	return fmt.Sprintf("PodFailurePolicyAction(%d)", uint8(a))
}

// ParsePodFailurePolicyAction reads a rule's action.
func ParsePodFailurePolicyAction(s string) (PodFailurePolicyAction, error) {
	for a := PodFailureCount; a <= PodFailureFailIndex; a++ {
		if a.String() == s {
			return a, nil
		}
	}
	return 0, fmt.Errorf("action %q (accepted: Count, FailIndex, FailJob, Ignore): %w", s, ErrInvalid)
}

// PodFailurePolicyRule is one rule as the model reads it: an onExitCodes
// rule, which may match any pod whose containers ran, or an
// onPodConditions rule, which matches a pod with the DisruptionTarget
// condition when OnDisruptionTarget (a pattern DisruptionTarget True) and
// no pod otherwise.
type PodFailurePolicyRule struct {
	Action             PodFailurePolicyAction
	OnExitCodes        bool
	OnDisruptionTarget bool
}

// PodFailurePolicyRuleDecl declares a rule in a Cluster.
type PodFailurePolicyRuleDecl struct {
	// Action: Count, FailJob, Ignore or FailIndex.
	Action string `json:"action"`
	// OnExitCodes: the rule has an onExitCodes requirement.
	OnExitCodes bool `json:"onExitCodes,omitempty"`
	// OnDisruptionTarget: the rule's onPodConditions has the pattern
	// DisruptionTarget True (without it, an onPodConditions rule).
	OnDisruptionTarget bool `json:"onDisruptionTarget,omitempty"`
}

// PodFailureOutcome is what a pod's failure does: the action of the first
// rule that matched (Rule, from 0), or Count with Rule -1 when none did.
type PodFailureOutcome struct {
	Action PodFailurePolicyAction
	Rule   int
}

// PodFailureOutcomes appends to buf the outcomes a failed pod with facts
// f may have under spec's podFailurePolicy, one per action, each with the
// first rule that can give it: rules are matched in order, a condition
// rule matches or not by the facts, and an onExitCodes rule of a pod
// whose containers ran matches or not as the environment chooses (its
// exit codes are not modelled), so every such rule before the first
// certain match is one outcome more, and none matching one more. Without
// a policy the one outcome is Count.
func (spec *JobSpec) PodFailureOutcomes(f PodFailureFacts, buf []PodFailureOutcome) []PodFailureOutcome {
	buf = buf[:0]
	add := func(a PodFailurePolicyAction, rule int) {
		for _, o := range buf {
			if o.Action == a {
				return
			}
		}
		buf = append(buf, PodFailureOutcome{Action: a, Rule: rule})
	}
	for i, r := range spec.PodFailureRules[:spec.PodFailureRuleCount] {
		switch {
		case r.OnExitCodes:
			if f&ContainersRan != 0 {
				add(r.Action, i)
			}
		case r.OnDisruptionTarget && f&DisruptionTarget != 0:
			add(r.Action, i)
			return buf
		}
	}
	add(PodFailureCount, -1)
	return buf
}

// podFailurePolicyOf reports whether pod p's owner is a Job with a
// podFailurePolicy.
func podFailurePolicyOf(u *Universe, s *State, p *PodState) bool {
	return HasPodFailurePolicy(u, s, int(p.Owner)-1)
}

// HasPodFailurePolicy reports whether workload d is a Job with a
// podFailurePolicy: the removal of a failed pod of it reads the Job's
// other pods (a FailJob match waits for no decided Job).
func HasPodFailurePolicy(u *Universe, s *State, d int) bool {
	return u.HasJobs && u.IsJob(d) && u.Configs[s.Deps[d].Config].Job.PodFailurePolicy
}

// AddDisruptionTarget is the DisruptionTarget condition that the
// scheduler's preemption (PreemptionByScheduler), the eviction API
// (EvictionByEvictionAPI: kubectl drain, the descheduler) and the taint
// manager (DeletionByTaintManager) add to pod p before they delete it.
// Only a Job's podFailurePolicy reads it, so it is recorded only on the
// pods of such Jobs, with whether their containers ran
// (NoteDeletedJobPod). Call it before the deletion.
func AddDisruptionTarget(u *Universe, s *State, p int) {
	pod := &s.Pods[p]
	if !pod.Active() || !podFailurePolicyOf(u, s, pod) {
		return
	}
	pod.Failure |= DisruptionTarget
	if pod.Phase == Running {
		pod.Failure |= ContainersRan
	}
}

// MarkPreempted records that the scheduler preempts active pod p: its
// DisruptionTarget condition (reason PreemptionByScheduler), where a
// podFailurePolicy reads it, and Preempted. Call it before the deletion.
func MarkPreempted(u *Universe, s *State, p int) {
	if !s.Pods[p].Active() {
		return
	}
	AddDisruptionTarget(u, s, p)
	s.Pods[p].Failure |= Preempted
}

// NoteDeletedJobPod records, for a pod of a Job with a podFailurePolicy
// that a plain DELETE (kubectl drain --disable-eviction) is about to
// delete, whether its containers ran. Call it before the deletion.
func NoteDeletedJobPod(u *Universe, s *State, p int) {
	pod := &s.Pods[p]
	if pod.Phase == Running && podFailurePolicyOf(u, s, pod) {
		pod.Failure |= ContainersRan
	}
}

// jobSuccessCriteriaMet: Job d's success criteria are met (enough pods
// succeeded, or some with completions unset, and none is active), which
// upstream records as SuccessCriteriaMet at the sync that finds them, and
// which keeps a later FailJob match from failing the Job. The criteria,
// once met, stay met while the Job runs (it creates no pod then), so a
// sync has found them by the time a terminating pod is gone.
func jobSuccessCriteriaMet(u *Universe, s *State, d int) bool {
	spec := &u.Configs[s.Deps[d].Config].Job
	c := CountJob(u, s, d)
	if c.Active > 0 {
		return false
	}
	if spec.WorkQueue {
		return c.Succeeded > 0
	}
	return c.Succeeded >= spec.Completions
}

// failedPodGone is the Job controller's handling of failed pod i of Job
// d as the pod leaves (ForgetJobPod): the outcome of the
// podFailurePolicy, a choice among PodFailureOutcomes when exit codes
// decide it. Count adds the failure to the Job's status, Ignore does not,
// FailJob counts it and sets the interim FailureTarget (reason
// PodFailurePolicy) unless the pod terminated (deleted while active) and
// the Job's success criteria are met (upstream evaluates no policy once
// SuccessCriteriaMet is set). A Failed pod failed while active, so no
// sync found the criteria met before its failure, and its tracking
// finalizer keeps it for the sync that finds its match (the Job
// controller's, which evaluates the policy first). A FailJob match
// comes before backoffLimit, as in upstream's sync. A Job that is not
// running or failing (finished, or its failure decided) counts the
// failure as CountJob counted it then. forced: the pod garbage
// collector deletes the pod on a node that is not Ready.
func failedPodGone(tx *Tx, s *State, d, i int, forced bool) {
	ds := &s.Deps[d]
	spec := &tx.U.Configs[ds.Config].Job
	p := &s.Pods[i]
	if ds.JobFinished.Finished() || ds.JobFinished == JobSuccessCriteriaMet {
		// A Job whose success criteria are met evaluates no failure
		// policy any more (syncJob reads the pre-existing
		// SuccessCriteriaMet first).
		countJobFailure(ds)
		return
	}
	if !spec.PodFailurePolicy {
		// The index fails unless the Job's failure was decided before
		// this pod's failure counted (the pod terminating then, its
		// finalizer removed at that sync): a failure this pod decides is
		// decided at a sync that finds it failed, whose
		// calculateFailedIndexes counts it.
		failedIndex := spec.PerIndex && !failingWithout(tx.U, tx.beforeJobPodRemovals(s), d, i)
		countJobFailure(ds)
		if failedIndex {
			indexFailureGone(tx, s, d, p, PodFailureCount)
		}
		return
	}
	if p.Phase == Terminating && CountJob(tx.U, tx.beforeJobPodRemovals(s), d).Failing {
		// Counted when the Job's failure was decided (CountJob), as it
		// was then: no choice.
		if !ignoredWhileFailing(spec, p) {
			countJobFailure(ds)
		}
		return
	}
	f := p.Failure
	if forced || p.Phase == Failed {
		// Failed by the pod garbage collector on a node that is not
		// Ready, or rejected before its containers ran: the pod has no
		// terminated container to read an exit code from.
		f &^= ContainersRan
	}
	var buf [4]PodFailureOutcome
	outs := spec.PodFailureOutcomes(f, buf[:0])
	o := outs[tx.Choose(len(outs))]
	name := tx.U.Deployments[d].Name
	switch o.Action {
	case PodFailureIgnore:
		if tx.Tracing() {
			tx.Log(jobComponent, "Pod %s of job %s failed (%s): rule %d of the podFailurePolicy (Ignore) matches: not counted against backoffLimit", s.PodRef(i), name, f, o.Rule)
		}
	case PodFailureFailJob:
		countJobFailure(ds)
		// Counted against its index too (isIndexFailed counts a FailJob
		// match), as status.failedIndexes shows.
		indexFailureGone(tx, s, d, p, o.Action)
		if p.Phase == Terminating && jobSuccessCriteriaMet(tx.U, s, d) {
			return
		}
		ds.JobFinished = JobFailureTarget
		if tx.Tracing() {
			tx.Log(jobComponent, "Job %s reached its failure target: PodFailurePolicy: pod %s failed (%s) and rule %d of the podFailurePolicy (FailJob) matches", name, s.PodRef(i), f, o.Rule)
		}
	default:
		countJobFailure(ds)
		if o.Rule >= 0 && tx.Tracing() {
			tx.Log(jobComponent, "Pod %s of job %s failed (%s): rule %d of the podFailurePolicy (%s) matches", s.PodRef(i), name, f, o.Rule, o.Action)
		}
		indexFailureGone(tx, s, d, p, o.Action)
	}
}

// failingWithout reports whether Job d's failure is decided without the
// failure of its pod i (CountJob.Failing with the pod left out).
func failingWithout(u *Universe, s *State, d, i int) bool {
	p := s.Pods[i]
	s.Pods[i] = PodState{}
	failing := CountJob(u, s, d).Failing
	s.Pods[i] = p
	return failing
}

// countJobFailure adds a failed pod to a Job's status.failed.
func countJobFailure(ds *DeploymentState) {
	if ds.JobFailed < MaxJobCount {
		ds.JobFailed++
	}
}

// jobComponent names the Job controller in the trace lines of the model's
// own steps.
const jobComponent = "job-controller"

// podFailurePolicyConfig converts a JobDecl's podFailurePolicy and
// podReplacementPolicy with the API server's defaults and validation
// (podReplacementPolicy Failed when a podFailurePolicy is set, and only
// Failed then; FailIndex only with backoffLimitPerIndex, which the model
// does not have).
func podFailurePolicyConfig(cfg *JobSpec, d *JobDecl) error {
	switch d.PodReplacementPolicy {
	case "", "TerminatingOrFailed":
		if d.PodReplacementPolicy != "" && d.PodFailurePolicy != nil {
			return fmt.Errorf("podReplacementPolicy %q with a podFailurePolicy (accepted: Failed): %w", d.PodReplacementPolicy, ErrInvalid)
		}
		cfg.ReplaceOnlyFailed = d.PodFailurePolicy != nil
	case "Failed":
		cfg.ReplaceOnlyFailed = true
	default:
		return fmt.Errorf("podReplacementPolicy %q (accepted: Failed, TerminatingOrFailed): %w", d.PodReplacementPolicy, ErrInvalid)
	}
	if d.PodFailurePolicy == nil {
		return nil
	}
	if len(d.PodFailurePolicy.Rules) > MaxPodFailurePolicyRules {
		return fmt.Errorf("podFailurePolicy: %d rules (accepted: at most %d): %w", len(d.PodFailurePolicy.Rules), MaxPodFailurePolicyRules, ErrInvalid)
	}
	cfg.PodFailurePolicy = true
	for i, r := range d.PodFailurePolicy.Rules {
		a, err := ParsePodFailurePolicyAction(r.Action)
		if err != nil {
			return fmt.Errorf("podFailurePolicy.rules[%d]: %w", i, err)
		}
		if a == PodFailureFailIndex && !cfg.PerIndex {
			return fmt.Errorf("podFailurePolicy.rules[%d]: action FailIndex requires backoffLimitPerIndex (accepted: Count, FailJob, Ignore): %w", i, ErrInvalid)
		}
		if r.OnExitCodes && r.OnDisruptionTarget {
			return fmt.Errorf("podFailurePolicy.rules[%d]: onExitCodes and onPodConditions both (accepted: one of them): %w", i, ErrInvalid)
		}
		cfg.PodFailureRules[i] = PodFailurePolicyRule{Action: a, OnExitCodes: r.OnExitCodes, OnDisruptionTarget: r.OnDisruptionTarget}
		cfg.PodFailureRuleCount++
	}
	return nil
}

// MaxPodFailurePolicyRules is the API server's limit on a
// podFailurePolicy's rules.
const MaxPodFailurePolicyRules = 20

// PodFailurePolicyDecl declares a Job's podFailurePolicy.
type PodFailurePolicyDecl struct {
	Rules []PodFailurePolicyRuleDecl `json:"rules"`
}
