package manifest

import (
	"strings"
	"testing"
)

// TestYAMLAsKubectlReadsIt: YAML features of hand-written and generated
// manifests. A key overriding one a merge key brings in is what merge
// keys are for (kubectl reads it); a key written twice in one mapping is
// an error; a YAML error's line is the file's line, not its document's.
func TestYAMLAsKubectlReadsIt(t *testing.T) {
	const head = `# Source: web/templates/deployment.yaml
---
# Source: web/templates/hpa.yaml
# (disabled)
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: &labels
    app: web
spec:
  selector:
    matchLabels: *labels
  template:
    metadata:
      labels: *labels
    spec:
      containers:
      - &main
        name: web
        image: nginx
        resources:
          requests: {cpu: 250m, memory: 256Mi}
`
	for _, tc := range []struct {
		name, tail string
		// cpu: the pod's CPU request read; err: the input error's text.
		cpu int64
		err string
	}{
		{name: "merge key then an override", tail: `      - <<: *main
        name: sidecar
`, cpu: 500},
		{name: "override before the merge key", tail: `      - name: sidecar
        <<: *main
`, cpu: 500},
		{name: "a merge key's list", tail: `      - <<: [*main]
        name: sidecar
        image: busybox
`, cpu: 500},
		{name: "a key written twice beside a merge key", tail: `      - <<: *main
        name: sidecar
        name: other
`, err: `m.yaml: document 2: not valid YAML: line 32: key "name" already set in map`},
		{name: "a key written twice", tail: `      - name: sidecar
        image: busybox
        image: nginx
`, err: `m.yaml: document 2: not valid YAML: line 32: key "image" already set in map`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + head + tc.tail)}}, nil, nil, testOptions())
			if tc.err != "" {
				if err == nil || !IsInput(err) || err.Error() != tc.err {
					t.Fatalf("got %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Cluster.Templates[0].CPU; got != tc.cpu {
				t.Fatalf("cpu %d, want %d", got, tc.cpu)
			}
		})
	}
}

// TestYAMLErrorLines: the line of a YAML error is counted from the
// file's start, past separators and comment-only documents.
func TestYAMLErrorLines(t *testing.T) {
	stream := "---\n# only a comment\n---\napiVersion: v1\nkind: ConfigMap\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: [web\n"
	_, _, err := Decode("m.yaml", []byte(stream))
	if err == nil || !strings.Contains(err.Error(), "line 10") {
		t.Fatalf("got %v, want the error at the file's line 10", err)
	}
}

// TestJSONStream: JSON texts one after the other in one file (`kubectl
// get deploy web -o json; kubectl get hpa web -o json` into one file) are
// documents, as kubectl's decoder reads them.
func TestJSONStream(t *testing.T) {
	dep := `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
 "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web"}},
  "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "100m"}}}]}}}}`
	hpa := `{"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "web"},
 "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}, "maxReplicas": 4}}`
	for _, sep := range []string{"\n", "", "\n\n  "} {
		r, err := LoadStream([]File{{Name: "web.json", Data: []byte(dep + sep + hpa + "\n")}}, &File{Name: "nodes.yaml", Data: []byte(oneNode)}, nil, testOptions())
		if err != nil {
			t.Fatal(err)
		}
		if d := r.Cluster.Deployments; len(d) != 1 || d[0].HPA == nil || d[0].HPA.Max != 4 {
			t.Errorf("separated by %q: the second JSON text was not read: %+v", sep, d)
		}
	}
	// After one JSON text kubectl reads on as YAML (in flow style here);
	// after two, a text that is not JSON is an error.
	flowHPA := "{apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler, metadata: {name: web},\n spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, maxReplicas: 5}}\n"
	objs, _, err := Decode("web.json", []byte(dep+"\n"+flowHPA))
	if err != nil || len(objs) != 2 || objs[1].Kind != "HorizontalPodAutoscaler" || objs[1].Doc != 2 {
		t.Errorf("a JSON text then YAML: %v, %v; want both objects", objs, err)
	}
	for _, tc := range []struct{ data, want string }{
		{dep + "\n{kind: [}\n", "web.json: document 2: not valid JSON (invalid character 'k' looking for beginning of object key string) nor YAML"},
		{dep + hpa + "\n" + flowHPA, "web.json: document 3: not valid JSON: invalid character 'a' looking for beginning of object key string"},
	} {
		if _, _, err := Decode("web.json", []byte(tc.data)); err == nil || !IsInput(err) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("got %v, want an input error starting %q", err, tc.want)
		}
	}
}
