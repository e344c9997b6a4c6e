package model

import (
	"fmt"
	"slices"
	"strings"
)

// Scalar resources: every resource a pod requests besides cpu, memory and
// the pod count, which Kubernetes' NodeResourcesFit compares with the
// node's allocatable the same way: ephemeral-storage, huge pages
// (hugepages-<size>) and extended resources (nvidia.com/gpu,
// example.com/foo: any fully qualified name outside kubernetes.io/).
//
// Universe.ScalarResources names the ones some pod template requests, in
// the order NodeResourcesFit reports them (EphemeralStorage first, then
// by name); Node.Scalar, Node.ReservedScalar and PodTemplate.Scalar are
// aligned with it, and all of them are nil in a universe where no pod
// requests any, so such a universe pays nothing for them. A node's usage
// is derived from the pods bound to it, like its cpu and memory
// (Universe.Requested): the state holds nothing.

// EphemeralStorage is the local ephemeral storage resource, in MiB in the
// model (like memory).
const EphemeralStorage = "ephemeral-storage"

// ScalarResourceNames returns the names requested (a value above 0) in
// any of requests, in NodeResourcesFit's order: ephemeral-storage first,
// then by name. It is nil when none is.
func ScalarResourceNames(requests []map[string]int64) []string {
	var names []string
	for _, m := range requests {
		for k, v := range m {
			if v > 0 && !slices.Contains(names, k) {
				names = append(names, k)
			}
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		if (a == EphemeralStorage) != (b == EphemeralStorage) {
			if a == EphemeralStorage {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	return names
}

// ScalarVector returns m's values aligned with names (absent: 0), or nil
// when names is empty.
func ScalarVector(names []string, m map[string]int64) []int64 {
	if len(names) == 0 {
		return nil
	}
	out := make([]int64, len(names))
	for i, name := range names {
		out[i] = m[name]
	}
	return out
}

// ScalarListed returns, aligned with names, whether m names each
// resource (nil when names is empty).
func ScalarListed(names []string, m map[string]int64) []bool {
	if len(names) == 0 {
		return nil
	}
	out := make([]bool, len(names))
	for i, name := range names {
		_, out[i] = m[name]
	}
	return out
}

// IsExtendedResource is Kubernetes' IsExtendedResourceName: a fully
// qualified name outside the kubernetes.io/ domain and not a quota's
// requests. prefix (nvidia.com/gpu, example.com/foo).
func IsExtendedResource(name string) bool {
	return strings.Contains(name, "/") && !strings.Contains(name, "kubernetes.io/") && !strings.HasPrefix(name, "requests.")
}

// checkScalar validates the scalar vectors against ScalarResources.
func (u *Universe) checkScalar() error {
	k := len(u.ScalarResources)
	bad := func(v []int64) bool {
		return len(v) != 0 && len(v) != k || slices.ContainsFunc(v, func(x int64) bool { return x < 0 })
	}
	for i := range u.Nodes {
		n := &u.Nodes[i]
		if bad(n.Scalar) || bad(n.ReservedScalar) || len(n.ScalarListed) != 0 && len(n.ScalarListed) != k {
			return fmt.Errorf("node %q: scalar resources %v (reserved %v) do not match the universe's %v or are negative: %w", n.Name, n.Scalar, n.ReservedScalar, u.ScalarResources, ErrInvalid)
		}
	}
	for i := range u.Templates {
		t := &u.Templates[i]
		if bad(t.Scalar) {
			return fmt.Errorf("pod template %q: scalar requests %v do not match the universe's %v or are negative: %w", t.Name, t.Scalar, u.ScalarResources, ErrInvalid)
		}
	}
	return nil
}

// NodeScalar is node n's allocatable amount of scalar resource k.
func (u *Universe) NodeScalar(n, k int) int64 {
	if s := u.Nodes[n].Scalar; s != nil {
		return s[k]
	}
	return 0
}

// TemplateScalar is template t's request of scalar resource k.
func (u *Universe) TemplateScalar(t, k int) int64 {
	if s := u.Templates[t].Scalar; s != nil {
		return s[k]
	}
	return 0
}

// ScalarRequestedOnNodes sums, per node, the reservation and the scalar
// requests of the pods that hold it (the pods Requested counts), into dst
// (reused when large enough): node n's amount of resource k at
// n*len(ScalarResources)+k. It returns nil when the universe has no
// scalar resources.
func (u *Universe) ScalarRequestedOnNodes(s *State, dst []int64) []int64 {
	k := len(u.ScalarResources)
	if k == 0 {
		return nil
	}
	dst = u.ScalarReservedOnNodes(dst)
	for i := range s.Pods {
		p := &s.Pods[i]
		v := heldNode(p)
		if v == 0 || v > len(u.Nodes) {
			continue
		}
		u.AddScalar(dst[(v-1)*k:v*k], int(p.Template))
	}
	return dst
}

// ScalarRequested is node n's row of ScalarRequestedOnNodes, into dst
// (reused when large enough); nil without scalar resources.
func (u *Universe) ScalarRequested(s *State, n int, dst []int64) []int64 {
	k := len(u.ScalarResources)
	if k == 0 {
		return nil
	}
	if cap(dst) < k {
		dst = make([]int64, k)
	}
	dst = dst[:k]
	clear(dst)
	copy(dst, u.Nodes[n].ReservedScalar)
	for i := range s.Pods {
		if p := &s.Pods[i]; heldNode(p) == n+1 {
			u.AddScalar(dst, int(p.Template))
		}
	}
	return dst
}

// ScalarReservedOnNodes is every node's scalar reservation, laid out as
// ScalarRequestedOnNodes (nil without scalar resources).
func (u *Universe) ScalarReservedOnNodes(dst []int64) []int64 {
	k := len(u.ScalarResources)
	if k == 0 {
		return nil
	}
	if cap(dst) < k*len(u.Nodes) {
		dst = make([]int64, k*len(u.Nodes))
	}
	dst = dst[:k*len(u.Nodes)]
	clear(dst)
	for n := range u.Nodes {
		if r := u.Nodes[n].ReservedScalar; r != nil {
			copy(dst[n*k:], r)
		}
	}
	return dst
}

// AddScalar adds template t's scalar requests to used (one node's row).
func (u *Universe) AddScalar(used []int64, t int) {
	for k, v := range u.Templates[t].Scalar {
		used[k] += v
	}
}

// InsufficientScalar returns the first scalar resource (an index into
// ScalarResources) that template t requests and node n cannot hold with
// used (the node's row of ScalarRequestedOnNodes) already requested, or
// -1: fitsRequest's loop over the pod's scalar requests, where a node
// without the resource has 0 of it. unresolvable reports that t requests
// more of some scalar resource than n has allocatable at all.
func (u *Universe) InsufficientScalar(t, n int, used []int64) (k int, unresolvable bool) {
	node := u.Nodes[n].Scalar
	for i, req := range u.Templates[t].Scalar {
		if req > 0 && req > scalarAt(node, i) {
			unresolvable = true
			break
		}
	}
	return u.NextInsufficientScalar(t, n, used, -1), unresolvable
}

// NextInsufficientScalar is the next scalar resource after after that
// template t requests and node n cannot hold (InsufficientScalar), or -1.
func (u *Universe) NextInsufficientScalar(t, n int, used []int64, after int) int {
	node := u.Nodes[n].Scalar
	req := u.Templates[t].Scalar
	for i := after + 1; i < len(req); i++ {
		if req[i] > 0 && req[i] > scalarAt(node, i)-used[i] {
			return i
		}
	}
	return -1
}

// scalarAt is a node's allocatable of scalar resource i: 0 where the
// node has none.
func scalarAt(node []int64, i int) int64 {
	if node == nil {
		return 0
	}
	return node[i]
}
