package manifest

import "github.com/kivi-go/kivi/model"

// Readiness in a pod template: a container's readinessProbe or
// startupProbe, or the pod's readinessGates, keep a started pod Running
// but not Ready until they pass (model.PodTemplate.ProbesReadiness); the
// probes' settings (periods, thresholds, handlers) are timing, which the
// model does not have, so only their presence is read. Init containers
// may carry probes only as sidecars (restartPolicy Always), whose
// readiness counts towards the pod's; the API server rejects them on
// other init containers, and the reader takes them as it finds them.

// Probe is a container's probe: only its presence is read (fields.go
// keeps its settings quiet).
type Probe struct{}

// ReadinessGate is one of a pod's spec.readinessGates.
type ReadinessGate struct {
	ConditionType string `json:"conditionType"`
}

// readiness sets td.ReadinessProbe when the pod has a readiness or
// startup probe or a readiness gate, and validates the gates.
func (tc templateConv) readiness(spec PodSpec, td *model.TemplateDecl) error {
	for i, g := range spec.ReadinessGates {
		if g.ConditionType == "" {
			return tc.errorf(index("spec.readinessGates", i)+".conditionType", "required (accepted: a pod condition type, e.g. www.example.com/feature-1)")
		}
		td.ReadinessProbe = true
	}
	for _, cs := range [][]Container{spec.Containers, spec.InitContainers} {
		for _, c := range cs {
			if c.ReadinessProbe != nil || c.StartupProbe != nil {
				td.ReadinessProbe = true
			}
		}
	}
	return nil
}

// minReadySeconds validates a workload's spec.minReadySeconds and records
// it on its template.
func minReadySeconds(o Object, v int32, td *model.TemplateDecl) error {
	if v < 0 {
		return o.at().errorf(o.path("spec.minReadySeconds"), "%d (accepted: an integer ≥ 0)", v)
	}
	td.MinReadySeconds = v
	return nil
}
