package compose

import (
	"fmt"
	"strings"

	"github.com/kivi-go/kivi/controllers/hpa"
	"github.com/kivi-go/kivi/model"
)

// hpaLoad is the assumption about load that an HPA's verdicts rest on,
// "" when no HPA depends on it. The model's pods use exactly what they
// request until an eventCpuChange raises one pod's CPU, so a Utilization
// metric reads 100 %: an HPA whose target lies outside its tolerance of
// 100 %, and whose workload's replicas leave it room to move that way,
// rescales at its first sync, with no load event, and every verdict
// about its workload's replicas is about that load. Kivi's lifecycle (the
// built-in cases) keeps Kivi's report.
func hpaLoad(u *model.Universe, init *model.State) string {
	if u.Options.KiviLifecycle || init == nil {
		return ""
	}
	var moved []string
	for d := range init.Deps {
		ds := &init.Deps[d]
		if ds.HPA == 0 {
			continue
		}
		spec := &u.HPAs[ds.HPA-1]
		tol := hpa.Tolerances(spec)
		t := u.PodTemplateOf(init, d)
		for _, m := range spec.Metrics {
			if m.Target != model.Utilization || m.Value <= 0 || t.MissingMetricRequest[m.Resource] != "" {
				continue
			}
			ratio := 100 / float64(m.Value)
			replicas := int(ds.Replicas)
			if ratio > 1+tol.Up && replicas < spec.Max || ratio < 1-tol.Down && replicas > spec.Min {
				resource := "cpu"
				if m.Resource == model.Memory {
					resource = "memory"
				}
				moved = append(moved, fmt.Sprintf("%s (%s %d %%)", u.Deployments[d].Name, resource, m.Value))
			}
		}
	}
	if len(moved) == 0 {
		return ""
	}
	return "every pod uses exactly its requests, until an eventCpuChange raises one pod's CPU: a Utilization metric reads 100 %, so the HPA of " +
		strings.Join(moved, ", ") + " rescales from its first sync with no load event; other loads were not explored"
}
