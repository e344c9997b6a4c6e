package manifest

import (
	"maps"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// A workload's pods are its own in the model (their owner), but
// kube-controller-manager's HPA lists the pods of its target by the
// target's spec.selector: a selector that also selects another
// workload's pods makes the HPA count them in its metrics, and where
// some of those pods are also selected by another HPA's target, every
// such HPA finds them controlled by multiple HPAs (AmbiguousSelector)
// and scales on no metric. The model does neither, so the reader says
// so.

// selectedWorkload is a workload whose pods a selector may select.
type selectedWorkload struct {
	key, kind, name, ns string
	labels              map[string]string
	selector            *LabelSelector
	hpa                 bool
}

// warnSelectorOverlap warns on each HPA (first of its target) whose
// target's selector selects the pods of another workload of its
// namespace.
func (as *assembly) warnSelectorOverlap(objs []Object, hpaObjs map[string]Object) {
	var ws []selectedWorkload
	for _, o := range objs {
		w := selectedWorkload{kind: o.Kind}
		switch v := o.Value.(type) {
		case *Deployment:
			w.name, w.ns, w.labels, w.selector = v.Metadata.Name, v.Metadata.Namespace, v.Spec.Template.Metadata.Labels, v.Spec.Selector
		case *StatefulSet:
			w.name, w.ns, w.labels, w.selector = v.Metadata.Name, v.Metadata.Namespace, v.Spec.Template.Metadata.Labels, v.Spec.Selector
		case *Job:
			w.name, w.ns, w.labels = v.Metadata.Name, v.Metadata.Namespace, v.Spec.Template.Metadata.Labels
		default:
			continue
		}
		w.key = deploymentKey(w.ns, w.name)
		if w.ns == "" {
			w.ns = "default"
		}
		_, w.hpa = hpaObjs[w.key]
		ws = append(ws, w)
	}
	for _, a := range ws {
		o, ok := hpaObjs[a.key]
		if !ok || a.selector == nil {
			continue
		}
		sel, err := convertSelector(func(string, string, ...any) error { return model.ErrInvalid }, a.selector)
		if err != nil {
			continue // the workload's own reading reports it
		}
		for _, b := range ws {
			if b.key == a.key || b.ns != a.ns || !sel.MatchesLabels(b.labels) {
				continue
			}
			ambiguous := ""
			if b.hpa {
				ambiguous = ", and as an HPA scales " + b.kind + " " + b.name + " too, both find those pods controlled by multiple HPAs (AmbiguousSelector) while they exist and scale on no metric"
			}
			as.warns = append(as.warns, o.at().warning(o.path("spec.scaleTargetRef"), "the selector of %s %s also selects the pods of %s %s (labels %s): kube-controller-manager's HPA reads every pod its target's selector selects, so it counts those pods in its metrics too%s; the model's HPA reads %s's own pods only (accepted: a spec.selector that selects one workload's pods)",
				a.kind, a.key, b.kind, b.key, labelText(b.labels), ambiguous, a.name))
		}
	}
}

// labelText writes labels as a selector would: k=v, sorted by key.
func labelText(labels map[string]string) string {
	parts := make([]string, 0, len(labels))
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		parts = append(parts, k+"="+labels[k])
	}
	return strings.Join(parts, ",")
}
