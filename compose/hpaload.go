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
	var moved, measured []string
	for d := range init.Deps {
		ds := &init.Deps[d]
		if ds.HPA == 0 {
			continue
		}
		if metrics := movedMetrics(u, init, d); len(metrics) > 0 {
			moved = append(moved, fmt.Sprintf("%s (%s)", u.Deployments[d].Name, strings.Join(metrics, ", ")))
		}
		if loads := measuredLoads(u, init, d); len(loads) > 0 {
			measured = append(measured, fmt.Sprintf("%s (%s)", u.Deployments[d].Name, strings.Join(loads, ", ")))
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
	if len(measured) > 0 {
		return "the running pods of " + strings.Join(measured, ", ") + " use what the input gives them, every other pod exactly its requests, until an eventCpuChange raises one pod's CPU, so " +
			which + " from " + whose + " first sync with no load event; other loads were not explored"
	}
	return "every pod uses exactly its requests, until an eventCpuChange raises one pod's CPU: a Utilization metric reads 100 %, so " +
		which + " from " + whose + " first sync with no load event; other loads were not explored"
}

// startUtilization is the utilization of resource r that deployment d's
// Running pods have in init, in percent of their metric requests: 100
// when they use their requests, as a created pod does, or when d has no
// running pod or no request of r. measured says that it is not their
// requests (a running cluster's reading, a case file's usage or CPU
// pattern).
func startUtilization(u *model.Universe, init *model.State, d int, r model.MetricSource) (pct float64, measured bool) {
	var usage, request int64
	for _, ps := range init.Pods {
		if ps.Owner != uint8(d+1) || ps.Phase != model.Running {
			continue
		}
		t := &u.Templates[ps.Template]
		use := int64(ps.CPU)
		if r == model.Memory {
			use = int64(ps.Memory)
		}
		req := t.MetricRequest(r)
		usage += use
		request += req
		measured = measured || use != req
	}
	if request <= 0 || !measured {
		return 100, false
	}
	return 100 * float64(usage) / float64(request), true
}

// measuredLoads are the measured utilizations of deployment d's HPA's
// Utilization metrics: "cpu 85 %".
func measuredLoads(u *model.Universe, init *model.State, d int) []string {
	spec := &u.HPAs[init.Deps[d].HPA-1]
	var out []string
	for _, m := range spec.Metrics {
		if m.Kind.Unknown() || m.Kind == model.InvalidMetric || m.Target != model.Utilization {
			continue
		}
		if pct, ok := startUtilization(u, init, d, m.Resource); ok {
			out = append(out, fmt.Sprintf("%s %.0f %%", m.Resource, pct))
		}
	}
	return out
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
		pct, _ := startUtilization(u, init, d, m.Resource)
		ratio := pct / float64(m.Value)
		replicas := int(ds.Replicas)
		if ratio > 1+tol.Up && replicas < spec.Max || ratio < 1-tol.Down && replicas > spec.Min {
			out = append(out, fmt.Sprintf("%s %d %%", m.Resource, m.Value))
		}
	}
	return out
}
