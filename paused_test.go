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

// TestPausedDumpResumesChangedTemplate: a running cluster's paused
// Deployment whose template changed while it was paused (its pods, 1 cpu,
// are those of ReplicaSet web-6c8, whose template the dump has; the
// Deployment's template asks 3.5 cpu) rolls the new template out on
// `kubectl rollout resume`: the surge pod fits on neither 4-cpu node
// beside an old pod. Without the resume, or when the dump's ReplicaSet
// is of the current template, nothing rolls out.
func TestPausedDumpResumesChangedTemplate(t *testing.T) {
	for _, c := range []struct {
		name, set string
		resume    bool
		want      checker.Verdict
	}{
		{"resumed", webReplicaSet("6c8", "1", 2), true, checker.Violated},
		{"still paused", webReplicaSet("6c8", "1", 2), false, checker.Holds},
		{"the set is of the current template", webReplicaSet("6c8", "3500m", 2), true, checker.Holds},
	} {
		t.Run(c.name, func(t *testing.T) {
			dump := strings.Replace(webDump(2, "3500m", c.set, webPod("web-6c8-a", "a", "1"), webPod("web-6c8-b", "b", "1")),
				"    replicas: 2\n", "    replicas: 2\n    paused: true\n", 1)
			intents := "intents:\n- name: pod_always_schedulable\n"
			if c.resume {
				intents += "events:\n- {kind: rolloutResume, deployment: web, when: afterStable}\n"
			}
			if r := verifyDump(t, dump, intents).Result("pod_always_schedulable"); r == nil || r.Verdict != c.want {
				t.Fatalf("pod_always_schedulable: %+v, want %v", r, c.want)
			}
		})
	}
}
