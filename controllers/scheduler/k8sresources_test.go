package scheduler

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/inputs/manifest"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// Fixtures for transcribing the tables of Kubernetes'
// pkg/scheduler/framework/plugins/noderesources tests (v1.36.3). A pod is
// written as upstream's helpers write it (containers, init containers,
// sidecars, overhead, pod-level requests) and read through the manifest
// reader, which computes the pod's requests as resource.PodRequests does;
// the plugin under test then judges the model's template. Upstream's
// memory bytes are restated as MiB and its ephemeral-storage and huge
// pages likewise (the model's units): the arithmetic is the same.

// Upstream's resource names of the noderesources tests.
const (
	extendedA = "example.com/aaa"
	extendedB = "example.com/bbb"
	// extendedDRA is upstream's extendedResourceDRA, which a DeviceClass
	// maps in its DRA rows; the model knows no DeviceClass.
	extendedDRA = "extended.resource.dra.io/something"
	hugePageA   = "hugepages-2Mi"
	ephStorage  = "ephemeral-storage"
)

// kRes is upstream's framework.Resource as one container's requests:
// milli-cpu, memory (MiB) and scalar resources by name. unset leaves
// cpu and memory out of the requests (a container without them), where
// upstream's newResourcePod always writes both, zero included.
type kRes struct {
	cpu, mem int64
	scalar   map[string]int64
	unset    bool
	// memUnset leaves memory alone out of the requests.
	memUnset bool
}

// ext is a scalar request map of one resource.
func ext(name string, v int64) map[string]int64 { return map[string]int64{name: v} }

// kSpec is a pod as upstream's helpers build it.
type kSpec struct {
	containers []kRes
	// sidecars are restartable init containers, declared before init.
	sidecars []kRes
	init     []kRes
	overhead *kRes
	podLevel *kRes
}

// yaml writes r as a requests map.
func (r kRes) yaml() string { return r.list(false) }

// container writes r as a container's resources: the requests, and
// limits equal to the requests of the resources the API server does not
// let a pod overcommit (extended resources and huge pages), which a
// valid pod carries.
func (r kRes) container() string {
	limits := r.list(true)
	if limits == "{}" {
		return "{requests: " + r.yaml() + "}"
	}
	return "{requests: " + r.yaml() + ", limits: " + limits + "}"
}

// list writes r's requests, or only its no-overcommit ones.
func (r kRes) list(noOvercommit bool) string {
	var parts []string
	if !r.unset && !noOvercommit {
		parts = append(parts, fmt.Sprintf("cpu: %dm", r.cpu))
		if !r.memUnset {
			parts = append(parts, fmt.Sprintf("memory: %dMi", r.mem))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(r.scalar)) {
		if noOvercommit && name == ephStorage {
			continue
		}
		unit := ""
		if name == ephStorage || strings.HasPrefix(name, "hugepages-") {
			unit = "Mi"
		}
		parts = append(parts, fmt.Sprintf("%s: %d%s", name, r.scalar[name], unit))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// podYAML is the spec of a Deployment's pod template (six spaces in).
func (p kSpec) podYAML() string {
	var b strings.Builder
	containers := p.containers
	if len(containers) == 0 {
		// The API server wants a container; one without requests adds none.
		containers = []kRes{{unset: true}}
	}
	b.WriteString("      containers:\n")
	for i, c := range containers {
		fmt.Fprintf(&b, "      - {name: c%d, resources: %s}\n", i, c.container())
	}
	if len(p.sidecars)+len(p.init) > 0 {
		b.WriteString("      initContainers:\n")
	}
	for i, c := range p.sidecars {
		fmt.Fprintf(&b, "      - {name: s%d, restartPolicy: Always, resources: %s}\n", i, c.container())
	}
	for i, c := range p.init {
		fmt.Fprintf(&b, "      - {name: i%d, resources: %s}\n", i, c.container())
	}
	if p.overhead != nil {
		fmt.Fprintf(&b, "      overhead: %s\n", p.overhead.yaml())
	}
	if p.podLevel != nil {
		fmt.Fprintf(&b, "      resources: {requests: %s}\n", p.podLevel.yaml())
	}
	return b.String()
}

// readPod reads p through the manifest reader (with a node offering
// plenty of every resource p requests, so that none is reported as
// offered nowhere): its template's requests and non-zero requests, and
// the reader's warnings.
func readPod(t *testing.T, p kSpec) (model.TemplateDecl, []manifest.Warning) {
	t.Helper()
	offered := kRes{cpu: 8000, mem: 32768, scalar: map[string]int64{}}
	for _, rs := range [][]kRes{p.containers, p.sidecars, p.init} {
		for _, r := range rs {
			for name := range r.scalar {
				offered.scalar[name] = 1 << 20
			}
		}
	}
	stream := `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: ` + offered.yaml() + `}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: pod}
spec:
  selector: {matchLabels: {app: pod}}
  template:
    metadata: {labels: {app: pod}}
    spec:
` + p.podYAML()
	r, err := manifest.LoadStream([]manifest.File{{Name: "m.yaml", Data: []byte(stream)}}, nil, nil, manifest.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, stream)
	}
	return r.Cluster.Templates[0], r.Warnings
}

// template is the model's template of p, read as readPod reads it;
// warnings fail the test.
func (p kSpec) template(t *testing.T, name string) *build.TemplateBuilder {
	t.Helper()
	td, warns := readPod(t, p)
	if len(warns) > 0 {
		t.Fatalf("reader warnings: %v", warns)
	}
	tb := build.Template(name).Requests(td.CPU, td.Memory).NonZero(td.NonZeroCPU, td.NonZeroMemory)
	for k, v := range td.Scalar {
		tb.Scalar(k, v)
	}
	return tb
}

// pod is upstream's newResourcePod: one container per request.
func pod(rs ...kRes) kSpec { return kSpec{containers: rs} }

// kResNode is a node of the noderesources tests: allocatable milli-cpu,
// memory, pods and scalar resources, and the pods bound to it.
type kResNode struct {
	name     string
	cpu, mem int64
	pods     int
	scalar   map[string]int64
	existing []kSpec
}

// buildResources returns the universe and state of nodes with the
// incoming pod in as the last pod slot.
func buildResources(t *testing.T, nodes []kResNode, in kSpec, profile model.SchedulerProfile) (*model.Universe, *model.State, int) {
	t.Helper()
	b := build.New()
	b.U.Scheduler.Profile = profile
	incoming := b.AddDeployment("incoming", b.AddTemplate(in.template(t, "incoming")), 0)
	type placed struct{ dep, node int }
	var running []placed
	for i, n := range nodes {
		nb := build.Node().Name(n.name).CPU(n.cpu).Mem(n.mem).MaxPods(n.pods)
		if n.name == "" {
			nb.Name(fmt.Sprint("node", i+1))
		}
		for k, v := range n.scalar {
			nb.Scalar(k, v)
		}
		idx := b.AddNodes(1, nb)
		for j, p := range n.existing {
			name := fmt.Sprintf("existing-%d-%d", i, j)
			running = append(running, placed{b.AddDeployment(name, b.AddTemplate(p.template(t, name)), 0), idx})
		}
	}
	for _, r := range running {
		b.RunPod(r.dep, r.node)
	}
	b.PendingPod(incoming, -1)
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	return u, s, len(running)
}

// fitFilter runs NodeResourcesFit's filter alone on every node.
func fitFilter(u *model.Universe, s *model.State, pod int) []Status {
	var c cycle
	c.reset(u, s, pod)
	out := make([]Status, len(u.Nodes))
	for n := range u.Nodes {
		out[n] = nodeResourcesFitFilter{}.Filter(&c, n)
	}
	return out
}

// rawScores runs score plugin p alone (PreScore, Score) on every node as
// feasible and returns its raw and normalised scores; skipped when
// PreScore skips the pod.
func rawScores(u *model.Universe, s *model.State, pod int, p scorePlugin) (raw, norm []int64, skipped bool) {
	var c cycle
	c.reset(u, s, pod)
	c.feasible = c.feasible[:0]
	for n := range u.Nodes {
		c.feasible = append(c.feasible, n)
	}
	if !p.PreScore(&c) {
		return nil, nil, true
	}
	for _, n := range c.feasible {
		raw = append(raw, p.Score(&c, n))
	}
	norm = slices.Clone(raw)
	p.Normalize(&c, norm)
	return raw, norm, false
}

// scoreRow is one row of a NodeResourcesFit (or BalancedAllocation)
// score table: the raw scores of the nodes, in order.
type scoreRow struct {
	name    string
	pod     kSpec
	nodes   []kResNode
	want    []int64
	profile model.SchedulerProfile
}

// run scores the row's nodes with plugin p.
func (r scoreRow) run(t *testing.T, p scorePlugin) {
	t.Helper()
	u, s, pod := buildResources(t, r.nodes, r.pod, r.profile)
	raw, _, skipped := rawScores(u, s, pod, p)
	if skipped {
		t.Fatalf("%s skipped the pod, want scores %v", p.Name(), r.want)
	}
	if !slices.Equal(raw, r.want) {
		t.Errorf("scores %v, want %v", raw, r.want)
	}
}

// scoreNode is upstream's st.MakeNode().Capacity(cpu, memory, scalar...)
// with the pods bound to it.
func scoreNode(name string, cpu, mem int64, existing ...kSpec) kResNode {
	return kResNode{name: name, cpu: cpu, mem: mem, existing: existing}
}

// withScalar gives n allocatable scalar resources.
func (n kResNode) withScalar(m map[string]int64) kResNode { n.scalar = m; return n }

// strategy is NodeResourcesFit's scoring strategy of a profile.
func strategy(typ model.ScoringStrategyType, resources []model.ResourceWeight, shape ...model.ShapePoint) model.SchedulerProfile {
	return model.SchedulerProfile{Scoring: model.ScoringStrategy{Type: typ, Resources: resources, Shape: shape}}
}

// Upstream's resource sets (noderesources/util_test.go).
const extendedRes = "abc.com/xyz"

func defaultResources() []model.ResourceWeight {
	return []model.ResourceWeight{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}}
}

func extendedResourceSet() []model.ResourceWeight {
	return append(defaultResources(), model.ResourceWeight{Name: extendedRes, Weight: 1})
}

// noRequests is upstream's st.MakePod().Obj(), a pod without containers:
// the model's pod has one container requesting 0 cpu and 0 memory, which
// adds nothing, non-zero scoring included (an explicit 0 stays 0).
func noRequests() kSpec { return pod(kRes{}) }

// refusesStrategy reports the manifest reader's error on a
// KubeSchedulerConfiguration whose NodeResourcesFit scoringStrategy is
// strategyYAML ("" when it accepts it).
func refusesStrategy(t *testing.T, strategyYAML string) string {
	t.Helper()
	cfg := "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- pluginConfig: [{name: NodeResourcesFit, args: {scoringStrategy: " + strategyYAML + "}}]\n"
	_, _, err := manifest.ReadSchedulerProfile("config.yaml", []byte(cfg), nil)
	if err != nil {
		return err.Error()
	}
	return ""
}

// kLabelledNode is a node of the nodeaffinity and nodename tables: a name
// and labels (the manifest reader gives it the hostname label, its name).
type kLabelledNode struct {
	name   string
	labels map[string]string
}

// nodeManifest writes n as a Node with room for any pod of the tables.
func (n kLabelledNode) nodeManifest() string {
	var ls []string
	for _, k := range slices.Sorted(maps.Keys(n.labels)) {
		ls = append(ls, fmt.Sprintf("%q: %q", k, n.labels[k]))
	}
	return fmt.Sprintf("apiVersion: v1\nkind: Node\nmetadata: {name: %s, labels: {%s}}\nstatus: {allocatable: {cpu: \"8\", memory: 32Gi}}\n",
		n.name, strings.Join(ls, ", "))
}

// buildManifests reads nodes, a Deployment whose pod spec is spec (at six
// spaces) and, when set, a KubeSchedulerConfiguration profile (at two
// spaces, under "profiles:") through the manifest reader, and returns the
// universe and a state with the Deployment's pod pending in slot 0.
func buildManifests(t *testing.T, nodes []kLabelledNode, spec, profile string) (*model.Universe, *model.State, int) {
	t.Helper()
	return buildManifestPods(t, nodes, []kManifestPod{{spec: spec, node: -1}}, profile)
}

// kManifestPod is one pod of buildManifestPods: its spec and the index of
// the node it runs on (-1: the pending pod).
type kManifestPod struct {
	spec string
	node int
}

// buildManifestPods reads nodes, one Deployment per pod (pod i's is
// "pod<i>", of pod spec pods[i].spec) and the profile as buildManifests
// does, and returns the universe and a state with pod i in slot i, running
// on its node or pending; the pending pod's slot is returned.
func buildManifestPods(t *testing.T, nodes []kLabelledNode, pods []kManifestPod, profile string) (*model.Universe, *model.State, int) {
	t.Helper()
	var docs []string
	for _, n := range nodes {
		docs = append(docs, n.nodeManifest())
	}
	for i, p := range pods {
		docs = append(docs, fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: pod%d}
spec:
  selector: {matchLabels: {app: pod%d}}
  template:
    metadata: {labels: {app: pod%d}}
    spec:
`, i, i, i)+p.spec)
	}
	if profile != "" {
		docs = append(docs, "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"+profile)
	}
	stream := strings.Join(docs, "---\n")
	r, err := manifest.LoadStream([]manifest.File{{Name: "m.yaml", Data: []byte(stream)}}, nil, nil, manifest.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, stream)
	}
	if len(r.Warnings) > 0 {
		t.Fatalf("reader warnings: %v\n%s", r.Warnings, stream)
	}
	u, s, err := r.Cluster.Build()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Pods) < len(pods) || len(u.Templates) != len(pods) {
		t.Fatalf("%d pod slots, %d templates: want %d of each", len(s.Pods), len(u.Templates), len(pods))
	}
	pending := -1
	for i, p := range pods {
		if !strings.HasPrefix(u.Templates[i].Name, fmt.Sprintf("pod%d", i)) {
			t.Fatalf("template %d is %q, want pod%d's", i, u.Templates[i].Name, i)
		}
		s.Pods[i] = model.PodState{Phase: model.Running, Owner: uint8(i + 1), Template: uint8(i), Node: uint16(p.node + 1)}
		if p.node < 0 {
			s.Pods[i].Phase, pending = model.Pending, i
		}
	}
	return u, s, pending
}

// Upstream's reasons, as its tests write them (the plugins' ErrReason
// constants), so that a transcribed row checks the model's text too.
const (
	k8sReasonNodeAffinity  = "node(s) didn't match Pod's node affinity/selector"
	k8sReasonEnforced      = "node(s) didn't match scheduler-enforced node affinity"
	k8sReasonUntolerated   = "node(s) had untolerated taint(s)"
	k8sReasonNodePorts     = "node(s) didn't have free ports for the requested pod ports"
	k8sReasonNodeName      = "node(s) didn't match the requested node name"
	k8sReasonUnschedulable = "node(s) were unschedulable"
	k8sReasonTooManyPods   = "Too many pods"
)
