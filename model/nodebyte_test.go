package model

import "testing"

// TestNodeByteRoundTrip: every combination of a node's dynamic fields
// survives NodeState.Byte and its inverse, which the state decoding
// uses: a bit shared by two fields would turn one into the other in
// every decoded state (a zone's held-back taint read as a kubelet's
// reclaim).
func TestNodeByteRoundTrip(t *testing.T) {
	seen := map[byte]NodeState{}
	// A deleted node carries its status alone (DeleteNode clears the
	// rest): it must not collide with any live node's byte.
	deleted := NodeState{Status: NodeDeleted}
	seen[deleted.Byte()] = deleted
	if got := nodeStateOf(deleted.Byte()); got != deleted {
		t.Errorf("%+v encodes as %#x, which decodes as %+v", deleted, deleted.Byte(), got)
	}
	for _, health := range []NodeStatus{NotReady, Ready, Unhealthy} {
		for _, extra := range []NodeStatus{0, TaintQueued, TaintedNotReady, TaintedUnreachable} {
			for bits := range 8 {
				n := NodeState{Status: health | extra, Cordoned: bits&1 != 0, MemoryPressure: bits&2 != 0, Reclaiming: bits&4 != 0}
				b := n.Byte()
				if got := nodeStateOf(b); got != n {
					t.Errorf("%+v encodes as %#x, which decodes as %+v", n, b, got)
				}
				if other, dup := seen[b]; dup {
					t.Errorf("%+v and %+v both encode as %#x", n, other, b)
				}
				seen[b] = n
			}
		}
	}
}
