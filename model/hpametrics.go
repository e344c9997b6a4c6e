package model

import "fmt"

// MetricKind is an HPA metric's source type (autoscaling/v2
// MetricSourceType) as the model evaluates it.
type MetricKind uint8

const (
	// ResourceMetric (the zero value) is a Resource metric: the pods'
	// CPU or memory usage, which the model keeps. A ContainerResource
	// metric on the only container of the pods is one too (its usage is
	// the pod's).
	ResourceMetric MetricKind = iota
	// PodsMetric is a Pods metric: a per-pod value from a custom metrics
	// API, outside the model.
	PodsMetric
	// ObjectMetric is an Object metric: a value describing another
	// object, outside the model.
	ObjectMetric
	// ExternalMetric is an External metric (KEDA's, a queue length),
	// outside the model.
	ExternalMetric
	// ContainerResourceMetric is a ContainerResource metric on one of
	// several containers: the model keeps the pod's usage, not the
	// container's, so its value is unknown like the three above.
	ContainerResourceMetric
	// InvalidMetric is a metric the HPA fails at every sync (a
	// ContainerResource metric naming a container the pods lack, or one
	// without a request of the resource for a Utilization target).
	InvalidMetric
)

// Value is a Value target: the metric's total (Object and External
// metrics) against Metric.Value.
const Value MetricTarget = AverageValue + 1

// Unknown reports whether the model does not know the metric's value:
// the HPA may read any value from it at any sync.
func (k MetricKind) Unknown() bool {
	return k >= PodsMetric && k <= ContainerResourceMetric
}

// String is the kind as the HPA names it in its trace ("external
// metric queue_length").
func (k MetricKind) String() string {
	switch k {
	case PodsMetric:
		return "pods"
	case ObjectMetric:
		return "object"
	case ExternalMetric:
		return "external"
	case ContainerResourceMetric:
		return "container resource"
	case InvalidMetric:
		return "invalid"
	}
	return "resource"
}

// HasUnknownMetric reports whether some metric of h reads a value the
// model does not know.
func (h *HPA) HasUnknownMetric() bool {
	for _, m := range h.Metrics {
		if m.Kind.Unknown() {
			return true
		}
	}
	return false
}

// HasUnknownHPAMetric reports whether some HPA of u has a metric whose
// value the model does not know.
func HasUnknownHPAMetric(u *Universe) bool {
	for i := range u.HPAs {
		if u.HPAs[i].HasUnknownMetric() {
			return true
		}
	}
	return false
}

// metricKinds are MetricDecl.Kind's accepted values.
var metricKinds = map[string]MetricKind{
	"": ResourceMetric, "Resource": ResourceMetric, "Pods": PodsMetric, "Object": ObjectMetric,
	"External": ExternalMetric, "ContainerResource": ContainerResourceMetric,
}

// compileMetric compiles metric j of an HPA declaration.
func compileMetric(j int, m MetricDecl) (Metric, error) {
	mt := Metric{Value: m.Target, Name: m.Name}
	kind, ok := metricKinds[m.Kind]
	if !ok {
		return mt, fmt.Errorf("metrics[%d].kind %q (accepted: Resource, Pods, Object, External, ContainerResource): %w", j, m.Kind, ErrInvalid)
	}
	mt.Kind = kind
	if m.Invalid != "" {
		mt.Kind, mt.Name = InvalidMetric, m.Invalid
		return mt, nil
	}
	switch m.Resource {
	case "cpu":
	case "memory":
		mt.Resource = Memory
	case "":
		if kind == ResourceMetric || kind == ContainerResourceMetric {
			return mt, fmt.Errorf("metrics[%d].resource %q (accepted: cpu, memory): %w", j, m.Resource, ErrInvalid)
		}
	default:
		return mt, fmt.Errorf("metrics[%d].resource %q (accepted: cpu, memory): %w", j, m.Resource, ErrInvalid)
	}
	if kind != ResourceMetric && kind != ContainerResourceMetric && m.Resource != "" {
		return mt, fmt.Errorf("metrics[%d].resource %q given for kind %s (accepted: only for Resource and ContainerResource metrics): %w", j, m.Resource, m.Kind, ErrInvalid)
	}
	if kind.Unknown() && kind != ContainerResourceMetric && m.Name == "" {
		return mt, fmt.Errorf("metrics[%d].name required for kind %s (accepted: the metric's name): %w", j, m.Kind, ErrInvalid)
	}
	switch m.Type {
	case "":
		switch kind {
		case ResourceMetric, ContainerResourceMetric:
		case ObjectMetric, ExternalMetric:
			mt.Target = Value
		default:
			mt.Target = AverageValue
		}
	case "Utilization":
		if kind != ResourceMetric && kind != ContainerResourceMetric {
			return mt, fmt.Errorf("metrics[%d].type Utilization for kind %s (accepted: Utilization only for Resource and ContainerResource metrics): %w", j, m.Kind, ErrInvalid)
		}
	case "AverageValue":
		mt.Target = AverageValue
	case "Value":
		if kind != ObjectMetric && kind != ExternalMetric {
			return mt, fmt.Errorf("metrics[%d].type Value for kind %s (accepted: Value only for Object and External metrics): %w", j, m.Kind, ErrInvalid)
		}
		mt.Target = Value
	default:
		return mt, fmt.Errorf("metrics[%d].type %q (accepted: Utilization, AverageValue, Value): %w", j, m.Type, ErrInvalid)
	}
	return mt, nil
}
