package model_test

import (
	"testing"

	"pgregory.net/rapid"
)

// TestOnNodesMatchPerNode: the one-pass sums of every node equal the
// per-node Requested and UsedCPU.
func TestOnNodesMatchPerNode(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u := universe(t)
		s := randomState(t, u, 0)
		requested, used := u.RequestedOnNodes(s, nil), u.UsedCPUOnNodes(s, nil)
		for n := range u.Nodes {
			if want := u.Requested(s, n); requested[n] != want {
				t.Fatalf("node %d: RequestedOnNodes %+v, Requested %+v", n, requested[n], want)
			}
			if want := u.UsedCPU(s, n); used[n] != want {
				t.Fatalf("node %d: UsedCPUOnNodes %d, UsedCPU %d", n, used[n], want)
			}
		}
	})
}
