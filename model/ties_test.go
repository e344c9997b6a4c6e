package model

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// Choices up to symmetry, checked on their own: a state of identical
// nodes (one orbit), each holding the same pods of two kinds, and a step
// that chooses several times — victims among the first kind, then among
// the second, or a node and then victims. Branching up to symmetry must
// reach every outcome of the full enumeration up to a permutation of the
// nodes, and the refinements after each choice are what keeps the later
// choices sound.

// twinsState returns n identical nodes, each with a pods of kind A (CPU 1)
// and b of kind B (CPU 2), and the slots of each kind.
func twinsState(n, a, b int) (s *State, kindA, kindB []int) {
	s = &State{Nodes: make([]NodeState, n)}
	for node := range n {
		for range a {
			kindA = append(kindA, len(s.Pods))
			s.Pods = append(s.Pods, PodState{Phase: Running, Node: uint16(node + 1), Owner: 1, CPU: 1})
		}
		for range b {
			kindB = append(kindB, len(s.Pods))
			s.Pods = append(s.Pods, PodState{Phase: Running, Node: uint16(node + 1), Owner: 1, CPU: 2})
		}
	}
	return s, kindA, kindB
}

// oneOrbit labels every node alike: they are all interchangeable.
func oneOrbit(s *State, dst []int) []int {
	dst = dst[:0]
	for range s.Nodes {
		dst = append(dst, 0)
	}
	return dst
}

// outcome renders a run's effect up to a permutation of the nodes: per
// node, what it lost of each kind and whether it was the chosen node;
// the nodes' rows sorted.
func outcome(s *State, lost []int, chosen int) string {
	rows := make([]string, len(s.Nodes))
	for n := range s.Nodes {
		var a, b int
		for _, p := range lost {
			if s.Pods[p].NodeOf() == n {
				if s.Pods[p].CPU == 1 {
					a++
				} else {
					b++
				}
			}
		}
		rows[n] = fmt.Sprintf("%d/%d/%v", a, b, n == chosen)
	}
	slices.Sort(rows)
	return strings.Join(rows, " ")
}

// enumerate runs step for every choice script, with or without orbits,
// and returns the distinct outcomes and the number of runs.
func enumerate(s *State, orbits NodeOrbits, step func(tx *Tx) string) ([]string, int) {
	tx := NewTx(nil)
	tx.SetNodeOrbits(orbits, s)
	tx.Begin(nil, false)
	var out []string
	runs := 0
	for {
		out = append(out, step(tx))
		runs++
		if !tx.Advance() {
			break
		}
		tx.Restart(false)
	}
	slices.Sort(out)
	return slices.Compact(out), runs
}

func TestChoicesUpToSymmetryKeepEveryOutcome(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 4).Draw(rt, "nodes")
		a := rapid.IntRange(0, 3).Draw(rt, "a")
		b := rapid.IntRange(0, 3).Draw(rt, "b")
		s, kindA, kindB := twinsState(n, a, b)
		k1 := rapid.IntRange(0, len(kindA)).Draw(rt, "k1")
		k2 := rapid.IntRange(0, len(kindB)).Draw(rt, "k2")
		kAll := rapid.IntRange(0, len(kindA)+len(kindB)).Draw(rt, "kAll")
		steps := map[string]func(tx *Tx) string{
			// Victims among both kinds at once.
			"mixed": func(tx *Tx) string {
				return outcome(s, tx.ChoosePods(s, append(slices.Clone(kindA), kindB...), kAll), -1)
			},
			// Victims of kind A, then of kind B: the second choice must
			// see the nodes that lost different A pods as different.
			"A then B": func(tx *Tx) string {
				lost := tx.ChoosePods(s, kindA, k1)
				lost = append(lost, tx.ChoosePods(s, kindB, k2)...)
				return outcome(s, lost, -1)
			},
			// A node, then victims of kind B anywhere: the chosen node is
			// no longer interchangeable.
			"node then B": func(tx *Tx) string {
				nodes := make([]int, n)
				for i := range nodes {
					nodes[i] = i
				}
				chosen := tx.ChooseNode(nodes)
				return outcome(s, tx.ChoosePods(s, kindB, k2), chosen)
			},
		}
		for name, step := range steps {
			all, nAll := enumerate(s, nil, step)
			sym, nSym := enumerate(s, oneOrbit, step)
			if !slices.Equal(all, sym) {
				rt.Fatalf("%s: outcomes %v over everything, %v up to symmetry", name, all, sym)
			}
			if nSym > nAll {
				rt.Fatalf("%s: %d runs up to symmetry, %d over everything", name, nSym, nAll)
			}
		}
	})
}

// TestChoosePodsPartitions: k victims among n twin nodes holding one kind
// of pod each are one branch per partition of k into at most n parts
// (C1's scale-down from 2n pods on n nodes), not one per subset.
func TestChoosePodsPartitions(t *testing.T) {
	s, kindA, _ := twinsState(6, 2, 0)
	_, runs := enumerate(s, oneOrbit, func(tx *Tx) string { return outcome(s, tx.ChoosePods(s, kindA, 4), -1) })
	// Partitions of 4 into at most 6 parts of at most 2: 2+2, 2+1+1, 1+1+1+1.
	if runs != 3 {
		t.Errorf("%d branches up to symmetry, want 3", runs)
	}
	_, all := enumerate(s, nil, func(tx *Tx) string { return outcome(s, tx.ChoosePods(s, kindA, 4), -1) })
	// Without orbits: how many of each node's two pods go, summing to 4.
	if all != 90 {
		t.Errorf("%d branches over everything, want 90", all)
	}
}

// TestIdenticalGroupsByContent: grouping by content gives exactly the
// pairwise grouping (groups, their order and their members) on states
// with few distinct pods, queued pods and candidates named twice.
func TestIdenticalGroupsByContent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := &State{Pods: make([]PodState, rapid.IntRange(1, 80).Draw(t, "slots"))}
		for i := range s.Pods {
			s.Pods[i] = PodState{Phase: Phase(rapid.IntRange(1, 2).Draw(t, "phase")),
				Node: uint16(rapid.IntRange(0, 3).Draw(t, "node")), Owner: uint8(rapid.IntRange(1, 2).Draw(t, "owner"))}
		}
		ids := rapid.IntRange(0, len(s.Pods)-1)
		for _, q := range []Queue{SchedulerQueue, KubeletQueue, TaintManagerQueue} {
			for _, x := range rapid.SliceOfN(ids, 0, 5).Draw(t, "queue") {
				s.Enqueue(q, x)
			}
		}
		pods := rapid.SliceOfN(ids, 0, 100).Draw(t, "candidates")
		got, want := identicalGroupsByContent(s, pods), identicalGroupsPairwise(s, pods)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("by content %v, pairwise %v", got, want)
		}
	})
}

// maxAfterReference is twinPlan.maxAfter as its comment reads: host i's
// own bound (ownBound) and every later host's largest vector followed
// through its twin, recomputed for every value.
func maxAfterReference(p *twinPlan, i, c, t int, equal bool) int {
	vi, total := p.ownBound(i, c, t, equal)
	vi = append([]int(nil), vi...)
	vecs := make([][]int, len(p.hosts))
	vecs[i] = vi
	for j := i + 1; j < len(p.hosts); j++ {
		h := &p.hosts[j]
		counts := p.count[j]
		if h.twin < 0 {
			vecs[j] = counts
			total += sum(counts)
			continue
		}
		parent := vecs[h.twin]
		if h.twin < i {
			parent = p.decided(h.twin)
		}
		vecs[j] = parent
		total += maxBelow(parent, counts)
	}
	return total
}

// TestMaxAfterMatchesReference: maxAfter with its prepared tail gives the
// reference's bound for every host, group, amount and equality, on plans
// of hosts with twins (same group sizes), decided amounts and chains of
// twins.
func TestMaxAfterMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var p twinPlan
		nh := rapid.IntRange(1, 12).Draw(t, "hosts")
		for j := range nh {
			h := podHost{node: uint16(j + 1), twin: -1}
			if j > 0 && rapid.Bool().Draw(t, "has twin") {
				h.twin = rapid.IntRange(0, j-1).Draw(t, "twin")
				for _, g := range p.hosts[h.twin].groups {
					h.groups = append(h.groups, len(p.groups))
					p.groups = append(p.groups, make([]int, len(p.groups[g])))
				}
			} else {
				for range rapid.IntRange(1, 3).Draw(t, "groups") {
					h.groups = append(h.groups, len(p.groups))
					p.groups = append(p.groups, make([]int, rapid.IntRange(1, 4).Draw(t, "size")))
				}
			}
			p.hosts = append(p.hosts, h)
		}
		p.take = make([]int, len(p.groups))
		for gi, g := range p.groups {
			p.take[gi] = rapid.IntRange(0, len(g)).Draw(t, "take")
		}
		p.count = make([][]int, nh)
		for j := range nh {
			p.count[j] = p.counts(j)
		}
		for i := range nh {
			p.prepareTail(i)
			for c, gi := range p.hosts[i].groups {
				for v := 0; v <= len(p.groups[gi]); v++ {
					for _, equal := range []bool{false, p.hosts[i].twin >= 0} {
						got, want := p.maxAfter(i, c, v, equal), maxAfterReference(&p, i, c, v, equal)
						if got != want {
							t.Fatalf("host %d group %d amount %d equal %v: maxAfter %d, reference %d", i, c, v, equal, got, want)
						}
					}
				}
			}
		}
	})
}
