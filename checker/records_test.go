package checker

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

// TestRecordsAgainstSlice: the records of a shard (fixed-width records,
// then a length-prefixed arena from the first other width on), with puts
// taken back now and then, read back as a plain slice of the encodings
// that were kept, also in off-heap chunks.
func TestRecordsAgainstSlice(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		mem := &offHeap{}
		defer mem.freeAll()
		var r records
		r.init(mem)
		var ref [][]byte
		width := rapid.IntRange(0, 70).Draw(rt, "width")
		n := rapid.IntRange(1, 3000).Draw(rt, "n")
		odd := rapid.IntRange(0, 3500).Draw(rt, "first other width at")
		for i := range n {
			w := width
			if i >= odd && rapid.Bool().Draw(rt, "other") {
				w = rapid.IntRange(0, 300).Draw(rt, "len")
			}
			enc := bytes.Repeat([]byte{byte(i), byte(i >> 8)}, w)[:w]
			if i%7 == 3 && rapid.Bool().Draw(rt, "unput") {
				junk := bytes.Repeat([]byte{0xee}, rapid.IntRange(0, 90).Draw(rt, "junk"))
				r.put(uint32(len(ref)), junk)
				r.unput()
			}
			r.put(uint32(len(ref)), enc)
			ref = append(ref, enc)
		}
		for i, want := range ref {
			if got := r.get(uint32(i)); !bytes.Equal(got, want) {
				rt.Fatalf("record %d: %x, want %x", i, got, want)
			}
		}
	})
}

// TestRecordsLarge puts enough records to reach off-heap chunks.
func TestRecordsLarge(t *testing.T) {
	mem := &offHeap{}
	defer mem.freeAll()
	var r records
	r.init(mem)
	const n = 300_000
	for i := range n {
		r.put(uint32(i), fmt.Appendf(nil, "%08d", i))
	}
	if mem.bytes == 0 && !raceEnabled {
		t.Fatalf("no chunk was mapped")
	}
	for i := range n {
		if got, want := r.get(uint32(i)), fmt.Appendf(nil, "%08d", i); !bytes.Equal(got, want) {
			t.Fatalf("record %d: %q, want %q", i, got, want)
		}
	}
}

// TestExactSetAgainstMap: workers inserting overlapping keys of several
// widths into the Exact visited set (packed slots, resizes in the middle
// of the inserts) agree with a map: every key is stored once, with one
// id, and every id reads back its key. Tags are made to collide by
// clearing the tag bits of every fingerprint (a System cannot choose
// them, the test can).
func TestExactSetAgainstMap(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		workers := rapid.IntRange(1, 4).Draw(rt, "workers")
		keys := rapid.IntRange(1, 4000).Draw(rt, "keys")
		sameTag := rapid.Bool().Draw(rt, "same tags")
		v := newVisitedSet(modeExact, workers, false, false, 0, 0)
		defer v.free()
		key := func(k int) []byte {
			return bytes.Repeat([]byte{byte(k), byte(k >> 8), byte(k >> 16)}, 1+k%3)
		}
		fp := func(k int) fingerprint {
			f := v.fingerprint(key(k))
			if sameTag {
				f.hi &^= (1<<(64-idBits) - 1) << 32 // every tag 0
			}
			return f
		}
		ids := make([][]stateID, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			v.enter()
			go func() {
				defer wg.Done()
				defer v.leave()
				for j := range 2 * keys {
					k := (j + w*13) % keys
					id, _ := v.insert(fp(k), key(k), makeParent(noState, uint32(k)), w)
					ids[w] = append(ids[w], id)
				}
			}()
		}
		wg.Wait()
		if got := v.count(); got != int64(keys) {
			rt.Fatalf("%d states stored, want %d", got, keys)
		}
		byKey := map[int]stateID{}
		for w := range workers {
			for j, id := range ids[w] {
				k := (j + w*13) % keys
				if prev, ok := byKey[k]; ok && prev != id {
					rt.Fatalf("key %d has ids %v and %v", k, prev, id)
				}
				byKey[k] = id
				if got := v.shards[id.shard()].encoding(id.local()); !bytes.Equal(got, key(k)) {
					rt.Fatalf("id %v reads %x, want key %d", id, got, k)
				}
				if v.parentOf(id).ordinal() != uint32(k) {
					rt.Fatalf("id %v has the parent record of %d", id, v.parentOf(id).ordinal())
				}
			}
		}
		for k := range keys {
			if id, ok := v.lookup(fp(k), key(k)); !ok || id != byKey[k] {
				rt.Fatalf("lookup of key %d: %v %v, want %v", k, id, ok, byKey[k])
			}
		}
		if _, ok := v.lookup(fp(keys+1), key(keys+1)); ok {
			rt.Fatalf("a key never inserted is found")
		}
	})
}
