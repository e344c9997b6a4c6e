package symmetry

import (
	"math/rand/v2"
	"slices"

	"github.com/kivi-go/kivi/model"
)

// Checking that a process's steps commute with the symmetries the
// reduction applies: the successors of g(s) must be the g-images of the
// successors of s, for every reachable s and every g the canonicaliser
// may apply to s. The built-in controllers are tested this way
// (reduction's property tests); compose checks the custom controllers
// that declare their symmetry facts (model.SymmetryBreaker) the same way.

// Permutation is one element of a state's symmetry group: node i goes to
// index Nodes[i], pod slot i to slot Pods[i].
type Permutation struct{ Nodes, Pods []int }

// Apply returns the image of s (a new State).
func (p Permutation) Apply(u *model.Universe, s *model.State) *model.State {
	return PermuteAll(u, s, p.Nodes, p.Pods)
}

// RandomPermutation draws an element of s's symmetry group under c: the
// nodes of every movable block (Movable) shuffled, interchangeable
// topology domains exchanged wholesale, and the pod slots shuffled when
// they move.
func (c *Canonicalizer) RandomPermutation(r *rand.Rand, s *model.State) Permutation {
	perm := identityInto(nil, len(s.Nodes))
	for _, block := range c.Movable(s) {
		shuffleInto(r, perm, block, block)
	}
	for _, group := range c.Analysis().Domains() {
		to := r.Perm(len(group))
		for d, blocks := range group {
			for k, block := range blocks {
				shuffleInto(r, perm, block, group[to[d]][k])
			}
		}
	}
	pods := identityInto(nil, len(s.Pods))
	if c.PodsMove() {
		r.Shuffle(len(pods), func(i, j int) { pods[i], pods[j] = pods[j], pods[i] })
	}
	return Permutation{Nodes: perm, Pods: pods}
}

// shuffleInto maps the nodes of from onto those of to (as long) in a
// random order.
func shuffleInto(r *rand.Rand, perm, from, to []int) {
	images := slices.Clone(to)
	r.Shuffle(len(images), func(i, j int) { images[i], images[j] = images[j], images[i] })
	for i, old := range from {
		perm[old] = images[i]
	}
}

// IdenticalPods reports whether slots a and b of s hold pods no step can
// tell apart: equal PodState, neither in a pod queue nor named by a
// failure.
func IdenticalPods(s *model.State, a, b int) bool {
	if s.Pods[a] != s.Pods[b] {
		return false
	}
	for _, p := range []int{a, b} {
		for _, q := range []model.Queue{model.SchedulerQueue, model.KubeletQueue, model.TaintManagerQueue} {
			if slices.Contains(s.Queues[q], uint16(p)) {
				return false
			}
		}
		if s.Failed == model.FailNoFeasibleNode && int(s.FailedArg) == p {
			return false
		}
	}
	return true
}

// Monotone returns the element g of p's coset p·Stab(s) that keeps the
// slot order within every group of identical pods: g(s) = p(s), and a
// step that picks the lowest slots among identical pods picks in g(s)
// the images of what it picks in s. Only g, not every element of the
// coset, can commute exactly with such a step.
func Monotone(s *model.State, p Permutation) Permutation {
	g := Permutation{Nodes: p.Nodes, Pods: slices.Clone(p.Pods)}
	done := make([]bool, len(s.Pods))
	for a := range s.Pods {
		if done[a] {
			continue
		}
		var group []int
		for b := a; b < len(s.Pods); b++ {
			if !done[b] && IdenticalPods(s, a, b) {
				group = append(group, b)
				done[b] = true
			}
		}
		images := make([]int, len(group))
		for i, x := range group {
			images[i] = p.Pods[x]
		}
		slices.Sort(images)
		for i, x := range group {
			g.Pods[x] = images[i]
		}
	}
	return g
}

// NormalQueues returns s with its kubelet queue rewritten so that the
// Terminating pods of one owner appear in ascending slot order over the
// positions they occupy, and each run of nominated twins in its
// scheduling queue (model.NominatedTwins) in ascending slot order. Two
// states that differ only in those orders are bisimilar: the kubelet
// drains its whole queue in one step, removing a Terminating pod only
// queues its owner (its first occurrence decides the order) and sets
// flags, and nothing else reads the queue's order; the scheduler takes
// any twin of a run first. Controllers that evict several pods of one
// owner order them by slot or node index, and the scheduling queue
// receives twins in slot order, so an exact commutation test compares
// states in this form.
func NormalQueues(s *model.State) *model.State {
	t := s.Clone()
	sq := t.Queues[model.SchedulerQueue]
	sortNominatedRuns(sq, sq, t)
	q := t.Queues[model.KubeletQueue]
	var owners []uint8
	byOwner := map[uint8][]int{}
	for i, p := range q {
		if t.Pods[p].Phase != model.Terminating {
			continue
		}
		o := t.Pods[p].Owner
		if _, ok := byOwner[o]; !ok {
			owners = append(owners, o)
		}
		byOwner[o] = append(byOwner[o], i)
	}
	for _, o := range owners {
		pos := byOwner[o]
		items := make([]uint16, len(pos))
		for i, x := range pos {
			items[i] = q[x]
		}
		slices.Sort(items)
		for i, x := range pos {
			q[x] = items[i]
		}
	}
	return t
}

// Commutes reports whether the successors steps gives of g(s) are
// exactly the g-images of those of s, compared in NormalQueues form, g being Monotone(s, p). When they are not, images are the
// g-images of s's successors and direct the successors of g(s), both in
// that form, for the report.
func Commutes(u *model.Universe, s *model.State, p Permutation, steps func(*model.State) []*model.State) (ok bool, images, direct []*model.State) {
	g := Monotone(s, p)
	for _, t := range steps(s) {
		images = append(images, NormalQueues(g.Apply(u, t)))
	}
	for _, t := range steps(g.Apply(u, s)) {
		direct = append(direct, NormalQueues(t))
	}
	encode := func(ts []*model.State) []string {
		out := make([]string, len(ts))
		for i, t := range ts {
			out[i] = string(t.AppendEncoding(u, nil))
		}
		slices.Sort(out)
		return out
	}
	if slices.Equal(encode(images), encode(direct)) {
		return true, nil, nil
	}
	return false, images, direct
}
