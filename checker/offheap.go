package checker

import (
	"sync"
	"unsafe"
)

// offHeap allocates the large pointer-free blocks of a run (the table,
// the chunks of encodings and parent records) outside the Go heap, and
// frees them all when the run ends.
//
// Why: these blocks are most of a run's memory and hold no pointers, so
// the garbage collector has nothing to do with them except count them.
// Counted, they set its pace: with GOGC=100 the heap may grow to twice
// its live size before a collection, so a run that stores 150 MB and
// whose System allocates a little per state (a decoded state, a
// successor buffer) peaked near 300 MB. Outside the heap they are charged
// exactly once, and the collector paces itself by what the System
// allocates.
//
// Blocks below offHeapMin stay on the Go heap (a mapping costs a system
// call and a page, too much for the first chunks of a small run). Where
// the platform has no anonymous mappings, and under the race detector
// (race_on.go), every block is on the heap.
// Memory that fails to map is also taken from the heap. A block must not
// be used after free or freeAll; Check frees everything after it has
// built its result, once no worker runs.
type offHeap struct {
	mu     sync.Mutex
	mapped map[*byte][]byte // mapped blocks by base address
	bytes  int64            // mapped bytes (diagnostics)
}

// offHeapMin is the smallest block that is mapped.
const offHeapMin = 256 << 10

// alloc returns n zeroed bytes.
func (h *offHeap) alloc(n int) []byte {
	if h == nil || n < offHeapMin || raceEnabled {
		return make([]byte, n)
	}
	b, ok := mapAnon(n)
	if !ok {
		return make([]byte, n)
	}
	h.mu.Lock()
	if h.mapped == nil {
		h.mapped = make(map[*byte][]byte)
	}
	h.mapped[unsafe.SliceData(b)] = b
	h.bytes += int64(len(b))
	h.mu.Unlock()
	return b
}

// free releases a block alloc returned (heap blocks are left to the
// collector).
func (h *offHeap) free(b []byte) {
	if h == nil || cap(b) == 0 {
		return
	}
	base := unsafe.SliceData(b)
	h.mu.Lock()
	m, ok := h.mapped[base]
	if ok {
		delete(h.mapped, base)
		h.bytes -= int64(len(m))
	}
	h.mu.Unlock()
	if ok {
		unmap(m)
	}
}

// freeAll releases every mapped block.
func (h *offHeap) freeAll() {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, m := range h.mapped {
		unmap(m)
	}
	h.mapped, h.bytes = nil, 0
}

// allocSlice returns n zeroed elements of the pointer-free type T from h
// (on the heap for small n, as alloc).
func allocSlice[T any](h *offHeap, n int) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if h == nil || n*size < offHeapMin || raceEnabled {
		return make([]T, n)
	}
	b := h.alloc(n * size)
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// allocRandom is allocSlice for a block read at random, which asks for
// huge pages when it is mapped (adviseRandom).
func allocRandom[T any](h *offHeap, n int) []T {
	s := allocSlice[T](h, n)
	var zero T
	if b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero))); len(b) >= hugePageMin {
		adviseRandom(b)
	}
	return s
}

// hugePageMin is the smallest block worth huge pages.
const hugePageMin = 4 << 20

// freeSlice releases a slice allocSlice returned.
func freeSlice[T any](h *offHeap, s []T) {
	if cap(s) == 0 {
		return
	}
	var zero T
	h.free(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), cap(s)*int(unsafe.Sizeof(zero))))
}

// discardable reports whether s is (the start of) a block alloc mapped,
// whose pages discard may give back.
func discardable[T any](h *offHeap, s []T) bool {
	if h == nil || cap(s) == 0 {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.mapped[(*byte)(unsafe.Pointer(unsafe.SliceData(s)))]
	return ok
}

// discard gives the whole pages of s, part of a block for which
// discardable holds, back to the system: they read as zeros afterwards,
// and take memory again only when written.
func discard[T any](s []T) {
	var zero T
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
	const page = 4 << 10
	start := (uintptr(unsafe.Pointer(unsafe.SliceData(b))) + page - 1) &^ (page - 1)
	end := (uintptr(unsafe.Pointer(unsafe.SliceData(b))) + uintptr(len(b))) &^ (page - 1)
	if end <= start {
		return
	}
	off := start - uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	releasePages(b[off : off+(end-start)])
}
