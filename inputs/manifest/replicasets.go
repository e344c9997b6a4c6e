package manifest

import (
	"fmt"
	"maps"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// A dump's Deployment runs the pods of its ReplicaSets, which the dump
// may hold (kubectl get deployments,replicasets,pods -o yaml). The set of
// the Deployment's template is the one whose spec.template equals it but
// for pod-template-hash (upstream's EqualIgnoreHash, here over the stored
// templates, Object.PodTemplate); the others are of older templates.
// From them the reader takes:
//   - a Deployment in the middle of a rollout (the set of its template
//     and one older set with replicas): both sets, their spec.replicas and
//     each pod in its own set (DeploymentDecl.OldReplicaSet,
//     InitialPod.OldReplicaSet), so the Deployment controller goes on
//     with the rollout from where it is;
//   - a paused Deployment whose template changed while it was paused (no
//     set of its template, one older set with replicas): upstream's paused
//     sync creates no ReplicaSet for the new template and keeps that set's
//     pods, and `kubectl rollout resume` rolls the new template out
//     (DeploymentDecl.RolledOutTemplate).
// Elsewhere the pods are taken as the current template's, with a warning
// where the dump cannot tell.

// replicaSets is what the dump says about one Deployment's ReplicaSets.
type replicaSets struct {
	// current is the set of the Deployment's template, nil when the dump
	// has none.
	current *Object
	// older are the other sets with replicas.
	older []Object
	// any: the dump has some ReplicaSet of the Deployment.
	any bool
}

// dumpReplicaSets finds Deployment o's ReplicaSets among objs.
func dumpReplicaSets(o Object, objs []Object) replicaSets {
	d := o.Value.(*Deployment)
	var rs replicaSets
	for i, r := range objs {
		set, isRS := r.Value.(*ReplicaSet)
		if !isRS || set.Metadata.Namespace != d.Metadata.Namespace || !ownedBy(set.Metadata.OwnerReferences, "Deployment", d.Metadata.Name) {
			continue
		}
		rs.any = true
		switch {
		case r.PodTemplate == o.PodTemplate && rs.current == nil:
			rs.current = &objs[i]
		case set.Spec.Replicas == nil || *set.Spec.Replicas > 0:
			rs.older = append(rs.older, r)
		}
	}
	return rs
}

// replicaSetHash is a ReplicaSet's pod-template-hash: its label, else its
// name's suffix after the Deployment's.
func replicaSetHash(r Object, deployment string) string {
	set := r.Value.(*ReplicaSet)
	if h := set.Metadata.Labels[podTemplateHashLabel]; h != "" {
		return h
	}
	return strings.TrimPrefix(set.Metadata.Name, deployment+"-")
}

// replicaSetsOf sets a dump's Deployment dd (model name name, object o)
// from its ReplicaSets: RolledOutTemplate or OldReplicaSet and
// NewReplicas, with the older set's template added to the cluster and
// its hash recorded for the pods (as.oldHashes). decl reads a template
// as o's was read.
func (as *assembly) replicaSetsOf(dd *model.DeploymentDecl, o Object, objs []Object, decl func(Object) (model.TemplateDecl, error)) {
	d := o.Value.(*Deployment)
	rs := dumpReplicaSets(o, objs)
	switch {
	case !rs.any && dd.RolledOut && d.Status.Replicas > 0:
		as.warns = append(as.warns, o.at().warning(o.path("spec.paused"), "Deployment %s is paused and the input has none of its ReplicaSets: its pods are taken as pods of its current template, so a template changed while it was paused is not rolled out on resume (add its ReplicaSets to the dump: kubectl get replicasets -o yaml)", dd.Name))
		return
	case len(rs.older) > 1:
		as.warns = append(as.warns, o.at().warning(o.path("spec.template"), "Deployment %s has %d ReplicaSets of older templates with replicas: its pods are taken as pods of its current template (the model follows one older ReplicaSet)", dd.Name, len(rs.older)))
		return
	case len(rs.older) == 0:
		return // rolled out
	case rs.current == nil && !dd.RolledOut:
		as.warns = append(as.warns, o.at().warning(o.path("spec.template"), "Deployment %s has no ReplicaSet of its template yet (its controller has not synced the change): its pods are taken as pods of its current template, so that rollout is not explored", dd.Name))
		return
	}
	old := rs.older[0]
	td, ok := as.replicaSetTemplate(dd.Name, o, old, decl)
	if !ok {
		return
	}
	as.c.Templates = append(as.c.Templates, td)
	if rs.current == nil {
		dd.RolledOutTemplate = td.Name
		return
	}
	oldReplicas := 1
	if r := old.Value.(*ReplicaSet).Spec.Replicas; r != nil {
		oldReplicas = int(*r)
	}
	newReplicas := 1
	if r := rs.current.Value.(*ReplicaSet).Spec.Replicas; r != nil {
		newReplicas = int(*r)
	}
	dd.OldReplicaSet = &model.ReplicaSetDecl{Template: td.Name, Replicas: oldReplicas}
	dd.NewReplicas = &newReplicas
	if as.oldHashes == nil {
		as.oldHashes = map[string][2]string{}
	}
	as.oldHashes[dd.Name] = [2]string{replicaSetHash(*rs.current, d.Metadata.Name), replicaSetHash(old, d.Metadata.Name)}
}

// replicaSetTemplate reads ReplicaSet r's template as Deployment o's
// (model name name) was read; false, with a warning, when the model
// cannot read it.
func (as *assembly) replicaSetTemplate(name string, o, r Object, decl func(Object) (model.TemplateDecl, error)) (model.TemplateDecl, bool) {
	set := r.Value.(*ReplicaSet)
	dep := *o.Value.(*Deployment)
	dep.Spec.Template = set.Spec.Template
	dep.Spec.Template.Metadata.Labels = maps.Clone(set.Spec.Template.Metadata.Labels)
	// The model gives pod-template-hash to every pod by its template
	// (model.PodTemplateHashKey), as to the current template's.
	delete(dep.Spec.Template.Metadata.Labels, podTemplateHashLabel)
	ro := o
	ro.Value, ro.PodTemplate = &dep, r.PodTemplate
	td, err := decl(ro)
	if err != nil {
		as.warns = append(as.warns, r.at().warning(r.path("spec.template"), "Deployment %s runs pods of its ReplicaSet %s, whose template the model cannot read (%v): they are taken as pods of its current template", name, set.Metadata.Name, err))
		return td, false
	}
	td.Name = fmt.Sprintf("replicaset:%s", deploymentKey(set.Metadata.Namespace, set.Metadata.Name))
	return td, true
}

// ownedBy reports whether refs name a controller of that kind and name.
func ownedBy(refs []OwnerReference, kind, name string) bool {
	for _, r := range refs {
		if r.Kind == kind && r.Name == name && (r.Controller == nil || *r.Controller) {
			return true
		}
	}
	return false
}

const podTemplateHashLabel = model.PodTemplateHashKey
