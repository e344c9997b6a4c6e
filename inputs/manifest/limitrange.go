package manifest

import (
	"fmt"
	"maps"
	"slices"
)

// LimitRanges. The API server's LimitRanger admission plugin gives every
// container of a pod created in a namespace the default limits and
// requests of the namespace's LimitRanges where the container sets none,
// then rejects a pod whose containers fall outside a LimitRange's min,
// max or maxLimitRequestRatio (plugin/pkg/admission/limitranger,
// v1.36). The defaults are applied after the pod's own defaulting (a
// limit without a request is already the request: requestsOf), and a
// LimitRange's defaults were completed when it was created
// (SetDefaults_LimitRangeItem: a default limit from max, a default
// request from the default limit, else from min). Only cpu and memory
// are modelled; only items of type Container default or constrain
// containers (Pod and PersistentVolumeClaim items are warned about).

// LimitRange is the part of a v1 LimitRange the model reads.
type LimitRange struct {
	TypeMeta
	Metadata ObjectMeta `json:"metadata"`
	Spec     struct {
		Limits []LimitRangeItem `json:"limits"`
	} `json:"spec"`
}

// LimitRangeItem is one of a LimitRange's limits.
type LimitRangeItem struct {
	Type                 string                  `json:"type"`
	Max                  map[string]QuantityText `json:"max"`
	Min                  map[string]QuantityText `json:"min"`
	Default              map[string]QuantityText `json:"default"`
	DefaultRequest       map[string]QuantityText `json:"defaultRequest"`
	MaxLimitRequestRatio map[string]QuantityText `json:"maxLimitRequestRatio"`
}

// containerLimits is one LimitRange's Container items, merged as the
// admission plugin merges them, in model units (cpu: millicores, memory:
// MiB as requests round it).
type containerLimits struct {
	o Object
	// defaultRequest and defaultLimit are what a container without a
	// request, or without a limit, gets.
	defaultRequest, defaultLimit map[string]QuantityText
	min, max                     map[string]int64
	// ratio is maxLimitRequestRatio, as a float.
	ratio map[string]float64
}

// limitRangeTable holds the namespaces' LimitRanges in input order.
type limitRangeTable struct {
	byNamespace map[string][]containerLimits
}

// modelledResources are the resources LimitRanges are read for.
var modelledResources = []string{"cpu", "memory"}

// limitRangeTableOf reads the LimitRanges among objs.
func limitRangeTableOf(objs []Object, warns *[]Warning) (*limitRangeTable, error) {
	t := &limitRangeTable{byNamespace: map[string][]containerLimits{}}
	for _, o := range objs {
		lr, ok := o.Value.(*LimitRange)
		if !ok {
			continue
		}
		a := o.at()
		cl := containerLimits{o: o, defaultRequest: map[string]QuantityText{}, defaultLimit: map[string]QuantityText{},
			min: map[string]int64{}, max: map[string]int64{}, ratio: map[string]float64{}}
		for i, item := range lr.Spec.Limits {
			p := index("spec.limits", i)
			switch item.Type {
			case "Container":
			case "Pod", "PersistentVolumeClaim":
				*warns = append(*warns, a.warning(o.path(p+".type"), "ignored: LimitRange items of type %s are not checked (only Container items default and constrain the model's pods)", item.Type))
				continue
			default:
				return nil, a.errorf(o.path(p+".type"), "%q (accepted: Container, Pod, PersistentVolumeClaim)", item.Type)
			}
			for _, m := range []map[string]QuantityText{item.Max, item.Min, item.Default, item.DefaultRequest, item.MaxLimitRequestRatio} {
				for name := range m {
					if !slices.Contains(modelledResources, name) {
						*warns = append(*warns, a.warning(o.path(p), "ignored: LimitRange %s resource %q is not modelled (only cpu and memory)", lr.Metadata.Name, name))
					}
				}
			}
			// SetDefaults_LimitRangeItem.
			def, defReq := maps.Clone(item.Default), maps.Clone(item.DefaultRequest)
			if def == nil {
				def = map[string]QuantityText{}
			}
			if defReq == nil {
				defReq = map[string]QuantityText{}
			}
			for _, name := range modelledResources {
				if _, ok := def[name]; !ok {
					if q, ok := item.Max[name]; ok {
						def[name] = q
					}
				}
				if _, ok := defReq[name]; !ok {
					if q, ok := def[name]; ok {
						defReq[name] = q
					} else if q, ok := item.Min[name]; ok {
						defReq[name] = q
					}
				}
			}
			for _, name := range modelledResources {
				kind := cpuRequest
				if name == "memory" {
					kind = memoryRequest
				}
				for _, f := range []struct {
					field string
					src   map[string]QuantityText
					dst   map[string]int64
				}{{"min", item.Min, cl.min}, {"max", item.Max, cl.max}} {
					if q, ok := f.src[name]; ok {
						v, err := parseResource(a, o.path(p+"."+f.field+"."+name), q, kind)
						if err != nil {
							return nil, err
						}
						f.dst[name] = v
					}
				}
				for _, f := range []struct {
					field string
					src   map[string]QuantityText
					dst   map[string]QuantityText
				}{{"default", def, cl.defaultLimit}, {"defaultRequest", defReq, cl.defaultRequest}} {
					if q, ok := f.src[name]; ok {
						if _, err := parseResource(a, o.path(p+"."+f.field+"."+name), q, kind); err != nil {
							return nil, err
						}
						f.dst[name] = q
					}
				}
				if q, ok := item.MaxLimitRequestRatio[name]; ok {
					pq, err := q.Parse()
					if err != nil {
						return nil, a.errorf(o.path(p+".maxLimitRequestRatio."+name), "%q is not a quantity (accepted: a ratio ≥ 1 such as 2 or 1.5)", q.Text)
					}
					r, _ := pq.Rat().Float64()
					if r < 1 {
						return nil, a.errorf(o.path(p+".maxLimitRequestRatio."+name), "%q (accepted: a ratio ≥ 1)", q.Text)
					}
					cl.ratio[name] = r
				}
			}
		}
		if err := validateLimitRange(o, lr); err != nil {
			return nil, err
		}
		ns := namespaceOf(lr.Metadata.Namespace)
		t.byNamespace[ns] = append(t.byNamespace[ns], cl)
	}
	return t, nil
}

// forNamespace returns the LimitRanges of namespace ns (nil table: none).
func (t *limitRangeTable) forNamespace(ns string) []containerLimits {
	if t == nil {
		return nil
	}
	return t.byNamespace[ns]
}

// admit gives container c the namespace's defaults, as LimitRanger does
// after the pod's own defaulting, and returns its requests and limits
// (cpu and memory only: the resources the LimitRanges are read for, and
// whatever else the container writes) with the LimitRange that rejects
// it, if one does, and why.
func admit(ranges []containerLimits, c Container) (requests, limits map[string]QuantityText, rejectedBy *containerLimits, why string) {
	requests, limits = requestsOf(c), c.Resources.Limits
	for i := range ranges {
		limits = withDefaults(limits, ranges[i].defaultLimit)
		requests = withDefaults(requests, ranges[i].defaultRequest)
	}
	for i := range ranges {
		if why := ranges[i].rejects(requests, limits); why != "" {
			return requests, limits, &ranges[i], why
		}
	}
	return requests, limits, nil, ""
}

// withDefaults returns m with every resource of defaults it lacks (a
// copy when it adds one: m may be the container's own).
func withDefaults(m, defaults map[string]QuantityText) map[string]QuantityText {
	copied := false
	for name, q := range defaults {
		if _, ok := m[name]; ok {
			continue
		}
		if !copied {
			m, copied = maps.Clone(m), true
			if m == nil {
				m = map[string]QuantityText{}
			}
		}
		m[name] = q
	}
	return m
}

// rejects says why the LimitRange rejects a container with these
// requests and limits ("" if it does not): minConstraint, maxConstraint
// and limitRequestRatioConstraint, in model units.
func (lr *containerLimits) rejects(requests, limits map[string]QuantityText) string {
	value := func(m map[string]QuantityText, name string) (int64, bool) {
		q, ok := m[name]
		if !ok {
			return 0, false
		}
		kind := cpuRequest
		if name == "memory" {
			kind = memoryRequest
		}
		v, err := parseResource(at{}, "", q, kind)
		return v, err == nil
	}
	for _, name := range modelledResources {
		unit := "m"
		if name == "memory" {
			unit = "Mi"
		}
		req, hasReq := value(requests, name)
		lim, hasLim := value(limits, name)
		if m, ok := lr.min[name]; ok {
			switch {
			case !hasReq:
				return fmt.Sprintf("minimum %s usage per Container is %d%s, and no request is specified", name, m, unit)
			case req < m:
				return fmt.Sprintf("minimum %s usage per Container is %d%s, but the request is %d%s", name, m, unit, req, unit)
			case hasLim && lim < m:
				return fmt.Sprintf("minimum %s usage per Container is %d%s, but the limit is %d%s", name, m, unit, lim, unit)
			}
		}
		if m, ok := lr.max[name]; ok {
			switch {
			case !hasLim:
				return fmt.Sprintf("maximum %s usage per Container is %d%s, and no limit is specified", name, m, unit)
			case lim > m:
				return fmt.Sprintf("maximum %s usage per Container is %d%s, but the limit is %d%s", name, m, unit, lim, unit)
			case hasReq && req > m:
				return fmt.Sprintf("maximum %s usage per Container is %d%s, but the request is %d%s", name, m, unit, req, unit)
			}
		}
		if r, ok := lr.ratio[name]; ok {
			switch {
			case !hasReq || req == 0:
				return fmt.Sprintf("%s max limit to request ratio per Container is %g, but no request is specified or the request is 0", name, r)
			case !hasLim || lim == 0:
				return fmt.Sprintf("%s max limit to request ratio per Container is %g, but no limit is specified or the limit is 0", name, r)
			case float64(lim)/float64(req) > r:
				return fmt.Sprintf("%s max limit to request ratio per Container is %g, but the ratio is %g", name, r, float64(lim)/float64(req))
			}
		}
	}
	return ""
}

// limitRangeName names the LimitRange of lr for messages.
func limitRangeName(lr *containerLimits) string {
	l := lr.o.Value.(*LimitRange)
	return namespaceOf(l.Metadata.Namespace) + "/" + l.Metadata.Name
}

// limitRanges returns the LimitRanges among objs (read once: their
// warnings are the assembly's).
func (as *assembly) limitRanges(objs []Object) (*limitRangeTable, error) {
	if as.limits == nil {
		t, err := limitRangeTableOf(objs, &as.warns)
		if err != nil {
			return nil, err
		}
		as.limits = t
	}
	return as.limits, nil
}
