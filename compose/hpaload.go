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
		if metrics := movedMetrics(u, init, d); len(metrics) > 0 {
			moved = append(moved, fmt.Sprintf("%s (%s)", u.Deployments[d].Name, strings.Join(metrics, ", ")))
		}
	}
	if len(moved) == 0 {
		return ""
	}
	which, whose := "the HPA of "+moved[0]+" rescales", "its"
	if len(moved) > 1 {
		whose = "their"
		which = "the HPAs of " + strings.Join(moved[:len(moved)-1], ", ") + " and " + moved[len(moved)-1] + " rescale"
	}
	return "every pod uses exactly its requests, until an eventCpuChange raises one pod's CPU: a Utilization metric reads 100 %, so " +
		which + " from " + whose + " first sync with no load event; other loads were not explored"
}

// movedMetrics are the Utilization metrics of deployment d's HPA that
// 100 % of the request moves: "cpu 70 %". A metric outside the model (a
// Pods, Object or External metric, a ContainerResource metric on one of
// several containers) reads the environment, not the requests, and an
// invalid one never recommends, so neither is listed.
func movedMetrics(u *model.Universe, init *model.State, d int) []string {
	ds := &init.Deps[d]
	spec := &u.HPAs[ds.HPA-1]
	tol := hpa.Tolerances(spec)
	t := u.PodTemplateOf(init, d)
	var out []string
	for _, m := range spec.Metrics {
		if m.Kind.Unknown() || m.Kind == model.InvalidMetric ||
			m.Target != model.Utilization || m.Value <= 0 || t.MissingMetricRequest[m.Resource] != "" {
			continue
		}
		ratio := 100 / float64(m.Value)
		replicas := int(ds.Replicas)
		if ratio > 1+tol.Up && replicas < spec.Max || ratio < 1-tol.Down && replicas > spec.Min {
			resource := "cpu"
			if m.Resource == model.Memory {
				resource = "memory"
			}
			out = append(out, fmt.Sprintf("%s %d %%", resource, m.Value))
		}
	}
	return out
}
