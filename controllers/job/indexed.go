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
