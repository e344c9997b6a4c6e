package manifest

import (
	"os"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestPriorityAdmission: pod templates get the priority and preemption
// policy the priority admission plugin computes: the named class, a
// built-in system class, the globalDefault class for a pod that names
// none; PriorityClass documents raise no warning.
func TestPriorityAdmission(t *testing.T) {
	data, err := os.ReadFile("testdata/fuzz/manifests/priority.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := load(t, string(data)+`
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: plain}
spec:
  selector: {matchLabels: {app: plain}}
  template:
    metadata: {labels: {app: plain}}
    spec:
      containers: [{name: c, resources: {requests: {cpu: 100m}}}]
`)
	want := map[string]struct {
		prio   int32
		policy model.PreemptionPolicy
	}{
		"web":   {1000, model.PreemptNever},
		"agent": {model.SystemNodeCriticalPriority, model.PreemptLowerPriority},
		"plain": {model.HighestUserDefinablePriority, model.PreemptLowerPriority},
	}
	for _, td := range r.Cluster.Templates {
		w, ok := want[td.Name]
		if !ok {
			t.Fatalf("unexpected template %s", td.Name)
		}
		if td.Priority != w.prio || td.PreemptionPolicy != w.policy {
			t.Errorf("%s: priority %d %s, want %d %s", td.Name, td.Priority, td.PreemptionPolicy, w.prio, w.policy)
		}
	}
	for _, w := range r.Warnings {
		if strings.Contains(w.String(), "riority") {
			t.Errorf("warning about priority: %s", w)
		}
	}
}
