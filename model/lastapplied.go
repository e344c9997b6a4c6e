package model

// kubectl apply (client-side, kubectl's default) merges three ways: the
// configuration it applied last (the object's
// kubectl.kubernetes.io/last-applied-configuration annotation), the file
// it applies now and the live object. A field the last configuration set
// and the new file leaves out is deleted; a field neither sets is left as
// it lives. For spec.replicas that is the difference between a re-apply
// that scales a Deployment back to 1 (the API server's default, once the
// field is deleted) and one that keeps what the HPA or `kubectl scale`
// wrote: the first apply of a manifest from which spec.replicas was
// removed resets it, every later one does not. `kubectl create` saves no
// configuration, so nothing is deleted by the next apply.
//
// The model knows, per Deployment, whether its last-applied configuration
// sets spec.replicas (DeploymentDecl.ReplicasUnset for the manifests the
// cluster starts from, DeploymentTemplate.Replicas for each applied file).
// It tracks it in the state (DeploymentState.LastAppliedOmitsReplicas)
// only in universes where it can change between applies: where some
// Deployment is the target of two apply or create commands and some
// applied file leaves spec.replicas out. Elsewhere a Deployment meets at
// most one apply, whose predecessor is the manifest it started from.

// tracksLastApplied reports whether the states of u carry
// DeploymentState.LastAppliedOmitsReplicas (see above).
func tracksLastApplied(u *Universe) bool {
	omits := false
	for _, t := range u.DeploymentTemplates {
		omits = omits || t.Replicas == nil
	}
	if !omits {
		return false
	}
	commands := map[string]int{}
	for _, e := range u.Events {
		if e.Kind != ApplyDeployment && e.Kind != CreateDeployment {
			continue
		}
		name := u.DeploymentTemplates[e.Template].Name
		if commands[name]++; commands[name] > 1 {
			return true
		}
	}
	return false
}

// LastAppliedOmitsReplicas reports whether the last configuration
// `kubectl apply` saved on deployment d leaves spec.replicas out (or none
// was saved: the deployment was created by `kubectl create`).
func (u *Universe) LastAppliedOmitsReplicas(s *State, d int) bool {
	if u.lastApplied {
		return s.Deps[d].LastAppliedOmitsReplicas
	}
	return u.Deployments[d].ReplicasUnset
}

// SetLastApplied records what the configuration just saved on deployment
// d says about spec.replicas, where the states track it.
func (u *Universe) SetLastApplied(s *State, d int, omitsReplicas bool) {
	if u.lastApplied {
		s.Deps[d].LastAppliedOmitsReplicas = omitsReplicas
	}
}
