package manifest

import (
	"maps"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// A workload's pods are its own in the model (their owner), but
// kube-controller-manager's HPA lists the pods of its target by the
// target's spec.selector. A selector that also selects another
// workload's pods makes the HPA count them in its metrics: the reader
// records those workloads (model.HPADecl.SelectsPodsOf), and warns, since
// the HPA then scales on pods it does not control. And an HPA whose
// listed pods are also selected by another HPA's target finds them
// controlled by multiple HPAs (AmbiguousSelector) and computes no metric
// while such pods exist: the reader records which workloads' pods do that
// (model.HPADecl.SelectorSharedWith) and the model's HPA follows.

// selectedWorkload is a workload whose pods a selector may select.
type selectedWorkload struct {
	key, kind, name, ns string
	labels              map[string]string
	// selector is the workload's spec.selector, converted (nil for a
	// Job, whose selector the Job controller generates).
	selector *model.Selector
	hpa      bool
}

// selects reports whether w's selector selects v's pods.
func (w *selectedWorkload) selects(v *selectedWorkload) bool {
	return w.selector != nil && w.ns == v.ns && w.selector.MatchesLabels(v.labels)
}

// selectorOverlap warns on each HPA (the first of its target) whose
// target's selector selects the pods of another workload of its
// namespace, and records in its declaration the workloads whose pods
// another HPA's target selects too (names maps workload keys to model
// names, and index model names to deployments).
func (as *assembly) selectorOverlap(objs []Object, hpaObjs map[string]Object, names map[string]string, index map[string]int) {
	var ws []selectedWorkload
	for _, o := range objs {
		w := selectedWorkload{kind: o.Kind}
		var sel *LabelSelector
		switch v := o.Value.(type) {
		case *Deployment:
			w.name, w.ns, w.labels, sel = v.Metadata.Name, v.Metadata.Namespace, v.Spec.Template.Metadata.Labels, v.Spec.Selector
		case *StatefulSet:
			w.name, w.ns, w.labels, sel = v.Metadata.Name, v.Metadata.Namespace, v.Spec.Template.Metadata.Labels, v.Spec.Selector
		case *Job:
			w.name, w.ns, w.labels = v.Metadata.Name, v.Metadata.Namespace, v.Spec.Template.Metadata.Labels
		default:
			continue
		}
		w.key = deploymentKey(w.ns, w.name)
		if w.ns == "" {
			w.ns = "default"
		}
		if sel != nil {
			if s, err := convertSelector(func(string, string, ...any) error { return model.ErrInvalid }, sel); err == nil {
				w.selector = &s // a bad selector is the workload's own reading's error
			}
		}
		_, w.hpa = hpaObjs[w.key]
		ws = append(ws, w)
	}
	// selected[i] are the workloads HPA'd workload i's selector selects;
	// selectedBy[j] the HPA'd workloads whose selectors select j's pods.
	selected := make([][]int, len(ws))
	selectedBy := make([][]int, len(ws))
	for i := range ws {
		if !ws[i].hpa {
			continue
		}
		for j := range ws {
			if ws[i].selects(&ws[j]) {
				selected[i] = append(selected[i], j)
				selectedBy[j] = append(selectedBy[j], i)
			}
		}
	}
	for i := range ws {
		a := &ws[i]
		if len(selected[i]) == 0 {
			continue
		}
		o := hpaObjs[a.key]
		var decl *model.HPADecl
		if d, ok := index[names[a.key]]; ok {
			decl = as.c.Deployments[d].HPA
		}
		for _, j := range selected[i] {
			b := &ws[j]
			// Another HPA's target that selects b's pods too.
			other := ""
			if k := slices.IndexFunc(selectedBy[j], func(k int) bool { return k != i }); k >= 0 {
				x := &ws[selectedBy[j][k]]
				other = x.kind + " " + x.name
			}
			if other != "" && decl != nil && len(decl.SharedTarget) == 0 {
				decl.SelectorSharedWith = append(decl.SelectorSharedWith, names[b.key])
			}
			if j == i {
				continue
			}
			if decl != nil && len(decl.SharedTarget) == 0 {
				decl.SelectsPodsOf = append(decl.SelectsPodsOf, names[b.key])
			}
			ambiguous := ""
			if other != "" {
				ambiguous = ", and as the HPA of " + other + " selects them too, both find them controlled by multiple HPAs (AmbiguousSelector) while they exist and scale on no metric, as the model's HPAs do"
			}
			as.warns = append(as.warns, o.at().warning(o.path("spec.scaleTargetRef"), "the selector of %s %s also selects the pods of %s %s (labels %s): kube-controller-manager's HPA reads every pod its target's selector selects, so it counts those pods in its metrics too (the model's HPA does, as upstream), and scales %s on pods it does not control%s; a spec.selector that selects one workload's pods avoids it",
				a.kind, a.key, b.kind, b.key, labelText(b.labels), a.name, ambiguous))
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
