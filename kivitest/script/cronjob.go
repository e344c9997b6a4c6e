package script

import (
	"fmt"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// cronjob name=C runs=J[,J2] [policy=Allow|Forbid|Replace] [suspend]: a
// CronJob whose run slots are the Jobs named (declared with job …
// inactive); policy defaults to Allow, as the API server's.
func (e *Env) cronJob(c Command) (string, error) {
	name := c.Arg("name", "")
	policy, err := model.ParseConcurrencyPolicy(c.Arg("policy", ""))
	if err != nil {
		return "", err
	}
	cj := model.CronJob{Name: name, Policy: policy, Suspend: c.Has("suspend")}
	for _, run := range strings.Split(c.Arg("runs", ""), ",") {
		d, ok := e.deployments[run]
		if !ok || e.b.U.Deployments[d].Kind != model.KindJob {
			return "", fmt.Errorf("cronjob %s: runs=%s: no such job", name, run)
		}
		e.b.Inactive(d)
		e.b.U.Deployments[d].CronJob = len(e.b.U.CronJobs) + 1
		cj.Runs = append(cj.Runs, d)
	}
	e.b.U.CronJobs = append(e.b.U.CronJobs, cj)
	return "", nil
}
