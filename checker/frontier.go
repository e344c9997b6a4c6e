package checker

// frontier is a queue (BFS level) or stack (DFS) of states waiting to be
// expanded, kept as concrete encodings: no heap object per state. The
// encodings live in fixed-size chunks and the entries in fixed-size
// blocks, so a growing frontier never copies what it already holds (a
// single growing buffer spent a quarter of a large run in memmove) and a
// pushed encoding stays where it is until reset or pop. Chunks and blocks
// are kept across resets for the next level.
type frontier struct {
	blocks [][]frontierEntry // each frontierBlockLen long
	n      int
	chunks [][]byte // chunks[cur] is being filled; later ones are spare
	cur    int
	data   int64 // encoding bytes held
}

// frontierEntry locates one state's encoding.
type frontierEntry struct {
	id       stateID
	chunk    uint32
	off, len uint32
	depth    int32
}

const (
	frontierChunkBytes = 1 << 20
	frontierBlockLen   = 1 << 12
	frontierEntryBytes = 24
)

func (f *frontier) len() int { return f.n }

func (f *frontier) entry(i int) *frontierEntry {
	return &f.blocks[i/frontierBlockLen][i%frontierBlockLen]
}

// push appends a state at the given depth (depth is read back by DFS only).
func (f *frontier) push(id stateID, enc []byte, depth int32) {
	c := f.room(len(enc))
	off := len(f.chunks[c])
	f.chunks[c] = append(f.chunks[c], enc...)
	if f.n/frontierBlockLen == len(f.blocks) {
		f.blocks = append(f.blocks, make([]frontierEntry, frontierBlockLen))
	}
	*f.entry(f.n) = frontierEntry{id: id, chunk: uint32(c), off: uint32(off), len: uint32(len(enc)), depth: depth}
	f.n++
	f.data += int64(len(enc))
}

// room returns the chunk that takes n more bytes, moving on to the next
// (spare or new) chunk when the current one is full.
func (f *frontier) room(n int) int {
	if len(f.chunks) == 0 {
		f.chunks = append(f.chunks, make([]byte, 0, max(frontierChunkBytes, n)))
		f.cur = 0
	}
	if c := f.chunks[f.cur]; cap(c)-len(c) >= n {
		return f.cur
	}
	f.cur++
	switch {
	case f.cur == len(f.chunks):
		f.chunks = append(f.chunks, make([]byte, 0, max(frontierChunkBytes, n)))
	case cap(f.chunks[f.cur]) < n:
		f.chunks[f.cur] = make([]byte, 0, n)
	default:
		f.chunks[f.cur] = f.chunks[f.cur][:0]
	}
	return f.cur
}

func (f *frontier) item(i int) (stateID, []byte) {
	e := f.entry(i)
	return e.id, f.chunks[e.chunk][e.off : e.off+e.len]
}

// pop removes the last entry; enc aliases the buffer until the next push.
func (f *frontier) pop() (id stateID, enc []byte, depth int32) {
	f.n--
	e := f.entry(f.n)
	c := f.chunks[e.chunk]
	enc = c[e.off : e.off+e.len]
	f.chunks[e.chunk] = c[:e.off]
	f.cur = int(e.chunk)
	f.data -= int64(e.len)
	return e.id, enc, e.depth
}

func (f *frontier) reset() {
	f.n, f.cur, f.data = 0, 0, 0
	if len(f.chunks) > 0 {
		f.chunks[0] = f.chunks[0][:0]
	}
}

// bytes is the frontier's allocated size.
func (f *frontier) bytes() int64 {
	n := int64(len(f.blocks)) * frontierBlockLen * frontierEntryBytes
	for _, c := range f.chunks {
		n += int64(cap(c))
	}
	return n
}

// contentBytes is the frontier's size by content (what the memory budget
// charges), independent of how its buffers grew.
func (f *frontier) contentBytes() int64 {
	return int64(f.n)*frontierEntryBytes + f.data
}
