package job

import (
	"fmt"

	"github.com/kivi-go/kivi/model"
)

// indexedFailureTarget is syncJob's evaluation of an Indexed Job's
// indexes with backoffLimitPerIndex (model.IndexedFailure): more failed
// indexes than maxFailedIndexes, or every index succeeded or failed with
// some failed, set the interim FailureTarget, which the sync then enacts
// as any other (its active pods deleted, Failed once none terminates).
func indexedFailureTarget(tx *model.Tx, spec *model.JobSpec, ds *model.DeploymentState, name string, ic *model.IndexCounts) {
	t := model.IndexedFailure(spec, ic)
	if t == model.JobRunning {
		return
	}
	ds.JobFinished = t
	if tx.Tracing() {
		tx.Log(Component, "Job %s reached its failure target: %s (%d failed indexes, %d succeeded, completions %d%s)", name, failureReason(t), ic.Failed, ic.Succeeded, spec.Completions, maxFailedIndexes(spec))
	}
}

// maxFailedIndexes is ", maxFailedIndexes n" when set.
func maxFailedIndexes(spec *model.JobSpec) string {
	if spec.MaxFailedIndexes < 0 {
		return ""
	}
	return fmt.Sprintf(", maxFailedIndexes %d", spec.MaxFailedIndexes)
}

// failureReason is the reason of a FailureTarget or Failed condition.
func failureReason(c model.JobCondition) string {
	switch c {
	case model.JobFailureTargetFailedIndexes, model.JobFailedIndexes:
		return "FailedIndexes"
	case model.JobFailureTargetMaxFailedIndexes, model.JobFailedMaxFailedIndexes:
		return "MaxFailedIndexesExceeded"
	}
	return "PodFailurePolicy"
}

// failureMessage is the Failed condition's reason and message, as the
// Job controller writes them.
func failureMessage(c model.JobCondition) string {
	switch c {
	case model.JobFailedIndexes:
		return "FailedIndexes: Job has failed indexes"
	case model.JobFailedMaxFailedIndexes:
		return "MaxFailedIndexesExceeded: Job has exceeded the specified maximal number of failed indexes"
	}
	return "PodFailurePolicy: a failed pod matched a FailJob rule of the podFailurePolicy"
}

// successPolicyMatch is the successPolicy rule an Indexed Job's succeeded
// indexes match (model.SuccessPolicyMatch), -1 for none or no policy.
func successPolicyMatch(spec *model.JobSpec, ds *model.DeploymentState) int {
	if !spec.Indexed || spec.SuccessRuleCount == 0 {
		return -1
	}
	var succeeded [4]uint64
	for k := range spec.Completions {
		if model.JobIndex(ds, k) == model.IndexSucceeded {
			succeeded[k/64] |= 1 << (k % 64)
		}
	}
	return model.SuccessPolicyMatch(spec, succeeded)
}

// enactSuccessPolicy is a sync of a Job with SuccessCriteriaMet: its
// active pods are deleted, and it is Complete (reason SuccessPolicy) once
// none of its pods terminates (enactJobFinished).
func enactSuccessPolicy(tx *model.Tx, s *model.State, d int, c model.JobCounts) {
	name := tx.U.Deployments[d].Name
	if terminating := c.Terminating + deletePods(tx, s, d, "met its success policy"); terminating > 0 {
		if tx.Tracing() {
			tx.Log(Component, "Job %s met its success criteria: SuccessPolicy: Complete waits for %s to terminate", name, terminatingPods(terminating))
		}
		return
	}
	s.Deps[d].JobFinished = model.JobComplete
	if tx.Tracing() {
		tx.Log(Component, "Job %s completed: SuccessPolicy (%d succeeded)", name, c.Succeeded)
	}
}
