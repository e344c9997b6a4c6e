package checker

import (
	"encoding/binary"
	"math"
	"sync/atomic"
)

// records holds the encodings one worker stored in Exact mode, by local
// index, with one writer (the owner) and concurrent readers (any worker
// that matches a state against it, once the table published it).
//
// Most Systems encode every state in the same number of bytes, so the
// first encodings are kept as fixed-width records: record i is at a
// position computed from i, with no offset and no length stored, and a
// reader finds it with one memory access. From the first encoding of
// another width on (fixedUntil), encodings go to a length-prefixed arena
// and an offset slab indexed from fixedUntil, so any mix of widths is
// stored. The fixed records' chunks hold slabChunkLen(k) records each,
// as cslab's.
type records struct {
	fixed atomic.Pointer[[][]byte] // chunk directory of fixed records
	// width is the length of the fixed records, set by the first put
	// (widthSet) before any state of the shard is published.
	width    int
	widthSet bool
	// fixedUntil: local indices below it are fixed records, the others
	// are offs[i-fixedUntil] into arena. MaxUint32 while every encoding
	// had the fixed width; it is stored before the first variable record
	// is published, so a reader that was given a published index reads
	// the layout that index was written in.
	fixedUntil atomic.Uint32
	offs       cslab[uint64]
	arena      arena
	mem        *offHeap
	// lastArena is what the last put used, for unput: the arena bytes (0
	// for a fixed record). The writer's, on a line of its own.
	_         cacheLinePad
	lastArena int
	_         cacheLinePad
}

// init prepares empty records whose chunks come from mem.
func (r *records) init(mem *offHeap) {
	r.mem = mem
	r.offs.mem, r.arena.mem = mem, mem
	r.fixedUntil.Store(math.MaxUint32)
}

// put writes key as the record of local index i (the shard's next
// index) and returns the bytes allocated and the bytes the record holds
// (its content, as the memory budget charges it). The record is not
// counted until the caller publishes i; a caller that does not (it lost
// the race for a table slot) takes it back with unput before the next
// put.
func (r *records) put(i uint32, key []byte) (grown, content int64) {
	if !r.widthSet {
		r.width, r.widthSet = len(key), true
	}
	until := r.fixedUntil.Load()
	if i < until && len(key) != r.width {
		r.fixedUntil.Store(i)
		until = i
	}
	if i < until {
		r.lastArena = 0
		k, off := slabLocate(int(i))
		var d [][]byte
		if p := r.fixed.Load(); p != nil {
			d = *p
		}
		if k == len(d) {
			n := slabChunkLen(k) * r.width
			nd := append(d, r.mem.alloc(n))
			r.fixed.Store(&nd)
			d = nd
			grown = int64(n)
		}
		copy(d[k][off*r.width:], key)
		return grown, int64(r.width)
	}
	var hdr [binary.MaxVarintLen64]byte
	h := binary.PutUvarint(hdr[:], uint64(len(key)))
	chunk, off, g := r.arena.reserve(h + len(key))
	copy(r.arena.chunk(chunk)[off:], hdr[:h])
	copy(r.arena.chunk(chunk)[off+h:], key)
	r.offs.n = int(i - until)
	grown = g + r.offs.put(uint64(chunk)<<32|uint64(off), 8)
	r.lastArena = h + len(key)
	return grown, int64(h+len(key)) + 8
}

// unput takes back the record of the last put (no reader can have seen
// it). Chunks it allocated stay for the next put.
func (r *records) unput() {
	r.arena.used -= r.lastArena
	r.lastArena = 0
}

// get is the record of published local index i.
func (r *records) get(i uint32) []byte {
	if until := r.fixedUntil.Load(); i < until {
		k, off := slabLocate(int(i))
		return (*r.fixed.Load())[k][off*r.width : off*r.width+r.width]
	} else {
		i -= until
	}
	off := r.offs.at(int(i))
	p := r.arena.chunk(int(off >> 32))[uint32(off):]
	n, w := binary.Uvarint(p)
	return p[w : w+int(n)]
}

// release frees every record; no other goroutine may be reading.
func (r *records) release() {
	if p := r.fixed.Load(); p != nil {
		for _, c := range *p {
			r.mem.free(c)
		}
	}
	r.fixed.Store(nil)
	r.offs.release()
	r.arena.release()
	r.widthSet = false
	r.fixedUntil.Store(math.MaxUint32)
}

// releaseBelow keeps the records from local index k to n (the states
// stored; records beyond were rolled back) and frees the rest: the
// chunks that hold none of them, and the pages beyond record n-1 of the
// chunk that holds it. It returns the memory the kept chunks take; k >= n
// frees every record. No other goroutine may be reading.
func (r *records) releaseBelow(k, n uint32) (kept int64) {
	if k >= n {
		r.release()
		return 0
	}
	until := min(r.fixedUntil.Load(), n) // records below it are fixed
	if p := r.fixed.Load(); p != nil {
		d := *p
		for c := range d {
			start, end := uint32(chunkStart(c)), uint32(chunkStart(c)+slabChunkLen(c))
			switch {
			case d[c] == nil:
			case end <= k || start >= until:
				r.mem.free(d[c])
				d[c] = nil
			default:
				used := int(min(until, end)-start) * r.width
				if discardable(r.mem, d[c]) {
					discard(d[c][used:])
				}
				kept += int64(used)
			}
		}
	}
	if n <= until {
		r.offs.release()
		r.arena.release()
		return kept
	}
	// Records until..n-1 are in the arena, located by offs[i-until].
	first, last := max(k, until)-until, n-1-until
	if p := r.offs.dir.Load(); p != nil {
		d := *p
		for c := range d {
			start, end := uint32(chunkStart(c)), uint32(chunkStart(c)+slabChunkLen(c))
			if d[c] != nil && (end <= first || start > last) {
				freeSlice(r.mem, d[c])
				d[c] = nil
			}
		}
	}
	kept += 8 * int64(last-first+1)
	firstChunk, lastChunk := int(r.offs.at(int(first))>>32), int(r.offs.at(int(last))>>32)
	rec := r.get(n - 1)
	lastEnd := int(r.offs.at(int(last))&math.MaxUint32) + binary.PutUvarint(make([]byte, binary.MaxVarintLen64), uint64(len(rec))) + len(rec)
	if p := r.arena.dir.Load(); p != nil {
		d := *p
		for c := range d {
			switch {
			case c < firstChunk || c > lastChunk:
				r.mem.free(d[c])
				d[c] = nil
			case c == lastChunk:
				if discardable(r.mem, d[c]) {
					discard(d[c][lastEnd:])
				}
				kept += int64(lastEnd)
			default:
				kept += int64(len(d[c]))
			}
		}
	}
	return kept
}
