package symmetry

import (
	"bytes"
	"sort"

	"github.com/kivi-go/kivi/model"
)

// Canonicalizer maps a state to the representative of its orbit under the
// permutations of interchangeable nodes and, unless a pod rule keeps them
// fixed, of pod slots (checker.Canonicalizer). It holds only read-only
// data, so one value serves many goroutines.
type Canonicalizer struct {
	u        *model.Universe
	analysis Analysis
	// classes are the non-singleton classes.
	classes [][]int
	layout  nodeMemory
	// pods: pod slots are permuted too.
	pods bool
}

// New analyses u (which must be compiled) and returns its canonicaliser.
func New(u *model.Universe) *Canonicalizer {
	c := &Canonicalizer{u: u, analysis: Analyze(u), layout: nodeMemoryOf(u)}
	c.pods = c.analysis.Pods && u.PodSlots > 1
	for _, cl := range c.analysis.Classes {
		if len(cl) > 1 {
			c.classes = append(c.classes, cl)
		}
	}
	return c
}

// Analysis returns the classes and the rules that restricted them.
func (c *Canonicalizer) Analysis() Analysis { return c.analysis }

// Trivial reports whether no two nodes and no two pod slots are
// interchangeable: Canonical is then the identity and a checker gains
// nothing from calling it.
func (c *Canonicalizer) Trivial() bool { return len(c.classes) == 0 && !c.pods }

// PodsMove reports whether pod slots are permuted (Analysis.Pods).
func (c *Canonicalizer) PodsMove() bool { return c.pods }

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
// block the nodes are reordered by their signature (signature.go) and,
// when pods move, the pod slots are reordered by their content key
// (podsignature.go) and then their node's new index, Free slots last. It
// returns s itself when s is already canonical, and a new State
// otherwise; s is never modified.
//
// The node signatures read the pods' content keys, not their slots, so the
// node order does not depend on the pod slots; two nodes with equal
// signatures carry equal multisets of pod contents, so whichever of them
// comes first the multiset of (content, new node) pairs, and so the sorted
// pod list, is the same. Pods with equal content and node are identical
// (equal keys mean no queue holds either), so their order among themselves
// changes nothing: the result is the same for every permutation of s.
func (c *Canonicalizer) Canonical(s *model.State) *model.State {
	blocks := c.Movable(s)
	if len(blocks) == 0 && !c.pods {
		return s
	}
	var keys [][]byte
	if c.pods {
		keys = podKeys(s)
	}
	var perm []int
	if len(blocks) > 0 {
		sigs := c.signatures(s, blocks, keys)
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
	}
	var podPerm []int
	if c.pods {
		podPerm = podOrder(s, keys, perm)
	}
	if perm == nil && podPerm == nil {
		return s
	}
	return permute(c.layout, s, perm, podPerm)
}

// podKeys returns every slot's content key (one backing array).
func podKeys(s *model.State) [][]byte {
	buf := make([]byte, 0, podKeyLen*len(s.Pods))
	keys := make([][]byte, len(s.Pods))
	for i := range s.Pods {
		start := len(buf)
		buf = podKey(buf, s, i)
		keys[i] = buf[start:len(buf):len(buf)]
	}
	return keys
}

// podOrder returns the pod permutation (old slot → new slot) that sorts
// the slots by content key and then by the node's index after the node
// permutation perm (nil = identity), or nil when it is the identity.
func podOrder(s *model.State, keys [][]byte, perm []int) []int {
	newNode := func(i int) int {
		n := int(s.Pods[i].Node)
		if n == 0 || perm == nil || n > len(perm) {
			return n
		}
		return perm[n-1] + 1
	}
	order := identity(len(s.Pods))
	sort.SliceStable(order, func(a, b int) bool {
		if c := bytes.Compare(keys[order[a]], keys[order[b]]); c != 0 {
			return c < 0
		}
		return newNode(order[a]) < newNode(order[b])
	})
	var podPerm []int
	for i, old := range order {
		if old != i && podPerm == nil {
			podPerm = make([]int, len(order))
		}
		if podPerm != nil {
			break
		}
	}
	if podPerm == nil {
		return nil
	}
	for i, old := range order {
		podPerm[old] = i
	}
	return podPerm
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}
