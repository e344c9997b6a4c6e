package build

// ReadinessProbe gives the template's pods a readiness probe: they start
// Running but not Ready (model.PodTemplate.ProbesReadiness).
func (b *TemplateBuilder) ReadinessProbe() *TemplateBuilder { b.t.ProbesReadiness = true; return b }

// MinReadySeconds sets the template's workload's spec.minReadySeconds.
func (b *TemplateBuilder) MinReadySeconds(v int32) *TemplateBuilder {
	b.t.MinReadySeconds = v
	return b
}
