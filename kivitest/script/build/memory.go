package build

// LimitMemory sets the pod's memory limit (MiB, every container limited):
// its usage past that is OOM-killed (model.PodTemplate.OOMKilledAt).
func (b *TemplateBuilder) LimitMemory(mib int64) *TemplateBuilder { b.t.LimitMemory = mib; return b }
