package intents

import (
	"fmt"

	"github.com/kivi-go/kivi/model"
)

// addCronJobRun records workload d of Check's universe as a run of
// CronJob name and returns the workload's model.Deployment.CronJob.
func addCronJobRun(u *model.Universe, name string, d int) int {
	for c := range u.CronJobs {
		if u.CronJobs[c].Name == name {
			u.CronJobs[c].Runs = append(u.CronJobs[c].Runs, d)
			return c + 1
		}
	}
	u.CronJobs = append(u.CronJobs, model.CronJob{Name: name, Runs: []int{d}})
	return len(u.CronJobs)
}

// cronJobParam resolves an intent's deployment parameter that names a
// CronJob rather than a workload (isCronJob false when it does not): the
// CronJob's run when it has one (concurrencyPolicy Forbid or Replace);
// with several runs (Allow), an error naming them. job_completes of a
// CronJob is refused: a CronJob runs forever.
func cronJobParam(u *model.Universe, name string, jobCompletes bool) (d int, isCronJob bool, err error) {
	for c := range u.CronJobs {
		cj := &u.CronJobs[c]
		if cj.Name != name {
			continue
		}
		switch {
		case jobCompletes:
			return 0, true, cronJobCompletes(u, c)
		case len(cj.Runs) == 1:
			return cj.Runs[0], true, nil
		}
		return 0, true, &ParamError{Param: "deployment", Msg: fmt.Sprintf("%q is a CronJob whose runs may overlap (concurrencyPolicy Allow), each a Job of its own (accepted: one of its runs: %s)", name, u.CronJobRunNames(c))}
	}
	return 0, false, nil
}

// cronJobCompletes is the error of job_completes about CronJob c or one
// of its runs.
func cronJobCompletes(u *model.Universe, c int) error {
	return &ParamError{Param: "deployment", Msg: fmt.Sprintf("%s is CronJob %s (or one of its runs), which starts a new run whenever its schedule fires and never completes for good (accepted: a Job: %s; for a CronJob, pod_always_schedulable, or no_oscillation_eviction or no_oscillation_rejection naming a run: %s)",
		quoted(u.CronJobs[c].Name), u.CronJobs[c].Name, kindNames(u, true), u.CronJobRunNames(c))}
}
