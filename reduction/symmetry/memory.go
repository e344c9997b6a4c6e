package symmetry

import "github.com/kivi-go/kivi/model"

// nodeMemory locates the per-node parts of State.EventVars (layout set by
// model.Universe.Compile; the meaning of the bytes is events'):
//
//   - kernelPanic: two bytes per node at VarOffset+2n (program counter,
//     panic count);
//   - maintenance: the index of the next node the driver waits for
//     (model.MaintenanceNext, width bytes), then one program-counter
//     byte per node at VarOffset+width+n.
//
// Every other event's memory names no node (nodeFailure's bytes, its
// program counter and the out-of-service taint of a lost node, belong to
// a node that is pinned).
type nodeMemory struct {
	panics []int // VarOffset of each kernelPanic event
	maints []int // VarOffset of each maintenance event
	width  int   // the bytes of a maintenance event's index
	nodes  int
}

func nodeMemoryOf(u *model.Universe) nodeMemory {
	m := nodeMemory{nodes: len(u.Nodes), width: u.MaintenanceIndexWidth()}
	for _, e := range u.Events {
		switch e.Kind {
		case model.KernelPanic:
			m.panics = append(m.panics, e.VarOffset)
		case model.Maintenance:
			m.maints = append(m.maints, e.VarOffset)
		}
	}
	return m
}

// reached returns the lowest "next node" index over the maintenance
// events: nodes at or above it have not been reached by some maintenance
// and are visited in index order later, so they must stay in place.
// Without maintenance every node may move.
func (m nodeMemory) reached(s *model.State) int {
	limit := m.nodes
	for _, off := range m.maints {
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
		dst = append(dst, s.EventVars[off+m.width+n])
	}
	return dst
}

// move copies node old's event memory from src to node new's place in dst.
func (m nodeMemory) move(dst, src *model.State, old, new int) {
	for _, off := range m.panics {
		dst.EventVars[off+2*new] = src.EventVars[off+2*old]
		dst.EventVars[off+2*new+1] = src.EventVars[off+2*old+1]
	}
	for _, off := range m.maints {
		dst.EventVars[off+m.width+new] = src.EventVars[off+m.width+old]
	}
}
