package checker

import (
	"bytes"
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// TestFrontierAgainstSlice: pushes, pops and resets of the chunked
// frontier behave like a plain slice of (id, encoding, depth) records,
// with encodings from empty to larger than a chunk, and an item's bytes
// stay put while later items are pushed.
func TestFrontierAgainstSlice(t *testing.T) {
	type rec struct {
		id    stateID
		enc   []byte
		depth int32
	}
	rapid.Check(t, func(rt *rapid.T) {
		var f frontier
		var ref []rec
		var held [][]byte // item slices taken earlier, with their expected bytes
		var want [][]byte
		for step := range rapid.IntRange(1, 300).Draw(rt, "steps") {
			switch op := rapid.IntRange(0, 9).Draw(rt, "op"); {
			case op < 6:
				n := rapid.SampledFrom([]int{0, 1, 7, 200, frontierFirstChunk - 3, frontierFirstChunk + 5, 3 * frontierFirstChunk}).Draw(rt, "len")
				enc := bytes.Repeat([]byte{byte(step)}, n)
				r := rec{stateID(step), enc, int32(step % 7)}
				f.push(r.id, r.enc, r.depth)
				ref = append(ref, r)
				if len(ref) > 1 && rapid.Bool().Draw(rt, "hold") {
					_, b := f.item(len(ref) - 2)
					held, want = append(held, b), append(want, append([]byte(nil), ref[len(ref)-2].enc...))
				}
			case op < 8 && len(ref) > 0:
				id, enc, depth := f.pop()
				last := ref[len(ref)-1]
				ref = ref[:len(ref)-1]
				if id != last.id || depth != last.depth || !bytes.Equal(enc, last.enc) {
					rt.Fatalf("pop: got %d/%d/%d bytes, want %d/%d/%d bytes", id, depth, len(enc), last.id, last.depth, len(last.enc))
				}
				held, want = nil, nil // a pop lets the next push reuse the bytes
			case op == 8:
				f.reset()
				ref, held, want = nil, nil, nil
			}
			if f.len() != len(ref) {
				rt.Fatalf("len %d, want %d", f.len(), len(ref))
			}
			for i := range held {
				if !bytes.Equal(held[i], want[i]) {
					rt.Fatalf("an item's bytes changed after later pushes")
				}
			}
		}
		var content int64
		for i, r := range ref {
			id, enc := f.item(i)
			if id != r.id || !bytes.Equal(enc, r.enc) {
				rt.Fatalf("item %d: %s", i, fmt.Sprint(id))
			}
			content += frontierEntryBytes + int64(len(r.enc))
		}
		if f.contentBytes() != content {
			rt.Fatalf("contentBytes %d, want %d", f.contentBytes(), content)
		}
	})
}
