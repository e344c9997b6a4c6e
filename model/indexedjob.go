package model

import (
	"fmt"
	"math"
)

// Indexed Jobs (completionMode Indexed; pkg/controller/job
// indexed_job_utils.go in v1.36): each pod carries a completion index
// from 0 to completions−1 (PodState.Ordinal holds it plus one, as for a
// StatefulSet pod's ordinal: the index is the pod's content, never its
// slot, so pods of different indexes are never one orbit of the symmetry
// reduction), the Job controller creates the pending indexes lowest first,
// an index succeeds once (status.completedIndexes: the Job is Complete once
// every index did), and the pod of an index that failed is recreated with
// the same index.
//
// With backoffLimitPerIndex the failures are counted per index (upstream:
// the pod annotation batch.kubernetes.io/job-index-failure-count, which
// each replacement carries on): an index whose counted failures exceed it,
// or whose failed pod matches a FailIndex rule of the podFailurePolicy, is
// failed (status.failedIndexes) and not recreated. More failed indexes than
// maxFailedIndexes fail the Job (MaxFailedIndexesExceeded); a Job whose
// indexes all succeeded or failed, some failed, fails (FailedIndexes).
//
// The per-index status is DeploymentState.JobIndexes, one byte per index
// (JobIndexState), encoded only in universes with an Indexed Job, so other
// inputs encode and cost as before.

// JobIndexState is one index's status byte in DeploymentState.JobIndexes:
// IndexSucceeded, IndexFailed, or the failures counted against
// backoffLimitPerIndex of its pods that are gone (0 to
// MaxBackoffLimitPerIndex).
type JobIndexState = byte

const (
	// IndexSucceeded: the index is in status.completedIndexes.
	IndexSucceeded JobIndexState = 0xFF
	// IndexFailed: the index is in status.failedIndexes.
	IndexFailed JobIndexState = 0xFE
)

// MaxBackoffLimitPerIndex bounds backoffLimitPerIndex in the model: an
// index's counted failures are a byte of the state.
const MaxBackoffLimitPerIndex = int(IndexFailed) - 1

// MaxJobIndexes bounds an Indexed Job's completions in the model: a pod's
// index plus one is a byte (PodState.Ordinal, MaxOrdinal).
const MaxJobIndexes = MaxOrdinal + 1

// IndexOf is pod p's completion index, or -1 for a pod of no Indexed Job.
func (p *PodState) IndexOf() int { return int(p.Ordinal) - 1 }

// StatefulSetPod reports whether p is a StatefulSet's pod (an Indexed
// Job's pod carries an Ordinal too: its index).
func (u *Universe) StatefulSetPod(p *PodState) bool {
	return p.Ordinal != 0 && u.IsStatefulSet(int(p.Owner)-1)
}

// JobIndex is index k's status byte in ds.
func JobIndex(ds *DeploymentState, k int) JobIndexState {
	if k < len(ds.JobIndexes) {
		return ds.JobIndexes[k]
	}
	return 0
}

// SetJobIndex writes index k's status byte of a Job of n indexes; the
// string is "" while every byte is 0, so equal statuses encode alike.
func SetJobIndex(ds *DeploymentState, n, k int, v JobIndexState) {
	if JobIndex(ds, k) == v {
		return
	}
	b := make([]byte, n)
	copy(b, ds.JobIndexes)
	b[k] = v
	for _, x := range b {
		if x != 0 {
			ds.JobIndexes = string(b)
			return
		}
	}
	ds.JobIndexes = ""
}

// IndexCounts are an Indexed Job's indexes as its controller derives
// them at a sync.
type IndexCounts struct {
	// Succeeded and Failed count the indexes in completedIndexes and
	// failedIndexes (calculateFailedIndexes: those recorded, and those
	// whose present failed pod fails them).
	Succeeded, Failed int
	// failed[k]: index k is failed.
	failed []bool
	// busy[k]: index k is not pending (firstPendingIndexes): succeeded,
	// failed, active, or, with podReplacementPolicy Failed, terminating.
	busy []bool
}

// Pending appends to dst the first n pending indexes, lowest first
// (firstPendingIndexes).
func (c *IndexCounts) Pending(dst []int, n int) []int {
	for k := 0; k < len(c.busy) && n > 0; k++ {
		if !c.busy[k] {
			dst = append(dst, k)
			n--
		}
	}
	return dst
}

// IsFailed reports whether index k is failed.
func (c *IndexCounts) IsFailed(k int) bool { return k >= 0 && k < len(c.failed) && c.failed[k] }

// CountIndexes derives Indexed Job d's indexes. An index fails at a sync
// (isIndexFailed) when a failed pod of it present is counted (not ignored
// by the podFailurePolicy) and the failures of the index, that pod's
// included, exceed backoffLimitPerIndex, or when it matches a FailIndex
// rule. A pod is failed as CountJob says: Failed, or, with
// podReplacementPolicy TerminatingOrFailed, deleted.
func CountIndexes(u *Universe, s *State, d int) IndexCounts {
	ds := &s.Deps[d]
	spec := &u.Configs[ds.Config].Job
	n := spec.Completions
	c := IndexCounts{failed: make([]bool, n), busy: make([]bool, n)}
	var present []int
	if spec.PerIndex {
		present = make([]int, n)
	}
	owner := uint8(d + 1)
	for i := range s.Pods {
		p := &s.Pods[i]
		k := p.IndexOf()
		if p.Owner != owner || k < 0 || k >= n {
			continue
		}
		switch p.Phase {
		case Pending, Running:
			c.busy[k] = true
		case Terminating:
			if spec.ReplaceOnlyFailed {
				c.busy[k] = true
			} else if present != nil {
				present[k]++
			}
		case Failed:
			if present == nil {
				continue
			}
			switch presentFailureAction(spec, p) {
			case PodFailureIgnore:
			case PodFailureFailIndex:
				c.failed[k] = true
			default:
				present[k]++
			}
		}
	}
	for k := range n {
		switch st := JobIndex(ds, k); {
		case st == IndexSucceeded:
			c.Succeeded++
			c.busy[k] = true
			continue
		case st == IndexFailed:
			c.failed[k] = true
		case present != nil && present[k] > 0 && int(st)+present[k] > spec.BackoffLimitPerIndex:
			c.failed[k] = true
		}
		if c.failed[k] {
			c.Failed++
			c.busy[k] = true
		}
	}
	return c
}

// presentFailureAction is the podFailurePolicy's action on a Failed pod
// present, which failed before its containers ran (CountJob).
func presentFailureAction(spec *JobSpec, p *PodState) PodFailurePolicyAction {
	if !spec.PodFailurePolicy {
		return PodFailureCount
	}
	var buf [1]PodFailureOutcome
	return spec.PodFailureOutcomes(p.Failure&^ContainersRan, buf[:0])[0].Action
}

// IndexedFailure is the failure condition an Indexed Job with
// backoffLimitPerIndex reaches by its indexes (JobRunning: none): more
// failed indexes than maxFailedIndexes, else every index succeeded or
// failed with some failed.
func IndexedFailure(spec *JobSpec, c *IndexCounts) JobCondition {
	switch {
	case !spec.PerIndex:
	case spec.MaxFailedIndexes >= 0 && c.Failed > spec.MaxFailedIndexes:
		return JobFailureTargetMaxFailedIndexes
	case c.Failed > 0 && c.Failed+c.Succeeded >= spec.Completions:
		return JobFailureTargetFailedIndexes
	}
	return JobRunning
}

// indexFailureGone records, as failed pod p of Indexed Job d leaves with
// the podFailurePolicy's action a, its failure in its index's status:
// FailIndex fails the index, a counted failure adds to its count and
// fails it beyond backoffLimitPerIndex. A failure target the Job had
// before the step (not one another pod removed in the same step set)
// stops it (Tx.beforeJobPodRemovals).
func indexFailureGone(tx *Tx, s *State, d int, p *PodState, a PodFailurePolicyAction) {
	ds := &s.Deps[d]
	spec := &tx.U.Configs[ds.Config].Job
	k := p.IndexOf()
	if !spec.PerIndex || tx.beforeJobPodRemovals(s).Deps[d].JobFinished.FailureTarget() || k < 0 || k >= spec.Completions || a == PodFailureIgnore {
		return
	}
	st := JobIndex(ds, k)
	if st == IndexSucceeded || st == IndexFailed {
		return
	}
	next := st + 1
	if a == PodFailureFailIndex || int(next) > spec.BackoffLimitPerIndex {
		next = IndexFailed
		if tx.Tracing() {
			why := fmt.Sprintf("%d failures, backoffLimitPerIndex %d", int(st)+1, spec.BackoffLimitPerIndex)
			if a == PodFailureFailIndex {
				why = "a FailIndex rule of the podFailurePolicy matches"
			}
			tx.Log(jobComponent, "Index %d of job %s failed (%s)", k, tx.U.Deployments[d].Name, why)
		}
	}
	SetJobIndex(ds, spec.Completions, k, next)
}

// indexedJobConfig converts the Indexed fields of a JobDecl with the API
// server's defaults (backoffLimit MaxInt32 when backoffLimitPerIndex is
// set and backoffLimit is not) and validation
// (pkg/apis/batch/validation: completions required with Indexed;
// backoffLimitPerIndex and maxFailedIndexes only with Indexed;
// maxFailedIndexes requires backoffLimitPerIndex and is at most
// completions), within the model's bounds.
func indexedJobConfig(cfg *JobSpec, d *JobDecl) error {
	cfg.MaxFailedIndexes = -1
	switch d.CompletionMode {
	case "", "NonIndexed":
		if d.BackoffLimitPerIndex != nil {
			return fmt.Errorf("backoffLimitPerIndex %d: requires completionMode Indexed (accepted: unset with NonIndexed): %w", *d.BackoffLimitPerIndex, ErrInvalid)
		}
		if d.MaxFailedIndexes != nil {
			return fmt.Errorf("maxFailedIndexes %d: requires completionMode Indexed (accepted: unset with NonIndexed): %w", *d.MaxFailedIndexes, ErrInvalid)
		}
		return nil
	case "Indexed":
	default:
		return fmt.Errorf("completionMode %q (accepted: NonIndexed, Indexed): %w", d.CompletionMode, ErrInvalid)
	}
	if d.Completions == nil {
		return fmt.Errorf("completions: required with completionMode Indexed (accepted: 0..%d in the model): %w", MaxJobIndexes, ErrInvalid)
	}
	if *d.Completions > MaxJobIndexes {
		return fmt.Errorf("completions %d with completionMode Indexed (accepted: 0..%d in the model, a pod's index is a byte): %w", *d.Completions, MaxJobIndexes, ErrInvalid)
	}
	cfg.Indexed = true
	if b := d.BackoffLimitPerIndex; b != nil {
		if *b < 0 || *b > MaxBackoffLimitPerIndex {
			return fmt.Errorf("backoffLimitPerIndex %d (accepted: 0..%d in the model): %w", *b, MaxBackoffLimitPerIndex, ErrInvalid)
		}
		cfg.PerIndex, cfg.BackoffLimitPerIndex = true, *b
		if d.BackoffLimit == nil {
			cfg.BackoffLimit = math.MaxInt32
		}
	}
	if m := d.MaxFailedIndexes; m != nil {
		switch {
		case !cfg.PerIndex:
			return fmt.Errorf("maxFailedIndexes %d: requires backoffLimitPerIndex (accepted: unset without backoffLimitPerIndex): %w", *m, ErrInvalid)
		case *m < 0 || *m > cfg.Completions:
			return fmt.Errorf("maxFailedIndexes %d (accepted: 0..%d, at most completions): %w", *m, cfg.Completions, ErrInvalid)
		}
		cfg.MaxFailedIndexes = *m
	}
	return nil
}

// indexedJobs reports whether some Job of u is Indexed.
func indexedJobs(u *Universe) bool {
	for _, c := range u.Configs {
		if c.Job.Indexed {
			return true
		}
	}
	return false
}

// checkIndexedCronJob refuses an Indexed CronJob run: a run slot tells
// its runs' leftover pods apart only by count (StartJobRun), not by
// index.
func checkIndexedCronJob(d *DeploymentDecl) error {
	if d.CronJob != nil && d.Job != nil && d.Job.CompletionMode == "Indexed" {
		return fmt.Errorf("job.completionMode Indexed in a CronJob's run (accepted: NonIndexed for a CronJob's runs in the model): %w", ErrInvalid)
	}
	return nil
}
