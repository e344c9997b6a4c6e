package manifest

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kivi-go/kivi/model"
)

const daemonSetNodes = `apiVersion: v1
kind: Node
metadata: {name: plain, labels: {pool: apps}}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: cordoned, labels: {pool: apps}}
spec: {unschedulable: true}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: gpu, labels: {pool: gpu}}
spec: {taints: [{key: gpu, effect: NoSchedule}]}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: soft, labels: {pool: apps}}
spec: {taints: [{key: spot, effect: PreferNoSchedule}]}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: tiny, labels: {pool: apps}}
status: {allocatable: {cpu: 300m, memory: 4Gi, pods: "10"}}
`

const daemonSetWorkloads = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: logs, namespace: kube-system}
spec:
  selector: {matchLabels: {app: logs}}
  updateStrategy: {type: RollingUpdate}
  template:
    metadata: {labels: {app: logs}}
    spec:
      containers: [{name: c, resources: {limits: {cpu: 200m, memory: 128Mi}}}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: apps-agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      nodeSelector: {pool: apps}
      containers: [{name: c, resources: {requests: {cpu: 250m, memory: 64Mi}}}]
---
` + daemonSetWeb

// daemonSetWeb is the Deployment the DaemonSet tests verify.
const daemonSetWeb = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}
`

// TestDaemonSetsReserve: a DaemonSet's pod is held on every node the
// DaemonSet controller runs it on (NodeShouldRunDaemonPod): its
// nodeSelector decides, an untolerated NoSchedule taint keeps it off, the
// cordon and PreferNoSchedule do not; its requests are defaulted from its
// limits and it takes one pod of the node's limit. A pod that does not fit
// in what is left is Pending in Kubernetes: no reservation, a warning.
func TestDaemonSetsReserve(t *testing.T) {
	r, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(daemonSetWorkloads)}},
		&File{Name: "nodes.yaml", Data: []byte(daemonSetNodes)}, nil, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	type held struct {
		cpu, mem int64
		pods     int
	}
	want := map[string]held{
		"plain":    {450, 192, 8},
		"cordoned": {450, 192, 8},
		"gpu":      {0, 0, 10}, // the NoSchedule taint keeps both off
		"soft":     {450, 192, 8},
		"tiny":     {200, 128, 9}, // the agent's 250m does not fit in the 100m left
	}
	types := map[string]model.NodeType{}
	for _, nt := range r.Cluster.NodeTypes {
		types[nt.Name] = nt
	}
	for _, g := range r.Cluster.Nodes {
		nt := types[g.Type]
		for _, name := range g.Names {
			w, ok := want[name]
			if !ok {
				t.Fatalf("node %s not expected", name)
			}
			if got := (held{nt.ReservedCPU, nt.ReservedMemory, nt.MaxPods}); got != w {
				t.Errorf("node %s: reserved cpu %dm, memory %dMi, pod limit %d; want %+v", name, got.cpu, got.mem, got.pods, w)
			}
			delete(want, name)
		}
	}
	if len(want) != 0 {
		t.Errorf("nodes missing: %v", want)
	}
	var fit bool
	for _, w := range r.Warnings {
		if strings.Contains(w.Msg, "DaemonSet apps-agent: its pod (cpu 250m, memory 64Mi) does not fit in what is left on node tiny") {
			fit = true
		}
		if strings.Contains(w.Msg, "DaemonSet") && strings.Contains(w.Msg, "ignored") {
			t.Errorf("a DaemonSet is still ignored: %s", w)
		}
	}
	if !fit {
		t.Errorf("no warning for the agent that does not fit on tiny: %v", r.Warnings)
	}
}

// TestDaemonSetTolerations: the tolerations the DaemonSet controller
// adds (not-ready and unreachable NoExecute, the condition taints and
// the cordon NoSchedule; network-unavailable for hostNetwork pods only),
// and a running pod outliving the not-ready NoSchedule taint.
func TestDaemonSetTolerations(t *testing.T) {
	d := daemonPod{td: model.TemplateDecl{Tolerations: daemonTolerations(false)}}
	host := daemonPod{td: model.TemplateDecl{Tolerations: daemonTolerations(true)}}
	for _, c := range []struct {
		taint    model.Taint
		runs     bool
		hostRuns bool
	}{
		{model.Taint{Key: "node.kubernetes.io/not-ready", Effect: model.NoExecute}, true, true},
		{model.Taint{Key: "node.kubernetes.io/not-ready", Effect: model.NoSchedule}, true, true},
		{model.Taint{Key: "node.kubernetes.io/unreachable", Effect: model.NoExecute}, true, true},
		{model.Taint{Key: "node.kubernetes.io/memory-pressure", Effect: model.NoSchedule}, true, true},
		{model.Taint{Key: "node.kubernetes.io/unschedulable", Effect: model.NoSchedule}, true, true},
		{model.Taint{Key: "node.kubernetes.io/network-unavailable", Effect: model.NoSchedule}, false, true},
		{model.Taint{Key: "node.kubernetes.io/memory-pressure", Effect: model.NoExecute}, false, false},
		{model.Taint{Key: "dedicated", Value: "db", Effect: model.NoExecute}, false, false},
		{model.Taint{Key: "dedicated", Value: "db", Effect: model.PreferNoSchedule}, true, true},
	} {
		taints := []model.Taint{c.taint}
		if got := d.runsOn("n", nil, false, taints); got != c.runs {
			t.Errorf("%+v: runs %v, want %v", c.taint, got, c.runs)
		}
		if got := host.runsOn("n", nil, false, taints); got != c.hostRuns {
			t.Errorf("%+v, hostNetwork: runs %v, want %v", c.taint, got, c.hostRuns)
		}
	}
	pinned := daemonPod{td: model.TemplateDecl{NodeName: "a"}}
	if pinned.runsOn("b", nil, false, nil) || !pinned.runsOn("a", nil, false, nil) {
		t.Error("a nodeName template runs on its node only")
	}
	byHost := daemonPod{td: model.TemplateDecl{Required: []model.Selector{
		{MatchExpressions: []model.Requirement{{Key: model.HostnameKey, Operator: model.OpIn, Values: []string{"a"}}}},
		{MatchLabels: map[string]string{"pool": "gpu"}},
	}}}
	if !byHost.runsOn("a", nil, false, nil) || byHost.runsOn("b", nil, false, nil) || !byHost.runsOn("b", map[string]string{"pool": "gpu"}, false, nil) {
		t.Error("required node affinity: terms are ORed and read the hostname label")
	}
}

// TestDaemonSetSelectorWarning: a Deployment whose spread constraint
// selects a DaemonSet's pods in its namespace is told that the model does
// not count them; a DaemonSet of another namespace is not counted by
// Kubernetes either.
func TestDaemonSetSelectorWarning(t *testing.T) {
	manifests := daemonSetWorkloads + `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: spread}
spec:
  selector: {matchLabels: {app: spread}}
  template:
    metadata: {labels: {app: spread}}
    spec:
      containers: [{name: c}]
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: pool, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchExpressions: [{key: app, operator: In, values: [spread, agent, logs]}]}}
`
	r, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(manifests)}}, &File{Name: "nodes.yaml", Data: []byte(daemonSetNodes)}, nil, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range r.Warnings {
		if strings.Contains(w.Msg, "selects the pods of DaemonSet") {
			got = append(got, w.Msg)
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], "apps-agent") {
		t.Errorf("warnings %q, want one about apps-agent (logs lives in kube-system)", got)
	}
}

// TestDaemonSetErrors: the selector is required and must select the
// template, as the API server checks.
func TestDaemonSetErrors(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{`apiVersion: apps/v1
kind: DaemonSet
metadata: {name: d}
spec:
  template:
    metadata: {labels: {app: d}}
    spec: {containers: [{name: c}]}`, "spec.selector: required"},
		{`apiVersion: apps/v1
kind: DaemonSet
metadata: {name: d}
spec:
  selector: {matchLabels: {app: other}}
  template:
    metadata: {labels: {app: d}}
    spec: {containers: [{name: c}]}`, "spec.template.metadata.labels: do not match spec.selector"},
		{`apiVersion: apps/v1
kind: DaemonSet
metadata: {name: d}
spec:
  selector: {matchLabels: {app: d}}
  template:
    metadata: {labels: {app: d}}
    spec: {containers: [{name: c, resources: {limits: {cpu: x}}}]}`, "spec.template.spec.containers[0].resources.limits.cpu"},
	} {
		_, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + c.doc + "\n---\n" + daemonSetWorkloads[strings.Index(daemonSetWorkloads, "apiVersion: apps/v1\nkind: Deployment"):])}}, nil, nil, testOptions())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
}

// TestDaemonSetsOnNodeTypes: with Kivi's node types the reservation is
// made per type, by the type's labels (the fuzz seed: node-exporter on
// zone a only).
func TestDaemonSetsOnNodeTypes(t *testing.T) {
	data, err := os.ReadFile("testdata/fuzz/dirs/daemonset.txt")
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.SplitN(string(data), "\n=====\n", 3)
	fsys := fstest.MapFS{
		"d/yaml/app.yaml":                   {Data: []byte(parts[0])},
		"d/user_input/cluster_configs.json": {Data: []byte(parts[1])},
		"d/user_input/intents.json":         {Data: []byte(parts[2])},
	}
	r, err := LoadKiviDir(fsys, "d", testOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, nt := range r.Cluster.NodeTypes {
		want := model.NodeType{}
		if nt.Labels["topology.kubernetes.io/zone"] == "a" {
			want = model.NodeType{ReservedCPU: 50, ReservedMemory: 32, MaxPods: model.DefaultMaxPods - 1}
		}
		if nt.ReservedCPU != want.ReservedCPU || nt.ReservedMemory != want.ReservedMemory || nt.MaxPods != want.MaxPods {
			t.Errorf("%s (%v): reserved %dm, %dMi, pod limit %d; want %dm, %dMi, %d", nt.Name, nt.Labels, nt.ReservedCPU, nt.ReservedMemory, nt.MaxPods, want.ReservedCPU, want.ReservedMemory, want.MaxPods)
		}
	}
}

// TestDaemonSetsAddedAffinity: the DaemonSet controller does not read
// scheduler profiles, so it creates its pod on a node the profile's
// addedAffinity excludes, where kube-scheduler never binds it: it stays
// Pending and holds nothing there, with a warning.
func TestDaemonSetsAddedAffinity(t *testing.T) {
	config := `---
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: NodeAffinity
    args:
      addedAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/hostname, operator: NotIn, values: [soft]}]}]
`
	r, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(daemonSetWorkloads + config)}},
		&File{Name: "nodes.yaml", Data: []byte(daemonSetNodes)}, nil, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	reserved := reservedCPU(r.Cluster)
	if reserved["soft"] != 0 || reserved["plain"] != 450 {
		t.Errorf("reserved cpu %v, want none on soft and 450m on plain", reserved)
	}
	for _, ds := range []string{"logs", "apps-agent"} {
		if !hasWarning(r.Warnings, "DaemonSet "+ds+": the DaemonSet controller creates its pod on node soft, which the scheduler profile's NodeAffinity addedAffinity excludes") {
			t.Errorf("no warning that %s stays Pending on soft: %v", ds, r.Warnings)
		}
	}
}

func hasWarning(warns []Warning, msg string) bool {
	for _, w := range warns {
		if strings.Contains(w.Msg, msg) {
			return true
		}
	}
	return false
}

// TestDaemonSetsAddedAffinityOnNodeTypes: on Kivi's node types the
// reservation follows the profile's addedAffinity too; one that reads the
// hostname, which node types do not have, is not applied to the
// reservations, with a warning.
func TestDaemonSetsAddedAffinityOnNodeTypes(t *testing.T) {
	data, err := os.ReadFile("testdata/fuzz/dirs/daemonset.txt")
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.SplitN(string(data), "\n=====\n", 3)
	for _, c := range []struct {
		name, expr string
		reserved   int64 // on zone a's nodes
		warn       string
	}{
		{"zone", "{key: topology.kubernetes.io/zone, operator: NotIn, values: [a]}", 0,
			"DaemonSet node-exporter: the DaemonSet controller creates its pod on the nodes of type"},
		{"hostname", "{key: kubernetes.io/hostname, operator: Exists}", 50,
			"the default-scheduler profile's NodeAffinity addedAffinity selects nodes by hostname or name, which node types do not have"},
	} {
		config := "---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- pluginConfig:\n  - name: NodeAffinity\n" +
			"    args: {addedAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [" + c.expr + "]}]}}}\n"
		fsys := fstest.MapFS{
			"d/yaml/app.yaml":                   {Data: []byte(parts[0] + config)},
			"d/user_input/cluster_configs.json": {Data: []byte(parts[1])},
			"d/user_input/intents.json":         {Data: []byte(parts[2])},
		}
		r, err := LoadKiviDir(fsys, "d", testOptions())
		if err != nil {
			t.Fatal(err)
		}
		for _, nt := range r.Cluster.NodeTypes {
			if nt.Labels["topology.kubernetes.io/zone"] == "a" && nt.ReservedCPU != c.reserved {
				t.Errorf("%s: %s reserves %dm, want %dm", c.name, nt.Name, nt.ReservedCPU, c.reserved)
			}
		}
		if !hasWarning(r.Warnings, c.warn) {
			t.Errorf("%s: no warning %q: %v", c.name, c.warn, r.Warnings)
		}
	}
}

// TestDaemonSetMatchFields: a DaemonSet whose node affinity names nodes
// by matchFields runs its pod on those nodes only, by their names, not
// their hostname labels; one that selects a hostname label reads the
// node's own label, and its name only where it has none.
func TestDaemonSetMatchFields(t *testing.T) {
	ds := `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: pinned}
spec:
  selector: {matchLabels: {app: pinned}}
  template:
    metadata: {labels: {app: pinned}}
    spec:
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
            - matchFields: [{key: metadata.name, operator: In, values: [plain]}]
            - matchFields: [{key: metadata.name, operator: In, values: [soft]}]
              matchExpressions: [{key: pool, operator: In, values: [apps]}]
      containers: [{name: c, resources: {requests: {cpu: 100m, memory: 64Mi}}}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: by-hostname}
spec:
  selector: {matchLabels: {app: by-hostname}}
  template:
    metadata: {labels: {app: by-hostname}}
    spec:
      nodeSelector: {kubernetes.io/hostname: plain}
      containers: [{name: c, resources: {requests: {cpu: 50m, memory: 64Mi}}}]
---
` + daemonSetWeb
	// tiny's hostname label is "plain": matchFields must not read it.
	nodes := strings.Replace(daemonSetNodes, "metadata: {name: tiny, labels: {pool: apps}}", "metadata: {name: tiny, labels: {pool: apps, kubernetes.io/hostname: plain}}", 1)
	r, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(ds)}}, &File{Name: "nodes.yaml", Data: []byte(nodes)}, nil, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	reserved := reservedCPU(r.Cluster)
	// by-hostname runs where the hostname label is plain: on plain (its
	// name stands in for its missing label) and on tiny (its own label).
	want := map[string]int64{"plain": 150, "soft": 100, "cordoned": 0, "gpu": 0, "tiny": 50}
	for n, cpu := range want {
		if reserved[n] != cpu {
			t.Errorf("reserved cpu %v, want %v", reserved, want)
			break
		}
	}
}

// reservedCPU is the cpu each node of c reserves, by node name.
func reservedCPU(c *model.Cluster) map[string]int64 {
	reserved := map[string]int64{}
	for _, g := range c.Nodes {
		for _, nt := range c.NodeTypes {
			if nt.Name == g.Type {
				for _, name := range g.Names {
					reserved[name] = nt.ReservedCPU
				}
			}
		}
	}
	return reserved
}
