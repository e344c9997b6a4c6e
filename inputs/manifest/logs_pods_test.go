package manifest

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kivi-go/kivi/model"
)

const logsNodes = `{"apiVersion":"v1","kind":"List","items":[
{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","labels":{"kubernetes.io/hostname":"n1"}},
 "status":{"allocatable":{"cpu":"4","memory":"4Gi","pods":"110"},"conditions":[{"type":"Ready","status":"True"}]}},
{"apiVersion":"v1","kind":"Node","metadata":{"name":"n2","labels":{"kubernetes.io/hostname":"n2"}},
 "status":{"allocatable":{"cpu":"4","memory":"4Gi","pods":"110"},"conditions":[{"type":"Ready","status":"True"}]}}]}`

const logsDeployments = `{"apiVersion":"v1","kind":"List","items":[
{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default"},
 "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
  "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"i","resources":{"requests":{"cpu":"1","memory":"1Gi"}}}]}}}}]}`

func logsPod(name, node, phase, extra string) string {
	return `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + name + `","namespace":"default","labels":{"app":"web","pod-template-hash":"abc"},` + extra +
		`"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-abc","controller":true}]},
 "spec":{"nodeName":"` + node + `","containers":[{"name":"c","image":"i","resources":{"requests":{"cpu":"1","memory":"1Gi"}}}]},
 "status":{"phase":"` + phase + `"}}`
}

func loadLogsPods(t *testing.T, pods ...string) *Result {
	t.Helper()
	fsys := fstest.MapFS{
		"d/setup/getnode.json":       {Data: []byte(logsNodes)},
		"d/setup/getpod.json":        {Data: []byte(`{"apiVersion":"v1","kind":"List","items":[` + strings.Join(pods, ",") + `]}`)},
		"d/setup/getdeployment.json": {Data: []byte(logsDeployments)},
	}
	r, err := LoadLogs(fsys, "d", Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestLogsBoundPendingPod: a pod of a modelled Deployment that is bound
// to a node but not started yet is one of its ReplicaSet's active pods,
// which the kubelet starts on that node. The model starts it there; a
// reservation of its requests would count them twice once the ReplicaSet
// controller, missing the pod, created another.
func TestLogsBoundPendingPod(t *testing.T) {
	r := loadLogsPods(t, logsPod("web-abc-1", "n1", "Running", ""), logsPod("web-abc-2", "n2", "Pending", ""))
	u, s, err := r.Cluster.Build()
	if err != nil {
		t.Fatal(err)
	}
	for n := range u.Nodes {
		if u.Nodes[n].ReservedCPU != 0 || u.Nodes[n].ReservedMemory != 0 {
			t.Errorf("node %s reserves cpu %d memory %d: the bound Pending pod became a reservation", u.Nodes[n].Name, u.Nodes[n].ReservedCPU, u.Nodes[n].ReservedMemory)
		}
	}
	var on []string
	for i := range s.Pods {
		if p := &s.Pods[i]; p.Phase == model.Running {
			on = append(on, u.Nodes[p.Node-1].Name)
		}
	}
	if !slices.Equal(on, []string{"n1", "n2"}) {
		t.Errorf("web's pods run on %v, want [n1 n2]", on)
	}
	if !s.Empty(model.DeploymentQueue) {
		t.Errorf("deployment queue %v: both replicas are there, nothing to sync", s.Queues[model.DeploymentQueue])
	}
}

// TestLogsMissingPodsAreCreated: the pods the reader leaves out (an
// unbound Pending pod, a terminating one) are recreated, because the
// Deployment controller syncs every Deployment when it starts: the
// deployment starts queued.
func TestLogsMissingPodsAreCreated(t *testing.T) {
	for _, missing := range []string{
		logsPod("web-abc-2", "", "Pending", ""),
		logsPod("web-abc-2", "n2", "Running", `"deletionTimestamp":"2025-01-01T00:00:00Z",`),
	} {
		r := loadLogsPods(t, logsPod("web-abc-1", "n1", "Running", ""), missing)
		_, s, err := r.Cluster.Build()
		if err != nil {
			t.Fatal(err)
		}
		if q := s.Queues[model.DeploymentQueue]; !slices.Equal(q, []uint16{0}) {
			t.Errorf("deployment queue %v, want [0]: web runs 1 pod of 2 and is never synced", q)
		}
	}
}
