package build

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// PodAffinity adds a required inter-pod affinity term on topology key
// key whose selector matches the given labels (none: every pod).
func (b *TemplateBuilder) PodAffinity(key string, kv ...string) *TemplateBuilder {
	b.t.PodAffinity = append(b.t.PodAffinity, podTerm(key, kv))
	return b
}

// PodAntiAffinity adds a required inter-pod anti-affinity term.
func (b *TemplateBuilder) PodAntiAffinity(key string, kv ...string) *TemplateBuilder {
	b.t.PodAntiAffinity = append(b.t.PodAntiAffinity, podTerm(key, kv))
	return b
}

// PreferredPodAffinity adds a preferred inter-pod affinity term.
func (b *TemplateBuilder) PreferredPodAffinity(weight int, key string, kv ...string) *TemplateBuilder {
	b.t.PreferredPodAffinity = append(b.t.PreferredPodAffinity, model.WeightedPodAffinityTerm{Weight: weight, Term: podTerm(key, kv)})
	return b
}

// PreferredPodAntiAffinity adds a preferred inter-pod anti-affinity term.
func (b *TemplateBuilder) PreferredPodAntiAffinity(weight int, key string, kv ...string) *TemplateBuilder {
	b.t.PreferredPodAntiAffinity = append(b.t.PreferredPodAntiAffinity, model.WeightedPodAffinityTerm{Weight: weight, Term: podTerm(key, kv)})
	return b
}

// NonZero sets the requests LeastAllocated scores with (a manifest's
// missing requests).
func (b *TemplateBuilder) NonZero(cpu, mem int64) *TemplateBuilder {
	b.t.NonZeroCPU, b.t.NonZeroMemory = cpu, mem
	return b
}

func podTerm(key string, kv []string) model.PodAffinityTerm {
	return model.PodAffinityTerm{TopologyKey: key, Selector: &model.Selector{MatchLabels: pairs(kv)}}
}

// clonePodAffinity gives t its own term slices: Compile fills in each
// term's compiled fields.
func clonePodAffinity(t *model.PodTemplate) {
	t.PodAffinity, t.PodAntiAffinity = slices.Clone(t.PodAffinity), slices.Clone(t.PodAntiAffinity)
	t.PreferredPodAffinity, t.PreferredPodAntiAffinity = slices.Clone(t.PreferredPodAffinity), slices.Clone(t.PreferredPodAntiAffinity)
}

// TolerateAll adds the toleration {operator: Exists}, which tolerates
// every taint (the not-ready ones included).
func (b *TemplateBuilder) TolerateAll() *TemplateBuilder {
	b.t.Tolerations = append(b.t.Tolerations, model.Toleration{Operator: "Exists"})
	return b
}
