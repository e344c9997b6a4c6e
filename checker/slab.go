package checker

import (
	"math/bits"
	"sync/atomic"
)

// A slab stores elements in chunks, so that growth never copies and never
// leaves more than one chunk of slack: the first chunks grow
// geometrically (small runs stay small), later chunks are fixed-size. A
// record is then an index rather than a heap object.
const (
	slabFirstBits = 6  // first chunk holds 2^6 elements
	slabMaxBits   = 16 // chunks stop growing at 2^16 elements (off the heap from 2^15 8-byte ones)
	slabGeoChunks = slabMaxBits - slabFirstBits + 1
	// slabGeoTotal is the number of elements held by the geometric chunks.
	slabGeoTotal = (1 << (slabMaxBits + 1)) - (1 << slabFirstBits)
)

// slabLocate maps an element index to (chunk, offset).
func slabLocate(i int) (int, int) {
	if i < slabGeoTotal {
		j := i + 1<<slabFirstBits
		k := bits.Len(uint(j)) - 1 - slabFirstBits
		return k, j - (1 << (slabFirstBits + k))
	}
	i -= slabGeoTotal
	return slabGeoChunks + i>>slabMaxBits, i & (1<<slabMaxBits - 1)
}

func slabChunkLen(k int) int {
	if k < slabGeoChunks {
		return 1 << (slabFirstBits + k)
	}
	return 1 << slabMaxBits
}

// cslab is a slab with one writer whose published elements other
// goroutines may read concurrently: the chunk directory is replaced
// atomically when it grows, and elements are published by the caller
// (after they are written) through some atomic store. Its chunks come
// from mem (T must hold no pointers).
//
// The directory, which other workers read, and the count, which the
// writer changes with every element, are kept on separate cache lines:
// sharing one, every read of another worker's element would miss.
type cslab[T any] struct {
	_   cacheLinePad
	dir atomic.Pointer[[][]T]
	_   cacheLinePad
	n   int
	mem *offHeap
	_   cacheLinePad
}

// cacheLinePad separates fields that different cores write and read.
type cacheLinePad struct{ _ [64]byte }

// push appends v and returns the bytes allocated for it (0 or a chunk).
func (s *cslab[T]) push(v T, elemSize int) int64 {
	grown := s.put(v, elemSize)
	s.n++
	return grown
}

// put writes v at index n without counting it: the caller then commits
// it (n++) or leaves the slot to the next put.
func (s *cslab[T]) put(v T, elemSize int) int64 {
	k, off := slabLocate(s.n)
	var d [][]T
	if p := s.dir.Load(); p != nil {
		d = *p
	}
	var grown int64
	if k == len(d) {
		d = s.grow(d, slabChunkLen(k))
		grown = int64(slabChunkLen(k) * elemSize)
	}
	d[k][off] = v
	return grown
}

// grow publishes a directory with one more chunk. It is a function of its
// own so that only a growth allocates: a directory variable whose address
// is taken on some path of push would escape on every call, one heap
// object per stored state.
func (s *cslab[T]) grow(d [][]T, n int) [][]T {
	nd := append(d, allocSlice[T](s.mem, n))
	s.dir.Store(&nd)
	return nd
}

func (s *cslab[T]) at(i int) T {
	k, off := slabLocate(i)
	return (*s.dir.Load())[k][off]
}

// ptr is the address of element i, for the atomic operations of callers
// that share elements between goroutines.
func (s *cslab[T]) ptr(i int) *T {
	k, off := slabLocate(i)
	return &(*s.dir.Load())[k][off]
}

// truncate drops the elements from n on (their chunks stay allocated).
// No other goroutine may be reading.
func (s *cslab[T]) truncate(n int) { s.n = min(s.n, n) }

// release frees the chunks; no other goroutine may be reading.
func (s *cslab[T]) release() {
	if p := s.dir.Load(); p != nil {
		for _, c := range *p {
			freeSlice(s.mem, c)
		}
	}
	s.dir.Store(nil)
	s.n = 0
}

// arena holds variable-length records in chunks, with one writer and
// concurrent readers like cslab.
type arena struct {
	_    cacheLinePad
	dir  atomic.Pointer[[][]byte]
	_    cacheLinePad
	used int // bytes used in the last chunk
	mem  *offHeap
	_    cacheLinePad
}

const arenaChunkMin, arenaChunkMax = 1 << 12, 1 << 20

// reserve makes room for n bytes and returns where they go.
func (a *arena) reserve(n int) (chunk, off int, grown int64) {
	var d [][]byte
	if p := a.dir.Load(); p != nil {
		d = *p
	}
	last := len(d) - 1
	if last < 0 || len(d[last])-a.used < n {
		size := arenaChunkMin
		if last >= 0 {
			size = min(2*len(d[last]), arenaChunkMax)
		}
		size = max(size, n)
		a.grow(d, size)
		a.used = 0
		last++
		grown = int64(size)
	}
	off = a.used
	a.used += n
	return last, off, grown
}

// grow publishes a directory with one more chunk (see cslab.grow).
func (a *arena) grow(d [][]byte, size int) {
	nd := append(d, a.mem.alloc(size))
	a.dir.Store(&nd)
}

func (a *arena) chunk(k int) []byte { return (*a.dir.Load())[k] }

// release frees the chunks; no other goroutine may be reading.
func (a *arena) release() {
	if p := a.dir.Load(); p != nil {
		for _, c := range *p {
			a.mem.free(c)
		}
	}
	a.dir.Store(nil)
	a.used = 0
}
