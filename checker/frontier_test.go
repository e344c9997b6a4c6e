package checker

import (
	"bytes"
	"fmt"
	"math"
	"slices"
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

// TestStoredFrontier: a frontier of stored states yields the encodings
// its resolver holds, in push order, and says per shard which is the
// first it refers to; a release empties it.
func TestStoredFrontier(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		store := map[stateID][]byte{}
		f := frontier{stored: func(id stateID) []byte { return store[id] }}
		var ids []stateID
		for i := range rapid.IntRange(0, 200).Draw(rt, "states") {
			id := makeID(i%2, uint32(i*7+1))
			store[id] = bytes.Repeat([]byte{byte(i)}, rapid.IntRange(0, 300).Draw(rt, "len"))
			f.pushStored(id)
			ids = append(ids, id)
		}
		check := func(when string) {
			if f.len() != len(ids) {
				rt.Fatalf("%s: len %d, want %d", when, f.len(), len(ids))
			}
			for i, want := range ids {
				id, enc := f.item(i)
				if id != want || !bytes.Equal(enc, bytes.Repeat([]byte{byte(i)}, len(enc))) {
					rt.Fatalf("%s: item %d is %d with %d bytes, want %d", when, i, id, len(enc), want)
				}
			}
		}
		check("stored")
		if got, want := f.contentBytes(), int64(8*len(ids)); got != want {
			rt.Fatalf("contentBytes %d, want %d", got, want)
		}
		first := []uint32{math.MaxUint32, math.MaxUint32}
		f.minStored(first)
		want := []uint32{math.MaxUint32, math.MaxUint32}
		for _, id := range ids {
			want[id.shard()] = min(want[id.shard()], id.local())
		}
		if !slices.Equal(first, want) {
			rt.Fatalf("minStored %v, want %v", first, want)
		}
		f.release()
		if f.len() != 0 {
			rt.Fatalf("len %d after release", f.len())
		}
	})
}
