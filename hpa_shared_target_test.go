package kivi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/intents"
	"github.com/kivi-go/kivi/model"
)

// TestHPAsSharingATarget: two HPAs scale one Deployment, a hand-written
// one and the one a KEDA ScaledObject creates. kube-controller-manager
// accepts both and finds web's pods controlled by multiple HPAs
// (AmbiguousSelector): neither computes its metrics, and each moves a
// count outside its own range to its nearer bound. With ranges that do
// not overlap they set the count back and forth forever: no_scaling_loop
// is violated, with a loop of the two HPAs' syncs, and the reader warns,
// naming both HPAs and their ranges. With ranges that overlap the count
// settles inside both: the intent holds and the rollout completes.
func TestHPAsSharingATarget(t *testing.T) {
	const nodes = `apiVersion: v1
kind: NodeList
items:
- {apiVersion: v1, kind: Node, metadata: {name: worker-1}, status: {allocatable: {cpu: "4", memory: 8Gi}}}
`
	manifests := func(kedaMin string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, resources: {requests: {cpu: 200m, memory: 64Mi}}}]
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 4
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: keda-hpa-web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: ` + kedaMin + `
  maxReplicas: 8
  metrics:
  - type: External
    external:
      metric: {name: queue_length}
      target: {type: AverageValue, averageValue: "30"}
`
	}
	const intents = "intents:\n- name: no_scaling_loop\n  params: {deployment: web}\n- name: rollout_completes\n  params: {deployment: web}\n"
	for _, tc := range []struct {
		kedaMin string
		loop    bool
	}{{"5", true}, {"3", false}} {
		t.Run("keda minReplicas "+tc.kedaMin, func(t *testing.T) {
			c, warns, err := kivi.LoadManifests([]kivi.InputFile{{Name: "manifests.yaml", Data: []byte(manifests(tc.kedaMin))}},
				&kivi.InputFile{Name: "nodes.yaml", Data: []byte(nodes)}, &kivi.InputFile{Name: "intents.yaml", Data: []byte(intents)})
			if err != nil {
				t.Fatal(err)
			}
			if len(warns) != 1 {
				t.Fatalf("warnings %v, want the one on the second HPA", warns)
			}
			w := warns[0].String()
			for _, want := range []string{"manifests.yaml", "document 3", "spec.scaleTargetRef", "HPA web (manifests.yaml document 2)", "AmbiguousSelector", "web 2..4, keda-hpa-web " + tc.kedaMin + "..8"} {
				if !strings.Contains(w, want) {
					t.Errorf("warning lacks %q: %s", want, w)
				}
			}
			if fights := strings.Contains(w, "do not overlap"); fights != tc.loop {
				t.Errorf("warning says the ranges do not overlap: %v, want %v: %s", fights, tc.loop, w)
			}
			rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{Workers: 1, CollectAll: true}})
			if err != nil {
				t.Fatal(err)
			}
			want := checker.Holds
			if tc.loop {
				want = checker.Violated
			}
			if r := rep.Result("no_scaling_loop"); r == nil || r.Verdict != want {
				t.Fatalf("no_scaling_loop %+v, want %v", r, want)
			}
			if r := rep.Result("rollout_completes"); r == nil || r.Verdict != checker.Holds {
				t.Errorf("rollout_completes %+v, want holds", r)
			}
			var text strings.Builder
			rep.WriteFailures(&text)
			if !tc.loop {
				return
			}
			loop := text.String()[strings.Index(text.String(), "START OF CYCLE"):]
			for _, want := range []string{"HPA web: the pods of deployment web are controlled by multiple HPAs (web, keda-hpa-web)", "above its maxReplicas 4", "HPA keda-hpa-web:", "below its minReplicas 5"} {
				if !strings.Contains(loop, want) {
					t.Errorf("loop lacks %q:\n%s", want, text.String())
				}
			}
		})
	}
}

// TestHPASelectorSharedWithAnotherHPA: upstream's
// TestConditionAmbiguousSelectorWhenPartialSelectorOverlapBetweenHPAs in
// manifests. web's selector app=web also selects the canary's pods
// (app=web, track=canary), and the canary's HPA selects them too: while
// a canary pod exists, web's HPA finds them controlled by multiple HPAs
// and computes no metric, so web stays at 3 replicas although its pods
// run at 100 % of a 30 % target (the canary's HPA likewise). Without the
// canary's HPA web's HPA scales up (counting web's own pods, where
// upstream would count the canary's too: the reader warns).
func TestHPASelectorSharedWithAnotherHPA(t *testing.T) {
	const nodes = `apiVersion: v1
kind: NodeList
items:
- {apiVersion: v1, kind: Node, metadata: {name: worker-1}, status: {allocatable: {cpu: "8", memory: 16Gi}}}
`
	deployment := func(name, labels string, replicas int) string {
		return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: %s}
spec:
  replicas: %d
  selector: {matchLabels: {%s}}
  template:
    metadata: {labels: {%s}}
    spec:
      containers: [{name: app, resources: {requests: {cpu: 500m, memory: 64Mi}}}]
`, name, replicas, labels, labels)
	}
	hpa := func(target string, min, max int) string {
		return fmt.Sprintf(`apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: %s}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: %s}
  minReplicas: %d
  maxReplicas: %d
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 30}}
`, target, target, min, max)
	}
	webAtThree := intents.NewPredicate("web_at_three", "web keeps 3 replicas", func(v model.View) bool {
		spec, _ := v.Replicas("web")
		return spec == 3
	})
	for _, tc := range []struct {
		name      string
		canaryHPA bool
		webScales bool
		ambiguous bool
	}{{"HPAs on both", true, false, true}, {"HPA on web only", false, true, false}} {
		t.Run(tc.name, func(t *testing.T) {
			docs := []string{deployment("web", "app: web", 3), deployment("canary", "app: web, track: canary", 1), hpa("web", 2, 6)}
			if tc.canaryHPA {
				docs = append(docs, hpa("canary", 1, 3))
			}
			c, warns, err := kivi.LoadManifests([]kivi.InputFile{{Name: "m.yaml", Data: []byte(strings.Join(docs, "---\n"))}},
				&kivi.InputFile{Name: "nodes.yaml", Data: []byte(nodes)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var overlap []string
			for _, w := range warns {
				if s := w.String(); strings.Contains(s, "also selects the pods of Deployment default/canary") {
					overlap = append(overlap, s)
				}
			}
			if len(overlap) != 1 || strings.Contains(overlap[0], "AmbiguousSelector") != tc.ambiguous {
				t.Errorf("overlap warnings %q, want one, naming AmbiguousSelector: %v", overlap, tc.ambiguous)
			}
			rep, err := kivi.Verify(context.Background(), c, kivi.Options{ExtraIntents: []intents.Intent{webAtThree}, Checker: checker.Options{Workers: 1, CollectAll: true}})
			if err != nil {
				t.Fatal(err)
			}
			want := checker.Holds
			if tc.webScales {
				want = checker.Violated
			}
			if r := rep.Result("web_at_three"); r == nil || r.Verdict != want {
				t.Fatalf("web_at_three %+v, want %v", r, want)
			}
		})
	}
}
