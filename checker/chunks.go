package checker

import "unsafe"

// chunkList is a growable array of pointer-free elements with one owner,
// in chunks laid out as a slab's (slabLocate): growth never copies, and
// chunks of 256 KiB and more come from mem, outside the Go heap, so that
// what a frontier or an edge list holds is returned to the system when it
// is released rather than left to the collector's pacing. Chunks above
// the one being filled are freed when the list shrinks (truncate), so a
// list that shrank holds at most one spare chunk.
type chunkList[T any] struct {
	chunks [][]T // chunk k holds slabChunkLen(k) elements
	n      int
	mem    *offHeap
}

func (l *chunkList[T]) len() int { return l.n }

// push appends v.
func (l *chunkList[T]) push(v T) {
	k, off := slabLocate(l.n)
	if k == len(l.chunks) {
		l.chunks = append(l.chunks, allocSlice[T](l.mem, slabChunkLen(k)))
	}
	l.chunks[k][off] = v
	l.n++
}

// at is the address of element i < len.
func (l *chunkList[T]) at(i int) *T {
	k, off := slabLocate(i)
	return &l.chunks[k][off]
}

// truncate keeps the first n elements and frees the chunks beyond the
// one that element n would go to and one spare.
func (l *chunkList[T]) truncate(n int) {
	l.n = min(l.n, n)
	k, _ := slabLocate(l.n)
	for len(l.chunks) > k+2 {
		last := len(l.chunks) - 1
		freeSlice(l.mem, l.chunks[last])
		l.chunks[last] = nil
		l.chunks = l.chunks[:last]
	}
}

// release frees every chunk.
func (l *chunkList[T]) release() {
	for k, c := range l.chunks {
		freeSlice(l.mem, c)
		l.chunks[k] = nil
	}
	l.chunks, l.n = l.chunks[:0], 0
}

// recycle empties the list, keeping the chunks on the Go heap (the
// small first ones) for the next pushes and freeing the mapped ones.
func (l *chunkList[T]) recycle() {
	var zero T
	size := int(unsafe.Sizeof(zero))
	keep := 0
	for keep < len(l.chunks) && len(l.chunks[keep])*size < offHeapMin {
		keep++
	}
	for k := keep; k < len(l.chunks); k++ {
		freeSlice(l.mem, l.chunks[k])
		l.chunks[k] = nil
	}
	l.chunks, l.n = l.chunks[:keep], 0
}

// chunkLen is how many elements chunk k holds (all of them but in the
// last chunk in use).
func (l *chunkList[T]) chunkLen(k int) int {
	return min(slabChunkLen(k), max(l.n-chunkStart(k), 0))
}

// bytes is the memory the chunks take.
func (l *chunkList[T]) bytes() int64 {
	var zero T
	size := int64(unsafe.Sizeof(zero))
	var n int64
	for k := range l.chunks {
		n += int64(slabChunkLen(k)) * size
	}
	return n
}

// chunkStart is the index of the first element of chunk k.
func chunkStart(k int) int {
	if k < slabGeoChunks {
		return 1<<(slabFirstBits+k) - 1<<slabFirstBits
	}
	return slabGeoTotal + (k-slabGeoChunks)<<slabMaxBits
}
