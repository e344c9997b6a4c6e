package manifest

import (
	"maps"
	"slices"
	"strconv"
)

// RuntimeClasses. The API server's RuntimeClass admission plugin gives a
// pod that names a RuntimeClass (spec.runtimeClassName) the class's pod
// overhead (spec.overhead), merges the class's scheduling nodeSelector
// into the pod's and appends its tolerations
// (plugin/pkg/admission/runtimeclass, v1.36). A pod naming a class that
// does not exist, whose own overhead differs from the class's, or whose
// nodeSelector conflicts with the class's, is refused: input errors here.
// The scheduler, the kubelet and quotas then see the pod as admitted.

// RuntimeClass is the part of a node.k8s.io/v1 RuntimeClass the model
// reads.
type RuntimeClass struct {
	TypeMeta
	Metadata ObjectMeta `json:"metadata"`
	Handler  string     `json:"handler"`
	Overhead *struct {
		PodFixed map[string]QuantityText `json:"podFixed"`
	} `json:"overhead"`
	Scheduling *struct {
		NodeSelector map[string]string `json:"nodeSelector"`
		Tolerations  []Toleration      `json:"tolerations"`
	} `json:"scheduling"`
}

// podTemplatesOf returns the pod specs an object's controller creates
// pods from, with their paths (a bare Pod's own spec).
func podTemplatesOf(o Object) (specs []*PodSpec, paths []string) {
	switch v := o.Value.(type) {
	case *Deployment:
		return []*PodSpec{&v.Spec.Template.Spec}, []string{"spec.template.spec"}
	case *StatefulSet:
		return []*PodSpec{&v.Spec.Template.Spec}, []string{"spec.template.spec"}
	case *DaemonSet:
		return []*PodSpec{&v.Spec.Template.Spec}, []string{"spec.template.spec"}
	case *Job:
		return []*PodSpec{&v.Spec.Template.Spec}, []string{"spec.template.spec"}
	case *CronJob:
		return []*PodSpec{&v.Spec.JobTemplate.Spec.Template.Spec}, []string{"spec.jobTemplate.spec.template.spec"}
	case *Pod:
		return []*PodSpec{&v.Spec}, []string{"spec"}
	}
	return nil, nil
}

// admitRuntimeClasses applies the RuntimeClass admission to every pod
// template among objs, in place.
func admitRuntimeClasses(objs []Object) error {
	classes := map[string]*RuntimeClass{}
	seen := firstSeen{}
	for _, o := range objs {
		rc, ok := o.Value.(*RuntimeClass)
		if !ok {
			continue
		}
		if err := seen.add(o, "RuntimeClass", rc.Metadata.Name, "name"); err != nil {
			return err
		}
		if rc.Handler == "" {
			return o.at().errorf(o.path("handler"), "required (accepted: the name of a CRI runtime handler)")
		}
		classes[rc.Metadata.Name] = rc
	}
	for _, o := range objs {
		specs, paths := podTemplatesOf(o)
		for i, spec := range specs {
			if spec.RuntimeClassName == "" {
				continue
			}
			if err := admitRuntimeClass(o, paths[i], spec, classes); err != nil {
				return err
			}
		}
	}
	return nil
}

// admitRuntimeClass is the admission of one pod spec (at path).
func admitRuntimeClass(o Object, path string, spec *PodSpec, classes map[string]*RuntimeClass) error {
	a := o.at()
	rc, ok := classes[spec.RuntimeClassName]
	if !ok {
		names := slices.Sorted(maps.Keys(classes))
		return a.errorf(o.path(path+".runtimeClassName"), "RuntimeClass %s not found: the API server refuses the pod (accepted: a RuntimeClass of the manifests: %v)", strconv.Quote(spec.RuntimeClassName), names)
	}
	if rc.Overhead != nil && len(rc.Overhead.PodFixed) > 0 {
		if spec.Overhead != nil && !sameQuantities(spec.Overhead, rc.Overhead.PodFixed) {
			return a.errorf(o.path(path+".overhead"), "differs from RuntimeClass %s's overhead: the API server refuses the pod (accepted: no overhead, or the class's)", rc.Metadata.Name)
		}
		spec.Overhead = maps.Clone(rc.Overhead.PodFixed)
	}
	if s := rc.Scheduling; s != nil {
		for k, v := range s.NodeSelector {
			if own, ok := spec.NodeSelector[k]; ok && own != v {
				return a.errorf(o.path(path+".nodeSelector."+k), "%s conflicts with RuntimeClass %s's scheduling nodeSelector %s=%s: the API server refuses the pod (accepted: the class's value or none)", strconv.Quote(own), rc.Metadata.Name, k, v)
			}
		}
		if len(s.NodeSelector) > 0 {
			merged := maps.Clone(spec.NodeSelector)
			if merged == nil {
				merged = map[string]string{}
			}
			maps.Copy(merged, s.NodeSelector)
			spec.NodeSelector = merged
		}
		spec.Tolerations = append(slices.Clip(spec.Tolerations), s.Tolerations...)
	}
	return nil
}

// sameQuantities reports whether two resource lists write the same
// quantities (compared by value: 1000m is 1).
func sameQuantities(a, b map[string]QuantityText) bool {
	if len(a) != len(b) {
		return false
	}
	for name, qa := range a {
		qb, ok := b[name]
		if !ok {
			return false
		}
		pa, errA := qa.Parse()
		pb, errB := qb.Parse()
		if errA != nil || errB != nil || pa.Rat().Cmp(pb.Rat()) != 0 {
			return false
		}
	}
	return true
}
