package model

import "fmt"

// kubectl rollout restart stamps the pod template of a Deployment with
// the time (the kubectl.kubernetes.io/restartedAt annotation): the
// template changes, so the Deployment controller rolls out a new
// ReplicaSet of pods identical to the old ones, within maxSurge and
// maxUnavailable, and the replicas stay as they are. The model has no
// annotations: a RolloutRestart event gets, for every configuration the
// deployment may have when it runs (its own and those of the manifests
// applied to it), a copy of the configuration with a copy of its pod
// template, which the event switches the deployment to. Two templates
// with equal contents are two revisions, as two restartedAt values are.

// ConfigRestart is one configuration a RolloutRestart switches from, and
// the restarted copy it switches to.
type ConfigRestart struct {
	From, To int
}

// RestartedConfig returns the configuration a RolloutRestart event e
// switches config c to, and whether it has one.
func (e *Event) RestartedConfig(c int) (int, bool) {
	for _, r := range e.Restarts {
		if r.From == c {
			return r.To, true
		}
	}
	return 0, false
}

// addRestartCopies gives RolloutRestart event ev a restarted copy of every
// configuration in configs (the deployment's), and appends the copies to
// configs: a later restart of the same deployment restarts them too.
// decls holds the declaration of every template of u, copies included,
// and grows with them.
func (u *Universe) addRestartCopies(ev *Event, configs *[]int, decls *[]TemplateDecl, look lookup) error {
	from := len(ev.Restarts)
	for _, k := range *configs {
		cfg := u.Configs[k]
		td := (*decls)[cfg.PodTemplate]
		pt, err := td.compile(look.nodes)
		if err != nil {
			return fmt.Errorf("template %s: %w", td.Name, err)
		}
		u.Templates = append(u.Templates, pt)
		*decls = append(*decls, td)
		cfg.PodTemplate = len(u.Templates) - 1
		u.Configs = append(u.Configs, cfg)
		ev.Restarts = append(ev.Restarts, ConfigRestart{From: k, To: len(u.Configs) - 1})
	}
	for _, r := range ev.Restarts[from:] {
		*configs = append(*configs, r.To)
	}
	return nil
}
