package scheddiff

import (
	"fmt"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// Inter-pod affinity in snapshots: the pending pod and every existing pod
// may carry pod affinity and anti-affinity (model.PodAffinityDecl, as a
// case file writes it), translated to a template's terms on the model side
// and to spec.affinity.podAffinity / podAntiAffinity on the real side.
// Every pod is in one namespace, so a term's default namespaces (the pod's
// own) hold every pod but the reservation placeholders.

// affinityKeys are the topology keys terms draw: the node label keys and
// the two hostname keys.
var affinityKeys = []string{ZoneKey, DiskKey, model.HostnameKey, model.KiviHostnameKey}

// genPodAffinity draws a pod's affinity or anti-affinity: absent in most
// draws (present in one of every), else up to one required term (required
// terms reject many nodes) and two preferred ones.
func genPodAffinity(t *rapid.T, label string, every int) *model.PodAffinityDecl {
	if !oneIn(t, every, label) {
		return nil
	}
	d := &model.PodAffinityDecl{}
	for range rapid.IntRange(0, 1).Draw(t, label+"Required") {
		d.Required = append(d.Required, genAffinityTerm(t))
	}
	for range rapid.IntRange(0, 2).Draw(t, label+"Preferred") {
		d.Preferred = append(d.Preferred, model.WeightedPodAffinityTermDecl{Weight: rapid.IntRange(1, 100).Draw(t, "podAffinityWeight"), Term: genAffinityTerm(t)})
	}
	if len(d.Required)+len(d.Preferred) == 0 {
		return nil
	}
	return d
}

// labelKeys renders a term's matchLabelKeys and mismatchLabelKeys.
func labelKeys(x model.PodAffinityTermDecl) string {
	var s string
	if len(x.MatchLabelKeys) > 0 {
		s += fmt.Sprintf(" matchLabelKeys %v", x.MatchLabelKeys)
	}
	if len(x.MismatchLabelKeys) > 0 {
		s += fmt.Sprintf(" mismatchLabelKeys %v", x.MismatchLabelKeys)
	}
	return s
}

func genAffinityTerm(t *rapid.T) model.PodAffinityTermDecl {
	term := model.PodAffinityTermDecl{TopologyKey: rapid.SampledFrom(affinityKeys).Draw(t, "podAffinityKey")}
	switch rapid.IntRange(0, 6).Draw(t, "podAffinitySelector") {
	case 0, 1:
		term.LabelSelector = &model.Selector{MatchLabels: map[string]string{appLabel: incomingApp}}
	case 2:
		term.LabelSelector = &model.Selector{MatchLabels: map[string]string{appLabel: "web"}}
	case 3:
		term.LabelSelector = &model.Selector{MatchExpressions: []model.Requirement{{Key: appLabel, Operator: model.OpIn, Values: []string{"db", incomingApp}}}}
	case 4:
		term.LabelSelector = &model.Selector{MatchExpressions: []model.Requirement{{Key: "tier", Operator: model.OpExists}}}
	case 5:
		term.LabelSelector = &model.Selector{}
	} // 6: nil, which matches no pod
	term.MatchLabelKeys = genLabelKeys(t, "podAffinityMatchLabelKeys")
	term.MismatchLabelKeys = genLabelKeys(t, "podAffinityMismatchLabelKeys")
	return term
}

// setPodAffinity gives a model template the declared terms.
func setPodAffinity(t *model.PodTemplate, aff, anti *model.PodAffinityDecl) {
	terms := func(d *model.PodAffinityDecl) (req []model.PodAffinityTerm, pref []model.WeightedPodAffinityTerm) {
		if d == nil {
			return nil, nil
		}
		for _, x := range d.Required {
			req = append(req, model.PodAffinityTerm{Selector: x.LabelSelector, TopologyKey: x.TopologyKey,
				MatchLabelKeys: x.MatchLabelKeys, MismatchLabelKeys: x.MismatchLabelKeys})
		}
		for _, x := range d.Preferred {
			pref = append(pref, model.WeightedPodAffinityTerm{Weight: x.Weight,
				Term: model.PodAffinityTerm{Selector: x.Term.LabelSelector, TopologyKey: x.Term.TopologyKey,
					MatchLabelKeys: x.Term.MatchLabelKeys, MismatchLabelKeys: x.Term.MismatchLabelKeys}})
		}
		return req, pref
	}
	t.PodAffinity, t.PreferredPodAffinity = terms(aff)
	t.PodAntiAffinity, t.PreferredPodAntiAffinity = terms(anti)
}

// templateAffinity returns a model template's terms as declarations.
func templateAffinity(t *model.PodTemplate) (aff, anti *model.PodAffinityDecl) {
	decl := func(req []model.PodAffinityTerm, pref []model.WeightedPodAffinityTerm) *model.PodAffinityDecl {
		if len(req)+len(pref) == 0 {
			return nil
		}
		d := &model.PodAffinityDecl{}
		for _, x := range req {
			d.Required = append(d.Required, model.PodAffinityTermDecl{LabelSelector: x.Selector, TopologyKey: x.TopologyKey,
				MatchLabelKeys: x.MatchLabelKeys, MismatchLabelKeys: x.MismatchLabelKeys})
		}
		for _, x := range pref {
			d.Preferred = append(d.Preferred, model.WeightedPodAffinityTermDecl{Weight: x.Weight,
				Term: model.PodAffinityTermDecl{LabelSelector: x.Term.Selector, TopologyKey: x.Term.TopologyKey,
					MatchLabelKeys: x.Term.MatchLabelKeys, MismatchLabelKeys: x.Term.MismatchLabelKeys}})
		}
		return d
	}
	return decl(t.PodAffinity, t.PreferredPodAffinity), decl(t.PodAntiAffinity, t.PreferredPodAntiAffinity)
}

// applyPodAffinity writes the terms into the pod's spec.affinity.
func applyPodAffinity(p *v1.Pod, aff, anti *model.PodAffinityDecl) {
	if aff == nil && anti == nil {
		return
	}
	if p.Spec.Affinity == nil {
		p.Spec.Affinity = &v1.Affinity{}
	}
	term := func(x model.PodAffinityTermDecl) v1.PodAffinityTerm {
		return v1.PodAffinityTerm{LabelSelector: labelSelector(x.LabelSelector), TopologyKey: x.TopologyKey,
			MatchLabelKeys: slices.Clone(x.MatchLabelKeys), MismatchLabelKeys: slices.Clone(x.MismatchLabelKeys)}
	}
	terms := func(d *model.PodAffinityDecl) (req []v1.PodAffinityTerm, pref []v1.WeightedPodAffinityTerm) {
		for _, x := range d.Required {
			req = append(req, term(x))
		}
		for _, x := range d.Preferred {
			pref = append(pref, v1.WeightedPodAffinityTerm{Weight: int32(x.Weight), PodAffinityTerm: term(x.Term)})
		}
		return req, pref
	}
	if aff != nil {
		req, pref := terms(aff)
		p.Spec.Affinity.PodAffinity = &v1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: req, PreferredDuringSchedulingIgnoredDuringExecution: pref}
	}
	if anti != nil {
		req, pref := terms(anti)
		p.Spec.Affinity.PodAntiAffinity = &v1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: req, PreferredDuringSchedulingIgnoredDuringExecution: pref}
	}
}

// affinityString renders a pod's terms for reports.
func affinityString(aff, anti *model.PodAffinityDecl) string {
	var b strings.Builder
	for _, g := range []struct {
		name string
		d    *model.PodAffinityDecl
	}{{"podAffinity", aff}, {"podAntiAffinity", anti}} {
		if g.d == nil {
			continue
		}
		for _, x := range g.d.Required {
			fmt.Fprintf(&b, " %s(required %s %s%s)", g.name, x.TopologyKey, selector(x.LabelSelector), labelKeys(x))
		}
		for _, x := range g.d.Preferred {
			fmt.Fprintf(&b, " %s(%d %s %s%s)", g.name, x.Weight, x.Term.TopologyKey, selector(x.Term.LabelSelector), labelKeys(x.Term))
		}
	}
	return b.String()
}

// Non-zero requests (kube-scheduler's NonZeroRequested, 100m / 200Mi for
// a container that leaves a request out): the model's units are
// millicores and MiB, as in a manifest.
const (
	defaultMilliCPU = 100
	defaultMemMiB   = 200
)

// nonZero returns the requests LeastAllocated scores a pod with: a
// missing request (zero and not written) is the default, as the manifest
// reader records it (model.PodTemplate.NonZeroCPU/NonZeroMemory).
func (r Requests) nonZero() (cpu, mem int64) {
	cpu, mem = r.MilliCPU, r.MemMiB
	if cpu == 0 && !r.ExplicitZero {
		cpu = defaultMilliCPU
	}
	if mem == 0 && !r.ExplicitZero {
		mem = defaultMemMiB
	}
	return cpu, mem
}

// templateContainers are the containers of a pod of template t: one with
// the requests as written (zeros explicit), then one container per
// missing request the template's non-zero requests record, leaving out
// exactly the requests that are missing; scalar are its extended
// resources by name (nil: none).
func templateContainers(t *model.PodTemplate, scalar map[string]int64) []v1.Container {
	cs := []v1.Container{apiContainer("c", Requests{MilliCPU: t.CPU, MemMiB: t.Memory, ExplicitZero: true, Scalar: scalar})}
	missingCPU := int((max(t.NonZeroCPU, t.CPU) - t.CPU) / defaultMilliCPU)
	missingMem := int((max(t.NonZeroMemory, t.Memory) - t.Memory) / defaultMemMiB)
	for i := range max(missingCPU, missingMem) {
		c := apiContainer(fmt.Sprintf("c%d", i+2), Requests{})
		if i >= missingCPU {
			c.Resources.Requests[v1.ResourceCPU] = *resourceMilli(0)
		}
		if i >= missingMem {
			c.Resources.Requests[v1.ResourceMemory] = *resourceMiB(0)
		}
		cs = append(cs, c)
	}
	return cs
}
