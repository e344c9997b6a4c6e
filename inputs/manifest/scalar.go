package manifest

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// Scalar resources (model/scalar.go): ephemeral-storage and huge pages
// (hugepages-<size>), byte quantities held in MiB like memory, and
// extended resources (nvidia.com/gpu, example.com/foo), whole counts. A
// pod's requests of them sum like cpu and memory (podRequests); a node's
// status.allocatable gives its amounts, a resource it does not list being
// 0 to the scheduler.

// acceptedResources is what an error about a container resource name
// quotes.
const acceptedResources = "cpu, memory, ephemeral-storage, hugepages-<size> such as hugepages-2Mi, or a fully qualified extended resource such as nvidia.com/gpu"

// scalarClass says how a resource name is read.
type scalarClass uint8

const (
	notScalar   scalarClass = iota // cpu, memory, pods
	bytesScalar                    // ephemeral-storage, hugepages-<size>
	countScalar                    // an extended resource
	unmodelled                     // a kubernetes.io/ resource the model does not read
	invalidName                    // a name the API server refuses in a container
)

// classifyResource sorts a container resource name as the API server's
// validateContainerResourceName and the scheduler see it.
func classifyResource(name string) scalarClass {
	switch {
	case name == "cpu" || name == "memory":
		return notScalar
	case name == model.EphemeralStorage:
		return bytesScalar
	case strings.HasPrefix(name, "hugepages-"):
		if q, err := ParseQuantity(strings.TrimPrefix(name, "hugepages-")); err == nil && q.Sign() > 0 {
			return bytesScalar
		}
		return invalidName
	case model.IsExtendedResource(name):
		return countScalar
	case strings.Contains(name, "kubernetes.io/"):
		return unmodelled
	}
	return invalidName
}

// parseScalar parses a scalar resource quantity into model units: MiB for
// bytesScalar (a request rounded up, a capacity down, as memory), a
// whole count for countScalar, which Kubernetes requires to be an
// integer. Capacities may be 0 (a node whose device plugin has no device
// free to offer).
func parseScalar(a at, path, name string, t QuantityText, capacity bool) (int64, error) {
	q, err := t.Parse()
	if err != nil {
		return 0, a.errorf(path, "%s is not %s", strconv.Quote(t.Text), quantityGrammar)
	}
	if q.Sign() < 0 {
		return 0, a.errorf(path, "%s is negative (accepted: a quantity ≥ 0)", strconv.Quote(t.Text))
	}
	unit, what := mebibyte, "MiB"
	if classifyResource(name) == countScalar {
		if !q.Rat().IsInt() {
			return 0, a.errorf(path, "%s is not an integer (accepted: a whole number; %s is an extended resource, which Kubernetes counts in whole units)", strconv.Quote(t.Text), name)
		}
		unit, what = big1, "units"
	}
	v, ok := q.Scaled(unit, !capacity)
	if !ok || v > maxModelValue {
		return 0, a.errorf(path, "%s is too large for the model (accepted: at most %d %s)", strconv.Quote(t.Text), maxModelValue, what)
	}
	return v, nil
}

// podRequests is a pod's (or container's) requests in model units, as
// resource.PodRequests aggregates them.
type podRequests struct {
	cpu, mem int64
	// scalar holds the scalar resources by name; nil when there are none.
	scalar map[string]int64
	// reservedOnly is model.TemplateDecl.ReservedOnly, set by requests
	// on the pod's total only.
	reservedOnly [2]int64
	// overhead is model.TemplateDecl.Overhead, set by requests on the
	// pod's total only.
	overhead [2]int64
	// podLevel is model.TemplateDecl.PodLevel, set by podLevelRequests
	// on the pod's total only.
	podLevel [2]bool
}

// add adds o to r.
func (r *podRequests) add(o podRequests) {
	r.cpu += o.cpu
	r.mem += o.mem
	for k, v := range o.scalar {
		if r.scalar == nil {
			r.scalar = map[string]int64{}
		}
		r.scalar[k] += v
	}
}

// atLeast raises every resource of r to o's where o's is larger.
func (r *podRequests) atLeast(o podRequests) {
	r.cpu = max(r.cpu, o.cpu)
	r.mem = max(r.mem, o.mem)
	for k, v := range o.scalar {
		if r.scalar == nil {
			r.scalar = map[string]int64{}
		}
		r.scalar[k] = max(r.scalar[k], v)
	}
}

// checkNotOvercommitted checks container c's (at path) requests and limits
// of resources that cannot be overcommitted (extended resources and huge
// pages, helper.IsOvercommitAllowed): a request needs a limit, and they
// must be equal, as ValidateContainerResourceRequirements requires; a
// container that gives only the limit has its request defaulted to it. It
// also refuses names the API server refuses in a container.
func (tc templateConv) checkNotOvercommitted(path string, c Container) error {
	for _, f := range []struct {
		field string
		m     map[string]QuantityText
	}{{"requests", c.Resources.Requests}, {"limits", c.Resources.Limits}} {
		for _, name := range slices.Sorted(maps.Keys(f.m)) {
			if classifyResource(name) == invalidName {
				return tc.errorf(path+".resources."+f.field+"."+name, "%q is not a container resource (accepted: %s)", name, acceptedResources)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.Resources.Requests)) {
		if overcommitAllowed(name) {
			continue
		}
		p := path + ".resources.requests." + name
		lt, ok := c.Resources.Limits[name]
		if !ok {
			return tc.errorf(p, "a request without a limit (accepted: a limit equal to the request, or the limit alone; %s cannot be overcommitted, so the API server requires it)", name)
		}
		req, err1 := c.Resources.Requests[name].Parse()
		lim, err2 := lt.Parse()
		if err1 == nil && err2 == nil && req.Rat().Cmp(lim.Rat()) != 0 {
			return tc.errorf(p, "%s differs from the limit %s (accepted: equal values; %s cannot be overcommitted)", req.Text, lim.Text, name)
		}
	}
	return nil
}

// nodeScalar reads the scalar resources of a node's allocatable (field
// names it): ephemeral-storage, huge pages and extended resources; other
// names (kubernetes.io/ resources, attachable volumes) are not modelled.
func nodeScalar(o Object, field string, res map[string]QuantityText) (map[string]int64, error) {
	var out map[string]int64
	for _, name := range slices.Sorted(maps.Keys(res)) {
		if c := classifyResource(name); c != bytesScalar && c != countScalar {
			continue
		}
		v, err := parseScalar(o.at(), o.path(field+"."+name), name, res[name], true)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = map[string]int64{}
		}
		out[name] = v
	}
	return out, nil
}

// scalarText renders scalar requests for a message: "nvidia.com/gpu 1"
// (bytes in MiB).
func scalarText(m map[string]int64) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(m)) {
		unit := ""
		if classifyResource(name) == bytesScalar {
			unit = "Mi"
		}
		parts = append(parts, fmt.Sprintf("%s %d%s", name, m[name], unit))
	}
	return strings.Join(parts, ", ")
}

// warnUnlistedScalar warns about a scalar resource some pod requests and
// no node lists in its allocatable: every such pod is then unschedulable,
// which for ephemeral-storage (every real node reports it) more likely
// means a hand-written Node that leaves it out.
func (as *assembly) warnUnlistedScalar() {
	var requests []map[string]int64
	for _, td := range as.c.Templates {
		requests = append(requests, td.Scalar)
	}
	for _, name := range model.ScalarResourceNames(requests) {
		listed := slices.ContainsFunc(as.c.NodeTypes, func(t model.NodeType) bool { return t.Scalar[name] > 0 })
		if !listed {
			as.warns = append(as.warns, Warning{Msg: fmt.Sprintf("pods request %s, which no node has in its allocatable: they fit no node (a node's status.allocatable lists what it offers)", name)})
		}
	}
}

// unlistedEphemeralStorage is the ephemeral-storage allocatable, in MiB,
// that assumeEphemeralStorage gives a Node that lists none: past any
// request (a pebibyte), and read by no score (NodeResourcesFit scores cpu
// and memory).
const unlistedEphemeralStorage = 1 << 30

// assumeEphemeralStorage: when pods request ephemeral-storage and no Node
// lists it in its allocatable, the Nodes are hand-written (every kubelet
// reports its root filesystem as ephemeral-storage), and checking the
// requests against nothing would make every such pod unschedulable: a
// false alarm. The Nodes are taken to have room for any request, and the
// report says so. One Node that lists it means the input speaks for its
// nodes, and nothing is assumed.
func (as *assembly) assumeEphemeralStorage() {
	requested := slices.ContainsFunc(as.c.Templates, func(t model.TemplateDecl) bool { return t.Scalar[model.EphemeralStorage] > 0 })
	if !requested {
		return
	}
	for _, t := range as.c.NodeTypes {
		if _, ok := t.Scalar[model.EphemeralStorage]; ok {
			return
		}
	}
	for i := range as.c.NodeTypes {
		t := &as.c.NodeTypes[i]
		if t.Scalar == nil {
			t.Scalar = map[string]int64{}
		}
		t.Scalar[model.EphemeralStorage] = unlistedEphemeralStorage
	}
	as.c.Assumptions = append(as.c.Assumptions, "pods request ephemeral-storage and no Node lists it in status.allocatable, as hand-written Nodes leave it out (every kubelet reports its root filesystem's): every node has room for any such request; give the Nodes their allocatable ephemeral-storage to check the requests against it")
}
