package model

import (
	"errors"
	"reflect"
	"testing"
)

// TestCompileSeveralHPAs: the HPAs of one workload compile to one HPA
// whose Ambiguous lists every one's bounds, the first first; its Min and
// Max span them all (the pods the workload may need), its only metric
// fails (no HPA of it computes one) and it has no window or behavior,
// whatever the first declared. Bad bounds of another HPA are an error
// naming it.
func TestCompileSeveralHPAs(t *testing.T) {
	d := &HPADecl{Name: "web", Min: 3, Max: 5, ScaleDownStabilizationSyncs: 4,
		Metrics:      []MetricDecl{{Resource: "cpu", Target: 50}},
		SharedTarget: []HPABoundsDecl{{Name: "keda", Min: 0, Max: 2}, {Name: "other", Min: 4, Max: 9}}}
	h, err := d.compile(3, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []HPABounds{{"web", 3, 5}, {"keda", 1, 2}, {"other", 4, 9}}
	if !reflect.DeepEqual(h.Ambiguous, want) || h.Min != 1 || h.Max != 9 || h.Name != "web" {
		t.Errorf("compiled %+v, want bounds %v spanning 1..9", h, want)
	}
	if len(h.Metrics) != 1 || h.Metrics[0].Kind != InvalidMetric || h.ScaleDownStabilizationSyncs != 0 || h.Behavior != nil {
		t.Errorf("metrics %+v window %d behavior %v, want one invalid metric and neither", h.Metrics, h.ScaleDownStabilizationSyncs, h.Behavior)
	}
	d.SharedTarget[1].Max = 3
	if _, err := d.compile(3, false); !errors.Is(err, ErrInvalid) || err.Error() != "sharedTarget[1] (other): need 1 <= minReplicas <= maxReplicas (min 4, max 3): invalid model" {
		t.Errorf("bad bounds: %v", err)
	}
}
