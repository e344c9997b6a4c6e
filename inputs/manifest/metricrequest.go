package manifest

import (
	"fmt"

	"github.com/kivi-go/kivi/model"
)

// kube-controller-manager's HPA divides a Utilization metric by the pods'
// requests, which calculateRequests (replica_calculator.go) sums over the
// containers and the sidecar init containers only, and fails when one of
// them does not request the resource: the metric is then invalid
// (FailedGetResourceMetric) and the HPA does not scale on it. A pod with
// pod-level requests is read at pod level instead (resource.PodRequests),
// which fails only when neither the pod nor any container nor the
// overhead names the resource.

// metricRequests records in td, per resource an HPA reads, why the
// replica calculator cannot read the request of a pod of spec
// (model.PodTemplate.MissingMetricRequest).
func (tc templateConv) metricRequests(spec PodSpec, td *model.TemplateDecl) {
	for r, resource := range [...]string{model.CPU: "cpu", model.Memory: "memory"} {
		td.MissingMetricRequest[r] = tc.missingMetricRequest(spec, resource)
	}
}

// missingMetricRequest is calculateRequests' error for resource on a pod
// of spec, "" when there is none. Requests are read as the API server and
// the LimitRanges default them (a limit, a LimitRange default).
func (tc templateConv) missingMetricRequest(spec PodSpec, resource string) string {
	requests := func(c Container) map[string]QuantityText {
		rl, _, _, _ := admit(tc.limits, c)
		return rl
	}
	if podLevelSet(spec) {
		// The API server defaults the pod-level request from the
		// containers' aggregate or the pod-level limit; PodRequests adds
		// the aggregate and the overhead.
		named := func(m map[string]QuantityText) bool { _, ok := m[resource]; return ok }
		if named(spec.Resources.Requests) || named(spec.Resources.Limits) || named(spec.Overhead) {
			return ""
		}
		for _, c := range append(append([]Container(nil), spec.Containers...), spec.InitContainers...) {
			if named(requests(c)) {
				return ""
			}
		}
		return fmt.Sprintf("missing pod-level request for %s", resource)
	}
	containers := append([]Container(nil), spec.Containers...)
	for _, c := range spec.InitContainers {
		if c.RestartPolicy == "Always" {
			containers = append(containers, c)
		}
	}
	for _, c := range containers {
		if _, ok := requests(c)[resource]; !ok {
			return fmt.Sprintf("missing request for %s in container %s", resource, c.Name)
		}
	}
	return ""
}

// warnMissingMetricRequest warns about each Utilization metric of HPA
// object o that kube-controller-manager cannot compute over the pods of
// its target, workload dd (kind and name as the HPA writes them): the
// model, as the HPA, then never scales on it.
func (as *assembly) warnMissingMetricRequest(o Object, h *model.HPADecl, kind, name string, dd model.DeploymentDecl) {
	var td *model.TemplateDecl
	for i := range as.c.Templates {
		if as.c.Templates[i].Name == dd.Template {
			td = &as.c.Templates[i]
		}
	}
	if td == nil {
		return
	}
	for _, m := range h.Metrics {
		if m.Type != "" && m.Type != "Utilization" {
			continue
		}
		r := model.CPU
		if m.Resource == "memory" {
			r = model.Memory
		}
		if why := td.MissingMetricRequest[r]; why != "" {
			as.warns = append(as.warns, o.at().warning(o.path("spec.metrics"),
				"the %s Utilization metric cannot be computed for the pods of %s %s (%s): kube-controller-manager's HPA fails it (FailedGetResourceMetric) and does not scale on it, nor does the model (accepted: a %s request in every container and sidecar, or at pod level)",
				m.Resource, kind, name, why, m.Resource))
		}
	}
}
