package manifest

import (
	"maps"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// nodeIn is one concrete node before node types are formed.
type nodeIn struct {
	name        string
	cpu, memory int64
	// memoryCapacity is status.capacity's memory (0: not given), the
	// base of percentage eviction thresholds.
	memoryCapacity           int64
	reservedCPU, reservedMem int64
	// scalar and reservedScalar are the scalar resources of the node's
	// allocatable and what other pods hold of them (scalar.go).
	scalar, reservedScalar map[string]int64
	// reservedHostPorts are the host ports other pods hold (DaemonSets'
	// pods, pods of unmodelled owners).
	reservedHostPorts []model.HostPort
	maxPods           int
	labels            map[string]string
	taints            []model.Taint
	status            string
	// readyCondition is the Ready condition's status of a NotReady node
	// (False or Unknown; empty when it says neither).
	readyCondition string
	pods           []model.InitialPod
}

// nodeFromObject reads a v1 Node: allocatable (else capacity) cpu,
// memory, pods and the scalar resources (ephemeral-storage, huge pages,
// extended resources), labels, taints, spec.unschedulable and the Ready
// condition (absent conditions: a hand-written Node is Ready).
func nodeFromObject(o Object) (nodeIn, error) {
	n := o.Value.(*Node)
	a := o.at()
	in := nodeIn{name: n.Metadata.Name, labels: map[string]string{}}
	if in.name == "" {
		return in, a.errorf(o.path("metadata.name"), "required (accepted: the node's name)")
	}
	if err := checkNodeLabels(o, n.Metadata.Labels); err != nil {
		return in, err
	}
	for k, v := range n.Metadata.Labels {
		// The hostname label equal to the name is implied (model.Compile
		// adds it); keeping it would make every node a type of its own.
		if k == model.HostnameKey && v == in.name {
			continue
		}
		in.labels[k] = v
	}
	addKubeletLabels(in.labels)
	res, field := n.Status.Allocatable, "status.allocatable"
	if len(res) == 0 {
		res, field = n.Status.Capacity, "status.capacity"
	}
	var err error
	for _, r := range []struct {
		name string
		kind resourceKind
		out  *int64
	}{{"cpu", cpuCapacity, &in.cpu}, {"memory", memoryCapacity, &in.memory}} {
		q, ok := res[r.name]
		if !ok {
			return in, a.errorf(o.path(field+"."+r.name), "required (accepted: the node's allocatable %s as a quantity)", r.name)
		}
		if *r.out, err = parseResource(a, o.path(field+"."+r.name), q, r.kind); err != nil {
			return in, err
		}
	}
	if q, ok := n.Status.Capacity["memory"]; ok && field != "status.capacity" {
		if in.memoryCapacity, err = parseResource(a, o.path("status.capacity.memory"), q, memoryCapacity); err != nil {
			return in, err
		}
	} else if ok {
		in.memoryCapacity = in.memory
	}
	if in.scalar, err = nodeScalar(o, field, res); err != nil {
		return in, err
	}
	if q, ok := res["pods"]; ok {
		pq, err := q.Parse()
		v, ok2 := pq.Scaled(big1, false)
		if err != nil || !ok2 || v < 1 || v > 1<<20 {
			return in, a.errorf(o.path(field+".pods"), "%q (accepted: a whole number of pods ≥ 1)", q.Text)
		}
		in.maxPods = int(v)
	}
	for i, t := range n.Spec.Taints {
		if !slices.Contains(effects, t.Effect) {
			return in, a.errorf(o.path(index("spec.taints", i)+".effect"), "%q (accepted: NoSchedule, PreferNoSchedule, NoExecute)", t.Effect)
		}
		if t.Key == "" {
			return in, a.errorf(o.path(index("spec.taints", i)+".key"), "required")
		}
		in.taints = append(in.taints, model.Taint{Key: t.Key, Value: t.Value, Effect: model.TaintEffect(t.Effect)})
	}
	if cordon := model.UnschedulableTaint(); n.Spec.Unschedulable && !slices.Contains(in.taints, cordon) {
		// The node lifecycle controller taints a cordoned node
		// (TaintNodesByCondition); the model keeps the taint.
		in.taints = append(in.taints, cordon)
	}
	in.status = "Ready"
	for _, c := range n.Status.Conditions {
		if c.Type == "Ready" && c.Status != "True" {
			in.status = "NotReady"
			// False and Unknown decide the node's taint key; any other
			// value leaves it open.
			if c.Status == "False" || c.Status == "Unknown" {
				in.readyCondition = c.Status
			}
		}
	}
	return in, nil
}

// groupNodes forms node types from identical nodes (same capacity,
// reservation, labels and taints) and one node group per node, in input
// order, keeping the nodes' names.
func groupNodes(nodes []nodeIn) ([]model.NodeType, []model.NodeGroup) {
	var types []model.NodeType
	var groups []model.NodeGroup
	for _, n := range nodes {
		t := model.NodeType{CPU: n.cpu, Memory: n.memory, ReservedCPU: n.reservedCPU, ReservedMemory: n.reservedMem,
			MaxPods: n.maxPods, MemoryCapacity: n.memoryCapacity, Scalar: n.scalar, ReservedScalar: n.reservedScalar, Labels: n.labels, Taints: n.taints,
			ReservedHostPorts: n.reservedHostPorts}
		ti := slices.IndexFunc(types, func(x model.NodeType) bool { return sameNodeType(x, t) })
		if ti < 0 {
			t.Name = n.name
			types = append(types, t)
			ti = len(types) - 1
		}
		types[ti].Min++
		types[ti].Max++
		status := n.status
		if status == "Ready" {
			status = ""
		}
		groups = append(groups, model.NodeGroup{Type: types[ti].Name, Names: []string{n.name}, Status: status, ReadyCondition: n.readyCondition, Pods: n.pods})
	}
	return types, groups
}

func sameNodeType(a, b model.NodeType) bool {
	return a.CPU == b.CPU && a.Memory == b.Memory && a.ReservedCPU == b.ReservedCPU && a.ReservedMemory == b.ReservedMemory &&
		a.MaxPods == b.MaxPods && a.MemoryCapacity == b.MemoryCapacity && maps.Equal(a.Scalar, b.Scalar) && maps.Equal(a.ReservedScalar, b.ReservedScalar) &&
		maps.Equal(a.Labels, b.Labels) && slices.Equal(a.Taints, b.Taints) && slices.Equal(a.ReservedHostPorts, b.ReservedHostPorts)
}

// labelsOf returns the label sets of the cluster's node types, for the
// template converter; kiviAlias says the nodes get Kivi's hostname alias.
func labelsOf(types []model.NodeType, kiviAlias bool) nodeLabels {
	out := nodeLabels{kiviAlias: kiviAlias}
	for _, t := range types {
		out.sets = append(out.sets, t.Labels)
	}
	return out
}

func nodeNames(nodes []nodeIn) string {
	var names []string
	for _, n := range nodes {
		names = append(names, n.name)
	}
	return strings.Join(names, ", ")
}

// reserveScalar adds scalar requests to the node's reservation.
func (n *nodeIn) reserveScalar(req map[string]int64) {
	for k, v := range req {
		if n.reservedScalar == nil {
			n.reservedScalar = map[string]int64{}
		}
		n.reservedScalar[k] += v
	}
}
