package model

import (
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
