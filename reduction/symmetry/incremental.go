package symmetry

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// Canonical forms repaired from the parent's. When the engine explores
// representatives, every state it expands is canonical: its pod slots are
// sorted by (content key, node), its nodes by signature within each
// block, and its node orbits are known (its encoding carries them). A
// successor differs from it in a few pods and nodes, so its canonical
// plan is the parent's order with those moved:
//
//   - the changed pods (memory compare, model.AppendChangedPods, and the
//     pods whose queue membership changed) get new content keys; every
//     other pod keeps the parent's. A queue that lost its first k items
//     and gained some at its end shifts every remaining position by k,
//     which changes no comparison between keys, so keys are compared in
//     the parent's frame (the changed pods' positions plus k);
//   - the changed nodes (those a changed pod leaves, joins or sits on,
//     those whose state changed) get new signatures and are inserted
//     among the unchanged nodes of their block, which keep their order
//     and, between themselves, their orbits;
//   - the changed pods and every pod on a changed node are taken out of
//     the parent's pod order and inserted again under the new node
//     numbering, which, with blocks that are intervals of node indices,
//     keeps the order of every other pod.
//
// Ties are broken as the full sort breaks them (nodes by index, pods by
// slot), so the permutations are exactly planOrbits'
// (TestIncrementalPlanMatchesFull). The successor is compared with the
// parent in full, whatever the step did; a change this does not cover (a
// node-controller queue or failure that changed, many changed pods, a
// queue reordered in the middle, a position past a byte) falls back to
// planOrbits. The parent's keys are built when a comparison reads them:
// a successor reads a few dozen, fewer than the parent has slots.

// parentPlan is what the successors of one canonical state share, built
// on the first successor (prepare), and their working memory.
type parentPlan struct {
	s     *model.State
	label []int // s's node orbits (Expanding)
	ready bool
	// usable: prepare found s within what planFrom handles.
	usable bool
	// queued[i] turns a key of slot i with no queue position into its
	// key (xor): low holds the low bytes of its first positions in
	// podQueues (kubeletQueued in a queue that is a set) xor notQueued,
	// as in a key's second word, high notQueued for the queues it is in,
	// as in its third word above bit 32; zero for a pod in no queue.
	queued []queueBytes
	// The non-Free pods on node value v (index+1) are onSlots[onStart[v]:
	// onStart[v+1]], in slot order and so in key order.
	onStart []uint16
	onSlots []uint16
	// header is every node's signature before its pods (nodeHeader).
	header []uint32

	// A successor's working memory.
	changed []uint16  // the changed slots
	mark    []uint8   // per slot: 1 when changed, 2 when on a changed node
	qmark   []uint8   // per slot: queue membership before (1) and after (2)
	dIndex  []uint16  // per changed slot: its index in newKeys
	newKeys []sortKey // the changed slots' keys, in the parent's frame
	// cIndex[n] is changed node n's index in cnodes plus one, 0 for a
	// node that did not change; cKeys[cStart[x]:cStart[x+1]] are the keys
	// of cnodes[x]'s pods in key order and cHeader[x] its header.
	cIndex  []uint16
	cnodes  []int
	cStart  []int
	cKeys   []sortKey
	cHeader []uint32
	order   []int
	moving  []movingPod
	// podPerm is the identity but on the slots dirty[0] to dirty[1]
	// (reorder).
	podPerm []int
	dirty   [2]int
	rename  []uint16
}

type queueBytes struct{ low, high uint32 }

// movingPod is a pod taken out of the parent's order: its key in the
// parent's frame (slot in the low bits), its node value after the node
// permutation, and the unchanged slot it goes before (len(Pods): last).
type movingPod struct {
	k   sortKey
	v   uint16
	ins int
}

// less orders moving pods as the full sort does: content, node, slot.
func (m *movingPod) less(o *movingPod) bool {
	if m.k[0] != o.k[0] {
		return m.k[0] < o.k[0]
	}
	if m.k[1] != o.k[1] {
		return m.k[1] < o.k[1]
	}
	if a, b := m.k[2]>>16, o.k[2]>>16; a != b {
		return a < b
	}
	if m.v != o.v {
		return m.v < o.v
	}
	return uint16(m.k[2]) < uint16(o.k[2])
}

// compareContent compares the content keys of a and b.
func compareContent(a, b *sortKey) int {
	if a[0] != b[0] {
		return cmpWord(a[0], b[0])
	}
	if a[1] != b[1] {
		return cmpWord(a[1], b[1])
	}
	return cmpWord(a[2]>>16, b[2]>>16)
}

func cmpWord(a, b uint64) int {
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}

// incrementalApplies reports whether planFrom can serve c's universe:
// pods move, no node carries event memory, and every class is an
// interval of node indices (so that moving nodes within their block
// keeps the order of the others).
func (c *Canonicalizer) incrementalApplies() bool {
	if !c.pods || len(c.layout.panics)+len(c.layout.maints) > 0 {
		return false
	}
	for _, cl := range c.classes {
		for i, n := range cl {
			if n != cl[0]+i {
				return false
			}
		}
	}
	return true
}

// Expanding tells c that the engine is about to expand s, a canonical
// representative with node orbits orbits (SplitRepresentative's labels),
// whose successors are derived from it (model.State.DerivedFrom):
// AppendRepresentativeOf then finds their canonical forms from s's.
// Nothing of s is computed until the first successor asks; s and orbits
// must not change while its successors are canonicalised.
func (c *Canonicalizer) Expanding(s *model.State, orbits []int) {
	if !c.incremental {
		return
	}
	if c.parent == nil {
		c.parent = new(parentPlan)
	}
	c.parent.s, c.parent.label, c.parent.ready = s, orbits, false
}

// AppendRepresentativeOf is AppendRepresentative for s, a successor of
// parent, the state last declared by Expanding: the same bytes, found
// from the parent's canonical order when the step changed little.
func (c *Canonicalizer) AppendRepresentativeOf(key, enc []byte, s, parent *model.State) ([]byte, []byte) {
	p := c.parent
	if p == nil || parent == nil || p.s != parent {
		return c.AppendRepresentative(key, enc, s)
	}
	if !p.ready {
		c.prepare(p)
	}
	if !p.usable {
		return c.AppendRepresentative(key, enc, s)
	}
	w := c.get()
	defer c.put(w)
	orbits := identityOrbits(w, len(s.Nodes))
	perm, podPerm, sortKQ, moved, ok := c.planFrom(w, p, s, orbits)
	if !ok {
		orbits = identityOrbits(w, len(s.Nodes))
		perm, podPerm, sortKQ, moved = c.planOrbits(w, s, orbits)
	}
	return c.appendRepresentative(w, key, enc, s, perm, podPerm, sortKQ, moved, orbits)
}

// identityOrbits returns w.orbits holding the identity on n nodes.
func identityOrbits(w *scratch, n int) []uint16 {
	orbits := slices.Grow(w.orbits[:0], n)[:n]
	for i := range orbits {
		orbits[i] = uint16(i)
	}
	w.orbits = orbits
	return orbits
}

// prepare builds p's queue positions, pod lists and node headers, and
// checks that p.s is within what planFrom handles (no Free pod on a
// node, no node past the universe or holding more pods than a signature
// counts, short queues).
func (c *Canonicalizer) prepare(p *parentPlan) {
	s := p.s
	p.ready, p.usable = true, false
	S, N := len(s.Pods), len(s.Nodes)
	if S > maxPodSlots || S == 0 || N >= 0xFFFF || len(p.label) != N {
		return
	}
	queued := slices.Grow(p.queued[:0], S)[:S]
	clear(queued)
	for k, q := range podQueues {
		items := s.Queues[q]
		if len(items) >= notQueued-1 {
			return
		}
		bit := 8 * (len(podQueues) - 1 - k)
		asSet := c.queueAsSet(k)
		for i := len(items) - 1; i >= 0; i-- {
			if x := int(items[i]); x < S {
				pos := uint32(i)
				if asSet {
					pos = kubeletQueued
				}
				queued[x].low = queued[x].low&^(0xFF<<bit) | (pos^notQueued)<<bit
				queued[x].high |= notQueued << bit
			}
		}
	}
	p.queued = queued
	start := slices.Grow(p.onStart[:0], N+2)[:N+2]
	clear(start)
	pods := s.Pods
	for i := range pods {
		v := int(refNode(&pods[i]))
		if v == 0 {
			continue
		}
		if v > N || pods[i].Phase == model.Free {
			return
		}
		start[v+1]++
	}
	if len(c.classes) > 0 {
		for v := 2; v <= N+1; v++ {
			if start[v] > 255 {
				return // a signature's count is a byte: planOrbits leaves such states alone
			}
		}
	}
	for v := 1; v <= N+1; v++ {
		start[v] += start[v-1]
	}
	// start[v] is where value v's list begins: fill by advancing it,
	// then shift back by one value.
	total := int(start[N+1])
	slots := slices.Grow(p.onSlots[:0], total)[:total]
	for i := range pods {
		if v := refNode(&pods[i]); v != 0 {
			at := start[v]
			slots[at] = uint16(i)
			start[v] = at + 1
		}
	}
	copy(start[1:], start[:N+1])
	start[0], start[1] = 0, 0
	p.onStart, p.onSlots = start, slots
	header := slices.Grow(p.header[:0], N)[:N]
	for n := range header {
		header[n] = nodeHeader(s, n, s.Nodes[n])
	}
	p.header = header
	if len(p.mark) < S {
		p.mark = make([]uint8, S)
		p.qmark = make([]uint8, S)
		p.dIndex = make([]uint16, S)
	}
	if len(p.cIndex) < N {
		p.cIndex = make([]uint16, N)
	}
	p.usable = true
}

// key returns the parent's sort key of slot i, as podSortKeys builds it.
func (p *parentPlan) key(i int) sortKey {
	k := contentKey(&p.s.Pods[i], i)
	q := p.queued[i]
	k[1] ^= uint64(q.low)
	k[2] ^= uint64(q.high) << 32
	if s := p.s; s.Failed == model.FailNoFeasibleNode && int(s.FailedArg) == i {
		k[2] |= 1 << 24
	}
	return k
}

// nodeHeader is node n's signature header (signatures): its state, its
// position in the node-controller queue (0xFFFF when absent), whether a
// kernel-panic failure names it, as one integer that orders as the
// header's bytes.
func nodeHeader(s *model.State, n int, ns model.NodeState) uint32 {
	pos := uint32(0xFFFF)
	if q := s.Queues[model.NodeControllerQueue]; len(q) > 0 {
		if i := slices.Index(q, uint16(n)); i >= 0 {
			pos = uint32(i)
		}
	}
	var failed uint32
	if s.Failed == model.FailKernelPanic && int(s.FailedArg) == n {
		failed = 1
	}
	return uint32(ns.Byte())<<24 | pos<<8 | failed
}

// compareNodes compares the signatures of nodes a and b of the
// successor, then their indices (the order of a stable sort).
func (p *parentPlan) compareNodes(a, b int) int {
	if r := p.compareSigs(a, b); r != 0 {
		return r
	}
	return cmpWord(uint64(a), uint64(b))
}

// compareSigs compares the signatures of nodes a and b of the successor:
// header, count, then the pods' contents in key order, as the
// signatures' bytes compare (ranks order as their keys).
func (p *parentPlan) compareSigs(a, b int) int {
	xa, xb := int(p.cIndex[a]), int(p.cIndex[b])
	ha, hb := p.header[a], p.header[b]
	if xa != 0 {
		ha = p.cHeader[xa-1]
	}
	if xb != 0 {
		hb = p.cHeader[xb-1]
	}
	if ha != hb {
		return cmpWord(uint64(ha), uint64(hb))
	}
	var ka, kb []sortKey
	var sa, sb []uint16
	if xa != 0 {
		ka = p.cKeys[p.cStart[xa-1]:p.cStart[xa]]
	} else {
		sa = p.onSlots[p.onStart[a+1]:p.onStart[a+2]]
	}
	if xb != 0 {
		kb = p.cKeys[p.cStart[xb-1]:p.cStart[xb]]
	} else {
		sb = p.onSlots[p.onStart[b+1]:p.onStart[b+2]]
	}
	na, nb := len(ka)+len(sa), len(kb)+len(sb)
	if na != nb {
		return cmpWord(uint64(na), uint64(nb))
	}
	for i := range na {
		var x, y sortKey
		if xa != 0 {
			x = ka[i]
		} else {
			x = p.key(int(sa[i]))
		}
		if xb != 0 {
			y = kb[i]
		} else {
			y = p.key(int(sb[i]))
		}
		if r := compareContent(&x, &y); r != 0 {
			return r
		}
	}
	return 0
}

// queueAsSet reports whether pod queue podQueues[k] is a set in content
// keys (kubeletqueue.go, taintqueue.go).
func (c *Canonicalizer) queueAsSet(k int) bool {
	return k == 1 && c.kubeletSet || k == 2 && c.taintSet
}

// maxChangedShare: past one changed slot in maxChangedShare, planFrom
// leaves a successor to planOrbits, as re-placing most pods one by one
// costs more than sorting them.
const maxChangedShare = 4

// planFrom is planOrbits for t, a successor of p's state, found from the
// parent's order; ok is false when it does not apply, and the caller
// runs planOrbits (orbits must then be reset).
func (c *Canonicalizer) planFrom(w *scratch, p *parentPlan, t *model.State, orbits []uint16) (perm, podPerm []int, sortKQ, moved, ok bool) {
	s := p.s
	S, N := len(s.Pods), len(s.Nodes)
	if len(t.Pods) != S || len(t.Nodes) != N || t.Failed != s.Failed || t.FailedArg != s.FailedArg ||
		!slices.Equal(t.Queues[model.NodeControllerQueue], s.Queues[model.NodeControllerQueue]) {
		return nil, nil, false, false, false
	}
	mark := p.mark[:S]
	changed := model.AppendChangedPods(p.changed[:0], s.Pods, t.Pods)
	for _, i := range changed {
		mark[i] = 1
	}
	p.moving = p.moving[:0]
	ok = c.changes(p, t, &changed)
	p.changed = changed
	if ok {
		perm, podPerm, ok = c.reorder(w, p, t, orbits)
	}
	for _, i := range p.changed {
		mark[i] = 0
	}
	for _, m := range p.moving {
		mark[m.k.slot()] = 0
	}
	if !ok {
		return nil, nil, false, false, false
	}
	sortKQ = c.kubeletSet && len(t.Queues[model.KubeletQueue]) > 1
	if perm == nil && podPerm == nil &&
		(!sortKQ || kubeletSorted(t.Queues[model.KubeletQueue], t.Pods)) &&
		(!c.taintSet || taintQueueSorted(t.Queues[model.TaintManagerQueue])) {
		return nil, nil, false, false, true
	}
	return perm, podPerm, sortKQ, true, true
}

// changes adds to *changed (marked 1) the slots whose queue membership or
// position changed, and builds their keys in the parent's frame. It
// reports false when t is beyond planFrom.
func (c *Canonicalizer) changes(p *parentPlan, t *model.State, changed *[]uint16) bool {
	s := p.s
	S, N := len(s.Pods), len(s.Nodes)
	mark := p.mark[:S]
	var shift [len(podQueues)]int
	for k, q := range podQueues {
		a, b := s.Queues[q], t.Queues[q]
		if slices.Equal(a, b) {
			continue
		}
		if c.queueAsSet(k) && !(len(b) >= len(a) && slices.Equal(a, b[:len(a)])) {
			*changed = queueSetChanges(*changed, mark, p.qmark[:S], a, b)
			continue
		}
		at := len(a) // items a[:at] left; b[len(a)-at:] joined
		if len(b) > 0 {
			if i := slices.Index(a, b[0]); i >= 0 && len(b) >= len(a)-i && slices.Equal(a[i:], b[:len(a)-i]) {
				at = i
			}
		}
		if at+len(b) >= notQueued-1 {
			return false
		}
		shift[k] = at
		for _, x := range a[:at] {
			*changed = markChanged(*changed, mark, x)
		}
		for _, x := range b[len(a)-at:] {
			*changed = markChanged(*changed, mark, x)
		}
	}
	if len(*changed)*maxChangedShare > S {
		return false
	}
	newKeys := slices.Grow(p.newKeys[:0], len(*changed))[:len(*changed)]
	p.newKeys = newKeys
	for j, i := range *changed {
		pod := &t.Pods[i]
		if v := refNode(pod); v != 0 && (pod.Phase == model.Free || int(v) > N) {
			return false
		}
		newKeys[j] = contentKey(pod, int(i))
		p.dIndex[i] = uint16(j)
	}
	for k, q := range podQueues {
		patchQueued(newKeys, p.dIndex, mark, t.Queues[q], 8*(len(podQueues)-1-k), c.queueAsSet(k), shift[k])
	}
	if t.Failed == model.FailNoFeasibleNode && int(t.FailedArg) < S && mark[t.FailedArg] == 1 {
		newKeys[p.dIndex[t.FailedArg]][2] |= 1 << 24
	}
	return true
}

// reorder computes the node and pod permutations of t from the changed
// slots and their keys (changes), and labels the orbits.
func (c *Canonicalizer) reorder(w *scratch, p *parentPlan, t *model.State, orbits []uint16) (perm, podPerm []int, ok bool) {
	s := p.s
	S, N := len(s.Pods), len(s.Nodes)
	mark := p.mark[:S]
	changed, newKeys := p.changed, p.newKeys

	// The changed nodes of the blocks, in index order.
	cnodes := p.cnodes[:0]
	cIndex := p.cIndex[:N]
	if len(c.classes) > 0 {
		for _, i := range changed {
			for _, v := range [2]uint16{refNode(&s.Pods[i]), refNode(&t.Pods[i])} {
				if v != 0 && cIndex[v-1] == 0 {
					cnodes = append(cnodes, int(v)-1)
					cIndex[v-1] = uint16(len(cnodes))
				}
			}
		}
		if !model.SameNodeStates(t.Nodes, s.Nodes) {
			for n := range t.Nodes {
				if t.Nodes[n] != s.Nodes[n] && cIndex[n] == 0 {
					cnodes = append(cnodes, n)
					cIndex[n] = uint16(len(cnodes))
				}
			}
		}
	}
	p.cnodes = cnodes
	defer func() {
		for _, n := range p.cnodes {
			cIndex[n] = 0
		}
	}()
	rename := slices.Grow(p.rename[:0], N+1)[:N+1]
	p.rename = rename
	for v := range rename {
		rename[v] = uint16(v)
	}
	if len(cnodes) > 0 {
		// Their signatures: the parent's pods that stay, the changed
		// pods that are on them now, in key order.
		cStart := append(p.cStart[:0], 0)
		cKeys := p.cKeys[:0]
		cHeader := p.cHeader[:0]
		for _, n := range cnodes {
			from := len(cKeys)
			for _, i := range p.onSlots[p.onStart[n+1]:p.onStart[n+2]] {
				if mark[i] == 0 {
					cKeys = append(cKeys, p.key(int(i)))
				}
			}
			for j, i := range changed {
				if pod := &t.Pods[i]; int(refNode(pod)) == n+1 {
					cKeys = insertKey(cKeys, from, newKeys[j])
				}
			}
			cStart = append(cStart, len(cKeys))
			cHeader = append(cHeader, nodeHeader(t, n, t.Nodes[n]))
			if len(cKeys)-from > 255 {
				p.cStart, p.cKeys, p.cHeader = cStart, cKeys, cHeader
				return nil, nil, false
			}
		}
		p.cStart, p.cKeys, p.cHeader = cStart, cKeys, cHeader
		perm = c.placeNodes(w, p, orbits)
		for old, new := range perm {
			rename[old+1] = uint16(new + 1)
		}
	} else {
		c.parentOrbits(p, orbits)
	}

	// The pods that move: the changed ones and those on changed nodes.
	moving := p.moving[:0]
	for j, i := range changed {
		moving = append(moving, movingPod{k: newKeys[j], v: rename[refNode(&t.Pods[i])]})
	}
	for _, n := range cnodes {
		for _, i := range p.onSlots[p.onStart[n+1]:p.onStart[n+2]] {
			if mark[i] == 0 {
				mark[i] = 2
				moving = append(moving, movingPod{k: p.key(int(i)), v: rename[n+1]})
			}
		}
	}
	p.moving = moving
	// Sorted, by insertion: they are few.
	for i := 1; i < len(moving); i++ {
		m := moving[i]
		j := i
		for j > 0 && m.less(&moving[j-1]) {
			moving[j] = moving[j-1]
			j--
		}
		moving[j] = m
	}
	lo := 0
	for i := range moving {
		lo = p.insertionPoint(&moving[i], rename, mark, lo)
	}
	// The slots past the last that moves stay: podPerm covers the others
	// and every pod that is not blank (permuteInto renames the nodes of
	// those it covers), as planOrbits' does up to the blank tail.
	// podPerm is p.podPerm, the identity but where the last successor's
	// moved: only the slots between the first and the last that moves
	// are written.
	podPerm = p.podPerm
	if len(podPerm) != S {
		podPerm = identityInto(podPerm, S)
	} else {
		for i := p.dirty[0]; i < p.dirty[1]; i++ {
			podPerm[i] = i
		}
	}
	p.podPerm, p.dirty = podPerm, [2]int{}
	if len(moving) == 0 {
		return perm, nil, true
	}
	first, last := S, -1
	for _, m := range moving {
		x := m.k.slot()
		first, last = min(first, x, m.ins), max(last, x, m.ins)
	}
	last = min(last, S-1)
	at, j := first, 0
	moved := false
	for i := first; i <= last; i++ {
		for j < len(moving) && moving[j].ins == i {
			x := moving[j].k.slot()
			podPerm[x] = at
			moved = moved || x != at
			at++
			j++
		}
		if mark[i] != 0 {
			continue
		}
		podPerm[i] = at
		moved = moved || i != at
		at++
	}
	for ; j < len(moving); j++ {
		x := moving[j].k.slot()
		podPerm[x] = at
		moved = moved || x != at
		at++
	}
	p.dirty = [2]int{first, last + 1}
	if !moved {
		return perm, nil, true
	}
	return perm, podPerm[:max(last+1, model.BlankTail(t.Pods))], true
}

// insertionPoint finds where m goes among the pods that stay (mark 0):
// before the first of them, from slot lo on, that sorts after it, or at
// the end. It records that slot in m.ins and returns the lowest slot the
// next, greater, moving pod can go before.
func (p *parentPlan) insertionPoint(m *movingPod, rename []uint16, mark []uint8, lo int) int {
	s := p.s
	S := len(s.Pods)
	ans, hi := S, S
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		j := mid
		for j < hi && mark[j] != 0 {
			j++
		}
		if j == hi {
			hi = mid
			continue
		}
		if u := (movingPod{k: p.key(j), v: rename[refNode(&s.Pods[j])]}); m.less(&u) {
			ans, hi = j, mid
		} else {
			lo = j + 1
		}
	}
	m.ins = ans
	return lo
}

// placeNodes orders the nodes of every block given the changed nodes'
// signatures: the unchanged nodes keep the parent's order, the changed
// ones go where their signature (then their index) puts them. It labels
// the orbits and returns the permutation (nil for the identity).
func (c *Canonicalizer) placeNodes(w *scratch, p *parentPlan, orbits []uint16) []int {
	var perm []int
	for _, block := range c.classes {
		lo, hi := block[0], block[len(block)-1]
		// The changed nodes of the block, sorted by insertion.
		cs := p.order[:0]
		for _, n := range p.cnodes {
			if n < lo || n > hi {
				continue
			}
			cs = append(cs, n)
			for j := len(cs) - 1; j > 0 && p.compareNodes(n, cs[j-1]) < 0; j-- {
				cs[j], cs[j-1] = cs[j-1], n
			}
		}
		p.order = cs
		if len(cs) == 0 {
			for i := 1; i < len(block); i++ {
				if p.label[block[i]] == p.label[block[i-1]] {
					orbits[block[i]] = orbits[block[i-1]]
				}
			}
			continue
		}
		// Merge them into the unchanged nodes (the block's nodes with
		// cIndex 0, in order): u walks those, prev is the node placed
		// last.
		i, u, prev := 0, lo, -1
		place := func(n int) {
			if prev >= 0 {
				var equal bool
				if p.cIndex[prev] == 0 && p.cIndex[n] == 0 {
					equal = p.label[prev] == p.label[n]
				} else {
					equal = p.compareSigs(prev, n) == 0
				}
				if equal {
					orbits[lo+i] = orbits[lo+i-1]
				}
			}
			if n != lo+i {
				if perm == nil {
					perm = identityInto(w.perm, len(p.s.Nodes))
					w.perm = perm
				}
				perm[n] = lo + i
			}
			prev = n
			i++
		}
		for _, n := range cs {
			// The unchanged nodes before n, from u on: a binary search
			// over the block's indices that skips changed nodes.
			a, b := u, hi+1
			for a < b {
				m := int(uint(a+b) >> 1)
				j := m
				for j < b && p.cIndex[j] != 0 {
					j++
				}
				if j == b {
					b = m
					continue
				}
				if p.compareNodes(j, n) < 0 {
					a = j + 1
				} else {
					b = m
				}
			}
			for ; u < a; u++ {
				if p.cIndex[u] == 0 {
					place(u)
				}
			}
			place(n)
		}
		for ; u <= hi; u++ {
			if p.cIndex[u] == 0 {
				place(u)
			}
		}
	}
	return perm
}

// parentOrbits labels the orbits when no node of a block changed: the
// parent's.
func (c *Canonicalizer) parentOrbits(p *parentPlan, orbits []uint16) {
	for _, block := range c.classes {
		for i := 1; i < len(block); i++ {
			if p.label[block[i]] == p.label[block[i-1]] {
				orbits[block[i]] = orbits[block[i-1]]
			}
		}
	}
}

// insertKey inserts k into keys[from:], kept in content order.
func insertKey(keys []sortKey, from int, k sortKey) []sortKey {
	keys = append(keys, k)
	j := len(keys) - 1
	for j > from && compareContent(&k, &keys[j-1]) < 0 {
		keys[j] = keys[j-1]
		j--
	}
	keys[j] = k
	return keys
}

// markChanged adds slot x to changed unless it is there or out of range.
func markChanged(changed []uint16, mark []uint8, x uint16) []uint16 {
	if int(x) < len(mark) && mark[x] == 0 {
		mark[x] = 1
		changed = append(changed, x)
	}
	return changed
}

// queueSetChanges adds to changed the slots in exactly one of a and b
// (a queue that is a set in content keys), using qmark, which it leaves
// clear.
func queueSetChanges(changed []uint16, mark, qmark []uint8, a, b []uint16) []uint16 {
	for _, x := range a {
		if int(x) < len(qmark) {
			qmark[x] |= 1
		}
	}
	for _, x := range b {
		if int(x) < len(qmark) {
			qmark[x] |= 2
		}
	}
	for _, q := range [2][]uint16{a, b} {
		for _, x := range q {
			if int(x) < len(qmark) && qmark[x] != 3 {
				changed = markChanged(changed, mark, x)
			}
		}
	}
	for _, q := range [2][]uint16{a, b} {
		for _, x := range q {
			if int(x) < len(qmark) {
				qmark[x] = 0
			}
		}
	}
	return changed
}

// contentKey is slot i's sort key as podSortKeys builds it from the pod
// alone (queue positions notQueued, no failure).
func contentKey(p *model.PodState, i int) sortKey {
	var head uint64
	if p.Phase == model.Free {
		head = 1 << 32
	} else {
		h := uint64(p.Phase) | uint64(p.RS)<<3
		if p.WasRunning {
			h |= 1 << 2
		}
		if p.NominatedNode != 0 {
			h |= 1 << 4
		}
		h |= uint64(p.Readiness) << 5
		head = h<<24 | uint64(p.Owner)<<16 | uint64(p.Template)<<8 | uint64(p.Pattern)
	}
	cpu := uint64(uint32(p.CPU) ^ 1<<31)
	mem := uint64(uint32(p.Memory) ^ 1<<31)
	return sortKey{
		head<<24 | cpu>>8,
		(cpu&0xFF)<<56 | mem<<24 | notQueued<<16 | notQueued<<8 | notQueued,
		uint64(p.Ordinal)<<56 | notQueuedHigh | uint64(i),
	}
}

// patchQueued writes into the changed slots' keys (mark 1, index dIndex)
// their first position in q, in the parent's frame (plus shift), as
// markQueued does.
func patchQueued(keys []sortKey, dIndex []uint16, mark []uint8, q []uint16, bit int, asSet bool, shift int) {
	keep, keepHigh := ^(uint64(0xFF) << bit), ^(uint64(0xFF) << (32 + bit))
	for i := len(q) - 1; i >= 0; i-- {
		x := int(q[i])
		if x >= len(mark) || mark[x] != 1 {
			continue
		}
		k := &keys[dIndex[x]]
		pos := uint64(byte(i + shift))
		if asSet {
			pos = kubeletQueued
		}
		k[1] = k[1]&keep | pos<<bit
		k[2] &= keepHigh
	}
}
