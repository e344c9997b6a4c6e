package manifest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// applyManifest reads the Deployment manifest an applyDeployment or
// createDeployment event names (manifest: FILE), adds it to the cluster
// as a deployment template and returns the template's name.
//
// The file is what the platform engineer would pass to `kubectl apply
// -f`: the Deployment's metadata.name says which Deployment it updates
// (or creates), its spec is the new desired state: replicas (absent: the
// API server's default of 1, which is how a re-apply undoes an HPA's
// scaling), strategy and the pod template. Keeping it out of the main
// manifests keeps the cluster's starting state one object per name, as
// in the API server.
func (r *intentsReader) applyManifest(path string, v any, kind string) (string, error) {
	rel, ok := v.(string)
	if !ok || strings.TrimSpace(rel) == "" {
		return "", r.a.errorf(path, "%s (accepted: the path of a file holding one Deployment manifest, relative to the intents file, e.g. web-v2.yaml)", describeValue(v))
	}
	if name, seen := r.applied[rel]; seen {
		return name, nil
	}
	file := rel
	if !filepath.IsAbs(rel) {
		file = filepath.Join(filepath.Dir(r.a.file), rel)
	}
	read := r.opts.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	data, err := read(file)
	if err != nil {
		msg := err.Error()
		if errors.Is(err, fs.ErrNotExist) {
			msg = "no such file"
		}
		return "", r.a.errorf(path, "%s: %s (accepted: the path of a file holding one Deployment manifest, relative to the intents file)", file, msg)
	}
	if isBlank(data) {
		return "", r.a.errorf(path, "%s is empty (accepted: a file holding one Deployment manifest)", file)
	}
	objs, w, err := decode(file, data, objectCounts{})
	if err != nil {
		return "", err
	}
	var dep *Object
	for i, o := range objs {
		if o.Kind != "Deployment" && o.Kind != "StatefulSet" {
			return "", o.at().errorf(o.path("kind"), "%s in the manifest applied by %s %s (accepted: one Deployment or StatefulSet; an HPA or a Node belongs in the cluster's manifests)", o.Kind, r.a.file, path)
		}
		if dep != nil {
			return "", o.at().errorf(o.path(""), "a second Deployment in the manifest applied by %s %s (accepted: one Deployment per file)", r.a.file, path)
		}
		dep = &objs[i]
	}
	if dep == nil {
		return "", r.a.errorf(path, "%s holds no Deployment (accepted: a file holding one Deployment manifest)", file)
	}
	meta, _ := workloadMeta(*dep)
	target := r.modelName(meta.Namespace, meta.Name)
	if kind == "createDeployment" && slices.Contains(r.deployments, target) {
		return "", dep.at().errorf(dep.path("metadata.name"), "%q is a Deployment of the manifests: createDeployment would fail (accepted: a new name; applyDeployment updates an existing Deployment)", target)
	}
	// The template is named after the file: a colon cannot occur in a
	// Kubernetes name, so it never collides with a Deployment's template.
	name := "manifest:" + rel
	decl := deploymentDecl
	if dep.Kind == "StatefulSet" {
		decl = statefulSetDecl
	}
	dd, td, err := decl(*dep, name, labelsOf(r.c.NodeTypes, r.c.KiviHostnameAlias), newPriorityClassTable(r.c.PriorityClasses), r.limits, r.warns)
	if err != nil {
		return "", err
	}
	*r.warns = append(*r.warns, w...)
	dt := model.DeploymentTemplateDecl{Name: name, Deployment: target, Template: name,
		Strategy: dd.Strategy, MaxSurge: dd.MaxSurge, MaxUnavailable: dd.MaxUnavailable,
		Kind: dd.Kind, PodManagementPolicy: dd.PodManagementPolicy, Partition: dd.Partition, OrdinalsStart: dd.OrdinalsStart}
	if v, ok := dep.Value.(*Deployment); ok && v.Spec.Paused != nil {
		paused := *v.Spec.Paused
		dt.Paused = &paused
	}
	if replicasGiven(*dep) {
		n := dd.Replicas
		dt.Replicas = &n
	}
	// A pod template as the workload has it already keeps its
	// pod-template-hash (StatefulSet revision): the apply changes the
	// spec around it and rolls nothing out.
	key := target + "\x00" + dep.PodTemplate
	if same, ok := r.samePodTemplate[key]; ok && dep.PodTemplate != "" {
		dt.Template = same
	} else {
		r.c.Templates = append(r.c.Templates, td)
		r.samePodTemplate[key] = name
	}
	r.c.DeploymentTemplates = append(r.c.DeploymentTemplates, dt)
	r.applied[rel] = name
	return name, nil
}

// modelName is the model's name of the Deployment namespace/name: its
// name, or namespace/name when the manifests hold that name in two
// namespaces (see assembly.workloads).
func (r *intentsReader) modelName(ns, name string) string {
	if key := deploymentKey(ns, name); slices.Contains(r.deployments, key) {
		return key
	}
	return name
}

// templateHint names the case-file alternative when the input has
// deployment templates.
func (r *intentsReader) templateHint() string {
	if t := r.templateNames(); len(t) > 0 {
		return "; or template: one of " + shortList(t)
	}
	return ""
}
