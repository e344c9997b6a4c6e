package manifest

import (
	"maps"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestScalarRequests: ephemeral-storage, huge pages and extended
// resources sum like cpu and memory (resource.PodRequests): containers
// and sidecars add up, a regular init container runs alongside the
// sidecars before it and sets a floor, the overhead adds what it names;
// an extended resource given only as a limit requests its limit; bytes
// are MiB rounded up, extended resources counts.
func TestScalarRequests(t *testing.T) {
	r := load(t, webDeployment(`      overhead: {example.com/foo: "1"}
      initContainers:
      - {name: side, restartPolicy: Always, resources: {requests: {cpu: 10m, ephemeral-storage: 1Gi}}}
      - {name: init, resources: {requests: {cpu: 10m, ephemeral-storage: 2Gi}, limits: {nvidia.com/gpu: 2}}}
      containers:
      - {name: a, resources: {requests: {cpu: 100m, memory: 1Gi, ephemeral-storage: 500M, hugepages-2Mi: 4Mi}, limits: {hugepages-2Mi: 4Mi, nvidia.com/gpu: 1}}}
      - {name: b, resources: {requests: {cpu: 100m}, limits: {nvidia.com/gpu: "1"}}}
`))
	td := r.Cluster.Templates[0]
	// ephemeral-storage: max(477 (500M rounded up) + 1024, 2048 + 1024);
	// nvidia.com/gpu: max(1 + 1, 2); hugepages-2Mi 4; example.com/foo
	// from the overhead.
	want := map[string]int64{"ephemeral-storage": 3072, "nvidia.com/gpu": 2, "hugepages-2Mi": 4, "example.com/foo": 1}
	if !maps.Equal(td.Scalar, want) {
		t.Errorf("scalar requests %v, want %v", td.Scalar, want)
	}
	for _, w := range r.Warnings {
		if strings.Contains(w.Msg, "not modelled") {
			t.Errorf("warning about a modelled resource: %v", w)
		}
	}
}

// TestScalarUnmodelled: a kubernetes.io/ resource the model does not read
// is a warning, not an error, and requests nothing.
func TestScalarUnmodelled(t *testing.T) {
	r := load(t, webDeployment(`      containers:
      - {name: a, resources: {requests: {cpu: 100m, example.kubernetes.io/thing: "1"}}}
`))
	if td := r.Cluster.Templates[0]; len(td.Scalar) != 0 {
		t.Errorf("scalar requests %v, want none", td.Scalar)
	}
	found := false
	for _, w := range r.Warnings {
		found = found || strings.Contains(w.Path, "example.kubernetes.io/thing") && strings.Contains(w.Msg, "not modelled")
	}
	if !found {
		t.Errorf("no warning about example.kubernetes.io/thing: %v", r.Warnings)
	}
}

// TestScalarAllocatableAndDaemonSets: a node's allocatable gives its
// scalar resources (bytes rounded down to MiB, a listed 0 kept), nodes
// that differ in them are different types, and a DaemonSet's pod reserves
// what it requests on the nodes it runs on, or nothing where it does not
// fit.
func TestScalarAllocatableAndDaemonSets(t *testing.T) {
	const nodes = `apiVersion: v1
kind: Node
metadata: {name: gpu2}
status: {allocatable: {cpu: "8", memory: 16Gi, nvidia.com/gpu: "2", ephemeral-storage: 100Gi}}
---
apiVersion: v1
kind: Node
metadata: {name: gpu0}
status: {allocatable: {cpu: "8", memory: 16Gi, nvidia.com/gpu: "0", ephemeral-storage: 100Gi}}
---
apiVersion: v1
kind: Node
metadata: {name: plain}
status: {allocatable: {cpu: "8", memory: 16Gi, ephemeral-storage: 100Gi}}
`
	const manifests = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: probe, namespace: kube-system}
spec:
  selector: {matchLabels: {app: probe}}
  template:
    metadata: {labels: {app: probe}}
    spec:
      containers: [{name: c, resources: {requests: {cpu: 100m, ephemeral-storage: 1Gi}, limits: {nvidia.com/gpu: 1}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, resources: {requests: {cpu: 1}, limits: {nvidia.com/gpu: 1}}}]}
`
	r, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(manifests)}}, &File{Name: "nodes.yaml", Data: []byte(nodes)}, nil, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	types := r.Cluster.NodeTypes
	if len(types) != 3 {
		t.Fatalf("%d node types, want 3 (the nodes differ in nvidia.com/gpu)", len(types))
	}
	for _, tc := range []struct {
		name             string
		scalar, reserved map[string]int64
	}{
		{"gpu2", map[string]int64{"nvidia.com/gpu": 2, "ephemeral-storage": 102400}, map[string]int64{"nvidia.com/gpu": 1, "ephemeral-storage": 1024}},
		{"gpu0", map[string]int64{"nvidia.com/gpu": 0, "ephemeral-storage": 102400}, nil},
		{"plain", map[string]int64{"ephemeral-storage": 102400}, nil},
	} {
		var got *int
		for i := range types {
			if types[i].Name == tc.name {
				got = &i
				break
			}
		}
		if got == nil {
			t.Fatalf("no node type %s", tc.name)
		}
		nt := types[*got]
		if !maps.Equal(nt.Scalar, tc.scalar) || !maps.Equal(nt.ReservedScalar, tc.reserved) {
			t.Errorf("%s: scalar %v reserved %v, want %v reserved %v", tc.name, nt.Scalar, nt.ReservedScalar, tc.scalar, tc.reserved)
		}
	}
	unfit := false
	for _, w := range r.Warnings {
		unfit = unfit || strings.Contains(w.Msg, "DaemonSet probe") && strings.Contains(w.Msg, "nvidia.com/gpu 1") && strings.Contains(w.Msg, "gpu0, plain")
	}
	if !unfit {
		t.Errorf("no warning that probe does not fit on gpu0 and plain: %v", r.Warnings)
	}
}

// TestScalarUnlistedWarning: an extended resource requested and on no
// node's allocatable makes every such pod unschedulable: a warning says
// so.
func TestScalarUnlistedWarning(t *testing.T) {
	r := load(t, webDeployment(`      containers:
      - {name: a, resources: {requests: {cpu: 100m}, limits: {example.com/widget: 1}}}
`))
	found := false
	for _, w := range r.Warnings {
		found = found || strings.Contains(w.Msg, "pods request example.com/widget, which no node has")
	}
	if !found {
		t.Errorf("no warning about example.com/widget on no node: %v", r.Warnings)
	}
}

// TestUnlistedEphemeralStorageAssumed: ephemeral-storage requested and
// on no Node's allocatable means hand-written Nodes (every kubelet
// reports it): the nodes are given room for any request and the report's
// assumptions say so, instead of every such pod being unschedulable. A
// Node that lists it speaks for the input: nothing is assumed.
func TestUnlistedEphemeralStorageAssumed(t *testing.T) {
	deployment := webDeployment(`      containers:
      - {name: a, resources: {requests: {cpu: 100m, ephemeral-storage: 1Gi}}}
`)
	r := load(t, deployment)
	if len(r.Cluster.Assumptions) != 1 || !strings.Contains(r.Cluster.Assumptions[0], "no Node lists it") {
		t.Fatalf("assumptions %q, want the ephemeral-storage one", r.Cluster.Assumptions)
	}
	for _, nt := range r.Cluster.NodeTypes {
		if nt.Scalar[model.EphemeralStorage] < 1024 {
			t.Errorf("node type %s: ephemeral-storage %d MiB, want room for the 1Gi request", nt.Name, nt.Scalar[model.EphemeralStorage])
		}
	}
	for _, w := range r.Warnings {
		if strings.Contains(w.Msg, "ephemeral-storage") {
			t.Errorf("a warning about ephemeral-storage besides the assumption: %s", w.Msg)
		}
	}
	r = load(t, `apiVersion: v1
kind: Node
metadata: {name: disk}
status: {allocatable: {cpu: "8", memory: 32Gi, ephemeral-storage: 512Mi}}
---
`+deployment)
	if len(r.Cluster.Assumptions) != 0 {
		t.Errorf("a Node lists ephemeral-storage, yet assumptions %q", r.Cluster.Assumptions)
	}
}
