package manifest

import (
	"strings"
	"testing"
)

// TestScaleDownStabilizationWindow: spec.behavior.scaleDown.stabilizationWindowSeconds
// becomes the model's window in 15 s sync periods, rounded up and capped
// at model.MaxStabilizationSyncs; without it the window stays off (Kivi),
// with a warning when a behavior is given, since Kubernetes then applies
// its 300 s default.
func TestScaleDownStabilizationWindow(t *testing.T) {
	tests := []struct {
		name     string
		behavior string // the spec.behavior line, "" for none
		want     int
		warning  string // a warning that must be present, "" for no warning
	}{
		{"no behavior: off, as Kivi", "", 0, ""},
		{"behavior without scaleDown", "behavior: {scaleUp: {stabilizationWindowSeconds: 60}}", 0, "no scaleDown.stabilizationWindowSeconds: Kubernetes applies its 300 s default"},
		{"scaleDown without a window", "behavior: {scaleDown: {selectPolicy: Max}}", 0, "no scaleDown.stabilizationWindowSeconds"},
		{"0 s: off", "behavior: {scaleDown: {stabilizationWindowSeconds: 0}}", 0, ""},
		{"1 s: one sync (rounded up)", "behavior: {scaleDown: {stabilizationWindowSeconds: 1}}", 1, ""},
		{"15 s: one sync", "behavior: {scaleDown: {stabilizationWindowSeconds: 15}}", 1, ""},
		{"16 s: two syncs", "behavior: {scaleDown: {stabilizationWindowSeconds: 16}}", 2, ""},
		{"60 s: four syncs", "behavior: {scaleDown: {stabilizationWindowSeconds: 60}}", 4, ""},
		{"300 s: capped at four", "behavior: {scaleDown: {stabilizationWindowSeconds: 300}}", 4, "300 s is 20 sync periods of 15 s; the model keeps at most 4 (a window of 60 s)"},
		{"3600 s: the API maximum, capped", "behavior: {scaleDown: {stabilizationWindowSeconds: 3600}}", 4, "3600 s is 240 sync periods"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := load(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, resources: {requests: {cpu: 100m}}}]}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {kind: Deployment, name: web}
  maxReplicas: 3
  `+tc.behavior+"\n")
			if got := r.Cluster.Deployments[0].HPA.ScaleDownStabilizationSyncs; got != tc.want {
				t.Errorf("scaleDownStabilizationSyncs = %d, want %d", got, tc.want)
			}
			var windowWarnings []string
			for _, w := range r.Warnings {
				if w.Path == "spec.behavior" || w.Path == "spec.behavior.scaleDown.stabilizationWindowSeconds" {
					windowWarnings = append(windowWarnings, w.String())
				}
			}
			switch {
			case tc.warning == "" && len(windowWarnings) > 0:
				t.Errorf("unexpected warnings: %q", windowWarnings)
			case tc.warning != "" && (len(windowWarnings) != 1 || !strings.Contains(windowWarnings[0], tc.warning)):
				t.Errorf("warnings %q, want one containing %q", windowWarnings, tc.warning)
			}
		})
	}
}
