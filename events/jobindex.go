package events

import "github.com/kivi-go/kivi/model"

// jobIndexSucceeded records the success of pod p of an Indexed Job in its
// index's status (status.completedIndexes) and reports whether the index
// had succeeded before: status.succeeded counts the succeeded indexes,
// each once (calculateSucceededIndexes).
func jobIndexSucceeded(u *model.Universe, ds *model.DeploymentState, p *model.PodState) (before bool) {
	spec := &u.Configs[ds.Config].Job
	k := p.IndexOf()
	if !spec.Indexed || k < 0 || k >= spec.Completions {
		return false
	}
	if model.JobIndex(ds, k) == model.IndexSucceeded {
		return true
	}
	model.SetJobIndex(ds, spec.Completions, k, model.IndexSucceeded)
	return false
}
