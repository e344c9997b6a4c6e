package script

import "fmt"

// job name=J template=T [parallelism=1] [completions=N|unset]
// [backoff-limit=6] [suspend] [inactive]: a Job (and its config, named
// J); completions default 1, unset is the work-queue mode.
func (e *Env) job(c Command) (string, error) {
	name := c.Arg("name", "")
	t, err := e.templateIndex(c.Arg("template", ""))
	if err != nil {
		return "", err
	}
	parallelism, err := intArg(c, "parallelism", 1)
	if err != nil {
		return "", err
	}
	d := e.b.AddJob(name, t, parallelism)
	e.deployments[name] = d
	e.configs[name] = len(e.b.U.Configs) - 1
	spec := &e.b.Config(d).Job
	if v := c.Arg("completions", "1"); v == "unset" {
		spec.WorkQueue = true
	} else if spec.Completions, err = intArg(c, "completions", 1); err != nil {
		return "", err
	}
	if spec.BackoffLimit, err = intArg(c, "backoff-limit", 6); err != nil {
		return "", err
	}
	if spec.Completions < 0 || spec.BackoffLimit < 0 {
		return "", fmt.Errorf("job %s: completions and backoff-limit must not be negative", name)
	}
	spec.Suspend = c.Has("suspend")
	if c.Has("inactive") {
		e.b.Inactive(d)
	}
	return "", nil
}
