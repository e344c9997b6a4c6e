package model

import (
	"bytes"
	"encoding/binary"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestQueueRuns: a queue written as runs reads back as itself, takes at
// most maxQueueTokenBytes per item, and any bytes that read as a queue are that
// queue's own encoding (runs are maximal, so equal queues encode
// equally and unequal ones differently).
func TestQueueRuns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var items []uint16
		for range rapid.IntRange(0, 12).Draw(t, "stretches") {
			x := rapid.IntRange(0, MaxPodSlots-1).Draw(t, "start")
			d := rapid.SampledFrom([]int{1, 1, 2, 3, 200, -1, 0}).Draw(t, "stride")
			for k := range rapid.IntRange(1, 300).Draw(t, "length") {
				if y := x + k*d; y >= 0 && y < MaxPodSlots {
					items = append(items, uint16(y))
				}
			}
		}
		b := make([]byte, maxQueueTokenBytes*len(items))
		n := putQueueRuns(b, 0, items)
		if n > maxQueueTokenBytes*len(items) {
			t.Fatalf("%d bytes for %d items", n, len(items))
		}
		r := reader{b: b[:n]}
		back := r.queueRuns(nil, len(items))
		if r.err != nil || r.off != n || !slices.Equal(back, items) {
			t.Fatalf("read back %v (%v, %d of %d bytes), want %v", back, r.err, r.off, n, items)
		}
		if len(items) > 0 {
			r := reader{b: b[:n]}
			if r.queueRuns(nil, len(items)-1); r.err == nil && r.off == n {
				t.Fatal("a queue read as one item shorter")
			}
		}
	})
}

// TestQueueRunsReadOnlyCanonical: whatever bytes read as a queue of
// count items encode back to exactly those bytes.
func TestQueueRunsReadOnlyCanonical(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var enc []byte
		total := 0 // the items the tokens stand for
		for range rapid.IntRange(0, 6).Draw(t, "tokens") {
			v := uint16(rapid.IntRange(0, 12).Draw(t, "id"))
			if rapid.Bool().Draw(t, "run") {
				extra := rapid.IntRange(0, 5).Draw(t, "extra")
				enc = binary.LittleEndian.AppendUint16(enc, v|queueRun)
				enc = binary.AppendUvarint(enc, uint64(extra))
				enc = binary.AppendUvarint(enc, uint64(rapid.IntRange(0, 3).Draw(t, "stride")))
				total += extra + 2
			} else {
				enc = binary.LittleEndian.AppendUint16(enc, v)
				total++
			}
		}
		count := total
		if rapid.IntRange(0, 3).Draw(t, "other count") == 0 {
			count = rapid.IntRange(0, 40).Draw(t, "count")
		}
		r := reader{b: enc}
		items := r.queueRuns(nil, count)
		if r.err != nil || r.off != len(enc) {
			return
		}
		again := make([]byte, maxQueueTokenBytes*len(items))
		if n := putQueueRuns(again, 0, items); !bytes.Equal(again[:n], enc) {
			t.Fatalf("%x read as %v, which encodes as %x", enc, items, again[:n])
		}
	})
}
