package manifest

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// dumpNodes are three Nodes as `kubectl get nodes -o yaml` lists them.
const dumpNodes = `apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}, status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}, conditions: [{type: Ready, status: "True"}]}}
- {apiVersion: v1, kind: Node, metadata: {name: n2, labels: {kubernetes.io/hostname: n2}}, status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}, conditions: [{type: Ready, status: "True"}]}}
- {apiVersion: v1, kind: Node, metadata: {name: n3, labels: {kubernetes.io/hostname: n3}}, status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}, conditions: [{type: Ready, status: "True"}]}}
`

// dumpWorkloads: a Deployment with an HPA, a StatefulSet, a DaemonSet and
// a Job, with the status fields a dump carries.
const dumpWorkloads = `apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: shop, uid: 1}
  spec:
    replicas: 3
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: c, image: i, resources: {requests: {cpu: "1", memory: 1Gi}}}]}
  status: {replicas: 3, availableReplicas: 3}
- apiVersion: autoscaling/v2
  kind: HorizontalPodAutoscaler
  metadata: {name: web, namespace: shop}
  spec:
    scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
    minReplicas: 3
    maxReplicas: 6
    metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}}]
  status:
    currentReplicas: 3
    desiredReplicas: 3
    currentMetrics: [{type: Resource, resource: {name: cpu, current: {averageUtilization: 65}}}]
- apiVersion: apps/v1
  kind: StatefulSet
  metadata: {name: db, namespace: shop}
  spec:
    replicas: 2
    serviceName: db
    selector: {matchLabels: {app: db}}
    template:
      metadata: {labels: {app: db}}
      spec: {containers: [{name: c, image: i, resources: {requests: {cpu: "2", memory: 2Gi}}}]}
- apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: agent, namespace: monitoring}
  spec:
    selector: {matchLabels: {app: agent}}
    template:
      metadata: {labels: {app: agent}}
      spec: {containers: [{name: c, image: i, resources: {requests: {cpu: 100m, memory: 64Mi}}}]}
- apiVersion: batch/v1
  kind: Job
  metadata: {name: migrate, namespace: shop}
  spec:
    template:
      spec: {restartPolicy: Never, containers: [{name: c, image: i, resources: {requests: {cpu: 500m, memory: 256Mi}}}]}
`

// dumpPod is one Pod of a dump: owner is "Kind/name" ("" for none), node
// "" for an unbound pod.
func dumpPod(ns, name, owner, node, phase, cpu string, labels ...string) string {
	var b strings.Builder
	b.WriteString("- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: " + name + "\n    namespace: " + ns + "\n")
	if len(labels) > 0 {
		b.WriteString("    labels: {" + strings.Join(labels, ", ") + "}\n")
	}
	if owner != "" {
		kind, oname, _ := strings.Cut(owner, "/")
		b.WriteString("    ownerReferences: [{apiVersion: apps/v1, kind: " + kind + ", name: " + oname + ", controller: true}]\n")
	}
	b.WriteString("  spec:\n")
	if node != "" {
		b.WriteString("    nodeName: " + node + "\n")
	}
	b.WriteString("    containers: [{name: c, image: i, resources: {requests: {cpu: \"" + cpu + "\", memory: 1Gi}}}]\n")
	b.WriteString("  status: {phase: " + phase + "}\n")
	return b.String()
}

func loadDump(t *testing.T, pods ...string) (*Result, error) {
	t.Helper()
	stream := dumpWorkloads + strings.Join(pods, "")
	return LoadStream([]File{{Name: "dump.yaml", Data: []byte(stream)}}, &File{Name: "nodes.yaml", Data: []byte(dumpNodes)}, nil,
		Options{CurrentPlacement: true})
}

// placement lists "workload@node" for every pod of the built state, and
// the StatefulSet pods' ordinals as "db-N@node".
func placement(t *testing.T, r *Result) []string {
	t.Helper()
	u, s, err := r.Cluster.Build()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range s.Pods {
		if p.Phase == model.Free {
			continue
		}
		name := u.Deployments[p.Owner-1].Name
		if p.Ordinal > 0 {
			name += "-" + string(rune('0'+p.Ordinal-1))
		}
		out = append(out, name+"@"+u.Nodes[p.Node-1].Name)
	}
	slices.Sort(out)
	return out
}

// TestCurrentPlacement: the pods of a dump start where they run: a
// Deployment's through its ReplicaSet, a StatefulSet's with the ordinal
// of their names whatever the order of the nodes, a running Job's; a
// DaemonSet's are its spec's reservation, the unbound, finished or
// deleted ones are left out, and a pod of no workload holds its requests
// on its node.
func TestCurrentPlacement(t *testing.T) {
	web := func(name, node, phase string) string {
		return dumpPod("shop", "web-5d4f-"+name, "ReplicaSet/web-5d4f", node, phase, "1", "app: web", "pod-template-hash: 5d4f")
	}
	r, err := loadDump(t,
		web("a", "n1", "Running"), web("b", "n1", "Running"), web("c", "n2", "Pending"), web("d", "", "Pending"),
		web("e", "n3", "Succeeded"),
		dumpPod("shop", "db-1", "StatefulSet/db", "n1", "Running", "2", "app: db"),
		dumpPod("shop", "db-0", "StatefulSet/db", "n3", "Running", "2", "app: db"),
		dumpPod("monitoring", "agent-x1", "DaemonSet/agent", "n1", "Running", "100m", "app: agent"),
		dumpPod("shop", "migrate-q", "Job/migrate", "n2", "Running", "500m"),
		dumpPod("default", "debug", "", "n2", "Running", "3"),
		dumpPod("data", "pg-1", "Cluster/pg", "n3", "Running", "2"),
	)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"db-0@n3", "db-1@n1", "migrate@n2", "web@n1", "web@n1", "web@n2"}
	if got := placement(t, r); !slices.Equal(got, want) {
		t.Errorf("placement %v, want %v", got, want)
	}
	u, _, err := r.Cluster.Build()
	if err != nil {
		t.Fatal(err)
	}
	// The DaemonSet reserves 100m on every node; debug (3) on n2 and pg
	// (2) on n3 come on top.
	reserved := map[string]int64{}
	for _, n := range u.Nodes {
		reserved[n.Name] = n.ReservedCPU
	}
	if reserved["n1"] != 100 || reserved["n2"] != 3100 || reserved["n3"] != 2100 {
		t.Errorf("reserved cpu %v, want n1 100, n2 3100, n3 2100 (millicores)", reserved)
	}
	for _, d := range r.Cluster.Deployments {
		if d.Created != nil && !*d.Created {
			t.Errorf("%s starts not created: a running cluster's workloads exist", d.Name)
		}
	}
	for _, e := range r.Cluster.Events {
		if e.Kind == "createTargetDeployment" {
			t.Errorf("event %s %s: a running cluster's workloads exist", e.Kind, e.Deployment)
		}
	}
	var text []string
	for _, w := range r.Warnings {
		text = append(text, w.Msg)
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{
		"2 pods (default/debug, data/pg-1) belong to no workload",
		"1 pod (shop/web-5d4f-d) is not bound to a node",
		"1 pod (shop/web-5d4f-c) is bound to its node but not Running yet: the model starts it there",
		"1 pod (shop/web-5d4f-e) is being deleted or has finished",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning %q in:\n%s", want, all)
		}
	}
}

// TestCurrentPlacementMeasuredLoad: the pods of an HPA's target use what
// the HPA last measured (65 % of a 1-cpu request), so that its next sync
// sees the cluster's load rather than the requests.
func TestCurrentPlacementMeasuredLoad(t *testing.T) {
	web := func(name, node string) string {
		return dumpPod("shop", "web-5d4f-"+name, "ReplicaSet/web-5d4f", node, "Running", "1", "app: web", "pod-template-hash: 5d4f")
	}
	r, err := loadDump(t, web("a", "n1"), web("b", "n2"), web("c", "n3"))
	if err != nil {
		t.Fatal(err)
	}
	_, s, err := r.Cluster.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Pods {
		if p.Phase == model.Running && p.CPU != 650 {
			t.Errorf("a web pod uses %d millicores, want 650 (65 %% of 1000)", p.CPU)
		}
	}
}

// TestCurrentPlacementErrors: what a dump cannot be read with names the
// file and field.
func TestCurrentPlacementErrors(t *testing.T) {
	for _, tc := range []struct {
		name, pod, want string
	}{
		{"unknown node", dumpPod("shop", "db-0", "StatefulSet/db", "n9", "Running", "2"), `spec.nodeName: "n9" is not one of the input's Nodes (accepted: n1, n2, n3)`},
		{"StatefulSet pod name", dumpPod("shop", "database-x", "StatefulSet/db", "n1", "Running", "2"), `"database-x" is not a pod name of StatefulSet db (accepted: db-<ordinal>)`},
		{"two pods of one ordinal", dumpPod("shop", "db-0", "StatefulSet/db", "n1", "Running", "2") + dumpPod("shop", "db-0", "StatefulSet/db", "n2", "Running", "2"), "a second StatefulSet db pod of ordinal 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := loadDump(t, tc.pod)
			if err == nil {
				_, _, err = r.Cluster.Build()
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one with %q", err, tc.want)
			}
			if !errors.Is(err, ErrInput) && !errors.Is(err, model.ErrInvalid) {
				t.Errorf("%v: neither an input error nor an invalid cluster", err)
			}
		})
	}
	// A reading no pod can use (20 million % of a 1-cpu request) is an
	// input error naming the field.
	huge := strings.Replace(dumpWorkloads, "averageUtilization: 65", "averageUtilization: 2000000000", 1) +
		dumpPod("shop", "web-5d4f-a", "ReplicaSet/web-5d4f", "n1", "Running", "1", "app: web", "pod-template-hash: 5d4f")
	r, err := LoadStream([]File{{Name: "dump.yaml", Data: []byte(huge)}}, &File{Name: "nodes.yaml", Data: []byte(dumpNodes)}, nil, Options{CurrentPlacement: true})
	if err == nil {
		_, _, err = r.Cluster.Build()
	}
	if err == nil || !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "status.currentMetrics[0].resource.current.averageUtilization: 2000000000") {
		t.Errorf("a reading of 2000000000 %%: %v, want an input error naming the field", err)
	}
	cc := `{"nodesTypes": [{"template": {"cpu": 8, "memory": 16}, "num": 3}]}`
	_, err = LoadStream([]File{{Name: "dump.yaml", Data: []byte(dumpWorkloads)}}, &File{Name: "cluster_configs.json", Data: []byte(cc)}, nil, Options{CurrentPlacement: true})
	if err == nil || !strings.Contains(err.Error(), "needs the cluster's Node objects") {
		t.Errorf("node types with the current placement: %v, want an error naming Node objects", err)
	}
}

// TestCurrentPlacementRestarts: a dumped pod's containers' and init
// containers' restartCount, summed, reach its InitialPod and, under a
// profile with RemovePodsHavingTooManyRestarts, its pod slot (the init
// containers' with includingInitContainers); a negative count is an
// input error naming the field.
func TestCurrentPlacementRestarts(t *testing.T) {
	withStatus := func(name, node, status string) string {
		p := dumpPod("shop", "web-5d4f-"+name, "ReplicaSet/web-5d4f", node, "Running", "1", "app: web", "pod-template-hash: 5d4f")
		return strings.Replace(p, "status: {phase: Running}", "status: {phase: Running, "+status+"}", 1)
	}
	policy := func(init bool) string {
		return `---
apiVersion: descheduler/v1alpha2
kind: DeschedulerPolicy
profiles:
- name: restarts
  pluginConfig:
  - name: RemovePodsHavingTooManyRestarts
    args: {podRestartThreshold: 10, includingInitContainers: ` + strconv.FormatBool(init) + `}
  plugins:
    deschedule: {enabled: [RemovePodsHavingTooManyRestarts]}
`
	}
	pods := withStatus("a", "n1", "containerStatuses: [{name: c, restartCount: 3}, {name: d, restartCount: 4}], initContainerStatuses: [{name: i, restartCount: 2}]") +
		withStatus("b", "n2", "containerStatuses: [{name: c, restartCount: 0}]") +
		withStatus("c", "n3", "containerStatuses: [{name: c, restartCount: 300}]")
	for _, tc := range []struct {
		policy string
		want   []uint8 // the web pods' slots' restarts, in slot order
	}{
		{"", []uint8{0, 0, 0}},
		{policy(false), []uint8{7, 0, model.MaxRestarts}},
		{policy(true), []uint8{9, 0, model.MaxRestarts}},
	} {
		r, err := LoadStream([]File{{Name: "dump.yaml", Data: []byte(dumpWorkloads + pods + tc.policy)}}, &File{Name: "nodes.yaml", Data: []byte(dumpNodes)}, nil,
			Options{CurrentPlacement: true})
		if err != nil {
			t.Fatal(err)
		}
		var initial []string
		for _, g := range r.Cluster.Nodes {
			for _, p := range g.Pods {
				if p.Deployment == "web" {
					initial = append(initial, fmt.Sprintf("%s %d+%d", p.Name, p.Restarts, p.InitRestarts))
				}
			}
		}
		if want := []string{"web-5d4f-a 7+2", "web-5d4f-b 0+0", "web-5d4f-c 300+0"}; !slices.Equal(initial, want) {
			t.Errorf("initial pods %v, want %v", initial, want)
		}
		u, s, err := r.Cluster.Build()
		if err != nil {
			t.Fatal(err)
		}
		var got []uint8
		for i := range s.Pods {
			if p := &s.Pods[i]; p.Phase == model.Running && u.Deployments[p.Owner-1].Name == "web" {
				got = append(got, p.Restarts)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("policy %q: restarts %v, want %v", tc.policy, got, tc.want)
		}
	}
	_, err := loadDump(t, withStatus("a", "n1", "containerStatuses: [{name: c, restartCount: 3}, {name: d, restartCount: -1}]"))
	if err == nil || !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "status.containerStatuses[1].restartCount: -1 (accepted: 0 to 2147483647)") {
		t.Errorf("a negative restartCount: %v, want an input error naming the field", err)
	}
}
