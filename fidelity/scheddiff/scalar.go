package scheddiff

import "github.com/kivi-go/kivi/model"

// gpu is the extended resource the snapshots draw (model/scalar.go).
const gpu = "nvidia.com/gpu"

// scalarToModel sets u's scalar resources from the snapshot's requests
// and nodes, after ToModel built the nodes and templates in order (the
// pending pod's template first, then one per existing pod not of its
// ReplicaSet): as the manifest reader does, only resources some pod
// requests are modelled.
func (s *Snapshot) scalarToModel(u *model.Universe) {
	requests := []map[string]int64{s.Pending.Req.Scalar}
	for _, e := range s.Existing {
		if !e.SameRS {
			requests = append(requests, e.Req.Scalar)
		}
	}
	names := model.ScalarResourceNames(requests)
	if len(names) == 0 {
		return
	}
	u.ScalarResources = names
	for i := range u.Templates {
		u.Templates[i].Scalar = model.ScalarVector(names, requests[i])
	}
	for i, n := range s.Nodes {
		u.Nodes[i].Scalar = model.ScalarVector(names, n.Scalar)
		u.Nodes[i].ScalarListed = model.ScalarListed(names, n.Scalar)
	}
}

// scalarOf is node or template scalar values of u by name (nil when u has
// none), for the API objects of a replayed state.
func scalarOf(u *model.Universe, values []int64) map[string]int64 {
	if len(values) == 0 {
		return nil
	}
	out := map[string]int64{}
	for k, name := range u.ScalarResources {
		out[name] = values[k]
	}
	return out
}

// listedScalar is node n's allocatable scalar resources by name, the ones
// it lists only.
func listedScalar(u *model.Universe, n *model.Node) map[string]int64 {
	all := scalarOf(u, n.Scalar)
	for k, name := range u.ScalarResources {
		if n.ScalarListed != nil && !n.ScalarListed[k] {
			delete(all, name)
		}
	}
	return all
}
