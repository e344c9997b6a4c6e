package hpadiff

import "testing"

// TestClassExamples pins the minimal examples of docs/divergences.md
// ("HPA replica calculation against kube-controller-manager v1.36"):
// model and upstream answers, and the class the classifier names.
func TestClassExamples(t *testing.T) {
	base := Case{Current: 2, Min: 1, Max: 10, TargetPercent: 50, TolerancePercent: 10}
	tests := []struct {
		class       string
		pods        []Pod
		model, real int
	}{
		{"missing-sample", []Pod{{Kind: Ready, Request: 1000, Usage: 200}, {Kind: NoSample, Request: 1000, Usage: 200}}, 1, 2},
		{"terminating-pod-without-request", []Pod{{Kind: Ready, Request: 1000, Usage: 1000}, {Kind: Ready, Request: 1000, Usage: 1000}, {Kind: Terminating, Request: 0, Usage: 0}}, 4, 2},
	}
	for _, tc := range tests {
		c := base
		c.Pods = tc.pods
		m, r := ModelEval(&c), RealEval(&c)
		if m != tc.model || r != tc.real {
			t.Errorf("%s: model %d real %d, want %d and %d", tc.class, m, r, tc.model, tc.real)
		}
		if got := Classify(&c, EvalSame(ModelEval)); got != tc.class {
			t.Errorf("%s: classified %q", tc.class, got)
		}
	}
}

// TestNotReadyRunningPod: a Running pod whose Ready condition is False
// and that was never ready is left out of the first ratio and counted at
// 0 % on a scale-up, by the model (model.PodNotReady) as by upstream; it
// was the class "not-ready-running-pod" while the model had no readiness.
func TestNotReadyRunningPod(t *testing.T) {
	c := Case{Current: 2, Min: 1, Max: 10, TargetPercent: 50, TolerancePercent: 10,
		Pods: []Pod{{Kind: Ready, Request: 1000, Usage: 1000}, {Kind: NotReady, Request: 1000, Usage: 1000}}}
	if m, r := ModelEval(&c), RealEval(&c); m != 2 || r != 2 {
		t.Errorf("model %d real %d, want 2 and 2", m, r)
	}
}
