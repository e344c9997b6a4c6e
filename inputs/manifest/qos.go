package manifest

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// guaranteed reports whether the pods of spec, as the API server admits
// them, are of QoS class Guaranteed (v1qos.ComputePodQOS, which reads cpu
// and memory only): with pod-level resources, the pod limits both and
// requests what it limits (td's requests are the pod-level ones the API
// server defaults, with the overhead); otherwise every container and init
// container limits both above zero and the containers' positive requests
// sum to their limits. Classes other than Guaranteed are told apart by
// model.PodTemplate.BestEffort. The quantities were checked by requests,
// so parse errors cannot occur here.
func (tc templateConv) guaranteed(spec PodSpec, td *model.TemplateDecl) bool {
	parse := func(q QuantityText, i int) int64 {
		v, _ := parseResource(tc.o.at(), "", q, podLevelResources[i].kind)
		return v
	}
	if spec.Resources != nil {
		for i, res := range podLevelResources {
			q, ok := spec.Resources.Limits[res.name]
			if !ok || parse(q, i) <= 0 {
				return false
			}
		}
		return td.CPU-td.Overhead[model.CPU] == parse(spec.Resources.Limits["cpu"], 0) &&
			td.Memory-td.Overhead[model.Memory] == parse(spec.Resources.Limits["memory"], 1)
	}
	var requested, limited [2]int64
	for _, c := range slices.Concat(spec.Containers, spec.InitContainers) {
		requests, limits, _, _ := admit(tc.limits, c)
		for i, res := range podLevelResources {
			q, ok := limits[res.name]
			if !ok || parse(q, i) <= 0 {
				return false
			}
			limited[i] += parse(q, i)
			if q, ok := requests[res.name]; ok && parse(q, i) > 0 {
				requested[i] += parse(q, i)
			}
		}
	}
	return requested == limited
}
