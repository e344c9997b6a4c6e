package checker

// frontier is a queue (BFS level) or stack (DFS) of states waiting to be
// expanded, kept as concrete encodings: no heap object per state. The
// encodings live in chunks that double from frontierFirstChunk up to
// frontierChunkBytes, so a growing frontier never copies the encodings it
// already holds (a single growing buffer spent a quarter of a large run
// in memmove), a pushed encoding stays where it is until reset or pop,
// and a small run (a scaling setup of a few hundred states) allocates a
// few KiB, not a MiB. Only the fixed-size entries grow by copying.
// Chunks are kept across resets for the next level.
//
// A BFS frontier of an Exact run without symmetry holds no copy of the
// encodings at all: a new state's encoding is its key, which the visited
// set stored already, and stored resolves it (pushStored). Such a
// frontier holds only ids, 8 bytes a state.
type frontier struct {
	entries []frontierEntry
	// ids are the states pushStored queued; a frontier holds either ids
	// or entries.
	ids    []stateID
	chunks [][]byte // chunks[cur] is being filled; later ones are spare
	cur    int
	data   int64 // encoding bytes held
	// stored returns the encoding the visited set holds for a state
	// (set when the frontier takes pushStored entries).
	stored func(stateID) []byte
	// mem, if set, holds large ids arrays outside the Go heap.
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

func (f *frontier) len() int { return len(f.entries) + len(f.ids) }

// push appends a state at the given depth (depth is read back by DFS only).
func (f *frontier) push(id stateID, enc []byte, depth int32) {
	c := f.room(len(enc))
	off := len(f.chunks[c])
	f.chunks[c] = append(f.chunks[c], enc...)
	f.entries = append(f.entries, frontierEntry{id: id, chunk: uint32(c), off: uint32(off), len: uint32(len(enc)), depth: depth})
	f.data += int64(len(enc))
}

// room returns the chunk that takes n more bytes, moving on to the next
// (spare or new) chunk when the current one is full.
func (f *frontier) room(n int) int {
	if len(f.chunks) == 0 {
		f.chunks = append(f.chunks, make([]byte, 0, max(frontierFirstChunk, n)))
		f.cur = 0
	}
	if c := f.chunks[f.cur]; cap(c)-len(c) >= n {
		return f.cur
	}
	f.cur++
	switch {
	case f.cur == len(f.chunks):
		size := min(frontierChunkBytes, 2*cap(f.chunks[f.cur-1]))
		f.chunks = append(f.chunks, make([]byte, 0, max(size, n)))
	case cap(f.chunks[f.cur]) < n:
		f.chunks[f.cur] = make([]byte, 0, n)
	default:
		f.chunks[f.cur] = f.chunks[f.cur][:0]
	}
	return f.cur
}

// pushStored appends a state whose encoding the visited set holds (see
// stored); the frontier copies nothing. Its depth is not kept: only DFS
// reads depths back, and DFS does not use stored entries.
func (f *frontier) pushStored(id stateID) {
	if len(f.ids) == cap(f.ids) {
		f.ids = growSlice(f.mem, f.ids, len(f.ids)+1)[:len(f.ids)]
	}
	f.ids = append(f.ids, id)
}

func (f *frontier) item(i int) (stateID, []byte) {
	if len(f.ids) > 0 {
		id := f.ids[i]
		return id, f.stored(id)
	}
	e := &f.entries[i]
	return e.id, f.chunks[e.chunk][e.off : e.off+e.len]
}

// idAt is the id of entry i.
func (f *frontier) idAt(i int) stateID {
	if len(f.ids) > 0 {
		return f.ids[i]
	}
	return f.entries[i].id
}

// replace makes enc the encoding of entry i (the frontier takes no more
// pushes afterwards: a longer encoding goes to the end of the chunks).
func (f *frontier) replace(i int, enc []byte) {
	e := &f.entries[i]
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

// materialize copies the encodings of stored states into the frontier,
// before the visited set drops its encodings (switch to bitstate).
func (f *frontier) materialize() {
	for _, id := range f.ids {
		f.push(id, f.stored(id), 0)
	}
	f.ids = f.ids[:0]
}

// pop removes the last entry; enc aliases the buffer until the next push.
func (f *frontier) pop() (id stateID, enc []byte, depth int32) {
	e := f.entries[len(f.entries)-1]
	f.entries = f.entries[:len(f.entries)-1]
	c := f.chunks[e.chunk]
	enc = c[e.off : e.off+e.len]
	f.chunks[e.chunk] = c[:e.off]
	f.cur = int(e.chunk)
	f.data -= int64(e.len)
	return e.id, enc, e.depth
}

func (f *frontier) reset() {
	f.entries, f.cur, f.data = f.entries[:0], 0, 0
	f.ids = f.ids[:0]
	if len(f.chunks) > 0 {
		f.chunks[0] = f.chunks[0][:0]
	}
}

// contentBytes is the frontier's size by content (what the memory budget
// charges), independent of how its buffers grew.
func (f *frontier) contentBytes() int64 {
	return int64(len(f.entries))*frontierEntryBytes + int64(len(f.ids))*8 + f.data
}
