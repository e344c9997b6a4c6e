package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestStatefulSetFromManifests: a StatefulSet of three 800m pods on two
// 1-CPU nodes, read from its manifest: the StatefulSet controller creates
// db-0, db-1 and db-2 in order, and db-2 finds no node. The trace names
// the pods as Kubernetes does and the controller as kube-controller-manager
// does.
func TestStatefulSetFromManifests(t *testing.T) {
	const db = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 3
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: c, resources: {requests: {cpu: 800m, memory: 1Gi}}}]}
`
	r := verifyManifests(t, db, twoNodes("1"), "", false).Result("pod_always_schedulable")
	if r == nil || r.Verdict != checker.Violated || r.Trace == nil {
		t.Fatalf("pod_always_schedulable: %+v, want violated with a trace", r)
	}
	text := strings.Join(r.Trace.Lines(), "\n")
	for _, want := range []string{
		"[statefulset-controller] create Pod db-0 in StatefulSet db successful",
		"[statefulset-controller] create Pod db-1 in StatefulSet db successful",
		"[statefulset-controller] create Pod db-2 in StatefulSet db successful",
		"statefulset db now has 2 replicas",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("trace lacks %q:\n%s", want, text)
		}
	}
	if i, j := strings.Index(text, "create Pod db-1"), strings.Index(text, "Started pod db-0"); i < j {
		t.Errorf("db-1 created before db-0 started (OrderedReady):\n%s", text)
	}
	for _, bad := range []string{"replicaset-controller", "deployment db"} {
		if strings.Contains(text, bad) {
			t.Errorf("trace names the StatefulSet as a Deployment (%q):\n%s", bad, text)
		}
	}
	// On 2-CPU nodes every pod fits.
	if r := verifyManifests(t, db, twoNodes("2"), "", false).Result("pod_always_schedulable"); r == nil || r.Verdict != checker.Holds {
		t.Fatalf("on 2-CPU nodes: %+v, want holds", r)
	}
}
