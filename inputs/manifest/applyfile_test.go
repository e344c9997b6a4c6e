package manifest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kivi-go/kivi/inputs/manifest"
)

// TestApplyManifest: applyDeployment's manifest becomes a deployment
// template for the Deployment it names, with its replicas, strategy and
// pod template; a manifest without replicas leaves them to the API
// server's default, and one file applied twice is one template.
func TestApplyManifest(t *testing.T) {
	m, n := workedExample(t)
	files := map[string]string{
		"web-v2.yaml": `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 4
  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 2}}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, version: v2}}
    spec:
      containers:
      - name: web
        resources: {requests: {cpu: 700m, memory: 256Mi}}
`,
		"web-norep.yaml": `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  strategy: {type: Recreate}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        resources: {requests: {cpu: 500m, memory: 256Mi}}
`,
	}
	opts := cliOptions()
	opts.ReadFile = func(p string) ([]byte, error) {
		if s, ok := files[filepath.Base(p)]; ok && filepath.Dir(p) == "dir" {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}
	intents := manifest.File{Name: "dir/intents.yaml", Data: []byte(`intents:
- name: pod_always_schedulable
events:
- {kind: applyDeployment, manifest: web-v2.yaml, when: afterStable}
- {kind: applyDeployment, manifest: web-v2.yaml}
- {kind: applyDeployment, manifest: web-norep.yaml}
`)}
	r, err := manifest.LoadStream([]manifest.File{m}, &n, &intents, opts)
	if err != nil {
		t.Fatal(err)
	}
	c := r.Cluster
	if len(c.DeploymentTemplates) != 2 {
		t.Fatalf("deployment templates %+v, want one per file", c.DeploymentTemplates)
	}
	v2, norep := c.DeploymentTemplates[0], c.DeploymentTemplates[1]
	if v2.Deployment != "web" || v2.Replicas == nil || *v2.Replicas != 4 || v2.MaxSurge != "0" || v2.MaxUnavailable != "2" || v2.Strategy != "" {
		t.Errorf("web-v2.yaml: %+v", v2)
	}
	if norep.Deployment != "web" || norep.Replicas != nil || norep.Strategy != "Recreate" {
		t.Errorf("web-norep.yaml: %+v", norep)
	}
	var events []string
	for _, e := range c.Events {
		if e.Kind == "applyDeployment" {
			events = append(events, e.Template)
		}
	}
	if len(events) != 3 || events[0] != v2.Name || events[1] != v2.Name || events[2] != norep.Name {
		t.Errorf("events name templates %q", events)
	}
	found := false
	for _, td := range c.Templates {
		if td.Name == v2.Template {
			found = true
			if td.CPU != 700 || td.Labels["version"] != "v2" {
				t.Errorf("pod template of web-v2.yaml: %+v", td)
			}
		}
	}
	if !found {
		t.Errorf("no pod template %q", v2.Template)
	}
	// The universe applies both to web, the Deployment they name.
	u, _, err := c.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, dt := range u.DeploymentTemplates {
		if dt.Name != "web" {
			t.Errorf("template applies to %q, want web", dt.Name)
		}
	}
	if cfg := u.Configs[u.DeploymentTemplates[0].Config]; cfg.MaxSurge.Value != 0 || cfg.MaxUnavailable.Value != 2 || cfg.MaxUnavailable.Percent {
		t.Errorf("web-v2.yaml's config %+v, want maxSurge 0, maxUnavailable 2", cfg)
	}
}
