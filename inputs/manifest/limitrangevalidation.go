package manifest

import (
	"maps"
	"math"
	"slices"
	"strings"
)

// The API server refuses a LimitRange its validation rejects
// (ValidateLimitRange, pkg/apis/core/validation, v1.36), which it runs on
// the object as SetDefaults_LimitRangeItem completed it; such a
// LimitRange never exists, so the reader refuses it as an input error.
// And it refuses a pod whose container requests more than its limit
// (ValidateContainerResourceRequirements), a limit the container writes
// (then the Deployment's own pod template is refused) or one a
// LimitRange's default gives it (then every pod the ReplicaSet
// controller creates is).

// validateLimitRange returns the input error for a LimitRange the API
// server refuses, nil for one it accepts. Quantities that do not parse
// are left to the reader (an error for cpu and memory, a warning
// otherwise).
func validateLimitRange(o Object, lr *LimitRange) error {
	a := o.at()
	seen := map[string]bool{}
	for i, item := range lr.Spec.Limits {
		p := index("spec.limits", i)
		if seen[item.Type] {
			return a.errorf(o.path(p+".type"), "a second item of type %s (accepted: one item per type; the API server refuses the LimitRange)", item.Type)
		}
		seen[item.Type] = true
		parsed := func(m map[string]QuantityText) map[string]Quantity {
			out := map[string]Quantity{}
			for k, t := range m {
				if q, err := t.Parse(); err == nil {
					out[k] = q
				}
			}
			return out
		}
		minQ, maxQ, def, defReq, ratio := parsed(item.Min), parsed(item.Max), parsed(item.Default), parsed(item.DefaultRequest), parsed(item.MaxLimitRequestRatio)
		switch item.Type {
		case "Container":
			// SetDefaults_LimitRangeItem.
			for k, q := range maxQ {
				if _, ok := def[k]; !ok {
					def[k] = q
				}
			}
			for _, from := range []map[string]Quantity{def, minQ} {
				for k, q := range from {
					if _, ok := defReq[k]; !ok {
						defReq[k] = q
					}
				}
			}
		case "Pod":
			if len(item.Default) > 0 {
				return a.errorf(o.path(p+".default"), "not allowed for type Pod (accepted: default and defaultRequest in Container items only; the API server refuses the LimitRange)")
			}
			if len(item.DefaultRequest) > 0 {
				return a.errorf(o.path(p+".defaultRequest"), "not allowed for type Pod (accepted: default and defaultRequest in Container items only; the API server refuses the LimitRange)")
			}
		case "PersistentVolumeClaim":
			_, hasMin := item.Min["storage"]
			_, hasMax := item.Max["storage"]
			if !hasMin && !hasMax {
				return a.errorf(o.path(p), "neither min nor max storage (accepted: at least one of them for type PersistentVolumeClaim; the API server refuses the LimitRange)")
			}
		}
		keys := map[string]bool{}
		for _, m := range []map[string]Quantity{minQ, maxQ, def, defReq, ratio} {
			for k := range m {
				keys[k] = true
			}
		}
		const refused = "the API server refuses the LimitRange"
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			mn, hasMin := minQ[k]
			mx, hasMax := maxQ[k]
			d, hasDef := def[k]
			dr, hasDefReq := defReq[k]
			r, hasRatio := ratio[k]
			above := func(x, y Quantity) bool { return x.Rat().Cmp(y.Rat()) > 0 }
			switch {
			case hasMin && hasMax && above(mn, mx):
				return a.errorf(o.path(p+".min."+k), "%s is above max %s (accepted: min ≤ max; %s)", mn.Text, mx.Text, refused)
			case hasDefReq && hasMin && above(mn, dr):
				return a.errorf(o.path(p+".defaultRequest."+k), "%s is below min %s (accepted: min ≤ defaultRequest, which defaults to default, then max, then min; %s)", dr.Text, mn.Text, refused)
			case hasDefReq && hasMax && above(dr, mx):
				return a.errorf(o.path(p+".defaultRequest."+k), "%s is above max %s (accepted: defaultRequest ≤ max; defaultRequest defaults to default, then max, then min; %s)", dr.Text, mx.Text, refused)
			case hasDefReq && hasDef && above(dr, d):
				return a.errorf(o.path(p+".defaultRequest."+k), "%s is above the default limit %s (accepted: defaultRequest ≤ default, which defaults to max; %s)", dr.Text, d.Text, refused)
			case hasDef && hasMin && above(mn, d):
				return a.errorf(o.path(p+".default."+k), "%s is below min %s (accepted: min ≤ default, which defaults to max; %s)", d.Text, mn.Text, refused)
			case hasDef && hasMax && above(d, mx):
				return a.errorf(o.path(p+".default."+k), "%s is above max %s (accepted: default ≤ max; %s)", d.Text, mx.Text, refused)
			case hasRatio && r.Rat().Cmp(big1) < 0:
				return a.errorf(o.path(p+".maxLimitRequestRatio."+k), "%q (accepted: a ratio ≥ 1; %s)", r.Text, refused)
			case hasRatio && hasMin && hasMax && ratioAboveMaxOverMin(r, mn, mx):
				return a.errorf(o.path(p+".maxLimitRequestRatio."+k), "%s is above max/min = %s/%s (accepted: a ratio ≤ max/min; %s)", r.Text, mx.Text, mn.Text, refused)
			case !overcommitAllowed(k) && hasDef && hasDefReq && d.Rat().Cmp(dr.Rat()) != 0:
				return a.errorf(o.path(p+".defaultRequest."+k), "%s differs from default %s (accepted: equal values for %s, which cannot be overcommitted; %s)", dr.Text, d.Text, k, refused)
			}
		}
	}
	return nil
}

// ratioAboveMaxOverMin is ValidateLimitRange's comparison of a
// maxLimitRequestRatio with max/min: in float64 over milli-units when
// they fit, over whole units otherwise (min 0: never above).
func ratioAboveMaxOverMin(r, mn, mx Quantity) bool {
	const maxMilliValue = math.MaxInt64 / 1000
	whole := func(q Quantity) int64 {
		v, ok := q.Scaled(big1, true)
		if !ok {
			return math.MaxInt64
		}
		return v
	}
	ratio, lo, hi := float64(whole(r)), whole(mn), whole(mx)
	if whole(r) < maxMilliValue && lo < maxMilliValue && hi < maxMilliValue {
		rm, _ := r.Scaled(milliCore, true)
		ratio = float64(rm) / 1000
		lo, _ = mn.Scaled(milliCore, true)
		hi, _ = mx.Scaled(milliCore, true)
	}
	return ratio > float64(hi)/float64(lo)
}

// overcommitAllowed is the API server's helper.IsOvercommitAllowed: a
// native resource (no domain, or a kubernetes.io one) other than huge
// pages.
func overcommitAllowed(name string) bool {
	native := !strings.Contains(name, "/") || strings.Contains(name, "kubernetes.io/")
	return native && !strings.HasPrefix(name, "hugepages-")
}

// requestAboveLimit checks the requests of container c at path against
// its limits, as ValidateContainerResourceRequirements does: as written,
// in the Deployment's pod template (template), or as the API server
// admits the pod, after LimitRanger's defaults (then a limit above the
// request can only come from a LimitRange's default, since the template
// passed).
func (tc templateConv) requestAboveLimit(path string, requests, limits map[string]QuantityText, template bool) error {
	for _, name := range slices.Sorted(maps.Keys(requests)) {
		lt, ok := limits[name]
		if !ok {
			continue
		}
		req, err1 := requests[name].Parse()
		lim, err2 := lt.Parse()
		if err1 != nil || err2 != nil || req.Rat().Cmp(lim.Rat()) <= 0 {
			continue
		}
		if template {
			return tc.errorf(path+".resources.requests."+name, "%s is above the limit %s (accepted: a request ≤ its limit; the API server rejects the Deployment's pod template)", req.Text, lim.Text)
		}
		return tc.errorf(path+".resources.requests."+name, "%s is above the limit %s a LimitRange's default gives the container: the API server rejects the pod (accepted: a request ≤ the namespace's default limit)", req.Text, lim.Text)
	}
	return nil
}

// templateWithinLimits checks the pod template's containers as written,
// before any pod is created (the API server validates the Deployment's
// template first, and does not default its requests from its limits).
func (tc templateConv) templateWithinLimits(spec PodSpec) error {
	for _, cs := range []struct {
		path       string
		containers []Container
	}{{"spec.containers", spec.Containers}, {"spec.initContainers", spec.InitContainers}} {
		for i, c := range cs.containers {
			if err := tc.requestAboveLimit(index(cs.path, i), c.Resources.Requests, c.Resources.Limits, true); err != nil {
				return err
			}
		}
	}
	return nil
}
