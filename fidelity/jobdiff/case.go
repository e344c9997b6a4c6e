package jobdiff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/controllers/job"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// Phase is a pod's status.phase in a Case.
type Phase int

const (
	Pending Phase = iota
	Running
	Succeeded
	Failed
)

func (p Phase) String() string { return [...]string{"Pending", "Running", "Succeeded", "Failed"}[p] }

// Tracking is where a finished pod is in upstream's tracking with
// finalizers.
type Tracking int

const (
	// New: the pod has its tracking finalizer and is counted nowhere.
	New Tracking = iota
	// Uncounted: its UID is in status.uncountedTerminatedPods, its
	// finalizer still on.
	Uncounted
	// Counted: its finalizer is gone; status.succeeded or status.failed
	// includes it.
	Counted
)

func (t Tracking) String() string { return [...]string{"new", "uncounted", "counted"}[t] }

// Pod is one pod of a Case.
type Pod struct {
	Phase Phase
	// Terminating: its deletionTimestamp is set.
	Terminating bool
	// Tracking: for a finished pod (Succeeded, Failed or Terminating),
	// where upstream's tracking has it; an active pod is always New.
	Tracking Tracking
	// DisruptionTarget: the pod has the DisruptionTarget condition.
	DisruptionTarget bool
	// ExitCode: a Failed pod's container's exit code; 0: the container
	// never ran (no terminated status: the kubelet rejected the pod).
	ExitCode int32
	// Index is an Indexed Job's pod's completion index; IndexFailures its
	// batch.kubernetes.io/job-index-failure-count annotation (with
	// backoffLimitPerIndex: the failures of the index before it).
	Index, IndexFailures int
}

// Active: Pending or Running and not Terminating (controller.IsPodActive).
func (p Pod) Active() bool { return (p.Phase == Pending || p.Phase == Running) && !p.Terminating }

// FailedPod: counted as failed (isPodFailed: Failed, or deleted and not
// Succeeded, podReplacementPolicy TerminatingOrFailed).
func (p Pod) FailedPod() bool { return p.Phase == Failed || p.Terminating && p.Phase != Succeeded }

func (p Pod) String() string {
	s := p.Phase.String()
	if p.Terminating {
		s += " Terminating"
	}
	if !p.Active() {
		s += " (" + p.Tracking.String() + ")"
	}
	if p.ExitCode != 0 {
		s += fmt.Sprintf(" exit %d", p.ExitCode)
	}
	if p.DisruptionTarget {
		s += " DisruptionTarget"
	}
	return s
}

// Rule is a podFailurePolicy rule of a Case: onExitCodes (operator In,
// or NotIn, with ExitCodes) when ExitCodes is set, else onPodConditions
// with the pattern DisruptionTarget True when OnDisruptionTarget, else a
// pattern ConfigIssue True that no pod of a Case has.
type Rule struct {
	Action             string
	ExitCodes          []int32
	NotIn              bool
	OnDisruptionTarget bool
}

func (r Rule) String() string {
	switch {
	case len(r.ExitCodes) > 0 && r.NotIn:
		return fmt.Sprintf("%s on exit codes NotIn %v", r.Action, r.ExitCodes)
	case len(r.ExitCodes) > 0:
		return fmt.Sprintf("%s on exit codes In %v", r.Action, r.ExitCodes)
	case r.OnDisruptionTarget:
		return r.Action + " on DisruptionTarget"
	}
	return r.Action + " on ConfigIssue"
}

// matches is upstream's match of rule r on failed pod p.
func (r Rule) matches(p Pod) bool {
	if len(r.ExitCodes) > 0 {
		return p.ExitCode != 0 && slices.Contains(r.ExitCodes, p.ExitCode) != r.NotIn
	}
	return r.OnDisruptionTarget && p.DisruptionTarget
}

// action is the outcome of failed pod p under c's policy (Count when no
// rule matches or there is no policy).
func (c *Case) action(p Pod) string {
	for _, r := range c.Policy {
		if r.matches(p) {
			return r.Action
		}
	}
	return "Count"
}

// Case is one sync of a Job.
type Case struct {
	Parallelism int
	// Completions is spec.completions, nil when not set.
	Completions  *int
	BackoffLimit int
	Suspend      bool
	// Succeeded and Failed count the pods that finished and are gone, in
	// status.succeeded and status.failed.
	Succeeded, Failed int
	Pods              []Pod
	// RecentFailure: the Failed and Terminating pods finished a second
	// before the sync, within upstream's pod-failure backoff (10 s, then
	// doubling); otherwise an hour before.
	RecentFailure bool
	// HasPolicy: spec.podFailurePolicy is set, with the rules Policy
	// (podReplacementPolicy Failed then, by default).
	HasPolicy bool
	Policy    []Rule
	// ReplaceOnlyFailed: podReplacementPolicy Failed without a policy.
	ReplaceOnlyFailed bool
	// SuccessCriteriaMet: the Job has upstream's interim
	// SuccessCriteriaMet condition, which the model does not keep (a
	// counterfactual of classify.go).
	SuccessCriteriaMet bool
	// BackoffTarget: the Job has upstream's interim FailureTarget
	// condition with reason BackoffLimitExceeded (a counterfactual of
	// classify.go).
	BackoffTarget bool
	// Indexed: completionMode Indexed (indexed.go), with
	// backoffLimitPerIndex PerIndex and maxFailedIndexes MaxFailedIndexes
	// (nil: not set), and the indexes that succeeded or failed with their
	// pods gone (status.completedIndexes, status.failedIndexes).
	Indexed                         bool
	PerIndex, MaxFailedIndexes      *int
	CompletedIndexes, FailedIndexes []int
	// SuccessRules are an Indexed Job's successPolicy rules (none: no
	// successPolicy).
	SuccessRules []SuccessRule
}

// SuccessRule is one successPolicy rule: succeededIndexes Indexes when
// HasIndexes, succeededCount Count when set.
type SuccessRule struct {
	Indexes    []int
	HasIndexes bool
	Count      *int
}

// replaceOnlyFailed: podReplacementPolicy Failed, set or defaulted.
func (c *Case) replaceOnlyFailed() bool { return c.HasPolicy || c.ReplaceOnlyFailed }

// gone: the model holds failed pod p as gone, its failure counted or not
// as the policy says (model.ForgetJobPod): a Failed pod whose containers
// ran, or a deleted Failed pod, of a Job with a policy (the model's
// Failed pods are pods rejected before they ran), and a deleted Failed
// pod with podReplacementPolicy Failed (the model's terminating pods
// are not terminal).
func (c *Case) gone(p Pod) bool {
	if p.Phase != Failed {
		return false
	}
	return c.HasPolicy && (p.ExitCode != 0 || p.Terminating) || c.replaceOnlyFailed() && p.Terminating
}

func (c *Case) String() string {
	var b strings.Builder
	comp := "unset"
	if c.Completions != nil {
		comp = fmt.Sprint(*c.Completions)
	}
	fmt.Fprintf(&b, "parallelism %d completions %s backoffLimit %d", c.Parallelism, comp, c.BackoffLimit)
	if c.Suspend {
		b.WriteString(" suspended")
	}
	fmt.Fprintf(&b, "; gone: %d succeeded, %d failed", c.Succeeded, c.Failed)
	if c.RecentFailure {
		b.WriteString("; failures a second ago")
	}
	if c.HasPolicy {
		fmt.Fprintf(&b, "; podFailurePolicy %v", c.Policy)
	}
	if c.ReplaceOnlyFailed {
		b.WriteString("; podReplacementPolicy Failed")
	}
	if c.SuccessCriteriaMet {
		b.WriteString("; SuccessCriteriaMet")
	}
	if c.BackoffTarget {
		b.WriteString("; FailureTarget (BackoffLimitExceeded)")
	}
	c.writeIndexed(&b)
	b.WriteString("; pods:\n")
	for i, p := range c.Pods {
		fmt.Fprintf(&b, "  %s %s\n", podName(i), p)
	}
	return b.String()
}

func podName(i int) string { return fmt.Sprint("p", i) }

// Result is what one sync did and left: how many pods it created, which
// pods of the Case it deleted, the Job's finished condition and its
// succeeded and failed counts (the model: its status and the failed pods
// present, model.CountJob).
type Result struct {
	Created           int
	Deleted           []int
	Finished          model.JobCondition
	Succeeded, Failed int
	// Indexes are the created pods' completion indexes, in order, and
	// FailedIndexes is status.failedIndexes (an Indexed Job's).
	Indexes       []int
	FailedIndexes string
}

// Equal: the same creations, deletions, condition and counts.
func (r Result) Equal(o Result) bool {
	return r.Created == o.Created && slices.Equal(r.Deleted, o.Deleted) && r.Finished == o.Finished &&
		r.Succeeded == o.Succeeded && r.Failed == o.Failed && slices.Equal(r.Indexes, o.Indexes) && r.FailedIndexes == o.FailedIndexes
}

func (r Result) String() string {
	var parts []string
	if r.Created > 0 {
		parts = append(parts, fmt.Sprintf("create %d", r.Created))
	}
	for _, i := range r.Deleted {
		parts = append(parts, "delete "+podName(i))
	}
	if len(r.Indexes) > 0 {
		parts = append(parts, fmt.Sprintf("indexes %v", r.Indexes))
	}
	parts = append(parts, r.Finished.String(), fmt.Sprintf("succeeded %d failed %d", r.Succeeded, r.Failed))
	if r.FailedIndexes != "" {
		parts = append(parts, "failedIndexes "+r.FailedIndexes)
	}
	return strings.Join(parts, ", ")
}

// Plant changes the model's universe or state before its sync: the
// planted bugs of TestPlantedBugs. Nil plants nothing.
type Plant func(u *model.Universe, s *model.State)

// Model runs the model's Sync on c.
func (c *Case) Model(plant Plant) (Result, error) {
	u, s, slots, err := c.modelState()
	if err != nil {
		return Result{}, err
	}
	if plant != nil {
		plant(u, s)
	}
	was := slices.Clone(s.Pods)
	failedIndexes := c.modelFailedIndexes(u, s)
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	job.Sync(tx, s, 0)
	if s.Failed != model.NoFailure {
		return Result{}, fmt.Errorf("model failed: %d (%d)", s.Failed, s.FailedArg)
	}
	r := Result{Finished: s.Deps[0].JobFinished, Succeeded: int(s.Deps[0].JobSucceeded), Failed: model.CountJob(u, s, 0).Failed, FailedIndexes: failedIndexes}
	for j := range s.Pods {
		if was[j].Phase == model.Free && s.Pods[j].Phase != model.Free {
			r.Created++
			if k := s.Pods[j].IndexOf(); k >= 0 {
				r.Indexes = append(r.Indexes, k)
			}
		}
	}
	slices.Sort(r.Indexes)
	for i, j := range slots {
		if j >= 0 && was[j].Active() && s.Pods[j].Phase == model.Terminating {
			r.Deleted = append(r.Deleted, i)
		}
	}
	return r, nil
}

// modelState builds the Case's universe and state, and the slot of each
// pod of the Case (-1: a Succeeded pod, which the model does not keep:
// its success is counted in JobSucceeded).
func (c *Case) modelState() (*model.Universe, *model.State, []int, error) {
	b := build.New()
	b.AddNodes(1, build.Node().CPU(1000).Mem(1000).MaxPods(1000))
	tmpl := b.AddTemplate(build.Template("batch").Requests(1, 1).Label("app", "batch"))
	d := b.AddJob("job", tmpl, c.Parallelism)
	cfg := b.Config(d)
	cfg.Job = model.JobSpec{WorkQueue: true, BackoffLimit: c.BackoffLimit, Suspend: c.Suspend, ReplaceOnlyFailed: c.replaceOnlyFailed(), PodFailurePolicy: c.HasPolicy}
	if c.Completions != nil {
		cfg.Job.Completions, cfg.Job.WorkQueue = *c.Completions, false
	}
	c.indexedSpec(&cfg.Job)
	for i, r := range c.Policy {
		a, err := model.ParsePodFailurePolicyAction(r.Action)
		if err != nil {
			return nil, nil, nil, err
		}
		cfg.Job.PodFailureRules[i] = model.PodFailurePolicyRule{Action: a, OnExitCodes: len(r.ExitCodes) > 0, OnDisruptionTarget: r.OnDisruptionTarget}
		cfg.Job.PodFailureRuleCount++
	}
	b.Slots = len(c.Pods) + c.Parallelism + 1
	u, s, err := b.Build(0)
	if err != nil {
		return nil, nil, nil, err
	}
	ds := &s.Deps[d]
	succeeded := c.Succeeded
	slots := make([]int, len(c.Pods))
	j := 0
	for i, p := range c.Pods {
		if p.Phase == Succeeded {
			succeeded++
			slots[i] = -1
			continue
		}
		ps := model.PodState{Phase: model.Pending, Owner: uint8(d + 1), Template: uint8(tmpl), CPU: 1, Memory: 1}
		if c.Indexed {
			ps.Ordinal = uint8(p.Index + 1)
		}
		if c.HasPolicy && p.DisruptionTarget {
			ps.Failure |= model.DisruptionTarget
		}
		switch {
		case c.gone(p):
			// Placed as the Terminating pod it was; the Job's handling
			// of its removal follows.
			ps.Phase, ps.Node = model.Terminating, 1
			if c.HasPolicy && p.ExitCode != 0 {
				ps.Failure |= model.ContainersRan
			}
		case p.Phase == Failed:
			ps.Phase, ps.Node = model.Failed, 1
		case p.Terminating:
			ps.Phase, ps.WasRunning = model.Terminating, p.Phase == Running
			if p.Phase == Running {
				ps.Node = 1
			}
		case p.Phase == Running:
			ps.Phase, ps.Node = model.Running, 1
		}
		s.Pods[j], slots[i] = ps, j
		j++
	}
	ds.JobSucceeded, ds.JobFailed = int16(succeeded), int16(c.Failed)
	if c.Indexed {
		c.indexedState(u, s)
	}
	s.Init = model.InitMain
	// The gone pods leave as the kubelet removes them, the outcome the
	// model chooses among its outcomes the one upstream's exit code and
	// conditions give.
	for i, p := range c.Pods {
		if !c.gone(p) {
			continue
		}
		j := slots[i]
		var buf [4]model.PodFailureOutcome
		outs := u.Configs[ds.Config].Job.PodFailureOutcomes(s.Pods[j].Failure, buf[:0])
		want := c.action(p)
		k := slices.IndexFunc(outs, func(o model.PodFailureOutcome) bool { return o.Action.String() == want })
		if k < 0 {
			return nil, nil, nil, fmt.Errorf("pod %s: the model has no outcome %s among %v", podName(i), want, outs)
		}
		tx := model.NewTx(u)
		tx.Begin([]int{k}, false)
		model.ForgetJobPod(tx, s, j, false)
		s.Pods[j] = model.PodState{}
		slots[i] = -1
	}
	return u, s, slots, nil
}
