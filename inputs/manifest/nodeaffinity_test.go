package manifest

import (
	"errors"
	"strings"
	"testing"
)

// TestEmptyNodeSelectorTerms: a node selector term without expressions
// is read as the API server takes it (an empty selector: a required one
// matches no node, a preferred one adds nothing); a requirement whose key
// is not a label key (the API server refuses it) is an input error naming
// it.
func TestEmptyNodeSelectorTerms(t *testing.T) {
	deployment := func(affinity string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      affinity: {nodeAffinity: ` + affinity + `}
      containers: [{name: c, image: i, resources: {requests: {cpu: "1", memory: 1Gi}}}]
`
	}
	load := func(affinity string) (*Result, error) {
		return LoadStream([]File{{Name: "web.yaml", Data: []byte(deployment(affinity))}}, &File{Name: "nodes.yaml", Data: []byte(dumpNodes)}, nil, Options{})
	}
	r, err := load(`{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{}, {matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [n2]}]}]}, preferredDuringSchedulingIgnoredDuringExecution: [{weight: 5, preference: {}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	td := r.Cluster.Templates[0]
	if len(td.Required) != 2 || !td.Required[0].Empty() || td.Required[1].Empty() || len(td.Preferred) != 1 || !td.Preferred[0].Term.Empty() {
		t.Errorf("required %+v, preferred %+v: want an empty first term, the hostname term and an empty preference", td.Required, td.Preferred)
	}
	_, err = load(`{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: "not a key", operator: Exists}]}]}}`)
	if err == nil || !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), `nodeSelectorTerms[0].matchExpressions[0].key: "not a key" (accepted: a label key`) {
		t.Errorf("an invalid key: %v, want an input error naming it", err)
	}
}
