package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestNamespacesScopeSelectors: two Deployments labelled app=web, each
// with a required anti-affinity term on app=web by hostname, two
// replicas each, on two nodes. In two namespaces each term sees its own
// namespace's pods only (Kubernetes' default), so the four pods fit two
// per node; in one namespace the third pod has no node. A term naming
// the other namespace, or selecting it by a namespaceSelector, sees both
// again.
func TestNamespacesScopeSelectors(t *testing.T) {
	deployment := func(name, ns, terms string) string {
		return `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ` + name + `, namespace: ` + ns + `}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, resources: {requests: {cpu: 100m}}}]
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {labelSelector: {matchLabels: {app: web}}, topologyKey: kubernetes.io/hostname` + terms + `}
`
	}
	const namespaces = `---
apiVersion: v1
kind: Namespace
metadata: {name: blue, labels: {team: shop}}
---
apiVersion: v1
kind: Namespace
metadata: {name: green, labels: {team: shop}}
`
	for _, c := range []struct {
		name      string
		manifests string
		want      checker.Verdict
	}{
		{"two namespaces", deployment("web", "blue", "") + deployment("web", "green", ""), checker.Holds},
		{"one namespace", deployment("web", "blue", "") + deployment("web2", "blue", ""), checker.Violated},
		{"namespaces listed", deployment("web", "blue", ", namespaces: [blue, green]") + deployment("web", "green", ""), checker.Violated},
		{"namespaceSelector", namespaces + deployment("web", "blue", ", namespaceSelector: {matchLabels: {team: shop}}") + deployment("web", "green", ""), checker.Violated},
		{"namespaceSelector by name", deployment("web", "blue", ", namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: blue}}") + deployment("web", "green", ""), checker.Holds},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := verifyManifests(t, c.manifests, twoNodes("4"), "", false).Result("pod_always_schedulable")
			if r == nil || r.Verdict != c.want {
				t.Fatalf("pod_always_schedulable: %+v, want %v", r, c.want)
			}
			if c.want == checker.Violated {
				lines := r.Trace.Lines()
				if last := lines[len(lines)-1]; !strings.Contains(last, "anti-affinity") {
					t.Errorf("the counterexample ends %q, not on the anti-affinity rule", last)
				}
			}
		})
	}
}
