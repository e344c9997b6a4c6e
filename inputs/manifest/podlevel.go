package manifest

import (
	"maps"
	"slices"
	"strconv"

	"github.com/kivi-go/kivi/model"
)

// Pod-level resources (spec.resources; PodLevelResources, on by default
// since v1.34). The API server defaults a pod-level cpu or memory request
// that is not written to the containers' aggregate request, or, when no
// container requests the resource, to the pod-level limit
// (defaultPodRequests); the scheduler, the kubelet and quotas then read
// the pod-level request in place of the containers' aggregate
// (resource.PodRequests), plus the overhead. Only cpu and memory are
// modelled at pod level; a pod-level request below the containers'
// aggregate, or above its limit, is refused by the API server
// (validatePodResourceConsistency) and is an input error here.

// podLevelResources are the resources read at pod level, with the kind
// their quantities convert with.
var podLevelResources = []struct {
	name string
	kind resourceKind
}{{"cpu", cpuRequest}, {"memory", memoryRequest}}

// podLevelRequests replaces, in r (the containers' aggregate requests,
// without the overhead), the requests that spec's pod-level resources
// set; requested says whether some container requests cpu and memory.
// It records in r.podLevel which of them the pod-level resources request
// once the API server has defaulted them (defaultPodRequests: with a
// pod-level limit of any resource, every resource some container
// requests and every one with a pod-level limit).
func (tc templateConv) podLevelRequests(spec PodSpec, r *podRequests, requested [2]bool) error {
	pr := spec.Resources
	if pr == nil {
		return nil
	}
	for _, f := range []struct {
		field string
		m     map[string]QuantityText
	}{{"requests", pr.Requests}, {"limits", pr.Limits}} {
		for _, name := range slices.Sorted(maps.Keys(f.m)) {
			if name != "cpu" && name != "memory" {
				tc.warn("spec.resources."+f.field+"."+name, "ignored: only cpu and memory are modelled at pod level")
			}
		}
	}
	for i, res := range podLevelResources {
		_, req := pr.Requests[res.name]
		_, lim := pr.Limits[res.name]
		r.podLevel[i] = req || len(pr.Limits) > 0 && (requested[i] || lim)
	}
	for i, res := range podLevelResources {
		out := &r.cpu
		if i == 1 {
			out = &r.mem
		}
		path := "spec.resources.requests." + res.name
		q, ok := pr.Requests[res.name]
		if !ok && !requested[i] {
			path = "spec.resources.limits." + res.name
			q, ok = pr.Limits[res.name]
		}
		var limit int64 = -1
		if lq, has := pr.Limits[res.name]; has {
			v, err := parseResource(tc.o.at(), tc.o.path(join(tc.path, "spec.resources.limits."+res.name)), lq, res.kind)
			if err != nil {
				return err
			}
			limit = v
		}
		if !ok {
			continue
		}
		v, err := parseResource(tc.o.at(), tc.o.path(join(tc.path, path)), q, res.kind)
		if err != nil {
			return err
		}
		unit := "m"
		if i == 1 {
			unit = "Mi"
		}
		switch {
		case v < *out:
			return tc.errorf(path, "%s is below the containers' aggregate %s request of %d%s (accepted: a pod-level request at least the containers'; the API server refuses the pod)", strconv.Quote(q.Text), res.name, *out, unit)
		case limit >= 0 && v > limit:
			return tc.errorf(path, "%s is above the pod-level %s limit of %d%s (accepted: a request at most the limit; the API server refuses the pod)", strconv.Quote(q.Text), res.name, limit, unit)
		}
		*out = v
	}
	return nil
}

// podLevelLimits replaces, in limits (the containers' aggregate limits),
// those spec's pod-level resources set (resource.PodLimits). The
// quantities were checked by podLevelRequests.
func (tc templateConv) podLevelLimits(spec PodSpec, cpu, mem *int64) {
	if spec.Resources == nil {
		return
	}
	for i, res := range podLevelResources {
		if q, ok := spec.Resources.Limits[res.name]; ok {
			v, _ := parseResource(tc.o.at(), "", q, res.kind)
			if i == 0 {
				*cpu = v
			} else {
				*mem = v
			}
		}
	}
}

// podLevelSet reports whether spec sets pod-level cpu or memory
// (resource.IsPodLevelResourcesSet): the quota's per-container
// "must specify" constraints are then skipped.
func podLevelSet(spec PodSpec) bool {
	if spec.Resources == nil {
		return false
	}
	for _, res := range podLevelResources {
		if _, ok := spec.Resources.Requests[res.name]; ok {
			return true
		}
		if _, ok := spec.Resources.Limits[res.name]; ok {
			return true
		}
	}
	return false
}

// podLevelNonZero: with pod-level resources the scheduler scores the
// pod-level request wherever the API server sets one (an explicit
// request, the pod-level limit, or the containers' aggregate when some
// container requests the resource), not the containers' non-zero
// defaults: the scored requests are then the requests themselves.
func (tc templateConv) podLevelNonZero(spec PodSpec, td *model.TemplateDecl) {
	pr := spec.Resources
	if pr == nil || len(pr.Requests)+len(pr.Limits) == 0 {
		return
	}
	var requested [2]bool
	for _, c := range slices.Concat(spec.Containers, spec.InitContainers) {
		rl, _, _, _ := admit(tc.limits, c)
		for i, res := range podLevelResources {
			_, ok := rl[res.name]
			requested[i] = requested[i] || ok
		}
	}
	for i, res := range podLevelResources {
		_, req := pr.Requests[res.name]
		_, lim := pr.Limits[res.name]
		if !req && !lim && !requested[i] {
			continue
		}
		if i == 0 {
			td.NonZeroCPU = td.CPU
		} else {
			td.NonZeroMemory = td.Memory
		}
	}
}
