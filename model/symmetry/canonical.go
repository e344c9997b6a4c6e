package symmetry

import (
	"bytes"
	"sort"

	"github.com/kivi-go/kivi/model"
)

// Canonicalizer maps a state to the representative of its orbit under the
// permutations of interchangeable nodes (checker.Canonicalizer). It holds
// only read-only data, so one value serves many goroutines.
type Canonicalizer struct {
	u        *model.Universe
	analysis Analysis
	// classes are the non-singleton classes.
	classes [][]int
	layout  nodeMemory
}

// New analyses u (which must be compiled) and returns its canonicaliser.
func New(u *model.Universe) *Canonicalizer {
	c := &Canonicalizer{u: u, analysis: Analyze(u), layout: nodeMemoryOf(u)}
	for _, cl := range c.analysis.Classes {
		if len(cl) > 1 {
			c.classes = append(c.classes, cl)
		}
	}
	return c
}

// Analysis returns the classes and the rules that restricted them.
func (c *Canonicalizer) Analysis() Analysis { return c.analysis }

// Trivial reports whether no two nodes are interchangeable: Canonical is
// then the identity and a checker gains nothing from calling it.
func (c *Canonicalizer) Trivial() bool { return len(c.classes) == 0 }

// Movable returns the blocks of nodes that may be permuted among
// themselves in state s: each class restricted to the nodes every
// maintenance event has already reached (blocks of one node left out).
func (c *Canonicalizer) Movable(s *model.State) [][]int {
	limit := c.layout.reached(s)
	var out [][]int
	for _, cl := range c.classes {
		i := sort.SearchInts(cl, limit)
		if i > 1 {
			out = append(out, cl[:i])
		}
	}
	return out
}

// Canonical returns the representative of s's orbit: within every movable
// block the nodes are reordered by their signature (signature.go). It
// returns s itself when s is already canonical, and a new State otherwise;
// s is never modified.
func (c *Canonicalizer) Canonical(s *model.State) *model.State {
	blocks := c.Movable(s)
	if len(blocks) == 0 {
		return s
	}
	sigs := c.signatures(s, blocks)
	var perm []int
	for _, block := range blocks {
		order := append([]int(nil), block...)
		sort.SliceStable(order, func(i, j int) bool { return bytes.Compare(sigs[order[i]], sigs[order[j]]) < 0 })
		for i, old := range order {
			if old == block[i] {
				continue
			}
			if perm == nil {
				perm = identity(len(s.Nodes))
			}
			perm[old] = block[i]
		}
	}
	if perm == nil {
		return s
	}
	return permute(c.layout, s, perm)
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}
