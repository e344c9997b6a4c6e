package checker

import (
	"math"
	"math/bits"
	"sync/atomic"
)

// bitArray is the bitstate visited set: a Bloom filter over fingerprints in
// atomic words, so any number of workers may test-and-set concurrently
// without locks. Its size is a power of two so bit positions are masks.
type bitArray struct {
	words  []atomic.Uint64
	mask   uint64 // number of bits - 1
	hashes uint64
}

func newBitArray(nbits uint64, hashes uint) *bitArray {
	if nbits < 64 {
		nbits = 64
	}
	nbits = 1 << bits.Len64(nbits-1) // round up to a power of two
	return &bitArray{
		words:  make([]atomic.Uint64, nbits/64),
		mask:   nbits - 1,
		hashes: uint64(hashes),
	}
}

// testAndSet sets the k bits of f and reports whether all of them were
// already set, i.e. whether the state is (probably) visited. Double hashing
// (lo + i*hi) derives the k positions from one 128-bit fingerprint.
func (b *bitArray) testAndSet(f fingerprint) (seen bool) {
	seen = true
	step := f.hi | 1
	for i := uint64(0); i < b.hashes; i++ {
		bit := (f.lo + i*step) & b.mask
		w := &b.words[bit>>6]
		m := uint64(1) << (bit & 63)
		if w.Load()&m != 0 {
			continue
		}
		if w.Or(m)&m == 0 {
			seen = false
		}
	}
	return seen
}

// test reports whether all k bits of f are set, without setting any.
func (b *bitArray) test(f fingerprint) bool {
	step := f.hi | 1
	for i := uint64(0); i < b.hashes; i++ {
		bit := (f.lo + i*step) & b.mask
		if b.words[bit>>6].Load()&(uint64(1)<<(bit&63)) == 0 {
			return false
		}
	}
	return true
}

func (b *bitArray) sizeBits() uint64 { return b.mask + 1 }
func (b *bitArray) bytes() int64     { return int64(len(b.words) * 8) }

// fill is the fraction of bits set.
func (b *bitArray) fill() float64 {
	var set int
	for i := range b.words {
		set += bits.OnesCount64(b.words[i].Load())
	}
	return float64(set) / float64(b.sizeBits())
}

// bitstateOmission estimates, for n insertions into m bits with k hashes,
// the probability that one more new state would be wrongly considered
// visited (the false-positive rate at the end), and the expected number of
// states omitted during the run, Σ_{i<n} (1-e^{-ki/m})^k, integrated
// numerically.
func bitstateOmission(n, m uint64, k uint64) (finalRate, expectedOmitted float64) {
	if n == 0 || m == 0 {
		return 0, 0
	}
	rate := func(i float64) float64 {
		return math.Pow(1-math.Exp(-float64(k)*i/float64(m)), float64(k))
	}
	const steps = 512
	h := float64(n) / steps
	sum := 0.0
	for s := 0; s < steps; s++ {
		sum += rate((float64(s)+0.5)*h) * h // midpoint rule
	}
	return rate(float64(n)), sum
}

// hashCompactionCollision is the birthday bound for n distinct states and
// 128-bit fingerprints: the probability that any two collide (and so one
// of them is omitted), ≈ n²/2^129.
func hashCompactionCollision(n uint64) float64 {
	x := float64(n)
	return math.Min(1, x*x/math.Ldexp(1, 129))
}
