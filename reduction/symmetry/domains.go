package symmetry

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// Topology domains. A node class holds nodes that agree on everything a
// step reads, the values of the topology keys included, so nodes of two
// zones are never in one class. Yet zones are usually built alike: the
// same node shapes in each. When exactly one topology key (other than the
// hostname keys) takes several values, and two of its domains hold the
// same classes but for that value (the same number of nodes of each
// shape, the same NodeFit for every template), swapping the two domains
// wholesale, node for node within each class, is a symmetry too: the
// scheduler's spread and affinity plugins and the descheduler's
// topology balancing compare domain values only for equality and count
// pods per domain (the descheduler branches over domains of equal size,
// balancedomains.go), every nodeSelector or affinity that names a value
// is in NodeFit and so in the classes, and no state field holds a label
// value. A domain that holds a pinned node stays put.
//
// The canonical form sorts every block of a domain by signature first,
// as for any class, and then orders the domains of a group by their
// sorted signatures, block by block: the domain that comes first takes
// the nodes of the group's first domain, and so on. Two domains whose
// sorted signatures are equal carry equal contents, so swapping them,
// with a matching of their nodes and pods, is the identity on the state:
// the result does not depend on which of them comes first.

// domainGroup is a set of interchangeable topology domains: blocks[d][k]
// is the k-th class of domain d, ascending; the domains are ordered by
// their first node and every domain has the same number of blocks with
// the same sizes.
type domainGroup struct {
	blocks [][][]int
}

// domainGroups finds the interchangeable topology domains of a compiled
// universe whose classes are classes (the analysis's, singletons
// included). It returns the key whose values the domains are, and the
// groups of at least two domains; none when a maintenance walks the
// nodes in index order (model.WrittenOrder), when no topology key or several of them tell nodes
// apart, or when some node lacks the key.
func domainGroups(u *model.Universe, classes [][]int, pinned []bool) (string, []domainGroup) {
	if len(u.Nodes) < 2 || len(nodeMemoryOf(u).next) > 0 {
		return "", nil
	}
	read := u.NodeLabelKeysRead()
	key := ""
	for k := range read {
		if isHostnameKey(u, k) {
			continue
		}
		first, ok := u.Nodes[0].Labels[k]
		varies := false
		for n := range u.Nodes {
			v, has := u.Nodes[n].Labels[k]
			if has != ok || v != first {
				varies = true
				break
			}
		}
		if !varies {
			continue
		}
		if key != "" {
			return "", nil // two keys: their domains may nest or cross
		}
		key = k
	}
	if key == "" {
		return "", nil
	}
	for n := range u.Nodes {
		if _, ok := u.Nodes[n].Labels[key]; !ok {
			return "", nil
		}
	}
	// The classes of each domain, by the shape of their nodes without
	// the domain's value.
	shapeRead := make(map[string]bool, len(read))
	for k := range read {
		if k != key {
			shapeRead[k] = true
		}
	}
	type domain struct {
		value  string
		fixed  bool
		blocks []shapedBlock
	}
	byValue := map[string]*domain{}
	var order []*domain
	for _, cl := range classes {
		v := u.Nodes[cl[0]].Labels[key]
		d := byValue[v]
		if d == nil {
			d = &domain{value: v}
			byValue[v] = d
			order = append(order, d)
		}
		for _, n := range cl {
			if pinned[n] {
				d.fixed = true
			}
		}
		d.blocks = append(d.blocks, shapedBlock{shape: staticKey(u, cl[0], shapeRead), nodes: cl})
	}
	bySignature := map[string][]*domain{}
	var signatures []string
	for _, d := range order {
		if d.fixed {
			continue
		}
		sort.SliceStable(d.blocks, func(i, j int) bool { return d.blocks[i].shape < d.blocks[j].shape })
		var b strings.Builder
		for _, blk := range d.blocks {
			fmt.Fprintf(&b, "%d %s\n", len(blk.nodes), blk.shape)
		}
		sig := b.String()
		if _, ok := bySignature[sig]; !ok {
			signatures = append(signatures, sig)
		}
		bySignature[sig] = append(bySignature[sig], d)
	}
	var groups []domainGroup
	for _, sig := range signatures {
		ds := bySignature[sig]
		if len(ds) < 2 {
			continue
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i].blocks[0].nodes[0] < ds[j].blocks[0].nodes[0] })
		g := domainGroup{blocks: make([][][]int, len(ds))}
		for i, d := range ds {
			for _, blk := range d.blocks {
				g.blocks[i] = append(g.blocks[i], blk.nodes)
			}
		}
		groups = append(groups, g)
	}
	return key, groups
}

// shapedBlock is a class with its static key without the domain value.
type shapedBlock struct {
	shape string
	nodes []int
}

// appendDomainBlocks appends every block of every domain group to dst,
// for the signatures.
func (c *Canonicalizer) appendDomainBlocks(dst [][]int) [][]int {
	for _, g := range c.domains {
		for _, d := range g.blocks {
			dst = append(dst, d...)
		}
	}
	return dst
}

// planDomains sorts the blocks of every domain group by signature, orders
// each group's domains by their sorted signatures and writes into perm
// (nil = identity, allocated in w when a node moves) where every node of
// the groups goes, labelling orbits (nil = not asked) within each block
// as planOrbits does. It returns perm.
func (c *Canonicalizer) planDomains(w *scratch, sigs *nodeSigs, perm []int, orbits []uint16, nodes int) []int {
	for _, g := range c.domains {
		// sorted holds every block of the group sorted, domain after
		// domain; at[d] is where domain d's blocks start in it.
		sorted := w.domainSorted[:0]
		for _, d := range g.blocks {
			for _, block := range d {
				from := len(sorted)
				sorted = append(sorted, block...)
				sigs.sortBlock(sorted[from:])
			}
		}
		w.domainSorted = sorted
		size := len(sorted) / len(g.blocks)
		rank := w.domainOrder[:0]
		for d := range g.blocks {
			rank = append(rank, d)
		}
		w.domainOrder = rank
		cmp := func(a, b int) int {
			x, y := sorted[a*size:(a+1)*size], sorted[b*size:(b+1)*size]
			for i := range x {
				if r := sigs.compare(x[i], y[i]); r != 0 {
					return r
				}
			}
			return 0
		}
		for i := 1; i < len(rank); i++ { // few domains: insertion, stable
			for j := i; j > 0 && cmp(rank[j-1], rank[j]) > 0; j-- {
				rank[j-1], rank[j] = rank[j], rank[j-1]
			}
		}
		for to, from := range rank {
			src := sorted[from*size : (from+1)*size]
			at := 0
			for _, target := range g.blocks[to] {
				order := src[at : at+len(target)]
				at += len(target)
				if orbits != nil {
					for i := 1; i < len(order); i++ {
						if sigs.equal(order[i-1], order[i]) {
							orbits[target[i]] = orbits[target[i-1]]
						}
					}
				}
				for i, old := range order {
					if old == target[i] {
						continue
					}
					if perm == nil {
						perm = identityInto(w.perm, nodes)
						w.perm = perm
					}
					perm[old] = target[i]
				}
			}
		}
	}
	return perm
}
