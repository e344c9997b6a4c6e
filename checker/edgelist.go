package checker

// edgeList is a worker's recorded transitions (for cycle properties) in
// chunks that double up to edgeChunkMax, so that recording never copies
// what it holds: one edge per transition made a single growing slice a
// visible share of cycle-property runs. With mem set, the large chunks
// are outside the Go heap, and the cycle analysis frees each as it
// consumes it (freeChunk).
type edgeList struct {
	chunks [][]edge
	n      int
	mem    *offHeap
}

const edgeChunkMin, edgeChunkMax = 1 << 8, 1 << 16

// edgeBytes is the size of a recorded edge.
const edgeBytes = 24

func (l *edgeList) len() int { return l.n }

// push appends e.
func (l *edgeList) push(e edge) {
	if len(l.chunks) == 0 || len(l.chunks[len(l.chunks)-1]) == cap(l.chunks[len(l.chunks)-1]) {
		size := edgeChunkMin
		if k := len(l.chunks); k > 0 {
			size = min(2*cap(l.chunks[k-1]), edgeChunkMax)
		}
		l.chunks = append(l.chunks, allocSlice[edge](l.mem, size)[:0])
	}
	last := &l.chunks[len(l.chunks)-1]
	*last = append(*last, e)
	l.n++
}

// truncate keeps the first n edges.
func (l *edgeList) truncate(n int) {
	for l.n > n {
		last := &l.chunks[len(l.chunks)-1]
		drop := min(len(*last), l.n-n)
		*last = (*last)[:len(*last)-drop]
		l.n -= drop
		if len(*last) == 0 {
			freeSlice(l.mem, *last)
			l.chunks = l.chunks[:len(l.chunks)-1]
		}
	}
}

// appendTo appends every edge, in order, to dst.
func (l *edgeList) appendTo(dst []edge) []edge {
	for _, c := range l.chunks {
		dst = append(dst, c...)
	}
	return dst
}

// freeChunk frees chunk k; its edges are gone.
func (l *edgeList) freeChunk(k int) {
	freeSlice(l.mem, l.chunks[k])
	l.chunks[k] = nil
}

// release frees the edges.
func (l *edgeList) release() {
	for k := range l.chunks {
		l.freeChunk(k)
	}
	l.chunks, l.n = nil, 0
}
