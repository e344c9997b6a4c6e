package manifest

import (
	"fmt"
	"maps"

	"github.com/kivi-go/kivi/model"
)

// A dump's paused Deployment runs the pods of the ReplicaSet it was
// rolled out with. When its pod template changed while it was paused
// (kubectl apply or set image on a paused Deployment), upstream's paused
// sync creates no ReplicaSet for the new template and keeps that set's
// pods, and `kubectl rollout resume` rolls the new template out. The dump
// tells which template the pods have from the Deployment's ReplicaSets:
// the set of a template is the one whose spec.template equals it but for
// pod-template-hash (upstream's EqualIgnoreHash, here over the stored
// templates, Object.PodTemplate).

// rolledOutTemplate returns the template a dump's paused Deployment o
// (model name name) was rolled out with when it is not its current one:
// the dump has no ReplicaSet of o's template and exactly one of another
// template with replicas. ok is false otherwise (the pods are then
// taken as the current template's), with a warning where the dump
// cannot tell. decl reads the ReplicaSet's template as it read o's.
func (as *assembly) rolledOutTemplate(o Object, name string, objs []Object, decl func(Object) (model.TemplateDecl, error)) (td model.TemplateDecl, ok bool) {
	d := o.Value.(*Deployment)
	var sets []Object
	for _, r := range objs {
		rs, isRS := r.Value.(*ReplicaSet)
		if !isRS || rs.Metadata.Namespace != d.Metadata.Namespace || !ownedBy(rs.Metadata.OwnerReferences, "Deployment", d.Metadata.Name) {
			continue
		}
		if r.PodTemplate == o.PodTemplate {
			return td, false
		}
		if rs.Spec.Replicas == nil || *rs.Spec.Replicas > 0 {
			sets = append(sets, r)
		}
	}
	switch {
	case len(sets) == 0 && d.Status.Replicas > 0:
		as.warns = append(as.warns, o.at().warning(o.path("spec.paused"), "Deployment %s is paused and the input has none of its ReplicaSets: its pods are taken as pods of its current template, so a template changed while it was paused is not rolled out on resume (add its ReplicaSets to the dump: kubectl get replicasets -o yaml)", name))
		return td, false
	case len(sets) == 0:
		return td, false
	case len(sets) > 1:
		as.warns = append(as.warns, o.at().warning(o.path("spec.paused"), "Deployment %s is paused with pods of %d ReplicaSets of older templates: its pods are taken as pods of its current template (the model follows one older ReplicaSet)", name, len(sets)))
		return td, false
	}
	r := sets[0]
	rs := r.Value.(*ReplicaSet)
	dep := *d
	dep.Spec.Template = rs.Spec.Template
	dep.Spec.Template.Metadata.Labels = maps.Clone(rs.Spec.Template.Metadata.Labels)
	// The model gives pod-template-hash to every pod by its template
	// (model.PodTemplateHashKey), as to the current template's.
	delete(dep.Spec.Template.Metadata.Labels, podTemplateHashLabel)
	ro := o
	ro.Value, ro.PodTemplate = &dep, r.PodTemplate
	td, err := decl(ro)
	if err != nil {
		as.warns = append(as.warns, r.at().warning(r.path("spec.template"), "Deployment %s is paused with the pods of its ReplicaSet %s, whose template the model cannot read (%v): its pods are taken as pods of its current template", name, rs.Metadata.Name, err))
		return td, false
	}
	td.Name = fmt.Sprintf("replicaset:%s", deploymentKey(rs.Metadata.Namespace, rs.Metadata.Name))
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
