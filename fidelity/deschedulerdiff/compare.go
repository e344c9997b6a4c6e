package deschedulerdiff

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
)

// Result is the comparison of one snapshot: the model's branches and
// classification against the real plugin's runs under several listing
// orders.
type Result struct {
	Model *ModelAnswer
	Real  []*RealAnswer
	// Detail is the first disagreement, "" when they agree.
	Detail string
	// Reached counts the model branches (up to identical pods) some run
	// evicted.
	Reached int
}

// Orders draws n listing orders from rng: the first is the pods' and
// nodes' index order, the others shuffles.
func Orders(rng *rand.Rand, s *Snapshot, n int) []Order {
	var out []Order
	for k := range n {
		o := Order{Rank: make([]int, len(s.Pods)), Nodes: make([]int, len(s.Nodes))}
		for i := range o.Rank {
			o.Rank[i] = i
		}
		for i := range o.Nodes {
			o.Nodes[i] = i
		}
		if k > 0 {
			rng.Shuffle(len(o.Rank), func(i, j int) { o.Rank[i], o.Rank[j] = o.Rank[j], o.Rank[i] })
			rng.Shuffle(len(o.Nodes), func(i, j int) { o.Nodes[i], o.Nodes[j] = o.Nodes[j], o.Nodes[i] })
		}
		out = append(out, o)
	}
	return out
}

// Compare runs the model and the real plugin under each order and
// compares them: every real run's evicted set must be one of the model's
// branches up to identical pods, and the node-utilisation plugins must
// classify every node alike.
func Compare(ctx context.Context, d *Disruption, s *Snapshot, orders []Order) (*Result, error) {
	m, err := s.Model()
	if err != nil {
		return nil, err
	}
	o := s.ToAPI()
	pdbs, err := d.Statuses(ctx, o)
	if err != nil {
		return nil, err
	}
	res := &Result{Model: m}
	sigs := map[string]bool{}
	for _, b := range m.Branches {
		sigs[m.Signature(b)] = false
	}
	for _, ord := range orders {
		r, err := s.Run(ctx, o, pdbs, ord)
		if err != nil {
			return nil, err
		}
		res.Real = append(res.Real, r)
		sig := m.Signature(r.Evicted)
		if _, ok := sigs[sig]; !ok && res.Detail == "" {
			res.Detail = fmt.Sprintf("real evicts %v %s (listing order %v, nodes %v); model branches %v %v",
				r.Evicted, sig, ord.Rank, ord.Nodes, m.Branches, slices.Sorted(maps.Keys(sigs)))
		}
		sigs[sig] = true
		if r.Class != nil && !maps.Equal(r.Class, m.Class) && res.Detail == "" {
			res.Detail = fmt.Sprintf("classification: real %s, model %s", fmtClass(r.Class), fmtClass(m.Class))
		}
	}
	for _, reached := range sigs {
		if reached {
			res.Reached++
		}
	}
	return res, nil
}

func fmtClass(c map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(c)) {
		parts = append(parts, k+" "+c[k])
	}
	return strings.Join(parts, ", ")
}
