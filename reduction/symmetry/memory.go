package symmetry

import "github.com/kivi-go/kivi/model"

// nodeMemory locates the per-node parts of State.EventVars (layout set by
// model.Universe.Compile; the meaning of the bytes is events'):
//
//   - kernelPanic: two bytes per node at VarOffset+2n (program counter,
//     panic count);
//   - maintenance in the written order: the index of the next node the
//     driver waits for (model.MaintenanceNext, width bytes), then one
//     program-counter byte per node at VarOffset+width+n;
//   - maintenance in any order (model.AnyOrder): one program-counter
//     byte per node at VarOffset+n, and no index.
//
// Every other event's memory names no node (nodeFailure's bytes, its
// program counter and the out-of-service taint of a lost node, belong to
// a node that is pinned).
type nodeMemory struct {
	panics []int // VarOffset of each kernelPanic event
	maints []int // offset of each maintenance event's program counters
	next   []int // VarOffset of each written-order maintenance event's index
	width  int   // the bytes of a maintenance event's index
	nodes  int
}

func nodeMemoryOf(u *model.Universe) nodeMemory {
	m := nodeMemory{nodes: len(u.Nodes), width: u.MaintenanceIndexWidth()}
	for i := range u.Events {
		e := &u.Events[i]
		switch e.Kind {
		case model.KernelPanic:
			m.panics = append(m.panics, e.VarOffset)
		case model.Maintenance:
			w := u.MaintenanceIndexWidthOf(e)
			m.maints = append(m.maints, e.VarOffset+w)
			if w > 0 {
				m.next = append(m.next, e.VarOffset)
			}
		}
	}
	return m
}

// reached returns the lowest "next node" index over the maintenance
// events in the written order: nodes at or above it have not been
// reached by some maintenance and are visited in index order later, so
// they must stay in place. Without such a maintenance every node may
// move: a maintenance in any order tells the nodes it has not
// maintained yet apart from the others by their program counters alone,
// which are part of the node signatures.
func (m nodeMemory) reached(s *model.State) int {
	limit := m.nodes
	for _, off := range m.next {
		limit = min(limit, model.MaintenanceNext(s.EventVars[off:], m.width))
	}
	return limit
}

// appendNode appends node n's event memory to a signature.
func (m nodeMemory) appendNode(dst []byte, s *model.State, n int) []byte {
	for _, off := range m.panics {
		dst = append(dst, s.EventVars[off+2*n], s.EventVars[off+2*n+1])
	}
	for _, off := range m.maints {
		dst = append(dst, s.EventVars[off+n])
	}
	return dst
}

// move copies node old's event memory from src to node new's place in dst.
func (m nodeMemory) move(dst, src *model.State, old, new int) {
	m.moveVars(dst.EventVars, src.EventVars, old, new)
}
