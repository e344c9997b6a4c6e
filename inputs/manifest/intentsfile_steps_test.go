package manifest

import (
	"strings"
	"testing"
)

// TestCPUSteps: a CPU change explores at most six evenly spaced amounts,
// never more than the largest asked for, down to one millicore.
func TestCPUSteps(t *testing.T) {
	for _, tc := range []struct{ largest, steps, unit int }{
		{0, 1, 1}, {1, 1, 1}, {6, 6, 1}, {7, 6, 1}, {10, 5, 2}, {750, 6, 125}, {751, 6, 125}, {755, 6, 125}, {11, 5, 2},
	} {
		steps, unit := cpuSteps(tc.largest)
		if steps != tc.steps || unit != tc.unit {
			t.Errorf("cpuSteps(%d) = %d×%d, want %d×%d", tc.largest, steps, unit, tc.steps, tc.unit)
		}
		if steps < 1 || steps > cpuChangeSteps || steps*unit > max(tc.largest, 1) {
			t.Errorf("cpuSteps(%d) = %d×%d: out of bounds", tc.largest, steps, unit)
		}
	}
}

// TestIdleCPUChangeWarned: a CPU change of a Deployment with 0 replicas
// waits for a pod that never starts (an HPA does not scale from 0): the
// reader says so; one with replicas is quiet.
func TestIdleCPUChangeWarned(t *testing.T) {
	for _, replicas := range []string{"0", "1"} {
		m := `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: ` + replicas + `
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, resources: {requests: {cpu: 100m}}}]}
`
		in := "intents: [{name: pod_always_schedulable}]\nevents: [{kind: eventCpuChange, deployment: web}]\n"
		r, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + m)}}, nil, &File{Name: "i.yaml", Data: []byte(in)}, testOptions())
		if err != nil {
			t.Fatal(err)
		}
		warned := strings.Contains(warningText(r.Warnings), "i.yaml: events[0]: eventCpuChange of deployment web, which has 0 replicas")
		if warned != (replicas == "0") {
			t.Errorf("replicas %s: warned %v:\n%s", replicas, warned, warningText(r.Warnings))
		}
	}
}
