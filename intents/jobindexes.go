package intents

import (
	"fmt"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// indexedJobFailure is job_completes' message for an Indexed Job that
// failed, or is failing, by its indexes: the reason and the failed
// indexes (status.failedIndexes).
func indexedJobFailure(u *model.Universe, s *model.State, d int, c model.JobCounts) string {
	ds := &s.Deps[d]
	spec := &u.Configs[ds.Config].Job
	ic := model.CountIndexes(u, s, d)
	var failed []string
	for k := range spec.Completions {
		if ic.IsFailed(k) {
			failed = append(failed, fmt.Sprint(k))
		}
	}
	reason := "FailedIndexes"
	if ds.JobFinished == model.JobFailedMaxFailedIndexes || ds.JobFinished == model.JobFailureTargetMaxFailedIndexes {
		reason = fmt.Sprintf("MaxFailedIndexesExceeded (maxFailedIndexes %d)", spec.MaxFailedIndexes)
	}
	msg := fmt.Sprintf("job %s failed: %s: failed indexes %s, %d of %d succeeded (backoffLimitPerIndex %d)", u.Deployments[d].Name, reason, strings.Join(failed, ","), ic.Succeeded, spec.Completions, spec.BackoffLimitPerIndex)
	if ds.JobFinished.FailureTarget() {
		msg = strings.Replace(msg, " failed: ", " is failing: ", 1) + fmt.Sprintf("; Failed waits for %d pods terminating", c.Terminating)
	}
	return msg
}
