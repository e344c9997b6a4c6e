package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestApplyWithoutReplicas: `kubectl apply` of a Deployment file without
// spec.replicas resets an HPA-scaled Deployment to 1 only when the
// configuration applied last set spec.replicas (the three-way merge
// deletes the field, the API server defaults it); when neither sets it the
// live count stays. tektoncd/pipeline#4892's fix (spec.replicas removed
// from the release) therefore holds from its second application on. Two
// applies of files that differ in spec.replicas make the outcome depend
// on their order, which the states track.
func TestApplyWithoutReplicas(t *testing.T) {
	webhook := func(replicas string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: webhook}
spec:
` + replicas + `  selector: {matchLabels: {app: webhook}}
  template:
    metadata: {labels: {app: webhook}}
    spec: {containers: [{name: c, resources: {requests: {cpu: 100m, memory: 100Mi}}}]}
`
	}
	const hpa = `---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: webhook}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: webhook}
  minReplicas: 2
  maxReplicas: 3
  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 100}}}]
`
	apply := func(files ...string) string {
		s := "intents:\n- name: replica_num_always_meet_min\n  params: {deployment: webhook}\nevents:\n"
		for _, f := range files {
			s += "- {kind: applyDeployment, manifest: " + f + ", when: afterStable}\n"
		}
		return s
	}
	const withReplicas, without = "  replicas: 2\n", ""
	for _, c := range []struct {
		name, manifests, intents string
		want                     checker.Verdict
		trace                    []string // lines the counterexample holds, in order
	}{
		{"removed from the file: the first apply resets", withReplicas, apply("unset.yaml"), checker.Violated,
			[]string{"kubectl apply: deployment webhook configured", "too many replicas"}},
		{"in neither: the live count stays", without, apply("unset.yaml"), checker.Holds, nil},
		{"in neither, applied twice", without, apply("unset.yaml", "unset.yaml"), checker.Holds, nil},
		{"set, then removed", without, apply("set.yaml", "unset.yaml"), checker.Violated,
			[]string{"kubectl apply: deployment webhook configured", "kubectl apply: deployment webhook configured", "too many replicas"}},
		{"in the file", without, apply("set.yaml"), checker.Holds, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := verifyInput(t, input{manifests: webhook(c.manifests) + hpa, nodes: twoNodes("1"), intents: c.intents,
				files: map[string]string{"unset.yaml": webhook(without), "set.yaml": webhook(withReplicas)}})
			r := rep.Result("replica_num_always_meet_min")
			if r.Verdict != c.want {
				t.Fatalf("replica_num_always_meet_min %v, want %v", r.Verdict, c.want)
			}
			if c.trace == nil {
				return
			}
			text := strings.Join(r.Trace.Lines(), "\n")
			rest := text
			for _, want := range c.trace {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Fatalf("counterexample without %q (in order):\n%s", want, text)
				}
				rest = rest[i+len(want):]
			}
		})
	}
}

// TestReapplySamePodTemplate: applying a file whose pod template is the
// one the Deployment runs (the same release applied again) rolls nothing
// out, as the pod-template-hash is unchanged; a template that differs in
// any field, even one the model does not read (the image), is a rollout,
// which dips below spec.replicas under maxUnavailable 1.
func TestReapplySamePodTemplate(t *testing.T) {
	web := func(image string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: "` + image + `", resources: {requests: {cpu: 100m}}}]}
`
	}
	const intents = `intents:
- name: replica_num_always_meet_exp
  params: {deployment: web, expReplicas: spec}
events:
- {kind: applyDeployment, manifest: web.yaml, when: afterStable}
`
	for _, c := range []struct {
		name, image string
		want        checker.Verdict
	}{
		{"the same release", "web:1.0", checker.Holds},
		{"a new image", "web:1.1", checker.Violated},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := verifyInput(t, input{manifests: web("web:1.0"), nodes: twoNodes("1"), intents: intents, files: map[string]string{"web.yaml": web(c.image)}})
			if r := rep.Result("replica_num_always_meet_exp"); r.Verdict != c.want {
				t.Fatalf("replica_num_always_meet_exp %v, want %v", r.Verdict, c.want)
			}
		})
	}
}
