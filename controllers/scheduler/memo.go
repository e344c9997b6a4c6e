package scheduler

import (
	"encoding/binary"
	"math/bits"

	"github.com/kivi-go/kivi/model"
)

// A scheduling cycle reads a state only through a few derived facts: how
// many pods of each template are bound to each node, split by whether
// they count for spreading (not terminating, and of the incoming pod's
// owner when the constraints are the system defaults), and each node's
// status. The top nodes are a function of those facts, the incoming
// pod's template and constraint set, and the universe. The exploration
// asks the same question in many states (every order in which the same
// pods were placed, every state that differs only in what a cycle does
// not read), so a cycle remembers recent answers by that exact key: a
// hit is the answer the cycle would compute, and only a miss runs the
// filters and scores. The key is compared in full, never trusted to a
// hash.

// decisionKey is a cycle's key: the incoming pod's template and whether
// it is owned (which selects its constraint set), then per node and
// template the 16-bit counts of bound pods in four classes (bit 0:
// terminating, bit 1: not counted for the incoming pod's owner), then
// the node statuses. countPods fills it.
func (c *cycle) startKey() []byte {
	N, T := len(c.u.Nodes), len(c.u.Templates)
	n := 2 + 8*N*T + N
	c.key = grow(c.key, n)
	clear(c.key[:n-N])
	c.key[0] = c.p.Template
	if c.p.Owner != 0 {
		c.key[1] = 1
	}
	for i, st := range c.s.Nodes {
		c.key[n-N+i] = byte(st.Status)
	}
	return c.key
}

// countInKey adds a pod of template t bound to node n, of class cls, to
// the key.
func countInKey(key []byte, T, n, t, cls int) {
	i := 2 + 2*((n*T+t)*4+cls)
	binary.LittleEndian.PutUint16(key[i:], binary.LittleEndian.Uint16(key[i:])+1)
}

// decisionMemo is a cycle's answers by key: a direct-mapped table of
// recent keys and their top nodes, for one universe.
type decisionMemo struct {
	u      *model.Universe
	keyLen int
	mask   uint64
	keys   []byte // slot i's key is keys[i*keyLen:][:keyLen]
	full   []bool
	hosts  [][]int
}

// memoBytes bounds the memory of a memo's keys; memoSlots bounds its
// slots (a power of two).
const (
	memoBytes = 4 << 20
	memoSlots = 4096
)

// slot returns the memo's slot for key, reset for u and the key length
// when either changed.
func (m *decisionMemo) slot(u *model.Universe, key []byte) int {
	if m.u != u || m.keyLen != len(key) {
		slots := memoSlots
		for slots > 64 && slots*len(key) > memoBytes {
			slots /= 2
		}
		*m = decisionMemo{u: u, keyLen: len(key), mask: uint64(slots - 1),
			keys: make([]byte, slots*len(key)), full: make([]bool, slots), hosts: make([][]int, slots)}
	}
	return int(hashKey(key) & m.mask)
}

// find returns the remembered top nodes for key, if any.
func (m *decisionMemo) find(u *model.Universe, key []byte) ([]int, bool) {
	i := m.slot(u, key)
	if !m.full[i] || string(m.keys[i*m.keyLen:(i+1)*m.keyLen]) != string(key) {
		return nil, false
	}
	return m.hosts[i], true
}

// store remembers top as the answer for key (after find missed).
func (m *decisionMemo) store(u *model.Universe, key []byte, top []int) {
	i := m.slot(u, key)
	copy(m.keys[i*m.keyLen:], key)
	m.hosts[i] = append(m.hosts[i][:0], top...)
	m.full[i] = true
}

// hashKey mixes the key eight bytes at a time (the slot only has to
// spread keys; equality is checked in full).
func hashKey(key []byte) uint64 {
	h := uint64(len(key)) * 0x9E3779B97F4A7C15
	for len(key) >= 8 {
		h = bits.RotateLeft64((h^binary.LittleEndian.Uint64(key))*0xC2B2AE3D27D4EB4F, 31)
		key = key[8:]
	}
	for _, b := range key {
		h = (h ^ uint64(b)) * 0x100000001B3
	}
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return h ^ h>>32
}
