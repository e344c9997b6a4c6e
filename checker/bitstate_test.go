package checker

import (
	"encoding/binary"
	"math"
	"math/bits"
	"testing"
)

// TestBitArrayCounts: the fill and false-positive figures, which come
// from counts kept by test-and-set, equal those of a scan of the words,
// and are read without the words (the end of a run costs O(1), not
// O(bits)).
func TestBitArrayCounts(t *testing.T) {
	b := newBitArray(nil, 1<<12, 3, 2)
	for i := range 3000 {
		b.testAndSet(fingerprintOf(binary.LittleEndian.AppendUint32(nil, uint32(i)), false), i%2)
	}
	var set int
	fp := 0.0
	for i := range b.words {
		c := bits.OnesCount64(b.words[i].Load())
		set += c
		fp += math.Pow(float64(c)/64, 3)
	}
	wantFill, wantFP := float64(set)/float64(b.sizeBits()), fp/float64(len(b.words))
	// The figures must not depend on the words themselves.
	for i := range b.words {
		b.words[i].Store(0)
	}
	if got := b.fill(); math.Abs(got-wantFill) > 1e-12 {
		t.Fatalf("fill %g, scan %g", got, wantFill)
	}
	if got := b.falsePositiveRate(); math.Abs(got-wantFP) > 1e-12*wantFP {
		t.Fatalf("false-positive rate %g, scan %g", got, wantFP)
	}
}
