package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// TestPausedRolloutCompletes: rollout_completes of a paused Deployment,
// as `kubectl rollout status` waits for one: created paused it gets no
// ReplicaSet and never completes until a `kubectl rollout resume` rolls
// it out; a release applied next to a `kubectl rollout pause` stops
// wherever the pause finds it (before the rollout or in the middle of
// it), so it does not complete.
func TestPausedRolloutCompletes(t *testing.T) {
	deployment := func(version, paused string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: app, namespace: shop}
spec:
  replicas: 2
` + paused + `  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app, version: ` + version + `}}
    spec:
      containers: [{name: c, resources: {requests: {cpu: 100m, memory: 64Mi}}}]
`
	}
	intents := func(events ...string) string {
		s := "intents:\n- name: rollout_completes\n  params: {deployment: app}\n"
		if len(events) > 0 {
			s += "events:\n"
			for _, e := range events {
				s += "- " + e + "\n"
			}
		}
		return s
	}
	for _, c := range []struct {
		name, paused string
		events       []string
		want         checker.Verdict
		explanation  string
	}{
		{"created paused", "  paused: true\n", nil, checker.Violated, "deployment app stopped paused before its first rollout: no ReplicaSet, 0 of 2 replicas"},
		{"created paused, then resumed", "  paused: true\n", []string{"{kind: rolloutResume, deployment: app, when: afterStable}"}, checker.Holds, ""},
		{"paused: false", "  paused: false\n", nil, checker.Holds, ""},
		{"a release and a pause", "", []string{"{kind: applyDeployment, manifest: v2.yaml, when: afterStable}", "{kind: rolloutPause, deployment: app, when: afterStable}"}, checker.Violated, "deployment app stopped paused with its pod template not rolled out: 0 of 2 updated replicas, 2 running pods of older templates"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := verifyInput(t, input{manifests: deployment("v1", c.paused), nodes: twoNodes("4"), intents: intents(c.events...),
				files: map[string]string{"v2.yaml": deployment("v2", "")}, opts: kivi.Options{Checker: checker.Options{CollectAll: true}}})
			r := rep.Result("rollout_completes")
			if r == nil || r.Verdict != c.want {
				t.Fatalf("rollout_completes: %+v, want %v", r, c.want)
			}
			if c.want == checker.Violated && !strings.Contains(r.Explanation, c.explanation) {
				t.Errorf("explanation %q, want %q", r.Explanation, c.explanation)
			}
		})
	}
}
