package events

import "github.com/kivi-go/kivi/model"

// Processes with several sub-actors (one kernel-panic watcher per node;
// the maintenance driver and one maintenance per node) are one
// model.Process: it is enabled when any sub-actor is, and a step lets one
// enabled sub-actor move, chosen with tx.Choose in index order.

// anyEnabled reports whether one of sub-actors 0..n-1 is enabled.
func anyEnabled(n int, enabled func(i int) bool) bool {
	for i := range n {
		if enabled(i) {
			return true
		}
	}
	return false
}

// chooseEnabled branches over the enabled sub-actors among 0..n-1 and
// returns the chosen one's index, or -1 when none is enabled.
func chooseEnabled(tx *model.Tx, n int, enabled func(i int) bool) int {
	count := 0
	for i := range n {
		if enabled(i) {
			count++
		}
	}
	if count == 0 {
		return -1
	}
	pick := tx.Choose(count)
	for i := range n {
		if !enabled(i) {
			continue
		}
		if pick == 0 {
			return i
		}
		pick--
	}
	return -1
}

// chooseEnabledNode is chooseEnabled for sub-actors that are nodes: it
// branches over one enabled node per orbit of interchangeable nodes when
// the Tx has orbits (model.Tx.ChooseNode), over every enabled node
// otherwise.
func chooseEnabledNode(tx *model.Tx, n int, enabled func(i int) bool) int {
	var buf [32]int
	nodes := buf[:0] // grows on the heap beyond 32 enabled nodes
	for i := range n {
		if enabled(i) {
			nodes = append(nodes, i)
		}
	}
	if len(nodes) == 0 {
		return -1
	}
	return tx.ChooseNode(nodes)
}
