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
		{"not-ready-running-pod", []Pod{{Ready, 1000, 1000}, {NotReady, 1000, 1000}}, 4, 2},
		{"missing-sample", []Pod{{Ready, 1000, 200}, {NoSample, 1000, 200}}, 1, 2},
		{"terminating-pod-without-request", []Pod{{Ready, 1000, 1000}, {Ready, 1000, 1000}, {Terminating, 0, 0}}, 4, 2},
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
