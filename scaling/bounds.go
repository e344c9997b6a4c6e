package scaling

import (
	"errors"
	"fmt"

	"github.com/kivi-go/kivi/model"
)

// ErrBounds marks a cluster whose scaling bounds cannot be searched (no
// types, min > max, a type that can never appear); ErrNoSetups a cluster
// whose bounds admit no setup at all.
var (
	ErrBounds   = errors.New("invalid scaling bounds")
	ErrNoSetups = errors.New("no setup within the scaling bounds")
)

// DefaultMaxPodsPerNode is Kivi's max_pod_per_node default for user
// configurations, used when a deployment leaves
// MaxPodsPerNode at 0.
const DefaultMaxPodsPerNode = 7

// TypeBounds are the search bounds of one node type.
type TypeBounds struct {
	Name     string
	Min, Max int
}

// DeploymentBounds are the search bounds of one deployment type.
type DeploymentBounds struct {
	Name     string
	Min, Max int
	// MaxPodsPerNode caps the replicas at MaxPodsPerNode × total nodes
	// (Kivi's max_pod_per_node).
	MaxPodsPerNode int
}

// Bounds are the inputs of the enumeration: one entry per node type and
// per deployment, in the Cluster's order.
type Bounds struct {
	NodeTypes   []TypeBounds
	Deployments []DeploymentBounds
}

// BoundsOf reads the search bounds of a cluster and validates them.
// Bounds a cluster leaves unset (min and max both 0, as in clusters read
// from Kubernetes manifests, which say nothing about other topologies)
// get the confident size: 0..DefaultConfidentNodes nodes of each type, and
// 1..(pods per node × DefaultConfidentNodes × types) replicas, which the
// enumeration then caps per setup.
func BoundsOf(c *model.Cluster) (Bounds, error) {
	var b Bounds
	for _, t := range c.NodeTypes {
		tb := TypeBounds{Name: t.Name, Min: t.Min, Max: t.Max}
		if tb.Min == 0 && tb.Max == 0 {
			tb.Max = DefaultConfidentNodes
		}
		b.NodeTypes = append(b.NodeTypes, tb)
	}
	keepNamedNodes(c, b.NodeTypes)
	for _, d := range c.Deployments {
		per := maxPodsPerNode(d)
		db := DeploymentBounds{Name: d.Name, Min: d.MinReplicas, Max: d.MaxReplicas, MaxPodsPerNode: per}
		if db.Min == 0 && db.Max == 0 {
			db.Min, db.Max = 1, per*DefaultConfidentNodes*max(len(c.NodeTypes), 1)
		}
		b.Deployments = append(b.Deployments, db)
	}
	return b, b.Validate()
}

// keepNamedNodes raises the node types' minimums so that every setup has
// the nodes the events name: a nodeFailure (or a deleteNode) of node-b is about node-b,
// and a setup without it (as the setup node of node-b's type and rank)
// would check something the user did not ask. Kivi's 1-based positions
// name no written node and stay positions in every setup.
func keepNamedNodes(c *model.Cluster, types []TypeBounds) {
	for _, e := range c.Events {
		if e.Kind != "nodeFailure" && e.Kind != "deleteNode" {
			continue
		}
		typ, rank, ok := c.NodeRank(e.Node)
		if !ok {
			continue
		}
		for i := range types {
			if types[i].Name == typ {
				types[i].Min = max(types[i].Min, rank+1)
				types[i].Max = max(types[i].Max, types[i].Min)
			}
		}
	}
}

// Validate reports the first bound that makes the search meaningless,
// naming the type and the field as in the case-file format.
func (b Bounds) Validate() error {
	if len(b.NodeTypes) == 0 {
		return fmt.Errorf("nodeTypes: none declared; the search varies their counts: %w", ErrBounds)
	}
	if len(b.Deployments) == 0 {
		return fmt.Errorf("deployments: none declared; the search varies their replicas: %w", ErrBounds)
	}
	for i, t := range b.NodeTypes {
		at := fmt.Sprintf("nodeTypes[%d] (%s)", i, t.Name)
		if err := checkRange(at, "min", "max", t.Min, t.Max); err != nil {
			return err
		}
	}
	for i, d := range b.Deployments {
		at := fmt.Sprintf("deployments[%d] (%s)", i, d.Name)
		if err := checkRange(at, "minReplicas", "maxReplicas", d.Min, d.Max); err != nil {
			return err
		}
		if d.MaxPodsPerNode < 0 {
			return fmt.Errorf("%s.maxPodsPerNode %d: must not be negative: %w", at, d.MaxPodsPerNode, ErrBounds)
		}
	}
	return nil
}

// checkRange validates one min..max pair. A max of 0 is rejected: such a
// type has zero capacity (it never appears in any setup), which is almost
// always a forgotten bound rather than an intent.
func checkRange(at, minField, maxField string, lo, hi int) error {
	switch {
	case lo < 0:
		return fmt.Errorf("%s.%s %d: must not be negative: %w", at, minField, lo, ErrBounds)
	case hi == 0:
		return fmt.Errorf("%s.%s 0: zero capacity, the type never appears in a setup (set %s ≥ 1): %w", at, maxField, maxField, ErrBounds)
	case hi < 0:
		return fmt.Errorf("%s.%s %d: must not be negative: %w", at, maxField, hi, ErrBounds)
	case lo > hi:
		return fmt.Errorf("%s.%s %d > %s %d: %w", at, minField, lo, maxField, hi, ErrBounds)
	}
	return nil
}

// maxPodsPerNode is how many pods of d a node may hold in a setup: the
// deployment's own bound, else DefaultMaxPodsPerNode.
func maxPodsPerNode(d model.DeploymentDecl) int {
	if d.MaxPodsPerNode == 0 {
		return DefaultMaxPodsPerNode
	}
	return d.MaxPodsPerNode
}
