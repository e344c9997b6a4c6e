package checker

// frontier is a queue (BFS level) or stack (DFS) of states waiting to be
// expanded, kept as concrete encodings in one byte buffer: no heap object
// per state. depths is filled only for DFS, where depth varies per entry.
type frontier struct {
	ids    []stateID
	ends   []int
	data   []byte
	depths []int32
}

func (f *frontier) len() int { return len(f.ids) }

func (f *frontier) push(id stateID, enc []byte) {
	f.data = append(f.data, enc...)
	f.ids = append(f.ids, id)
	f.ends = append(f.ends, len(f.data))
}

func (f *frontier) item(i int) (stateID, []byte) {
	start := 0
	if i > 0 {
		start = f.ends[i-1]
	}
	return f.ids[i], f.data[start:f.ends[i]]
}

// pop removes the last entry; enc aliases the buffer until the next push.
func (f *frontier) pop() (id stateID, enc []byte, depth int32) {
	i := len(f.ids) - 1
	id, enc = f.item(i)
	if f.depths != nil {
		depth = f.depths[i]
		f.depths = f.depths[:i]
	}
	f.ids, f.ends = f.ids[:i], f.ends[:i]
	f.data = f.data[:len(f.data)-len(enc)]
	return id, enc, depth
}

func (f *frontier) reset() {
	f.ids, f.ends, f.data = f.ids[:0], f.ends[:0], f.data[:0]
	if f.depths != nil {
		f.depths = f.depths[:0]
	}
}

func (f *frontier) bytes() int64 {
	return int64(cap(f.ids)*8 + cap(f.ends)*8 + cap(f.data) + cap(f.depths)*4)
}

// contentBytes is the frontier's size by content (what the memory budget
// charges), independent of how its buffers grew.
func (f *frontier) contentBytes() int64 {
	return int64(len(f.ids)*8 + len(f.ends)*8 + len(f.data) + len(f.depths)*4)
}
