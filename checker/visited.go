package checker

import (
	"bytes"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// A stateID names a stored state: worker<<32 | index among the states that
// worker stored. It fits in 40 bits so that a parent record packs parent
// and successor ordinal into one uint64.
type stateID uint64

const (
	idBits       = 40
	noState      = stateID(1<<idBits - 1)
	ordinalBits  = 64 - idBits
	maxOrdinal   = 1<<ordinalBits - 1
	maxShardBits = 8
	// localLimit bounds the states one worker may store.
	localLimit = 1<<32 - 2
)

func makeID(shard int, local uint32) stateID { return stateID(uint64(shard)<<32 | uint64(local)) }
func (id stateID) shard() int                { return int(id >> 32) }
func (id stateID) local() uint32             { return uint32(id) }

// parentRecord packs the parent's id and the ordinal of the step (its
// position in the parent's Next emission order, or in Initial's for a root)
// that produced the state. Traces are rebuilt by re-executing these.
type parentRecord uint64

func makeParent(parent stateID, ordinal uint32) parentRecord {
	return parentRecord(uint64(parent)<<ordinalBits | uint64(ordinal))
}
func (p parentRecord) parent() stateID { return stateID(p >> ordinalBits) }
func (p parentRecord) ordinal() uint32 { return uint32(p & maxOrdinal) }
func (p parentRecord) isRoot() bool    { return p.parent() == noState }

type storeMode uint8

const (
	modeExact storeMode = iota
	modeHash
	modeBits
)

// shard holds what one worker stored: states are dense local indices into
// its own slabs, so storing a new state touches no shared counter. Only the
// owner appends; other workers read an Exact shard's encodings (through
// concurrently readable slabs) after the table published the state.
//
// What other workers read during a level (level, the directories of the
// slabs) and what the owner writes with every state it stores (the
// counts) are on separate cache lines.
type shard struct {
	level uint32  // n when the current BFS level started (POR proviso)
	recs  records // Exact: the encodings
	// his holds each Exact state's fingerprint (its high 32 bits, all
	// there is): a resize places the states without hashing them again.
	his cslab[uint32]
	// parents is read by other workers during a parallel BFS level
	// (lowerParent), so it is concurrently readable like the encodings.
	parents cslab[parentRecord]

	_       cacheLinePad
	n       uint32 // states stored (owner only)
	quota   int64  // new table slots this worker may still fill
	asked   bool   // the quota ran out and the worker is parked for more
	encSize int64  // Exact: bytes of encodings and offsets stored (content)

	// Published at span boundaries for the memory budget.
	_            cacheLinePad
	pubN, pubEnc atomic.Int64
	_            cacheLinePad
}

// table is the lock-free open-addressing index shared by all workers.
// In HashCompaction mode slot i is words[2i] (fingerprint hi, 0 = empty)
// and words[2i+1] (the fingerprint's lo); ids (when ids of matched states
// are needed) holds id+1. With 64-bit fingerprints a slot is the single
// word hi (stride 1). Such a slot is claimed by a CAS on its first word
// and published by storing the second, which readers wait for; neither is
// 0 once published (fingerprintOf reserves 0).
//
// In Exact mode (packed) a slot is one word: a tag of the fingerprint in
// the top 24 bits and id+1 in the low 40, claimed and published by one
// CAS once the state's encoding and parent record are written. An Exact
// fingerprint has 32 bits (hi's high half, see exactFingerprint); the tag
// is its low 24, on which the home slot depends only for tables of more
// than 2^8 slots and only through its highest bits, so that states of
// one probe run seldom share a tag and a full comparison of encodings is
// rarely made in vain.
//
// Linear probing from a home slot chosen by hi's high bits.
type table struct {
	words  []uint64
	ids    []uint64
	cap    uint64
	stride uint64
	packed bool
}

// Exact slots: the id+1 bits and the tag bits.
const (
	slotIDMask  = 1<<idBits - 1
	slotTagMask = ^uint64(slotIDMask)
)

// exactTag is the tag bits of a packed slot for fingerprint hi.
func exactTag(hi uint64) uint64 { return hi >> 32 << idBits }

func newTable(mem *offHeap, capacity uint64, withIDs, short, packed bool) *table {
	capacity = max(capacity, minTableCap)
	stride := uint64(2)
	if short || packed {
		stride = 1
	}
	t := &table{words: allocRandom[uint64](mem, int(stride*capacity)), cap: capacity, stride: stride, packed: packed}
	if withIDs && !packed {
		t.ids = allocSlice[uint64](mem, int(capacity))
	}
	return t
}

// free returns the table's memory; no goroutine may be using it.
func (t *table) free(mem *offHeap) {
	freeSlice(mem, t.words)
	freeSlice(mem, t.ids)
}

func (t *table) home(hi uint64) uint64 {
	h, _ := bits.Mul64(hi, t.cap)
	return h
}

func (t *table) bytes() int64 { return int64(len(t.words)*8 + len(t.ids)*8) }

// bytesAt is the size of a table like t with the given capacity.
func (t *table) bytesAt(capacity uint64) int64 {
	per := int64(t.stride) * 8
	if t.ids != nil {
		per += 8
	}
	return int64(capacity) * per
}

const (
	minTableCap = 256
	// maxLoad is the load a level-boundary resize aims to stay under;
	// hardLoad is never exceeded (workers pause for a resize first).
	maxLoad  = 0.7
	hardLoad = 0.9
)

// visitedSet is the concurrent set of stored states shared by all workers,
// with each state's parent record.
type visitedSet struct {
	mode    storeMode
	shards  []shard
	tab     atomic.Pointer[table]
	withIDs bool
	bits    *bitArray
	fp64    bool // 64-bit fingerprints (HashCompaction)
	// mem holds the table, records and parent records outside the Go
	// heap; free releases it.
	mem *offHeap

	// detCap is the capacity the level-boundary policy chose; it depends
	// only on state counts, so the memory measure is deterministic.
	detCap uint64
	// mayGrow, if set, says whether the table may take extra more bytes
	// (the memory budget); full is set when it said no to a growth the
	// table needed: inserts of new states then return outcomeNoRoom
	// until the next resize or the switch to bitstate.
	mayGrow func(extra int64) bool
	full    atomic.Bool
	// tableBytes is the current table's size, for the memory budget.
	tableBytes atomic.Int64
	// keptBytes: after a switch to bitstate, the memory of the encodings
	// kept for the states queued when it happened (see switchToBits).
	keptBytes atomic.Int64

	// Pause protocol for a resize in the middle of a level: a worker whose
	// quota is exhausted requests one and parks; the others park at their
	// next insert or leave; the last to arrive resizes.
	growReq atomic.Bool
	mu      sync.Mutex
	cond    *sync.Cond
	active  int
	parked  int
	gen     uint64

	visitedBytes atomic.Int64 // table, encodings, or bit array (allocated)
	parentBytes  atomic.Int64
}

func newVisitedSet(mode storeMode, workers int, withIDs, short bool, nbits uint64, hashes uint) *visitedSet {
	v := &visitedSet{mode: mode, shards: make([]shard, workers), withIDs: withIDs && mode == modeHash, fp64: short && mode == modeHash, mem: &offHeap{}}
	v.cond = sync.NewCond(&v.mu)
	for i := range v.shards {
		v.shards[i].parents.mem = v.mem
		v.shards[i].his.mem = v.mem
		v.shards[i].recs.init(v.mem)
	}
	if mode == modeBits {
		v.bits = newBitArray(v.mem, nbits, hashes, workers)
		v.visitedBytes.Store(v.bits.bytes())
		return v
	}
	v.detCap = minTableCap
	t := newTable(v.mem, v.detCap, v.withIDs, v.fp64, mode == modeExact)
	v.tab.Store(t)
	v.visitedBytes.Store(t.bytes())
	v.tableBytes.Store(t.bytes())
	v.resetQuotas()
	return v
}

// insertOutcome is what insert found.
type insertOutcome uint8

const (
	outcomeMatched insertOutcome = iota // already stored
	outcomeNew                          // stored now
	outcomeFull                         // worker's id space exhausted: not stored
	// outcomeNoRoom: the table is full and the memory budget has no room
	// to grow it (visitedSet.full); not stored.
	outcomeNoRoom
)

// enter and leave bracket a worker's use of insert (the pause protocol
// waits for every entered worker).
func (v *visitedSet) enter() {
	v.mu.Lock()
	v.active++
	v.mu.Unlock()
}

func (v *visitedSet) leave() {
	v.mu.Lock()
	v.active--
	if v.growReq.Load() && v.active > 0 && v.parked == v.active {
		v.growLocked()
	}
	v.mu.Unlock()
}

// park waits until a requested resize is done (doing it if last to park).
func (v *visitedSet) park() { v.parkFor(nil) }

// parkFor is park for the worker of shard s (if not nil), whose quota ran
// out: shareQuotas gives it the first of the free slots.
func (v *visitedSet) parkFor(s *shard) {
	v.mu.Lock()
	if s != nil {
		s.asked = true
	}
	v.growReq.Store(true)
	v.parked++
	if v.parked == v.active {
		v.growLocked()
	} else {
		for g := v.gen; g == v.gen; {
			v.cond.Wait()
		}
	}
	v.mu.Unlock()
}

// growLocked runs once every active worker is parked. While the table
// has free slots below the hard load, they are shared out again, those
// who asked first: a worker's quota ran out, not the table. Only a table
// at the hard load grows (when the budget has room for the larger one),
// so that its capacity, which the memory budget charges, is a function
// of the number of states stored, whichever worker stored them.
func (v *visitedSet) growLocked() {
	t := v.tab.Load()
	switch {
	case v.hardFree(t) > 0:
		v.shareQuotas(v.hardFree(t))
	case v.mayGrow == nil || v.mayGrow(t.bytesAt(2*t.cap)-t.bytes()):
		v.resize(2 * t.cap)
	default:
		v.full.Store(true)
	}
	v.parked = 0
	v.gen++
	v.growReq.Store(false)
	v.cond.Broadcast()
}

// hardFree is the number of slots t may still fill below the hard load.
func (v *visitedSet) hardFree(t *table) int64 {
	return int64(float64(t.cap)*hardLoad) - v.count()
}

// shareQuotas shares free slots among the workers, giving the remainder
// of an even share to those who asked for more (parkFor), so that one of
// them can go on however few slots are left. No worker may be inserting.
func (v *visitedSet) shareQuotas(free int64) {
	n := int64(len(v.shards))
	rest := free % n
	for pass := range 2 {
		for i := range v.shards {
			s := &v.shards[i]
			if pass == 0 {
				s.quota = free / n
			}
			if rest > 0 && s.asked == (pass == 0) {
				s.quota++
				rest--
			}
		}
	}
	for i := range v.shards {
		v.shards[i].asked = false
	}
}

// rebuild refills an Exact table from the stored states alone, without
// the tombstones a rolled-back level left, so that the run can store
// states again. No worker may be inserting.
func (v *visitedSet) rebuild() {
	old := v.tab.Load()
	old.free(v.mem)
	t := newTable(v.mem, old.cap, v.withIDs, v.fp64, true)
	v.rehashExact(t)
	v.tab.Store(t)
	v.visitedBytes.Add(t.bytes() - old.bytes())
	v.tableBytes.Store(t.bytes())
	v.resetQuotas()
}

// free releases the memory of the visited set; nothing may use it after.
func (v *visitedSet) free() { v.mem.freeAll() }

// resize rehashes the table into one of the given capacity. No worker may
// be inserting.
func (v *visitedSet) resize(capacity uint64) {
	old := v.tab.Load()
	if capacity == old.cap {
		v.resetQuotas()
		return
	}
	// Neither way of filling the new table holds both tables in memory
	// at once: an Exact table is refilled from the fingerprints the
	// shards keep, so the old one goes first; a HashCompaction table is
	// read in order and given back as it is read (rehash).
	if old.packed {
		old.free(v.mem)
	}
	t := newTable(v.mem, capacity, v.withIDs, v.fp64, old.packed)
	if t.packed {
		v.rehashExact(t)
	} else {
		rehash(v.mem, old, t)
		old.free(v.mem)
	}
	v.tab.Store(t)
	v.visitedBytes.Add(t.bytes() - old.bytes())
	v.tableBytes.Store(t.bytes())
	v.resetQuotas()
}

// rehash copies the slots of old into t (HashCompaction: the slots hold
// the fingerprints). A slot's home is monotone in its fingerprint, so
// reading old in order writes t roughly in order: the pages of old that
// were read are given back (discard) as t's are touched, and the two
// tables together never take much more memory than t.
func rehash(mem *offHeap, old, t *table) {
	const step = 1 << 18 // slots between two discards
	words, ids := discardable(mem, old.words), discardable(mem, old.ids)
	for i := uint64(0); i < old.cap; i++ {
		if i%step == 0 && i > 0 {
			if words {
				discard(old.words[old.stride*(i-step) : old.stride*i])
			}
			if ids {
				discard(old.ids[i-step : i])
			}
		}
		hi := old.words[old.stride*i]
		if hi == 0 {
			continue
		}
		j := t.home(hi)
		for t.words[t.stride*j] != 0 {
			if j++; j == t.cap {
				j = 0
			}
		}
		t.words[t.stride*j] = hi
		if t.stride == 2 {
			t.words[2*j+1] = old.words[2*i+1]
		}
		if t.ids != nil {
			t.ids[j] = old.ids[i]
		}
	}
}

// resetQuotas shares the free slots below the hard load among the workers.
func (v *visitedSet) resetQuotas() {
	v.full.Store(false)
	t := v.tab.Load()
	free := int64(float64(t.cap)*hardLoad) - v.count()
	q := free / int64(len(v.shards))
	for i := range v.shards {
		v.shards[i].quota = q
	}
}

// tableCapFor is the capacity the level-boundary policy wants for n states.
func tableCapFor(n int64) uint64 {
	c := uint64(float64(n)/maxLoad) + 1
	return (c + 63) &^ 63
}

// prepareLevel sizes the table, between levels, for the stored states
// plus an estimate of the next level's new states. The capacity depends
// only on these counts (not on scheduling): growth is to at least 1.5
// times the previous capacity, and a resize made during the level is
// undone if it overshot. A growth the memory budget has no room for is
// not made: the level then grows the table when it fills it, if it can.
func (v *visitedSet) prepareLevel(expected int64) {
	if v.mode == modeBits {
		return
	}
	want := tableCapFor(v.count() + expected)
	c := v.detCap
	if want > c {
		c = max(want, c*3/2)
	}
	t := v.tab.Load()
	if c > t.cap && v.mayGrow != nil && !v.mayGrow(t.bytesAt(c)-t.bytes()) {
		c = t.cap
	}
	v.detCap = c
	v.resize(c)
}

// insert stores the state with fingerprint f and key encoding key unless
// it is already there. own is the caller's worker index: new states get
// ids in the worker's own shard. The returned id is noState when the
// storage cannot say which state matched (bitstate; hash compaction
// without ids).
func (v *visitedSet) insert(f fingerprint, key []byte, rec parentRecord, own int) (stateID, insertOutcome) {
	s := &v.shards[own]
	if v.mode == modeBits {
		if v.bits.testAndSet(f, own) {
			return noState, outcomeMatched
		}
		return v.commit(s, own, rec), outcomeNew
	}
	if s.n >= localLimit {
		return noState, outcomeFull
	}
	if v.growReq.Load() {
		v.park()
	}
	if v.mode == modeExact {
		return v.insertExact(s, f, key, rec, own)
	}
	t := v.tab.Load()
	i := t.home(f.hi)
	for {
		p := &t.words[t.stride*i]
		h := atomic.LoadUint64(p)
		if h == 0 {
			if s.quota <= 0 {
				if v.full.Load() {
					return noState, outcomeNoRoom
				}
				v.parkFor(s)
				t = v.tab.Load()
				i = t.home(f.hi)
				continue
			}
			if atomic.CompareAndSwapUint64(p, 0, f.hi) {
				// The parent record is written before the slot is
				// published: a worker that matches the state may lower it
				// at once (lowerParent).
				id := v.commit(s, own, rec)
				if t.stride == 2 {
					atomic.StoreUint64(&t.words[2*i+1], f.lo)
				}
				if t.ids != nil {
					atomic.StoreUint64(&t.ids[i], uint64(id)+1)
				}
				s.quota--
				return id, outcomeNew
			}
			h = atomic.LoadUint64(p)
		}
		if h == f.hi {
			if id, ok := v.matchSlot(t, i, f, key); ok {
				return id, outcomeMatched
			}
		}
		if i++; i == t.cap {
			i = 0
		}
	}
}

// insertExact is insert for Exact mode, on packed slots: the state's id
// is the shard's next index, known before the slot is claimed, so its
// encoding and parent record are written first and one CAS claims and
// publishes the slot. A worker that loses the race for an empty slot
// takes its writes back and goes on probing from that slot.
func (v *visitedSet) insertExact(s *shard, f fingerprint, key []byte, rec parentRecord, own int) (stateID, insertOutcome) {
	t := v.tab.Load()
	tag := exactTag(f.hi)
	i := t.home(f.hi)
	for {
		p := &t.words[i]
		w := atomic.LoadUint64(p)
		if w == 0 {
			if s.quota <= 0 {
				if v.full.Load() {
					return noState, outcomeNoRoom
				}
				v.parkFor(s)
				t = v.tab.Load()
				i = t.home(f.hi)
				continue
			}
			local := s.n
			id := makeID(own, local)
			grown, content := s.recs.put(local, key)
			v.account(&v.visitedBytes, grown)
			v.account(&v.parentBytes, s.parents.put(rec, 8))
			v.account(&v.visitedBytes, s.his.put(uint32(f.hi>>32), 4))
			if atomic.CompareAndSwapUint64(p, 0, tag|(uint64(id)+1)) {
				s.n++
				s.parents.n++
				s.his.n++
				s.encSize += content + 4 // and its fingerprint in his
				s.quota--
				return id, outcomeNew
			}
			s.recs.unput()
			w = atomic.LoadUint64(p)
		}
		if w&slotTagMask == tag {
			id := stateID(w&slotIDMask - 1)
			if bytes.Equal(v.shards[id.shard()].recs.get(id.local()), key) {
				return id, outcomeMatched
			}
		}
		if i++; i == t.cap {
			i = 0
		}
	}
}

// rehashExact fills t with every stored state, from the fingerprints
// the shards keep (a packed slot keeps only a tag). Large tables are
// filled by several goroutines, one per shard, with the CAS inserts of
// the running search; no worker may be inserting.
func (v *visitedSet) rehashExact(t *table) {
	fill := func(sh int) {
		s := &v.shards[sh]
		for local := range s.n {
			hi := uint64(s.his.at(int(local))) << 32
			w := exactTag(hi) | (uint64(makeID(sh, local)) + 1)
			for i := t.home(hi); ; {
				if atomic.CompareAndSwapUint64(&t.words[i], 0, w) {
					break
				}
				if i++; i == t.cap {
					i = 0
				}
			}
		}
	}
	if len(v.shards) == 1 || v.count() < 1<<16 {
		for sh := range v.shards {
			fill(sh)
		}
		return
	}
	var wg sync.WaitGroup
	for sh := range v.shards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fill(sh)
		}()
	}
	wg.Wait()
}

// commit gives the new state the next id of the worker's shard.
func (v *visitedSet) commit(s *shard, own int, rec parentRecord) stateID {
	local := s.n
	s.n++
	v.account(&v.parentBytes, s.parents.push(rec, 8))
	return makeID(own, local)
}

// matchSlot compares the state with the published slot i whose first word
// equals f.hi.
func (v *visitedSet) matchSlot(t *table, i uint64, f fingerprint, key []byte) (stateID, bool) {
	if v.mode == modeHash {
		if t.stride == 2 && waitNonZero(&t.words[2*i+1]) != f.lo {
			return noState, false
		}
		if t.ids == nil {
			return noState, true
		}
		return stateID(waitNonZero(&t.ids[i]) - 1), true
	}
	w := atomic.LoadUint64(&t.words[i])
	id := stateID(w&slotIDMask - 1)
	return id, w&slotTagMask == exactTag(f.hi) && bytes.Equal(v.shards[id.shard()].recs.get(id.local()), key)
}

// waitNonZero loads a word that another worker is about to publish.
func waitNonZero(p *uint64) uint64 {
	for spins := 0; ; spins++ {
		if x := atomic.LoadUint64(p); x != 0 {
			return x
		}
		if spins > 64 {
			runtime.Gosched()
		}
	}
}

// fingerprint is the fingerprint the set files key under. Exact storage
// compares keys in full, so only the table's home slot and first word
// come from the hash: a 64-bit hash serves and costs less than the
// 128-bit one that hash compaction and bit arrays need (a switch to
// bitstate refingerprints the stored encodings with 128 bits).
func (v *visitedSet) fingerprint(key []byte) fingerprint {
	if v.mode == modeExact {
		return exactFingerprint(key)
	}
	return fingerprintOf(key, v.fp64)
}

// touch loads the home slot of fingerprint f, for a caller that will
// look f up soon: the load starts the slot's cache miss early, so that
// the misses of several successors overlap. (An atomic load: the
// compiler keeps it although its value is unused.)
func (v *visitedSet) touch(f fingerprint) {
	if v.mode == modeBits {
		return
	}
	t := v.tab.Load()
	atomic.LoadUint64(&t.words[t.stride*t.home(f.hi)])
}

// prefetchSlot starts loading the home slot of f without waiting for it,
// as soon as a successor is hashed: its cache miss then overlaps with
// the generation of the next successors.
func (v *visitedSet) prefetchSlot(f fingerprint) {
	if v.mode == modeBits {
		return
	}
	t := v.tab.Load()
	prefetch(uintptr(unsafe.Pointer(&t.words[t.stride*t.home(f.hi)])))
}

// lookup reports whether the state is stored, and its id when known.
func (v *visitedSet) lookup(f fingerprint, key []byte) (stateID, bool) {
	if v.mode == modeBits {
		return noState, v.bits.test(f)
	}
	t := v.tab.Load()
	for i := t.home(f.hi); ; {
		h := atomic.LoadUint64(&t.words[t.stride*i])
		if h == 0 {
			return noState, false
		}
		if h == f.hi || t.packed {
			if id, ok := v.matchSlot(t, i, f, key); ok {
				return id, true
			}
		}
		if i++; i == t.cap {
			i = 0
		}
	}
}

func (s *shard) encoding(local uint32) []byte { return s.recs.get(local) }

// publish makes a worker's counts visible to the memory budget.
func (v *visitedSet) publish(own int) {
	s := &v.shards[own]
	s.pubN.Store(int64(s.n))
	s.pubEnc.Store(s.encSize)
}

// budgetBytes is the memory the budget charges to the visited set and
// parent records: the table as allocated (its capacity is a function of
// the number of states stored, see growLocked), the records by content
// (8 B per parent record, the encodings and fingerprints of Exact mode),
// so that it depends only on what was stored, not on how the work was
// scheduled. Records are written in order into chunks whose untouched
// pages take no memory, so their content is what they occupy.
func (v *visitedSet) budgetBytes() int64 {
	var n, enc int64
	for i := range v.shards {
		n += v.shards[i].pubN.Load()
		enc += v.shards[i].pubEnc.Load()
	}
	if v.mode == modeBits {
		return v.bits.bytes() + 8*n + v.keptBytes.Load()
	}
	return v.tableBytes.Load() + enc + 8*n
}

func (v *visitedSet) parentOf(id stateID) parentRecord {
	return v.shards[id.shard()].parents.at(int(id.local()))
}

// setParent replaces a parent record; no other worker may be using it.
func (v *visitedSet) setParent(id stateID, rec parentRecord) {
	*v.shards[id.shard()].parents.ptr(int(id.local())) = rec
}

// lowerParent replaces the parent record of a published state by rec if
// rec is smaller, atomically against other workers doing the same, and
// reports whether it did.
func (v *visitedSet) lowerParent(id stateID, rec parentRecord) bool {
	p := (*uint64)(v.shards[id.shard()].parents.ptr(int(id.local())))
	for {
		old := atomic.LoadUint64(p)
		if uint64(rec) >= old {
			return false
		}
		if atomic.CompareAndSwapUint64(p, old, uint64(rec)) {
			return true
		}
	}
}

// keyMatches reports whether key is the stored key of id; ok is false when
// the storage cannot tell (bitstate). Hash compaction without stored ids
// can only confirm that the key is stored.
func (v *visitedSet) keyMatches(id stateID, key []byte) (match, ok bool) {
	if v.mode == modeBits {
		return false, false
	}
	got, found := v.lookup(v.fingerprint(key), key)
	return found && (got == id || got == noState), true
}

// storedKey is the key stored for id, when the storage keeps keys
// (Exact); it aliases the set's memory.
func (v *visitedSet) storedKey(id stateID) ([]byte, bool) {
	if v.mode != modeExact || id == noState {
		return nil, false
	}
	return v.shards[id.shard()].recs.get(id.local()), true
}

// markLevel records, for the BFS partial-order proviso, which states were
// stored before the level that is about to be expanded.
func (v *visitedSet) markLevel() {
	for i := range v.shards {
		v.shards[i].level = v.shards[i].n
	}
}

func (v *visitedSet) storedBeforeLevel(id stateID) bool {
	return id.local() < v.shards[id.shard()].level
}

// publishedCount is the number of stored states as last published.
func (v *visitedSet) publishedCount() int64 {
	var n int64
	for i := range v.shards {
		n += v.shards[i].pubN.Load()
	}
	return n
}

// count is the number of stored states; no worker may be storing.
func (v *visitedSet) count() int64 {
	var n int64
	for i := range v.shards {
		n += int64(v.shards[i].n)
	}
	return n
}

// rollbackLevel forgets the states stored since markLevel, whose keys are
// given (the level's output), by marking their slots with a tombstone;
// the table is only used to build a bit array afterwards. Parent records
// are truncated. It reports false, truncating nothing, when keys stops
// early (the run expired).
func (v *visitedSet) rollbackLevel(keys func(yield func([]byte)) bool) bool {
	if v.mode != modeBits {
		t := v.tab.Load()
		done := keys(func(key []byte) {
			f := v.fingerprint(key)
			for i := t.home(f.hi); ; {
				h := t.words[t.stride*i]
				if h == 0 {
					return
				}
				if h == f.hi || t.packed && h != tombstone {
					if _, ok := v.matchSlot(t, i, f, key); ok {
						t.words[t.stride*i] = tombstone
						return
					}
				}
				if i++; i == t.cap {
					i = 0
				}
			}
		})
		if !done {
			return false
		}
	}
	for i := range v.shards {
		s := &v.shards[i]
		s.n = s.level
		s.parents.truncate(int(s.level))
		s.his.truncate(int(s.level))
	}
	return true
}

// switchToBits replaces the table by a bit array holding every stored
// fingerprint and frees the table and the encodings, but those of each
// shard's states from keep[shard] on: the queued states whose frontier
// refers to them (an Exact BFS without symmetry), which releaseKept frees
// once they are expanded. Parent records (and so traces) survive. It
// must be called while no worker runs. expired is polled every 2^16
// states: when it says so, the bit array is dropped, the table stays, and
// switchToBits reports false.
func (v *visitedSet) switchToBits(nbits uint64, hashes uint, keep []uint32, expired func() bool) bool {
	b := newBitArray(v.mem, nbits, hashes, len(v.shards))
	t := v.tab.Load()
	abandon := func(i uint64) bool {
		if i%(1<<16) == 0 && i > 0 && expired() {
			freeSlice(v.mem, b.words)
			return true
		}
		return false
	}
	if v.mode == modeHash {
		for i := uint64(0); i < t.cap; i++ {
			if abandon(i) {
				return false
			}
			hi := t.words[t.stride*i]
			if hi == 0 || hi == tombstone {
				continue
			}
			f := fingerprint{hi: hi}
			if t.stride == 2 {
				f.lo = t.words[2*i+1]
			} else {
				f.lo = shortLo(hi)
			}
			b.testAndSet(f, 0)
		}
	} else {
		// The stored states are each shard's first n (a rolled-back
		// level's are beyond), read in order from the records.
		var done uint64
		for sh := range v.shards {
			s := &v.shards[sh]
			for local := range s.n {
				if done++; abandon(done) {
					return false
				}
				b.testAndSet(fingerprintOf(s.encoding(local), false), 0)
			}
		}
	}
	v.tab.Store(nil)
	t.free(v.mem)
	v.tableBytes.Store(0)
	var kept int64
	for i := range v.shards {
		s := &v.shards[i]
		kept += s.recs.releaseBelow(keep[i], s.n)
		s.encSize = 0
		s.his.release()
	}
	v.keptBytes.Store(kept)
	v.bits = b
	v.mode = modeBits
	v.full.Store(false)
	v.visitedBytes.Store(b.bytes())
	return true
}

// releaseKept frees the encodings switchToBits kept; no worker may be
// reading them.
func (v *visitedSet) releaseKept() {
	if v.keptBytes.Load() == 0 {
		return
	}
	for i := range v.shards {
		v.shards[i].recs.release()
	}
	v.keptBytes.Store(0)
}

// tableLoad is the fill of the table (or of the bit array).
func (v *visitedSet) tableLoad() float64 {
	if v.mode == modeBits {
		return v.bits.fill()
	}
	return float64(v.count()) / float64(v.tab.Load().cap)
}

// account adds grown bytes to a shared counter, touching it only when
// memory was actually allocated: an unconditional atomic add per state
// would bounce its cache line between cores.
func (v *visitedSet) account(counter *atomic.Int64, grown int64) {
	if grown != 0 {
		counter.Add(grown)
	}
}
