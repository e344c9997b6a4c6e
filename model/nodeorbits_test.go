package model

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOnePerOrbitMatchesReference: the stamped one-node-per-orbit
// selection of ChooseNodeIndex keeps the positions the pairwise
// reference keeps, over random label vectors (refined by earlier
// choices, so labels beyond the node count occur) and node lists with
// repeats and entries below zero, across many calls on one Tx, whose
// stamps must not leak from one call into the next.
func TestOnePerOrbitMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 3))
	tx := NewTx(nil)
	for iter := range 20000 {
		n := 1 + r.IntN(24)
		labels := make([]int, n)
		tx.nextLabel = 0
		for i := range labels {
			labels[i] = r.IntN(2 * n)
			if r.IntN(4) == 0 {
				labels[i] = labels[r.IntN(i+1)]
			}
			tx.nextLabel = max(tx.nextLabel, labels[i]+1)
		}
		nodes := make([]int, r.IntN(2*n+1))
		for i := range nodes {
			nodes[i] = r.IntN(n+1) - 1 // -1: not one node
		}
		want := onePerOrbitReference(nil, nodes, labels)
		if got := tx.onePerOrbit(nodes, labels); !slices.Equal(got, want) {
			t.Fatalf("iteration %d: nodes %v labels %v: got %v, want %v", iter, nodes, labels, got, want)
		}
	}
	// A label below zero goes to the reference.
	tx.nextLabel = 2
	if got, want := tx.onePerOrbit([]int{0, 1, 2}, []int{-1, 1, -1}), []int{0, 1}; !slices.Equal(got, want) {
		t.Fatalf("negative labels: got %v, want %v", got, want)
	}
}

// TestChooseNodeSetMatchesReference: over random orbit labels, node lists
// and set sizes, ChooseNodeSet without orbits takes every k-subset of the
// nodes exactly once (the reference enumerates them directly), and with
// orbits takes one set per orbit of the k-subsets, that is one per vector
// of how many nodes of each orbit go: every vector the subsets have, each
// once; the chosen nodes of a split orbit then share a label of their own.
func TestChooseNodeSetMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	for iter := range 3000 {
		n := 1 + r.IntN(9)
		labels := make([]int, n)
		for i := range labels {
			labels[i] = r.IntN(3)
		}
		nodes := r.Perm(n)[:1+r.IntN(n)]
		k := r.IntN(len(nodes) + 1)
		counts := func(set []int) string {
			c := make([]int, 3)
			for _, x := range set {
				c[labels[x]]++
			}
			return fmt.Sprint(c)
		}
		// The reference: every k-subset, in the order of nodes.
		var subsets, vectors []string
		for mask := 0; mask < 1<<len(nodes); mask++ {
			var set []int
			for i, x := range nodes {
				if mask&(1<<i) != 0 {
					set = append(set, x)
				}
			}
			if len(set) == k {
				subsets = append(subsets, fmt.Sprint(set))
				vectors = append(vectors, counts(set))
			}
		}
		slices.Sort(subsets)
		slices.Sort(vectors)
		vectors = slices.Compact(vectors)

		for _, withOrbits := range []bool{false, true} {
			var orbits NodeOrbits
			if withOrbits {
				orbits = func(*State, []int) []int { return slices.Clone(labels) }
			}
			tx := NewTx(nil)
			tx.SetNodeOrbits(orbits, &State{})
			tx.Begin(nil, false)
			var got []string
			for {
				set := tx.ChooseNodeSet(nodes, k)
				if len(set) != k {
					t.Fatalf("iteration %d: %d nodes chosen, want %d", iter, len(set), k)
				}
				key := fmt.Sprint(set)
				if withOrbits {
					key = counts(set)
					// The chosen nodes of a split orbit are told apart.
					l := tx.orbitLabels()
					for _, x := range set {
						for _, y := range nodes {
							if labels[x] == labels[y] && !slices.Contains(set, y) && l[x] == l[y] {
								t.Fatalf("iteration %d: chosen %d and unchosen %d still share a label", iter, x, y)
							}
						}
					}
				}
				got = append(got, key)
				if !tx.Advance() {
					break
				}
				tx.Restart(false)
			}
			slices.Sort(got)
			want := subsets
			if withOrbits {
				want = vectors
			}
			if !slices.Equal(got, want) {
				t.Fatalf("iteration %d (orbits %v): nodes %v labels %v k %d: got %v, want %v", iter, withOrbits, nodes, labels, k, got, want)
			}
		}
	}
}
