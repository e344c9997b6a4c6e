package checker

import "math/bits"

// slab is an append-only array of T stored in chunks, so that growth never
// copies and never leaves more than one chunk of slack. The first chunks
// grow geometrically (small runs stay small); later chunks are fixed-size.
// It replaces per-state heap objects: a state's record is an index.
type slab[T any] struct {
	chunks [][]T
	n      int
}

const (
	slabFirstBits = 6  // first chunk holds 2^6 elements
	slabMaxBits   = 13 // chunks stop growing at 2^13 elements
	slabGeoChunks = slabMaxBits - slabFirstBits + 1
	// slabGeoTotal is the number of elements held by the geometric chunks.
	slabGeoTotal = (1 << (slabMaxBits + 1)) - (1 << slabFirstBits)
)

// locate maps an element index to (chunk, offset).
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

// push appends v and returns the number of bytes newly allocated (0 unless a
// chunk was added), for memory accounting.
func (s *slab[T]) push(v T, elemSize int) int64 {
	k, off := slabLocate(s.n)
	var grown int64
	if k == len(s.chunks) {
		s.chunks = append(s.chunks, make([]T, slabChunkLen(k)))
		grown = int64(slabChunkLen(k) * elemSize)
	}
	s.chunks[k][off] = v
	s.n++
	return grown
}

func (s *slab[T]) at(i int) T {
	k, off := slabLocate(i)
	return s.chunks[k][off]
}

func (s *slab[T]) ptr(i int) *T {
	k, off := slabLocate(i)
	return &s.chunks[k][off]
}

func (s *slab[T]) len() int { return s.n }

// release drops all chunks.
func (s *slab[T]) release() { s.chunks, s.n = nil, 0 }
