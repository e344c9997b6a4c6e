package manifest

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// quotaUsage is what a ResourceQuota charges a pod of spec beyond its
// requests, and what it checks first: the pod's limits as
// resource.PodLimits sums them (the containers and sidecars, at least the
// largest init container with the sidecars before it, plus the
// overhead), and, per resource a quota may require (QuotaRequestsCPU …),
// the containers and init containers that do not specify it after the
// API server's and the LimitRanges' defaults (podEvaluator.Constraints:
// "must specify limits.cpu for: …"). The quantities were checked by
// requests, so parse errors cannot occur here.
func (tc templateConv) quotaUsage(spec PodSpec, td *model.TemplateDecl) {
	type pair struct{ cpu, mem int64 }
	var missing [model.QuotaConstraints][]string
	note := func(name string, requests, limits map[string]QuantityText) {
		for i, m := range []map[string]QuantityText{requests, requests, limits, limits} {
			resource := "cpu"
			if i%2 == 1 {
				resource = "memory"
			}
			if _, ok := m[resource]; !ok && !slices.Contains(missing[i], name) {
				missing[i] = append(missing[i], name)
			}
		}
	}
	read := func(m map[string]QuantityText) (p pair) {
		if q, ok := m["cpu"]; ok {
			p.cpu, _ = parseResource(tc.o.at(), "", q, cpuRequest)
		}
		if q, ok := m["memory"]; ok {
			p.mem, _ = parseResource(tc.o.at(), "", q, memoryRequest)
		}
		return p
	}
	var sum, initMax, sidecars pair
	for _, c := range spec.Containers {
		requests, limits, _, _ := admit(tc.limits, c)
		note(c.Name, requests, limits)
		l := read(limits)
		sum.cpu, sum.mem = sum.cpu+l.cpu, sum.mem+l.mem
	}
	for _, c := range spec.InitContainers {
		requests, limits, _, _ := admit(tc.limits, c)
		note(c.Name, requests, limits)
		l := read(limits)
		if c.RestartPolicy == "Always" {
			sum.cpu, sum.mem = sum.cpu+l.cpu, sum.mem+l.mem
			sidecars.cpu, sidecars.mem = sidecars.cpu+l.cpu, sidecars.mem+l.mem
			l = sidecars
		} else {
			l.cpu, l.mem = l.cpu+sidecars.cpu, l.mem+sidecars.mem
		}
		initMax.cpu, initMax.mem = max(initMax.cpu, l.cpu), max(initMax.mem, l.mem)
	}
	over := read(spec.Overhead)
	limCPU, limMem := max(sum.cpu, initMax.cpu), max(sum.mem, initMax.mem)
	tc.podLevelLimits(spec, &limCPU, &limMem)
	// PodLimits adds the overhead only to the resources that have a limit.
	if tc.limited(spec, "cpu") {
		limCPU += over.cpu
	}
	if tc.limited(spec, "memory") {
		limMem += over.mem
	}
	td.LimitCPU, td.LimitMemory = limCPU, limMem
	if podLevelSet(spec) {
		// Constraints are skipped for a pod with pod-level resources.
		missing = [model.QuotaConstraints][]string{}
	}
	for i := range missing {
		slices.Sort(missing[i])
	}
	td.QuotaMissing = missing
}

// limited reports whether some container or the pod sets a limit on
// resource (as the API server and the LimitRanges' defaults leave it).
func (tc templateConv) limited(spec PodSpec, resource string) bool {
	if spec.Resources != nil {
		if _, ok := spec.Resources.Limits[resource]; ok {
			return true
		}
	}
	for _, c := range slices.Concat(spec.Containers, spec.InitContainers) {
		_, limits, _, _ := admit(tc.limits, c)
		if _, ok := limits[resource]; ok {
			return true
		}
	}
	return false
}
