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
// set stored already, and stored resolves it (pushStored entries).
type frontier struct {
	entries []frontierEntry
	chunks  [][]byte // chunks[cur] is being filled; later ones are spare
	cur     int
	data    int64 // encoding bytes held
	// stored returns the encoding the visited set holds for a state
	// (set when the frontier takes pushStored entries).
	stored func(stateID) []byte
}

// frontierEntry locates one state's encoding.
type frontierEntry struct {
	id       stateID
	chunk    uint32
	off, len uint32
	depth    int32
}

// storedChunk is the chunk of an entry whose encoding the visited set
// holds.
const storedChunk = ^uint32(0)

const (
	frontierFirstChunk = 4 << 10
	frontierChunkBytes = 1 << 20
	frontierEntryBytes = 24
)

func (f *frontier) len() int { return len(f.entries) }

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
// stored); the frontier copies nothing.
func (f *frontier) pushStored(id stateID, depth int32) {
	f.entries = append(f.entries, frontierEntry{id: id, chunk: storedChunk, depth: depth})
}

func (f *frontier) item(i int) (stateID, []byte) {
	e := &f.entries[i]
	if e.chunk == storedChunk {
		return e.id, f.stored(e.id)
	}
	return e.id, f.chunks[e.chunk][e.off : e.off+e.len]
}

// materialize copies the encodings of stored entries into the frontier,
// before the visited set drops its encodings (switch to bitstate).
func (f *frontier) materialize() {
	for i := range f.entries {
		e := &f.entries[i]
		if e.chunk != storedChunk {
			continue
		}
		enc := f.stored(e.id)
		c := f.room(len(enc))
		off := len(f.chunks[c])
		f.chunks[c] = append(f.chunks[c], enc...)
		e.chunk, e.off, e.len = uint32(c), uint32(off), uint32(len(enc))
		f.data += int64(len(enc))
	}
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
	if len(f.chunks) > 0 {
		f.chunks[0] = f.chunks[0][:0]
	}
}

// bytes is the frontier's allocated size.
func (f *frontier) bytes() int64 {
	n := int64(cap(f.entries)) * frontierEntryBytes
	for _, c := range f.chunks {
		n += int64(cap(c))
	}
	return n
}

// contentBytes is the frontier's size by content (what the memory budget
// charges), independent of how its buffers grew.
func (f *frontier) contentBytes() int64 {
	return int64(len(f.entries))*frontierEntryBytes + f.data
}
