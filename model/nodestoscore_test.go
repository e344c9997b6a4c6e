package model

import "testing"

// TestNodesToFind checks kube-scheduler's numFeasibleNodesToFind at the
// sizes where its rule changes: all nodes below 100, the adaptive
// percentage (50 − nodes/125, at least 5), a set percentage, and the
// floor of 100 nodes.
func TestNodesToFind(t *testing.T) {
	for _, c := range []struct{ percentage, nodes, want int }{
		{0, 10, 10}, {40, 10, 10}, {0, 99, 99},
		{0, 100, 100}, {0, 101, 100}, {0, 200, 100}, {0, 300, 144}, {0, 500, 230},
		{0, 1000, 420}, {40, 1000, 400}, {0, 6000, 300}, {40, 6000, 2400},
		{100, 500, 500}, {10, 500, 100}, {1, 20000, 200},
	} {
		if got := NodesToFind(c.percentage, c.nodes); got != c.want {
			t.Errorf("NodesToFind(%d, %d) = %d, want %d", c.percentage, c.nodes, got, c.want)
		}
	}
}
