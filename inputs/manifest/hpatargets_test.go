package manifest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// testHPA is an HPA of hpaTargetsInput.
type testHPA struct {
	name, target string
	min, max     int
}

// hpaTargetsInput is web (selector app=web), web-canary (app=web,
// track=canary) and the given HPAs, on one node.
func hpaTargetsInput(hpas ...testHPA) []File {
	doc := `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, resources: {requests: {cpu: 200m, memory: 64Mi}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web-canary}
spec:
  replicas: 1
  selector: {matchLabels: {app: web, track: canary}}
  template:
    metadata: {labels: {app: web, track: canary}}
    spec:
      containers: [{name: web, resources: {requests: {cpu: 200m, memory: 64Mi}}}]
`
	for _, h := range hpas {
		doc += fmt.Sprintf("---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: %s}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: %s}\n  minReplicas: %d\n  maxReplicas: %d\n", h.name, h.target, h.min, h.max)
	}
	return []File{{Name: "in.yaml", Data: []byte(doc)}}
}

// TestSeveralHPAsOfOneWorkload: every HPA after a workload's first is
// read into the first's SharedTarget, in the manifests' order, with a
// warning on it that names the first HPA, the ranges so far and whether
// they overlap.
func TestSeveralHPAsOfOneWorkload(t *testing.T) {
	r, err := LoadStream(hpaTargetsInput(testHPA{"a", "web-canary", 2, 4}, testHPA{"b", "web-canary", 3, 6}, testHPA{"c", "web-canary", 5, 8}), nil, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var h *model.HPADecl
	for _, d := range r.Cluster.Deployments {
		if d.Name == "web-canary" {
			h = d.HPA
		}
	}
	want := []model.HPABoundsDecl{{Name: "b", Min: 3, Max: 6}, {Name: "c", Min: 5, Max: 8}}
	if h == nil || h.Name != "a" || h.Min != 2 || h.Max != 4 || fmt.Sprint(h.SharedTarget) != fmt.Sprint(want) {
		t.Fatalf("web-canary's HPA %+v, want a 2..4 sharing with %v", h, want)
	}
	var shared []string
	for _, w := range r.Warnings {
		if s := w.String(); strings.Contains(s, "AmbiguousSelector") {
			shared = append(shared, s)
		}
	}
	if len(shared) != 2 {
		t.Fatalf("warnings on the shared target %q, want one on b and one on c", shared)
	}
	for i, want := range []string{"document 5: spec.scaleTargetRef: Deployment default/web-canary is also the target of HPA a (in.yaml document 4)", "(a 2..4, b 3..6)"} {
		if !strings.Contains(shared[0], want) {
			t.Errorf("warning on b lacks %q (%d): %s", want, i, shared[0])
		}
	}
	if strings.Contains(shared[0], "do not overlap") {
		t.Errorf("a 2..4 and b 3..6 overlap: %s", shared[0])
	}
	if !strings.Contains(shared[1], "(a 2..4, b 3..6, c 5..8); their ranges do not overlap") {
		t.Errorf("warning on c: %s", shared[1])
	}
}

// TestHPASelectorOverlap: web's selector app=web also selects
// web-canary's pods, so web's HPA would count them (upstream lists its
// target's pods by selector) and, with an HPA on web-canary too, both
// find AmbiguousSelector; the model does neither, and warns on web's HPA.
// web-canary's selector selects its own pods only: no warning on its HPA.
func TestHPASelectorOverlap(t *testing.T) {
	for _, tc := range []struct {
		name      string
		hpas      []testHPA
		overlap   bool
		ambiguous bool
	}{
		{"HPA on web", []testHPA{{"web", "web", 2, 4}}, true, false},
		{"HPAs on both", []testHPA{{"web", "web", 2, 4}, {"canary", "web-canary", 1, 2}}, true, true},
		{"HPA on the canary only", []testHPA{{"canary", "web-canary", 1, 2}}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := LoadStream(hpaTargetsInput(tc.hpas...), nil, nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range r.Warnings {
				if s := w.String(); strings.Contains(s, "also selects the pods") {
					got = append(got, s)
				}
			}
			if (len(got) == 1) != tc.overlap || len(got) > 1 {
				t.Fatalf("overlap warnings %q, want one: %v", got, tc.overlap)
			}
			if !tc.overlap {
				return
			}
			for _, want := range []string{"document 4: spec.scaleTargetRef: the selector of Deployment default/web also selects the pods of Deployment default/web-canary (labels app=web,track=canary)", "counts those pods in its metrics too"} {
				if !strings.Contains(got[0], want) {
					t.Errorf("warning lacks %q: %s", want, got[0])
				}
			}
			if amb := strings.Contains(got[0], "AmbiguousSelector"); amb != tc.ambiguous {
				t.Errorf("warning names AmbiguousSelector: %v, want %v: %s", amb, tc.ambiguous, got[0])
			}
			// Both HPAs list the canary's pods, which the other's target
			// selects too.
			for _, d := range r.Cluster.Deployments {
				want := []string(nil)
				if tc.ambiguous {
					want = []string{"web-canary"}
				}
				if d.HPA != nil && fmt.Sprint(d.HPA.SelectorSharedWith) != fmt.Sprint(want) {
					t.Errorf("%s's HPA shares its selector with %v, want %v", d.Name, d.HPA.SelectorSharedWith, want)
				}
				// web's HPA counts the canary's pods in its metrics; the
				// canary's selector selects its own only.
				counts := []string(nil)
				if d.Name == "web" {
					counts = []string{"web-canary"}
				}
				if d.HPA != nil && fmt.Sprint(d.HPA.SelectsPodsOf) != fmt.Sprint(counts) {
					t.Errorf("%s's HPA counts the pods of %v, want %v", d.Name, d.HPA.SelectsPodsOf, counts)
				}
			}
		})
	}
}
