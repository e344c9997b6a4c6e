package descheduler

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestNodeUtilizationValidationUpstream restates the rows of
// sigs.k8s.io/descheduler@v0.36.0,
// pkg/framework/plugins/nodeutilization/validation_test.go
// (TestValidateLowNodeUtilizationPluginConfig,
// TestValidateHighNodeUtilizationPluginConfig) against the model's
// LowNodeUtilizationArgs.Validate and HighNodeUtilizationArgs.Validate:
// the field the error names, or none. Left out (docs/divergences.md,
// "LowNodeUtilization and HighNodeUtilization", *Requests only*): the
// extended-resource rows (thresholds of extended resources are input
// errors), the metrics rows ("setting both kubernetes metrics source and
// metricsserver", "missing prometheus query", "prometheus set when source
// set to kubernetes metrics": metricsUtilization is ignored, Prometheus
// an input error), and HighNodeUtilization's eviction-mode rows (the
// model's OnlyThresholdingResources is a bool: an unknown mode is the
// readers' input error).
func TestNodeUtilizationValidationUpstream(t *testing.T) {
	low := []struct {
		name      string
		args      model.LowNodeUtilizationArgs
		wantField string // "" when valid
	}{
		{"passing invalid thresholds", model.LowNodeUtilizationArgs{Thresholds: thr(20, 120, -1), TargetThresholds: thr(80, 80, -1)}, "thresholds.memory"},
		{"thresholds and targetThresholds configured different num of resources",
			model.LowNodeUtilizationArgs{Thresholds: thr(20, 20, -1), TargetThresholds: thr(80, 80, 80)}, "targetThresholds"},
		{"thresholds and targetThresholds configured different resources",
			model.LowNodeUtilizationArgs{Thresholds: thr(20, 20, -1), TargetThresholds: thr(80, -1, 80)}, "targetThresholds"},
		{"thresholds' CPU config value is greater than targetThresholds'",
			model.LowNodeUtilizationArgs{Thresholds: thr(90, 20, -1), TargetThresholds: thr(80, 80, -1)}, "thresholds.cpu"},
		{"passing valid plugin config", model.LowNodeUtilizationArgs{Thresholds: thr(20, 20, -1), TargetThresholds: thr(80, 80, -1)}, ""},
	}
	for _, tc := range low {
		t.Run("LowNodeUtilization: "+tc.name, func(t *testing.T) { checkArgError(t, tc.args.Validate(), tc.wantField) })
	}
	high := []struct {
		name      string
		args      model.HighNodeUtilizationArgs
		wantField string
	}{
		{"valid configuration with CPU and memory", model.HighNodeUtilizationArgs{Thresholds: thr(20, 20, -1)}, ""},
		{"empty thresholds", model.HighNodeUtilizationArgs{}, "thresholds"},
		{"threshold below minimum (0%)", model.HighNodeUtilizationArgs{Thresholds: model.ResourceThresholds{CPU: pct(-1)}}, "thresholds.cpu"},
		{"threshold above maximum (100%)", model.HighNodeUtilizationArgs{Thresholds: thr(-1, 101, -1)}, "thresholds.memory"},
		{"multiple thresholds with one out of range", model.HighNodeUtilizationArgs{Thresholds: thr(50, 150, -1)}, "thresholds.memory"},
		{"evictableNamespaces with Exclude (allowed)", model.HighNodeUtilizationArgs{Thresholds: thr(20, -1, -1), ExcludedNamespaces: []string{"kube-system"}}, ""},
		{"missing eviction modes (nil) - should be allowed (treated as empty)", model.HighNodeUtilizationArgs{Thresholds: thr(20, -1, -1)}, ""},
	}
	for _, tc := range high {
		t.Run("HighNodeUtilization: "+tc.name, func(t *testing.T) { checkArgError(t, tc.args.Validate(), tc.wantField) })
	}
}

func checkArgError(t *testing.T, err *model.ArgError, wantField string) {
	t.Helper()
	switch {
	case wantField == "" && err != nil:
		t.Errorf("error %v, want none", err)
	case wantField != "" && err == nil:
		t.Errorf("no error, want one naming %s", wantField)
	case wantField != "" && (err.Field != wantField || !strings.Contains(err.Msg, "accepted")):
		t.Errorf("error %v, want field %s and the accepted values", err, wantField)
	}
}
