package manifest

import (
	"fmt"
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

// TestPriorityThreshold: the DefaultEvictor's priorityThreshold by class
// name or value; both, an unknown class or a value above
// system-cluster-critical's are errors.
func TestPriorityThreshold(t *testing.T) {
	classes := newPriorityClassTable([]model.PriorityClassDecl{{Name: "high", Value: 1000}})
	policy := func(args string) string {
		return "apiVersion: descheduler/v1alpha2\nkind: DeschedulerPolicy\nprofiles:\n- name: p\n  pluginConfig:\n  - name: DefaultEvictor\n    args: " + args + "\n  plugins: {balance: {enabled: [RemoveDuplicates]}}\n"
	}
	for args, want := range map[string]string{
		"{priorityThreshold: {name: high}}":                 "1000",
		"{priorityThreshold: {value: 7}}":                   "7",
		"{priorityThreshold: {name: system-node-critical}}": "error: can't be greater",
		"{priorityThreshold: {name: low}}":                  "error: no PriorityClass with name low (classes: high, system-cluster-critical, system-node-critical)",
		"{priorityThreshold: {name: high, value: 3}}":       "error: both name and value",
		"{}": "none",
	} {
		objs, _, err := Decode("p.yaml", []byte(policy(args)))
		if err != nil {
			t.Fatal(err)
		}
		var warns []Warning
		ds, err := deschedulerDecl(objs[0], classes, &warns)
		got := "none"
		switch {
		case err != nil:
			got = "error: " + err.Error()
		case ds.Profiles[0].PriorityThreshold != nil:
			got = fmt.Sprint(*ds.Profiles[0].PriorityThreshold)
		}
		if !strings.HasPrefix(got, "error: ") && got != want || strings.HasPrefix(want, "error: ") && !strings.Contains(got, strings.TrimPrefix(want, "error: ")) {
			t.Errorf("%s: got %s, want %s", args, got, want)
		}
	}
}
