package manifest

import (
	"math/big"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// The HPA's metrics other than Resource ones, validated as the API server
// validates them (pkg/apis/autoscaling/validation validateMetricSpec) and
// read with the target the controller reads (horizontal.go
// computeStatusFor…Metric). Pods, Object and External metrics, and a
// ContainerResource metric on one of several containers, read values the
// model does not have: the HPA explores every value (controllers/hpa,
// unknown.go; docs/divergences.md, HPA).

// metricSourceTypes are the accepted spec.metrics[].type values.
const metricSourceTypes = "Resource, ContainerResource, Pods, Object, External"

// metricSources are the fields holding each source type.
var metricSources = [...]struct{ typ, field string }{
	{"Resource", "resource"}, {"ContainerResource", "containerResource"}, {"Pods", "pods"},
	{"Object", "object"}, {"External", "external"},
}

// checkMetricSource is validateMetricSpec's check that the source of
// the metric's type, and only it, is populated.
func checkMetricSource(o Object, path string, m MetricSpec) error {
	a := o.at()
	present := map[string]bool{
		"resource": m.Resource != nil, "containerResource": m.ContainerResource != nil, "pods": m.Pods != nil,
		"object": m.Object != nil, "external": m.External != nil,
	}
	expected := ""
	for _, s := range metricSources {
		if s.typ == m.Type {
			expected = s.field
		}
	}
	if m.Type == "" {
		return a.errorf(o.path(path+".type"), "required (accepted: %s)", metricSourceTypes)
	}
	if expected == "" {
		return a.errorf(o.path(path+".type"), "%q (accepted: %s)", m.Type, metricSourceTypes)
	}
	if !present[expected] {
		return a.errorf(o.path(path+"."+expected), "required for type %s (accepted: the metric source of the given type)", m.Type)
	}
	for _, s := range metricSources {
		if s.field != expected && present[s.field] {
			return a.errorf(o.path(path+"."+s.field), "given with type %s (accepted: the metric source of the given type only)", m.Type)
		}
	}
	return nil
}

// checkMetricTarget is validateMetricTarget.
func checkMetricTarget(o Object, path string, t MetricTarget) error {
	a := o.at()
	switch t.Type {
	case "Utilization", "Value", "AverageValue":
	case "":
		return a.errorf(o.path(path+".type"), "required (accepted: Utilization, Value, AverageValue)")
	default:
		return a.errorf(o.path(path+".type"), "%q (accepted: Utilization, Value, AverageValue)", t.Type)
	}
	for _, q := range []struct {
		field string
		v     *QuantityText
	}{{"value", t.Value}, {"averageValue", t.AverageValue}} {
		if q.v == nil {
			continue
		}
		v, err := q.v.Parse()
		if err != nil {
			return a.errorf(o.path(path+"."+q.field), "%q is not %s", q.v.Text, quantityGrammar)
		}
		if v.Sign() != 1 {
			return a.errorf(o.path(path+"."+q.field), "%q (accepted: a positive quantity)", q.v.Text)
		}
	}
	if t.AverageUtilization != nil && *t.AverageUtilization < 1 {
		return a.errorf(o.path(path+".averageUtilization"), "%d (accepted: a percentage > 0)", *t.AverageUtilization)
	}
	return nil
}

// milliValue is a quantity's MilliValue (rounded up, as
// resource.Quantity's), for a target the model compares with metric
// values it does not know.
func milliValue(o Object, path string, q QuantityText) (int64, error) {
	v, err := q.Parse()
	if err != nil {
		return 0, o.at().errorf(o.path(path), "%q is not %s", q.Text, quantityGrammar)
	}
	m, ok := v.Scaled(big.NewRat(1, 1000), true)
	if !ok {
		return 0, o.at().errorf(o.path(path), "%q (accepted: a quantity whose milli-value fits 64 bits)", q.Text)
	}
	return m, nil
}

// checkMetricIdentifier is validateMetricIdentifier, and the metric
// selector as the controller parses it.
func checkMetricIdentifier(o Object, path string, id MetricIdentifier) error {
	a := o.at()
	if id.Name == "" {
		return a.errorf(o.path(path+".name"), "required (accepted: the metric's name)")
	}
	if err := pathSegmentName(id.Name); err != "" {
		return a.errorf(o.path(path+".name"), "%q: %s", id.Name, err)
	}
	if id.Selector != nil {
		_, err := convertSelector(func(field, format string, args ...any) error {
			return a.errorf(o.path(join(path+".selector", field)), format, args...)
		}, id.Selector)
		return err
	}
	return nil
}

// pathSegmentName is content.IsPathSegmentName: what is wrong with name
// as a segment of an API path, "" when nothing.
func pathSegmentName(name string) string {
	switch {
	case name == "." || name == "..":
		return "may not be '.' or '..' (accepted: a name usable in an API path)"
	case strings.ContainsAny(name, "/%"):
		return "may not contain '/' or '%' (accepted: a name usable in an API path)"
	}
	return ""
}

// otherMetricDecl converts a metric other than a Resource one.
func otherMetricDecl(o Object, path string, m MetricSpec) (model.MetricDecl, error) {
	a := o.at()
	switch m.Type {
	case "Pods":
		p := path + ".pods"
		if err := checkMetricIdentifier(o, p+".metric", m.Pods.Metric); err != nil {
			return model.MetricDecl{}, err
		}
		if err := checkMetricTarget(o, p+".target", m.Pods.Target); err != nil {
			return model.MetricDecl{}, err
		}
		if m.Pods.Target.AverageValue == nil {
			return model.MetricDecl{}, a.errorf(o.path(p+".target.averageValue"), "required (accepted: a positive quantity per pod)")
		}
		v, err := milliValue(o, p+".target.averageValue", *m.Pods.Target.AverageValue)
		return model.MetricDecl{Kind: "Pods", Name: m.Pods.Metric.Name, Type: "AverageValue", Target: v}, err
	case "Object":
		p := path + ".object"
		ref := m.Object.DescribedObject
		if ref.Kind == "" {
			return model.MetricDecl{}, a.errorf(o.path(p+".describedObject.kind"), "required (accepted: the kind of the object the metric describes)")
		}
		if ref.Name == "" {
			return model.MetricDecl{}, a.errorf(o.path(p+".describedObject.name"), "required (accepted: the name of the object the metric describes)")
		}
		for _, f := range []struct{ field, v string }{{"kind", ref.Kind}, {"name", ref.Name}} {
			if err := pathSegmentName(f.v); err != "" {
				return model.MetricDecl{}, a.errorf(o.path(p+".describedObject."+f.field), "%q: %s", f.v, err)
			}
		}
		if err := checkMetricIdentifier(o, p+".metric", m.Object.Metric); err != nil {
			return model.MetricDecl{}, err
		}
		t := m.Object.Target
		if err := checkMetricTarget(o, p+".target", t); err != nil {
			return model.MetricDecl{}, err
		}
		if t.Value == nil && t.AverageValue == nil {
			return model.MetricDecl{}, a.errorf(o.path(p+".target.averageValue"), "required: a value or an averageValue (accepted: a positive quantity)")
		}
		md := model.MetricDecl{Kind: "Object", Name: m.Object.Metric.Name}
		// computeStatusForObjectMetric reads the target of the given type;
		// another one fails the metric at every sync.
		var q *QuantityText
		switch {
		case t.Type == "Value" && t.Value != nil:
			md.Type, q = "Value", t.Value
		case t.Type == "AverageValue" && t.AverageValue != nil:
			md.Type, q = "AverageValue", t.AverageValue
		default:
			md.Invalid = "object metric " + md.Name + ": neither a value target nor an average value target was set"
			return md, nil
		}
		v, err := milliValue(o, p+".target", *q)
		md.Target = v
		return md, err
	case "External":
		p := path + ".external"
		if err := checkMetricIdentifier(o, p+".metric", m.External.Metric); err != nil {
			return model.MetricDecl{}, err
		}
		t := m.External.Target
		if err := checkMetricTarget(o, p+".target", t); err != nil {
			return model.MetricDecl{}, err
		}
		if t.Value == nil && t.AverageValue == nil {
			return model.MetricDecl{}, a.errorf(o.path(p+".target.averageValue"), "required: a value or an averageValue (accepted: a positive quantity)")
		}
		if t.Value != nil && t.AverageValue != nil {
			return model.MetricDecl{}, a.errorf(o.path(p+".target.value"), "given with averageValue (accepted: a value or an averageValue, not both)")
		}
		// computeStatusForExternalMetric reads averageValue when it is
		// set, whatever the type.
		md := model.MetricDecl{Kind: "External", Name: m.External.Metric.Name, Type: "Value"}
		q := t.Value
		if t.AverageValue != nil {
			md.Type, q = "AverageValue", t.AverageValue
		}
		v, err := milliValue(o, p+".target."+lowerFirst(md.Type), *q)
		md.Target = v
		return md, err
	}
	// ContainerResource.
	p := path + ".containerResource"
	c := m.ContainerResource
	if c.Name == "" {
		return model.MetricDecl{}, a.errorf(o.path(p+".name"), "required (accepted: cpu, memory)")
	}
	if c.Container == "" {
		return model.MetricDecl{}, a.errorf(o.path(p+".container"), "required (accepted: the name of a container of the target's pods)")
	}
	if err := checkMetricTarget(o, p+".target", c.Target); err != nil {
		return model.MetricDecl{}, err
	}
	if c.Target.AverageUtilization == nil && c.Target.AverageValue == nil {
		return model.MetricDecl{}, a.errorf(o.path(p+".target.averageUtilization"), "required: an averageUtilization or an averageValue")
	}
	if c.Target.AverageUtilization != nil && c.Target.AverageValue != nil {
		return model.MetricDecl{}, a.errorf(o.path(p+".target.averageValue"), "given with averageUtilization (accepted: one of them)")
	}
	md := model.MetricDecl{Kind: "ContainerResource", Name: c.Container, Resource: c.Name}
	kind := cpuRequest
	switch c.Name {
	case "cpu":
	case "memory":
		kind = memoryRequest
	default:
		return md, a.errorf(o.path(p+".name"), "%q (accepted: cpu, memory; the model keeps no other usage)", c.Name)
	}
	// computeStatusForResourceMetricGeneric reads averageValue when it
	// is set, whatever the type.
	if c.Target.AverageValue != nil {
		v, err := parseResource(a, o.path(p+".target.averageValue"), *c.Target.AverageValue, kind)
		if err != nil {
			return md, err
		}
		if v <= 0 {
			return md, a.errorf(o.path(p+".target.averageValue"), "%q (accepted: a quantity > 0)", c.Target.AverageValue.Text)
		}
		md.Type, md.Target = "AverageValue", v
		return md, nil
	}
	md.Type, md.Target = "Utilization", int64(*c.Target.AverageUtilization)
	return md, nil
}

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

// resolveContainerMetrics decides the ContainerResource metrics of h
// against the target's pod spec: on the only container of pods without
// pod-level resources the container's usage is the pod's, which the model
// keeps (a Resource metric); on a container the pods lack the HPA fails
// the metric at every sync; otherwise the container's usage is unknown.
func resolveContainerMetrics(h *model.HPADecl, spec PodSpec, hasLimitRanges bool) {
	for i := range h.Metrics {
		m := &h.Metrics[i]
		if m.Kind != "ContainerResource" || m.Invalid != "" {
			continue
		}
		containers := append([]Container(nil), spec.Containers...)
		for _, c := range spec.InitContainers {
			if c.RestartPolicy == "Always" {
				containers = append(containers, c)
			}
		}
		var found *Container
		for j := range containers {
			if containers[j].Name == m.Name {
				found = &containers[j]
			}
		}
		switch {
		case found == nil:
			m.Invalid = "container " + m.Name + " not found in the pods"
		case m.Type == "Utilization" && !hasLimitRanges && !hasKey(found.Resources.Requests, m.Resource) && !hasKey(found.Resources.Limits, m.Resource):
			m.Invalid = "missing request for " + m.Resource + " in container " + m.Name
		case len(containers) == 1 && spec.Resources == nil:
			m.Kind = ""
		}
	}
}

func hasKey(m map[string]QuantityText, k string) bool {
	_, ok := m[k]
	return ok
}

// podSpecOf is the pod template's spec of a Deployment or StatefulSet.
func podSpecOf(o Object) (PodSpec, bool) {
	switch v := o.Value.(type) {
	case *Deployment:
		return v.Spec.Template.Spec, true
	case *StatefulSet:
		return v.Spec.Template.Spec, true
	}
	return PodSpec{}, false
}
