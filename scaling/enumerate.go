package scaling

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// Kivi's config.py constants for the free mode (Kivi's scaling search, constants
// table).
const (
	// DefaultConfidentNodes is confident_node_size: at most this many
	// nodes of each type.
	DefaultConfidentNodes = 6
	// DefaultConfidentPodsPerNode is confident_pod_size_factor: at most
	// this many replicas per deployment per node of the setup.
	DefaultConfidentPodsPerNode = 6
)

// EnumerateOptions tune the enumeration; the zero value is Kivi's.
type EnumerateOptions struct {
	// ConfidentNodes caps each node type's count (default 6).
	ConfidentNodes int
	// ConfidentPodsPerNode caps each deployment's replicas at this many
	// per node of the setup (default 6).
	ConfidentPodsPerNode int
	// FastFind is Kivi's -f: 1 makes counts ≥ 7 advance by 2; 0, 2 and 3
	// enumerate every count (2 only matters in proportion mode, 3 was
	// never implemented), Kivi's scaling search.
	FastFind int
}

func (o EnumerateOptions) withDefaults() (EnumerateOptions, error) {
	if o.ConfidentNodes == 0 {
		o.ConfidentNodes = DefaultConfidentNodes
	}
	if o.ConfidentPodsPerNode == 0 {
		o.ConfidentPodsPerNode = DefaultConfidentPodsPerNode
	}
	if o.ConfidentNodes < 0 || o.ConfidentPodsPerNode < 0 {
		return o, fmt.Errorf("confident size %d nodes per type, %d pods per node: must be positive: %w", o.ConfidentNodes, o.ConfidentPodsPerNode, ErrBounds)
	}
	if o.FastFind < 0 || o.FastFind > 3 {
		return o, fmt.Errorf("fast find %d (accepted: 0, 1, 2, 3): %w", o.FastFind, ErrBounds)
	}
	return o, nil
}

// next is Kivi's loop step: with fast find 1, counts of 7 and more
// advance by 2.
func (o EnumerateOptions) next(j int) int {
	if o.FastFind == 1 && j >= 7 {
		return j + 2
	}
	return j + 1
}

// Setups enumerates the setups of a cluster in Kivi's order.
func Setups(c *model.Cluster, opts EnumerateOptions) ([]Setup, error) {
	b, err := BoundsOf(c)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	return Enumerate(b, opts)
}

// Enumerate lists every setup within the bounds in the order Kivi
// verifies them (Kivi's scaling search free mode, §4.2 order): a depth-first
// walk over node types then deployments, skipping empty clusters and
// setups without any replica, capping each node type at ConfidentNodes
// and each deployment at ConfidentPodsPerNode×N and MaxPodsPerNode×N,
// then a stable sort by Kivi's float key (total nodes, then replicas).
func Enumerate(b Bounds, opts EnumerateOptions) ([]Setup, error) {
	out, err := collect(b, opts)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].kiviKey() < out[j].kiviKey() })
	return out, nil
}

// collect returns the setups in Kivi's depth-first collection order,
// before the sort.
func collect(b Bounds, opts EnumerateOptions) ([]Setup, error) {
	if err := b.Validate(); err != nil {
		return nil, err
	}
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	e := enumerator{b: b, opts: opts, seen: map[string]bool{},
		cur: Setup{Nodes: make([]int, len(b.NodeTypes)), Replicas: make([]int, len(b.Deployments))}}
	e.nodeType(0, 0)
	if len(e.out) == 0 {
		return nil, fmt.Errorf("%s: %w", describeBounds(b), ErrNoSetups)
	}
	return e.out, nil
}

// enumerator is the state of Kivi's depth-first walk.
type enumerator struct {
	b    Bounds
	opts EnumerateOptions
	cur  Setup
	// seen drops repeated assignments, as Kivi's "not yet collected"
	// check does; only membership is read, never its order.
	seen map[string]bool
	out  []Setup
}

func (e *enumerator) nodeType(i, total int) {
	if i == len(e.b.NodeTypes) {
		if total == 0 {
			return // no empty clusters
		}
		e.deployment(0, total, 0)
		return
	}
	t := e.b.NodeTypes[i]
	for j := t.Min; j <= t.Max && j <= e.opts.ConfidentNodes; j = e.opts.next(j) {
		e.cur.Nodes[i] = j
		e.nodeType(i+1, total+j)
	}
	e.cur.Nodes[i] = 0
}

func (e *enumerator) deployment(k, nodes, replicas int) {
	if k == len(e.b.Deployments) {
		if replicas == 0 {
			return // at least one replica
		}
		s := e.cur.clone()
		key := s.String()
		if !e.seen[key] {
			e.seen[key] = true
			e.out = append(e.out, s)
		}
		return
	}
	d := e.b.Deployments[k]
	for j := d.Min; j <= d.Max; j = e.opts.next(j) {
		if j > e.opts.ConfidentPodsPerNode*nodes || j > d.MaxPodsPerNode*nodes {
			break
		}
		e.cur.Replicas[k] = j
		e.deployment(k+1, nodes, replicas+j)
	}
	e.cur.Replicas[k] = 0
}

func describeBounds(b Bounds) string {
	var parts []string
	for _, t := range b.NodeTypes {
		parts = append(parts, fmt.Sprintf("node type %s %d..%d", t.Name, t.Min, t.Max))
	}
	for _, d := range b.Deployments {
		parts = append(parts, fmt.Sprintf("deployment %s %d..%d (≤ %d per node)", d.Name, d.Min, d.Max, d.MaxPodsPerNode))
	}
	return strings.Join(parts, ", ")
}
