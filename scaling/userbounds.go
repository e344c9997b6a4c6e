package scaling

import (
	"fmt"

	"github.com/kivi-go/kivi/model"
)

// InputSetup is the size the cluster was written at: its nodes counted
// per type, and each deployment's spec replicas.
func InputSetup(c *model.Cluster) Setup {
	s := Setup{Nodes: make([]int, len(c.NodeTypes)), Replicas: make([]int, len(c.Deployments))}
	for _, g := range c.Nodes {
		for t, nt := range c.NodeTypes {
			if nt.Name == g.Type {
				s.Nodes[t] += max(g.Count, 1)
			}
		}
	}
	for d, dd := range c.Deployments {
		s.Replicas[d] = dd.Replicas
	}
	return s
}

// InputBounds are the search bounds of a user's own configuration (a
// manifest set or Kivi's configuration directory), which says nothing
// about other sizes: each node type from 0 up to the count the user wrote
// (or confidentNodes when positive), and each deployment's replicas
// between its HPA's minimum and maximum, or exactly its spec replicas
// without an HPA. No setup of the search is then a size the user's own
// objects could not reach.
func InputBounds(c *model.Cluster, confidentNodes int) (Bounds, error) {
	in := InputSetup(c)
	var b Bounds
	for t, nt := range c.NodeTypes {
		hi := in.Nodes[t]
		if confidentNodes > 0 {
			hi = confidentNodes
		}
		b.NodeTypes = append(b.NodeTypes, TypeBounds{Name: nt.Name, Min: 0, Max: hi})
	}
	keepNamedNodes(c, b.NodeTypes)
	for _, d := range c.Deployments {
		per := maxPodsPerNode(d)
		db := DeploymentBounds{Name: d.Name, Min: d.Replicas, Max: d.Replicas, MaxPodsPerNode: per}
		if h := d.HPA; h != nil {
			db.Min, db.Max = max(h.Min, 1), max(h.Max, h.Min, 1)
		}
		if d.MinReplicas > 0 || d.MaxReplicas > 0 {
			// Sizes the user wrote for the search (Kivi's dTypes
			// minSize/maxSize) narrow the range further.
			lo, hi := db.Min, db.Max
			db.Min, db.Max = max(lo, d.MinReplicas), min(hi, max(d.MaxReplicas, d.MinReplicas))
			if db.Min > db.Max {
				return b, fmt.Errorf("deployment %s: search sizes minSize %d..maxSize %d lie outside the replicas its HPA or spec allows, %d..%d: %w",
					d.Name, d.MinReplicas, d.MaxReplicas, lo, hi, ErrBounds)
			}
		}
		b.Deployments = append(b.Deployments, db)
	}
	return b, b.Validate()
}

// WithWrittenHPAs returns a copy of c whose HPAs keep the minimum and
// maximum the user wrote in every setup (no HPA factor deriving other
// bounds from the setup's replicas), for a search inside the input's own
// bounds.
func WithWrittenHPAs(c *model.Cluster) *model.Cluster {
	cc := *c
	cc.Deployments = append([]model.DeploymentDecl(nil), c.Deployments...)
	for i := range cc.Deployments {
		if h := cc.Deployments[i].HPA; h != nil && h.Factor != 0 {
			hc := *h
			hc.Factor = 0
			cc.Deployments[i].HPA = &hc
		}
	}
	return &cc
}
