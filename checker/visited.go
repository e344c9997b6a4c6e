package checker

import (
	"bytes"
	"encoding/binary"
	"sync"
	"sync/atomic"
	"unsafe"
)

// A stateID names a stored state: shard<<32 | index within the shard. It
// fits in 40 bits so that a parent record packs parent and successor
// ordinal into one uint64.
type stateID uint64

const (
	idBits       = 40
	noState      = stateID(1<<idBits - 1)
	ordinalBits  = 64 - idBits
	maxOrdinal   = 1<<ordinalBits - 1
	maxShardBits = 8
	// localLimit bounds states per shard in table modes: an index slot
	// holds an 8-bit tag and a 24-bit local index.
	localLimit = 1<<24 - 1
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

// shard is one lock-protected part of the visited set. States are dense
// local indices; the open-addressing index maps a fingerprint to an index
// via 32-bit slots (8-bit tag | index+1), so a probe rarely touches the
// fingerprint or encoding slab of a different state.
type shard struct {
	mu      sync.Mutex
	index   []uint32
	n       uint32            // states stored in this shard
	level   uint32            // n when the current BFS level started (POR proviso)
	fps     slab[fingerprint] // modeHash
	offs    slab[uint64]      // modeExact: arena offset (chunk<<32 | offset)
	arena   [][]byte          // modeExact: uvarint length + encoding
	parents slab[parentRecord]
	_       [64]byte // keep shards on separate cache lines
}

// visitedSet is the sharded concurrent set of stored states shared by all
// workers, with each state's parent record.
type visitedSet struct {
	mode       storeMode
	shards     []shard
	shardShift uint // shard = fp.hi >> shardShift
	bits       *bitArray
	concurrent bool

	visitedBytes atomic.Int64 // index, fingerprints, arena, or bit array
	parentBytes  atomic.Int64
}

const arenaChunkMin, arenaChunkMax = 1 << 12, 1 << 18

func newVisitedSet(mode storeMode, shardBits uint, concurrent bool, nbits uint64, hashes uint) *visitedSet {
	v := &visitedSet{
		mode:       mode,
		shards:     make([]shard, 1<<shardBits),
		shardShift: 64 - shardBits,
		concurrent: concurrent,
	}
	if mode == modeBits {
		v.bits = newBitArray(nbits, hashes)
		v.visitedBytes.Store(v.bits.bytes())
	}
	return v
}

func (v *visitedSet) shardOf(f fingerprint) int {
	if v.shardShift >= 64 {
		return 0
	}
	return int(f.hi >> v.shardShift)
}

func (v *visitedSet) lock(s *shard) {
	if v.concurrent {
		s.mu.Lock()
	}
}

func (v *visitedSet) unlock(s *shard) {
	if v.concurrent {
		s.mu.Unlock()
	}
}

// insertOutcome is what insert found.
type insertOutcome uint8

const (
	outcomeMatched insertOutcome = iota // already stored
	outcomeNew                          // stored now
	outcomeFull                         // shard full: not stored
)

// insert stores the state with fingerprint f and key encoding key unless
// it is already there. own is the caller's worker index: in bitstate mode
// parent records go to the worker's own shard (no lock contention). The
// returned id is noState when a bitstate match hides which state matched.
func (v *visitedSet) insert(f fingerprint, key []byte, rec parentRecord, own int) (stateID, insertOutcome) {
	if v.mode == modeBits {
		if v.bits.testAndSet(f) {
			return noState, outcomeMatched
		}
		s := &v.shards[own]
		v.lock(s)
		local := s.n
		s.n++
		v.account(&v.parentBytes, s.parents.push(rec, 8))
		v.unlock(s)
		return makeID(own, local), outcomeNew
	}
	si := v.shardOf(f)
	s := &v.shards[si]
	v.lock(s)
	defer v.unlock(s)
	if s.index == nil {
		v.growIndex(s)
	}
	mask := uint64(len(s.index) - 1)
	tag := f.tag()
	for slot := f.lo & mask; ; slot = (slot + 1) & mask {
		e := s.index[slot]
		if e == 0 {
			if s.n >= localLimit {
				return noState, outcomeFull
			}
			local := s.n
			v.storeKey(s, f, key)
			v.account(&v.parentBytes, s.parents.push(rec, 8))
			s.index[slot] = tag<<24 | (local + 1)
			s.n++
			if uint64(s.n)*5 > uint64(len(s.index))*4 { // load > 0.8
				v.growIndex(s)
			}
			return makeID(si, local), outcomeNew
		}
		if e>>24 == tag {
			local := e&localLimit - 1
			if v.keyEqual(s, local, f, key) {
				return makeID(si, local), outcomeMatched
			}
		}
	}
}

// lookup reports whether the state is stored, and its id when known.
func (v *visitedSet) lookup(f fingerprint, key []byte) (stateID, bool) {
	if v.mode == modeBits {
		return noState, v.bits.test(f)
	}
	si := v.shardOf(f)
	s := &v.shards[si]
	v.lock(s)
	defer v.unlock(s)
	if s.index == nil {
		return noState, false
	}
	mask := uint64(len(s.index) - 1)
	tag := f.tag()
	for slot := f.lo & mask; ; slot = (slot + 1) & mask {
		e := s.index[slot]
		if e == 0 {
			return noState, false
		}
		if e>>24 == tag {
			local := e&localLimit - 1
			if v.keyEqual(s, local, f, key) {
				return makeID(si, local), true
			}
		}
	}
}

func (v *visitedSet) keyEqual(s *shard, local uint32, f fingerprint, key []byte) bool {
	if v.mode == modeHash {
		return *s.fps.ptr(int(local)) == f
	}
	return bytes.Equal(s.encoding(local), key)
}

func (s *shard) encoding(local uint32) []byte {
	off := s.offs.at(int(local))
	chunk := s.arena[off>>32]
	p := chunk[uint32(off):]
	n, w := binary.Uvarint(p)
	return p[w : w+int(n)]
}

func (v *visitedSet) storeKey(s *shard, f fingerprint, key []byte) {
	if v.mode == modeHash {
		v.account(&v.visitedBytes, s.fps.push(f, int(unsafe.Sizeof(f))))
		return
	}
	need := binary.MaxVarintLen64 + len(key)
	last := len(s.arena) - 1
	if last < 0 || cap(s.arena[last])-len(s.arena[last]) < need {
		size := arenaChunkMin
		if last >= 0 {
			size = min(2*cap(s.arena[last]), arenaChunkMax)
		}
		size = max(size, need)
		s.arena = append(s.arena, make([]byte, 0, size))
		v.visitedBytes.Add(int64(size))
		last++
	}
	c := s.arena[last]
	v.account(&v.visitedBytes, s.offs.push(uint64(last)<<32|uint64(len(c)), 8))
	c = binary.AppendUvarint(c, uint64(len(key)))
	s.arena[last] = append(c, key...)
}

// growIndex doubles the shard's index and reinserts every state.
func (v *visitedSet) growIndex(s *shard) {
	size := 64
	if s.index != nil {
		size = 2 * len(s.index)
	}
	v.visitedBytes.Add(int64(4 * (size - len(s.index))))
	s.index = make([]uint32, size)
	mask := uint64(size - 1)
	for local := uint32(0); local < s.n; local++ {
		f := v.storedFingerprint(s, local)
		slot := f.lo & mask
		for s.index[slot] != 0 {
			slot = (slot + 1) & mask
		}
		s.index[slot] = f.tag()<<24 | (local + 1)
	}
}

func (v *visitedSet) storedFingerprint(s *shard, local uint32) fingerprint {
	if v.mode == modeHash {
		return s.fps.at(int(local))
	}
	return fingerprintOf(s.encoding(local))
}

func (v *visitedSet) parentOf(id stateID) parentRecord {
	s := &v.shards[id.shard()]
	v.lock(s)
	defer v.unlock(s)
	return s.parents.at(int(id.local()))
}

// keyMatches reports whether key is the stored key of id; ok is false when
// the storage cannot tell (bitstate).
func (v *visitedSet) keyMatches(id stateID, key []byte) (match, ok bool) {
	if v.mode == modeBits {
		return false, false
	}
	s := &v.shards[id.shard()]
	v.lock(s)
	defer v.unlock(s)
	return v.keyEqual(s, id.local(), fingerprintOf(key), key), true
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

func (v *visitedSet) count() int64 {
	var n int64
	for i := range v.shards {
		n += int64(v.shards[i].n)
	}
	return n
}

// switchToBits replaces the table by a bit array holding every stored
// fingerprint and frees the table. Parent records (and so traces) survive.
// It must be called while no worker runs.
func (v *visitedSet) switchToBits(nbits uint64, hashes uint) {
	b := newBitArray(nbits, hashes)
	for i := range v.shards {
		s := &v.shards[i]
		for local := uint32(0); local < s.n; local++ {
			b.testAndSet(v.storedFingerprint(s, local))
		}
		s.index = nil
		s.fps.release()
		s.offs.release()
		s.arena = nil
	}
	v.bits = b
	v.mode = modeBits
	v.visitedBytes.Store(b.bytes())
}

// tableLoad is the mean fill of the index (or of the bit array).
func (v *visitedSet) tableLoad() float64 {
	if v.mode == modeBits {
		return v.bits.fill()
	}
	var used, slots int64
	for i := range v.shards {
		used += int64(v.shards[i].n)
		slots += int64(len(v.shards[i].index))
	}
	if slots == 0 {
		return 0
	}
	return float64(used) / float64(slots)
}

// account adds grown bytes to a shared counter, touching it only when
// memory was actually allocated: an unconditional atomic add per state
// would bounce its cache line between cores.
func (v *visitedSet) account(counter *atomic.Int64, grown int64) {
	if grown != 0 {
		counter.Add(grown)
	}
}
