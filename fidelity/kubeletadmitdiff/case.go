package kubeletadmitdiff

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/fidelity/podspec"
)

// NodeName is the case's node.
const NodeName = "n1"

// storage is the ephemeral-storage resource.
const storage = "ephemeral-storage"

// Dongle is the case's extended resource: one a node advertises through
// its status (no device plugin allocates it), which the kubelet's
// admission checks as NodeResourcesFit does.
const Dongle = "example.com/dongle"

// Resources and Container are the containers' requests and limits as
// written (podspec).
type (
	Resources = podspec.Resources
	Container = podspec.Container
)

// Taint is a node taint; Toleration a pod's toleration (Seconds: its
// tolerationSeconds, nil none).
type (
	Taint      struct{ Key, Value, Effect string }
	Toleration struct {
		Key, Operator, Value, Effect string
		Seconds                      *int64 `json:",omitempty"`
	}
)

// Expr is one matchExpression of a required node affinity term.
type Expr struct {
	Key, Operator string
	Values        []string `json:",omitempty"`
}

// Node is the kubelet's node: its allocatable cpu and memory as written,
// its pod capacity (maxPods), how many dongles it advertises (-1: the
// resource is not in its allocatable), labels, taints, and whether the
// eviction manager reports the MemoryPressure condition.
type Node struct {
	// CPU, Memory and Storage (ephemeral-storage) are as written.
	CPU, Memory, Storage string
	Pods                 int
	Dongles              int
	Labels               map[string]string `json:",omitempty"`
	Taints               []Taint           `json:",omitempty"`
	MemoryPressure       bool              `json:",omitempty"`
}

// Spec is one pod spec, the template of one Deployment, pinned to the
// node by spec.nodeName (the pods the kubelet can reject: the scheduler
// has checked the others).
type Spec struct {
	Containers     []Container
	InitContainers []Container `json:",omitempty"`
	// RuntimeClass names the RuntimeClass "kata", whose overhead the
	// API server copies into spec.overhead.
	RuntimeClass bool              `json:",omitempty"`
	NodeSelector map[string]string `json:",omitempty"`
	// Required is the required node affinity's terms (nil: none).
	Required    [][]Expr     `json:",omitempty"`
	Tolerations []Toleration `json:",omitempty"`
	// HostPorts are the ports of container PortsOn (an index into the
	// containers and then the init containers): with a hostPort each,
	// or, on the host's network, containerPorts (every one a host port).
	HostPorts   []int32 `json:",omitempty"`
	PortsOn     int     `json:",omitempty"`
	HostNetwork bool    `json:",omitempty"`
	// Critical gives the pod PriorityClass system-node-critical.
	Critical bool `json:",omitempty"`
	// OS is the pod's kubernetes.io/os label and OSName its spec.os.name
	// ("": none). GenCase does not draw them; TestOSLabel pins them.
	OS     string `json:",omitempty"`
	OSName string `json:",omitempty"`
	// PodRequests and PodLimits are the pod-level resources
	// (spec.resources; nil: none).
	PodRequests Resources `json:",omitempty"`
	PodLimits   Resources `json:",omitempty"`
}

// Pod is a pod the kubelet already runs: of spec Spec, Running or
// Terminating (deleted, its containers still stopping).
type Pod struct {
	Spec        int
	Terminating bool `json:",omitempty"`
}

// Case is one node, the pod specs, the pods the kubelet runs and the
// spec of the new pod it admits or rejects.
type Case struct {
	Node  Node
	Specs []Spec
	Pods  []Pod `json:",omitempty"`
	New   int
	// Daemon is the pod spec of a DaemonSet that tolerates every taint
	// (nil: none): its pod runs on the node, one more pod the kubelet
	// runs (a node reservation to the model).
	Daemon *Spec `json:",omitempty"`
	// NoDaemonPreemption is a counterfactual (classify.go): the real
	// kubelet's critical pod admission handler does not see the
	// DaemonSet's pod among the pods it may preempt (the predicates still
	// count it).
	NoDaemonPreemption bool `json:",omitempty"`
}

func (c *Case) String() string {
	b, _ := json.MarshalIndent(c, "", "  ")
	return string(b) + "\n"
}

// Clone returns a deep copy of c.
func (c *Case) Clone() *Case {
	d := &Case{New: c.New, Pods: slices.Clone(c.Pods), Node: c.Node, NoDaemonPreemption: c.NoDaemonPreemption}
	if c.Daemon != nil {
		ds := *c.Daemon
		ds.Containers = podspec.Clone(ds.Containers)
		ds.Tolerations, ds.HostPorts = slices.Clone(ds.Tolerations), slices.Clone(ds.HostPorts)
		d.Daemon = &ds
	}
	d.Node.Labels = maps.Clone(c.Node.Labels)
	d.Node.Taints = slices.Clone(c.Node.Taints)
	for _, s := range c.Specs {
		n := s
		n.Containers, n.InitContainers = podspec.Clone(s.Containers), podspec.Clone(s.InitContainers)
		n.NodeSelector = maps.Clone(s.NodeSelector)
		n.Required = nil
		for _, t := range s.Required {
			var term []Expr
			for _, e := range t {
				term = append(term, Expr{Key: e.Key, Operator: e.Operator, Values: slices.Clone(e.Values)})
			}
			n.Required = append(n.Required, term)
		}
		n.Tolerations = slices.Clone(s.Tolerations)
		n.HostPorts = slices.Clone(s.HostPorts)
		n.PodRequests, n.PodLimits = maps.Clone(s.PodRequests), maps.Clone(s.PodLimits)
		d.Specs = append(d.Specs, n)
	}
	return d
}

// The generator's values: few, so that sums meet the node's allocatable
// often.
var (
	cpuValues  = []string{"0", "100m", "250m", "500m", "1", "1500m"}
	memValues  = []string{"0", "64Mi", "128Mi", "256Mi", "512Mi", "1Gi"}
	taintKeys  = []string{"dedicated", "example.com/maintenance", "node.kubernetes.io/unreachable"}
	taintVals  = []string{"", "a", "b"}
	effects    = []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}
	labelKeys  = []string{"zone", "disk", "cores"}
	zoneValues = []string{"a", "b"}
	coreValues = []string{"2", "4", "8"}
	hostPorts  = []int32{8080, 8081, 9100}
)

// labelValues are the values label key takes.
func labelValues(key string) []string {
	switch key {
	case "zone":
		return zoneValues
	case "cores":
		return coreValues
	}
	return []string{"ssd", "hdd"}
}

// GenCase draws a case:
//   - a node of 1, 2 or 4 cpus, 1, 2 or 4 GiB and 1 or 2 GiB of
//     ephemeral-storage, 1–8 pods, 0–2 dongles
//     or none in its allocatable, labels zone, disk and cores each one
//     in two, 0–3 taints of every effect, the MemoryPressure condition
//     one in three;
//   - 1–3 pod specs of 1–2 containers and 0–2 init containers (one in
//     three a sidecar) with cpu and memory requests and limits (either,
//     both or neither; limits equal to the requests, Guaranteed, one
//     container in four; none in any container of one spec in six),
//     ephemeral-storage one in four and dongles one in five, the RuntimeClass with
//     an overhead one in five, a nodeSelector, required node affinity
//     terms (In, NotIn, Exists, DoesNotExist, Gt, Lt), 0–3
//     tolerations, a host port or the host's network (on a container,
//     a sidecar or an init container), system-node-critical
//     priority one in eight;
//   - 0–5 pods the kubelet runs, Terminating one in four; the new pod
//     of any spec; a DaemonSet's pod on the node one case in four (on a
//     node of 2 pods or more).
func GenCase(t *rapid.T) *Case {
	c := &Case{Node: Node{
		CPU:     rapid.SampledFrom([]string{"1", "2", "4"}).Draw(t, "nodeCPU"),
		Memory:  rapid.SampledFrom([]string{"1Gi", "2Gi", "4Gi"}).Draw(t, "nodeMemory"),
		Storage: rapid.SampledFrom([]string{"1Gi", "2Gi"}).Draw(t, "nodeStorage"),
		Pods:    rapid.IntRange(1, 8).Draw(t, "maxPods"),
		Dongles: rapid.IntRange(-1, 2).Draw(t, "dongles"),
		Labels:  map[string]string{},
	}}
	for _, k := range labelKeys {
		if rapid.Bool().Draw(t, "label") {
			c.Node.Labels[k] = rapid.SampledFrom(labelValues(k)).Draw(t, "labelValue")
		}
	}
	for range rapid.IntRange(0, 3).Draw(t, "taints") {
		tn := Taint{Key: rapid.SampledFrom(taintKeys).Draw(t, "taintKey"), Value: rapid.SampledFrom(taintVals).Draw(t, "taintValue"),
			Effect: rapid.SampledFrom(effects).Draw(t, "taintEffect")}
		if !slices.ContainsFunc(c.Node.Taints, func(x Taint) bool { return x.Key == tn.Key && x.Effect == tn.Effect }) {
			c.Node.Taints = append(c.Node.Taints, tn)
		}
	}
	c.Node.MemoryPressure = rapid.IntRange(1, 3).Draw(t, "memoryPressure") == 1
	for range rapid.IntRange(1, 3).Draw(t, "specs") {
		c.Specs = append(c.Specs, genSpec(t))
	}
	for range rapid.IntRange(0, 5).Draw(t, "pods") {
		c.Pods = append(c.Pods, Pod{Spec: rapid.IntRange(0, len(c.Specs)-1).Draw(t, "podSpec"),
			Terminating: rapid.IntRange(1, 4).Draw(t, "terminating") == 1})
	}
	c.New = rapid.IntRange(0, len(c.Specs)-1).Draw(t, "new")
	if rapid.IntRange(1, 4).Draw(t, "daemonSet") == 1 {
		c.Daemon = genDaemon(t)
		// The manifest reader keeps a node's last pod slot from a
		// DaemonSet's pod (docs/divergences.md, "DaemonSets are node
		// reservations").
		c.Node.Pods = max(c.Node.Pods, 2)
	}
	return c
}

// genDaemon draws a DaemonSet's pod spec: one container of a small cpu
// and memory request, ephemeral-storage one in four, a host port one in
// three; it tolerates every taint.
func genDaemon(t *rapid.T) *Spec {
	x := Container{Requests: Resources{
		"cpu":    rapid.SampledFrom([]string{"0", "100m", "250m"}).Draw(t, "daemonCPU"),
		"memory": rapid.SampledFrom([]string{"0", "64Mi", "128Mi"}).Draw(t, "daemonMemory")}}
	if rapid.IntRange(1, 4).Draw(t, "daemonStorage") == 1 {
		x.Requests[storage] = "256Mi"
	}
	s := &Spec{Containers: []Container{x}, Tolerations: []Toleration{{Operator: "Exists"}}}
	if rapid.IntRange(1, 3).Draw(t, "daemonPort") == 1 {
		s.HostPorts = []int32{rapid.SampledFrom(hostPorts).Draw(t, "daemonHostPort")}
	}
	return s
}

// genContainer draws a container; a bestEffort one has no cpu or
// memory.
func genContainer(t *rapid.T, bestEffort bool) Container {
	x := Container{Requests: Resources{}, Limits: Resources{}}
	guaranteed := rapid.IntRange(1, 4).Draw(t, "guaranteed") == 1
	for _, name := range []string{"cpu", "memory"} {
		if bestEffort {
			break
		}
		vs := cpuValues
		if name == "memory" {
			vs = memValues
		}
		is := []int{rapid.IntRange(0, len(vs)-1).Draw(t, name), rapid.IntRange(0, len(vs)-1).Draw(t, name)}
		slices.Sort(is)
		if guaranteed {
			x.Requests[name], x.Limits[name] = vs[is[1]], vs[is[1]]
			continue
		}
		switch rapid.IntRange(0, 3).Draw(t, name+"Fields") {
		case 1:
			x.Requests[name] = vs[is[0]]
		case 2:
			x.Limits[name] = vs[is[1]]
		case 3:
			x.Requests[name], x.Limits[name] = vs[is[0]], vs[is[1]]
		}
	}
	if rapid.IntRange(1, 4).Draw(t, "storage") == 1 {
		x.Requests[storage] = rapid.SampledFrom([]string{"256Mi", "512Mi", "1Gi"}).Draw(t, "storageRequest")
	}
	if rapid.IntRange(1, 5).Draw(t, "dongle") == 1 {
		// An extended resource's request must equal its limit.
		n := fmt.Sprint(rapid.IntRange(1, 2).Draw(t, "dongleCount"))
		x.Requests[Dongle], x.Limits[Dongle] = n, n
	}
	if len(x.Requests) == 0 {
		x.Requests = nil
	}
	if len(x.Limits) == 0 {
		x.Limits = nil
	}
	return x
}

func genSpec(t *rapid.T) Spec {
	var s Spec
	bestEffort := rapid.IntRange(1, 6).Draw(t, "bestEffort") == 1
	for range rapid.IntRange(1, 2).Draw(t, "containers") {
		s.Containers = append(s.Containers, genContainer(t, bestEffort))
	}
	for range rapid.IntRange(0, 2).Draw(t, "initContainers") {
		x := genContainer(t, bestEffort)
		x.Sidecar = rapid.IntRange(1, 3).Draw(t, "sidecar") == 1
		s.InitContainers = append(s.InitContainers, x)
	}
	s.RuntimeClass = rapid.IntRange(1, 5).Draw(t, "runtimeClass") == 1
	if rapid.IntRange(1, 3).Draw(t, "nodeSelector") == 1 {
		k := rapid.SampledFrom(labelKeys).Draw(t, "selectorKey")
		s.NodeSelector = map[string]string{k: rapid.SampledFrom(labelValues(k)).Draw(t, "selectorValue")}
	}
	if rapid.IntRange(1, 3).Draw(t, "affinity") == 1 {
		for range rapid.IntRange(1, 2).Draw(t, "terms") {
			var term []Expr
			for range rapid.IntRange(1, 2).Draw(t, "exprs") {
				term = append(term, genExpr(t))
			}
			s.Required = append(s.Required, term)
		}
	}
	for range rapid.IntRange(0, 3).Draw(t, "tolerations") {
		s.Tolerations = append(s.Tolerations, genToleration(t))
	}
	switch rapid.IntRange(0, 5).Draw(t, "ports") {
	case 1, 2:
		s.HostPorts = []int32{rapid.SampledFrom(hostPorts).Draw(t, "hostPort")}
	case 3:
		s.HostNetwork = true
		s.HostPorts = []int32{rapid.SampledFrom(hostPorts).Draw(t, "hostPort")}
	}
	if len(s.HostPorts) > 0 && rapid.IntRange(1, 3).Draw(t, "portsOnOther") == 1 {
		s.PortsOn = rapid.IntRange(0, len(s.Containers)+len(s.InitContainers)-1).Draw(t, "portsOn")
	}
	s.Critical = rapid.IntRange(1, 8).Draw(t, "critical") == 1
	if rapid.IntRange(1, 6).Draw(t, "podLevel") == 1 {
		genPodLevel(t, &s)
	}
	return s
}

// genPodLevel draws pod-level requests and limits of cpu and memory,
// each one in two, leaving out those the API server's validation
// refuses: a request below the containers' aggregate or above the
// limit, a limit below a container's.
func genPodLevel(t *rapid.T, s *Spec) {
	requests := map[string][]string{"cpu": {"500m", "1", "2"}, "memory": {"256Mi", "512Mi", "1Gi"}}
	limits := map[string][]string{"cpu": {"1", "2", "4"}, "memory": {"512Mi", "1Gi", "2Gi"}}
	aggregate, largest := containerResources(*s)
	s.PodRequests, s.PodLimits = Resources{}, Resources{}
	for _, name := range []string{"cpu", "memory"} {
		var req *resource.Quantity
		if rapid.Bool().Draw(t, "podRequest") {
			q := resource.MustParse(rapid.SampledFrom(requests[name]).Draw(t, "podRequestValue"))
			if q.Cmp(aggregate[corev1.ResourceName(name)]) >= 0 {
				req = &q
				s.PodRequests[name] = q.String()
			}
		}
		if rapid.Bool().Draw(t, "podLimit") {
			q := resource.MustParse(rapid.SampledFrom(limits[name]).Draw(t, "podLimitValue"))
			// The request the API server defaults (defaultPodRequests).
			eff := req
			if eff == nil {
				if a, ok := aggregate[corev1.ResourceName(name)]; ok {
					eff = &a
				}
			}
			l := largest[corev1.ResourceName(name)]
			if q.Cmp(l) >= 0 && (eff == nil || q.Cmp(*eff) >= 0) {
				s.PodLimits[name] = q.String()
			}
		}
	}
	if len(s.PodRequests) == 0 {
		s.PodRequests = nil
	}
	if len(s.PodLimits) == 0 {
		s.PodLimits = nil
	}
}

func genExpr(t *rapid.T) Expr {
	e := Expr{Key: rapid.SampledFrom(labelKeys).Draw(t, "exprKey")}
	ops := []string{"In", "NotIn", "Exists", "DoesNotExist"}
	if e.Key == "cores" {
		ops = append(ops, "Gt", "Lt")
	}
	e.Operator = rapid.SampledFrom(ops).Draw(t, "operator")
	switch e.Operator {
	case "In", "NotIn":
		e.Values = rapid.SliceOfNDistinct(rapid.SampledFrom(labelValues(e.Key)), 1, 2, rapid.ID[string]).Draw(t, "values")
	case "Gt", "Lt":
		e.Values = []string{rapid.SampledFrom([]string{"3", "4", "6"}).Draw(t, "bound")}
	}
	return e
}

func genToleration(t *rapid.T) Toleration {
	tol := Toleration{Operator: rapid.SampledFrom([]string{"Equal", "Exists"}).Draw(t, "tolerationOperator")}
	if tol.Operator == "Equal" || rapid.IntRange(1, 4).Draw(t, "anyKey") > 1 {
		keys := append(slices.Clone(taintKeys), "node.kubernetes.io/memory-pressure")
		tol.Key = rapid.SampledFrom(keys).Draw(t, "tolerationKey")
	}
	if tol.Operator == "Equal" {
		tol.Value = rapid.SampledFrom(taintVals).Draw(t, "tolerationValue")
	}
	tol.Effect = rapid.SampledFrom(append([]string{""}, effects...)).Draw(t, "tolerationEffect")
	if tol.Effect == "NoExecute" && rapid.IntRange(1, 3).Draw(t, "seconds") == 1 {
		v := int64(rapid.SampledFrom([]int{0, 60}).Draw(t, "tolerationSeconds"))
		tol.Seconds = &v
	}
	return tol
}
