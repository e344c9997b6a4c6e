package checker

// frontier is a queue (BFS level) or stack (DFS) of states waiting to be
// expanded, kept as concrete encodings: no heap object per state. The
// encodings live in chunks that double from frontierFirstChunk up to
// frontierChunkBytes, so a growing frontier never copies the encodings it
// already holds (a single growing buffer spent a quarter of a large run
// in memmove), a pushed encoding stays where it is until reset or pop,
// and a small run (a scaling setup of a few hundred states) allocates a
// few KiB, not a MiB. The fixed-size entries are in chunks too
// (chunkList). With mem set, the large chunks are outside the Go heap and
// release returns them at once: a BFS level's frontier, as large as a
// good part of the visited set, would otherwise be garbage for the
// collector to pace itself by. reset keeps the chunks for reuse (the
// scratch frontiers of an expansion); a stack that shrinks frees the
// chunks above its top but one.
//
// A BFS frontier of an Exact run without symmetry holds no copy of the
// encodings at all: a new state's encoding is its key, which the visited
// set stored already, and stored resolves it (pushStored). Such a
// frontier holds only ids, 8 bytes a state.
type frontier struct {
	entries chunkList[frontierEntry]
	// ids are the states pushStored queued. They come before the entries:
	// a frontier takes pushStored entries until the visited set stops
	// storing encodings (a switch to bitstate), and copies from then on.
	ids    chunkList[stateID]
	chunks [][]byte // chunks[cur] is being filled; later ones are spare
	cur    int
	data   int64 // encoding bytes held
	// stored returns the encoding the visited set holds for a state
	// (set when the frontier takes pushStored entries).
	stored func(stateID) []byte
	// mem, if set, holds the large chunks outside the Go heap.
	mem *offHeap
}

// frontierEntry locates one state's encoding.
type frontierEntry struct {
	id       stateID
	chunk    uint32
	off, len uint32
	depth    int32
}

const (
	frontierFirstChunk = 4 << 10
	frontierChunkBytes = 1 << 20
	frontierEntryBytes = 24
)

// setMem makes the frontier take its large chunks from mem.
func (f *frontier) setMem(mem *offHeap) {
	f.mem, f.entries.mem, f.ids.mem = mem, mem, mem
}

func (f *frontier) len() int { return f.entries.len() + f.ids.len() }

// push appends a state at the given depth (depth is read back by DFS only).
func (f *frontier) push(id stateID, enc []byte, depth int32) {
	c := f.room(len(enc))
	off := len(f.chunks[c])
	f.chunks[c] = append(f.chunks[c], enc...)
	f.entries.push(frontierEntry{id: id, chunk: uint32(c), off: uint32(off), len: uint32(len(enc)), depth: depth})
	f.data += int64(len(enc))
}

// room returns the chunk that takes n more bytes, moving on to the next
// (spare or new) chunk when the current one is full.
func (f *frontier) room(n int) int {
	if len(f.chunks) == 0 {
		f.chunks = append(f.chunks, f.mem.alloc(max(frontierFirstChunk, n))[:0])
		f.cur = 0
	}
	if c := f.chunks[f.cur]; cap(c)-len(c) >= n {
		return f.cur
	}
	f.cur++
	switch {
	case f.cur == len(f.chunks):
		size := min(frontierChunkBytes, 2*cap(f.chunks[f.cur-1]))
		f.chunks = append(f.chunks, f.mem.alloc(max(size, n))[:0])
	case cap(f.chunks[f.cur]) < n:
		f.mem.free(f.chunks[f.cur][:cap(f.chunks[f.cur])])
		f.chunks[f.cur] = f.mem.alloc(n)[:0]
	default:
		f.chunks[f.cur] = f.chunks[f.cur][:0]
	}
	return f.cur
}

// pushStored appends a state whose encoding the visited set holds (see
// stored); the frontier copies nothing. Its depth is not kept: only DFS
// reads depths back, and DFS does not use stored entries.
func (f *frontier) pushStored(id stateID) { f.ids.push(id) }

func (f *frontier) item(i int) (stateID, []byte) {
	if i < f.ids.n {
		id := *f.ids.at(i)
		return id, f.stored(id)
	}
	e := f.entries.at(i - f.ids.n)
	return e.id, f.chunks[e.chunk][e.off : e.off+e.len]
}

// idAt is the id of entry i.
func (f *frontier) idAt(i int) stateID {
	if i < f.ids.n {
		return *f.ids.at(i)
	}
	return f.entries.at(i - f.ids.n).id
}

// replace makes enc the encoding of entry i (the frontier takes no more
// pushes afterwards: a longer encoding goes to the end of the chunks).
func (f *frontier) replace(i int, enc []byte) {
	e := f.entries.at(i - f.ids.n)
	f.data += int64(len(enc)) - int64(e.len)
	if len(enc) <= int(e.len) {
		copy(f.chunks[e.chunk][e.off:], enc)
		e.len = uint32(len(enc))
		return
	}
	c := f.room(len(enc))
	e.chunk, e.off, e.len = uint32(c), uint32(len(f.chunks[c])), uint32(len(enc))
	f.chunks[c] = append(f.chunks[c], enc...)
}

// minStored is, per shard, the smallest local index of the stored states
// queued (math.MaxUint32 for a shard with none).
func (f *frontier) minStored(shards []uint32) {
	for i := range f.ids.n {
		id := *f.ids.at(i)
		shards[id.shard()] = min(shards[id.shard()], id.local())
	}
}

// pop removes the last entry; enc aliases the buffer until the next push.
func (f *frontier) pop() (id stateID, enc []byte, depth int32) {
	e := *f.entries.at(f.entries.n - 1)
	f.entries.truncate(f.entries.n - 1)
	c := f.chunks[e.chunk]
	enc = c[e.off : e.off+e.len]
	f.chunks[e.chunk] = c[:e.off]
	f.cur = int(e.chunk)
	// Two chunks above the top: the higher one is freed. (enc is in
	// chunk cur, which stays.)
	if last := len(f.chunks) - 1; last > f.cur+1 {
		f.mem.free(f.chunks[last][:cap(f.chunks[last])])
		f.chunks[last] = nil
		f.chunks = f.chunks[:last]
	}
	f.data -= int64(e.len)
	return e.id, enc, e.depth
}

// reset empties the frontier and keeps its chunks for the next pushes.
func (f *frontier) reset() {
	f.entries.truncate(0)
	f.ids.truncate(0)
	f.cur, f.data = 0, 0
	if len(f.chunks) > 0 {
		f.chunks[0] = f.chunks[0][:0]
	}
}

// release empties the frontier and frees its chunks.
func (f *frontier) release() {
	f.entries.release()
	f.ids.release()
	for i, c := range f.chunks {
		f.mem.free(c[:cap(c)])
		f.chunks[i] = nil
	}
	f.chunks, f.cur, f.data = f.chunks[:0], 0, 0
}

// recycle is release for a frontier that takes pushes again (the next
// BFS level's): the chunks on the Go heap, the small first ones, are
// kept, and the mapped ones freed. A run of many small levels otherwise
// allocates (and zeroes) the same few chunks at every level.
func (f *frontier) recycle() {
	f.entries.recycle()
	f.ids.recycle()
	keep := 0
	for keep < len(f.chunks) && cap(f.chunks[keep]) < offHeapMin {
		keep++
	}
	for i := keep; i < len(f.chunks); i++ {
		f.mem.free(f.chunks[i][:cap(f.chunks[i])])
		f.chunks[i] = nil
	}
	f.chunks, f.cur, f.data = f.chunks[:keep], 0, 0
	if keep > 0 {
		f.chunks[0] = f.chunks[0][:0]
	}
}

// contentBytes is the frontier's size by content (what the memory budget
// charges), independent of how its buffers grew.
func (f *frontier) contentBytes() int64 {
	return int64(f.entries.len())*frontierEntryBytes + int64(f.ids.len())*8 + f.data
}
