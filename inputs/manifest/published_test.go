package manifest

import (
	"strings"
	"testing"
)

// The cases of this file come from published manifests (Kubernetes'
// documentation examples, Helm charts' rendered output, install
// bundles): objects the API server accepts must be read, and what the
// model leaves out must be said.

// TestFlowStyleDocuments: the documentation writes many examples as YAML
// in flow style, which starts like JSON (unquoted keys, trailing
// commas); kubectl reads them, falling back to YAML when JSON fails.
func TestFlowStyleDocuments(t *testing.T) {
	hpa := `{
  apiVersion: "autoscaling/v2",
  kind: "HorizontalPodAutoscaler",
  metadata: {
    name: "web",
  },
  spec: {
    scaleTargetRef: {apiVersion: "apps/v1", kind: "Deployment", name: "web"},
    minReplicas: 1,
    maxReplicas: 4,
  },
}
`
	dep := webDeployment(`      containers: [{name: c, resources: {requests: {cpu: 100m}}}]
`)
	for name, stream := range map[string]string{
		"after a separator": dep + "---\n" + hpa,
		"a whole file":      hpa,
		"first of a stream": hpa + "---\n" + dep,
	} {
		t.Run(name, func(t *testing.T) {
			files := []File{{Name: "hpa.yaml", Data: []byte(stream)}}
			if name == "a whole file" {
				files = append(files, File{Name: "web.yaml", Data: []byte(dep)})
			}
			r, err := LoadStream(files, &File{Name: "nodes.yaml", Data: []byte(oneNode)}, nil, testOptions())
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Cluster.Deployments) != 1 || r.Cluster.Deployments[0].HPA == nil || r.Cluster.Deployments[0].HPA.Max != 4 {
				t.Fatalf("the flow-style HPA was not read: %+v", r.Cluster.Deployments)
			}
		})
	}
	// Neither JSON nor YAML: the JSON error, as kubectl reports it.
	_, err := LoadStream([]File{{Name: "bad.yaml", Data: []byte("---\n{kind: [\"Deployment\", }\n")}}, nil, nil, testOptions())
	if err == nil || !strings.Contains(err.Error(), "bad.yaml: document 1: not valid JSON (invalid character") {
		t.Fatalf("got %v, want the JSON error", err)
	}
}
