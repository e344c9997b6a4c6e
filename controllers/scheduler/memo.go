package scheduler

import (
	"encoding/binary"
	"math/bits"

	"github.com/kivi-go/kivi/model"
)

// A scheduling cycle reads a state only through a few derived facts: how
// many pods of each template are bound to each node (Failed ones are not
// in its cache: model.InSchedulerCache), split by whether
// they count for spreading (not terminating, and of the incoming pod's
// owner when the constraints are the system defaults), and each node's
// status. The top nodes are a function of those facts, the incoming
// pod's template and constraint set, and the universe: the resource
// scores (LeastAllocated, BalancedAllocation) read a node's requested
// resources, which the per-template counts of its pods, terminating
// ones included, determine with the universe's reservations. The exploration
// asks the same question in many states (every order in which the same
// pods were placed, every state that differs only in what a cycle does
// not read), so a cycle remembers recent answers by that exact key: a
// hit is the answer the cycle would compute, and only a miss runs the
// filters and scores. The key is compared in full, never trusted to a
// hash.

// buildKey computes the cycle's decision key: the incoming pod's
// template and whether it is owned (which selects its constraint set),
// then per node and template the one-byte counts of bound pods in four
// classes (bit 0: terminating, bit 1: not of the incoming pod's owner
// where that changes what countPods counts), or eight where some selector
// merges pod-template-hash (model.Universe.HasRevisionMatch: bit 1 then
// always, bit 2: bare, which the inter-pod affinity plan tells apart),
// then the node states (status and cordon), and the nodes' out-of-service
// taints where events put them (startKey).
func (c *cycle) buildKey() {
	key, T := c.startKey(), len(c.u.Templates)
	revisions := c.plan.revisions
	byOwner, owner := c.set.ownerMatters || revisions, c.p.Owner
	classes := keyClasses(revisions)
	// A local: the key's stores would make c.s.Pods be reloaded.
	pods := c.s.Pods
	for i := range pods {
		q := &pods[i]
		if !model.InSchedulerCache(q) {
			continue
		}
		cls := 0
		if q.Phase == model.Terminating {
			cls |= 1
		}
		if byOwner && q.Owner != owner {
			cls |= 2
		}
		if revisions && q.Owner == 0 {
			cls |= 4
		}
		countInKey(key, T, classes, int(q.Node)-1, int(q.Template), cls)
	}
}

// keyClasses is the number of classes of pods the key counts per node and
// template.
func keyClasses(revisions bool) int {
	if revisions {
		return 8
	}
	return 4
}

// startKey sizes the key and fills in all but the pod counts. Where an
// event may taint a node out-of-service (the node filter reads it), each
// node's taint follows the node states, a byte each.
func (c *cycle) startKey() []byte {
	N, T := len(c.u.Nodes), len(c.u.Templates)
	tail := N
	if c.u.HasOutOfServiceEvents() {
		tail += N
	}
	n := 2 + keyClasses(c.plan.revisions)*N*T + tail
	c.key = grow(c.key, n)
	clear(c.key[:n-tail])
	c.key[0] = c.p.Template
	if c.p.Owner != 0 {
		c.key[1] = 1
	}
	for i, st := range c.s.Nodes {
		c.key[n-tail+i] = st.Byte()
	}
	if tail > N {
		for i := range N {
			if c.u.OutOfServiceByEvent(c.s, i) {
				c.key[n-N+i] = 1
			}
		}
	}
	return c.key
}

// countInKey adds a pod of template t bound to node n, of class cls, to
// the key. A byte holds any count of a state of at most maxKeyedPods pod
// slots (a compiled universe may have more); cycles on larger states
// are not remembered.
func countInKey(key []byte, T, classes, n, t, cls int) {
	key[2+(n*T+t)*classes+cls]++
}

// decisionMemo is a cycle's answers by key: a two-way set-associative
// table of recent keys and their top nodes, for one universe. It starts
// small (a scaling search builds a universe for each of its many small
// setups) and doubles, keeping its entries, while it keeps being
// refilled, up to memoSlots slots and memoBytes of keys. Two ways per set
// matter: a direct-mapped table of the same size lost a third of its
// answers to keys sharing a slot (C8 at 20 nodes: 11 712 conflict misses
// in 56 734 cycles).
type decisionMemo struct {
	u             *model.Universe
	keyLen, nodes int
	slots         int      // a power of two; set i is slots 2i and 2i+1
	keys          []byte   // slot i's key is keys[i*keyLen:][:keyLen]
	tags          []uint32 // slot i's key's hash, high half: most mismatches end here, without reading the key
	tops          []uint16 // slot i's top nodes are tops[i*nodes:][:lens[i]-1] (node ids are below 256)
	lens          []uint16 // 0: the slot is empty
	victim        []uint8  // per set: the way the next store replaces when both are full
	stores        int      // since the table was last sized
}

const (
	maxKeyedPods = 255
	memoBytes    = 4 << 20
	memoSlots    = 1 << 14
	memoMinSlots = 64
	// The table doubles after stores of half its slots (misses since
	// it was last sized): two ways per set keep few answers apart at
	// that load.
	memoGrowAt = 2 // slots per store
)

// size makes the table hold slots slots for universe u and keys of n
// bytes, empty.
func (m *decisionMemo) size(u *model.Universe, n, slots int) {
	nodes := len(u.Nodes)
	*m = decisionMemo{u: u, keyLen: n, nodes: nodes, slots: slots,
		keys: make([]byte, slots*n), tags: make([]uint32, slots), tops: make([]uint16, slots*nodes), lens: make([]uint16, slots),
		victim: make([]uint8, slots/2)}
}

// set returns key's set and tag, after resetting the table for u and
// the key length when either changed.
func (m *decisionMemo) set(u *model.Universe, key []byte) (int, uint32) {
	if m.u != u || m.keyLen != len(key) {
		m.size(u, len(key), memoMinSlots)
	}
	h := hashKey(key)
	return int(h & uint64(m.slots/2-1)), uint32(h >> 32)
}

// holds reports whether slot i holds key, whose tag is tag.
func (m *decisionMemo) holds(i int, key []byte, tag uint32) bool {
	return m.lens[i] != 0 && m.tags[i] == tag && string(m.keys[i*m.keyLen:(i+1)*m.keyLen]) == string(key)
}

// find appends the remembered top nodes for key to out, if any.
func (m *decisionMemo) find(u *model.Universe, key []byte, out []int) ([]int, bool) {
	b, tag := m.set(u, key)
	i := 2 * b
	if !m.holds(i, key, tag) {
		if i++; !m.holds(i, key, tag) {
			return out, false
		}
	}
	for _, n := range m.tops[i*m.nodes:][:m.lens[i]-1] {
		out = append(out, int(n))
	}
	return out, true
}

// store remembers top as the answer for key (after find missed).
func (m *decisionMemo) store(u *model.Universe, key []byte, top []int) {
	if m.stores++; m.stores*memoGrowAt > m.slots && 2*m.slots <= memoSlots && 2*m.slots*len(key) <= memoBytes {
		m.grow()
	}
	b, tag := m.set(u, key)
	i := m.claim(b, tag, key)
	for j, n := range top {
		m.tops[i*m.nodes+j] = uint16(n)
	}
	m.lens[i] = uint16(len(top) + 1)
}

// claim writes key (and its tag) into a slot of set b, an empty one,
// else the set's victim (which then alternates), and returns the slot;
// the caller writes the answer.
func (m *decisionMemo) claim(b int, tag uint32, key []byte) int {
	i := 2 * b
	switch {
	case m.lens[i] == 0:
	case m.lens[i+1] == 0:
		i++
	default:
		i += int(m.victim[b])
		m.victim[b] ^= 1
	}
	copy(m.keys[i*m.keyLen:], key)
	m.tags[i] = tag
	return i
}

// grow doubles the table and files its entries anew.
func (m *decisionMemo) grow() {
	old := *m
	m.size(old.u, old.keyLen, 2*old.slots)
	for i, l := range old.lens {
		if l == 0 {
			continue
		}
		key := old.keys[i*old.keyLen:][:old.keyLen]
		j := m.claim(int(hashKey(key)&uint64(m.slots/2-1)), old.tags[i], key)
		copy(m.tops[j*m.nodes:], old.tops[i*old.nodes:][:l-1])
		m.lens[j] = l
	}
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
