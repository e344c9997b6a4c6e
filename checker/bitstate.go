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
	// pop[w][c] is how many more words hold c set bits because of the
	// test-and-sets of writer w (each writer owns its row): the fill and
	// false-positive figures are read from these counts, not by scanning
	// an array of up to gigabytes.
	pop [][popRow]int64
}

// popRow is a row of bitArray.pop: 65 counts, padded to whole cache lines.
const popRow = 72

// newBitArray makes an array of at least nbits bits for the given number
// of writers (test-and-set callers, identified by index).
func newBitArray(mem *offHeap, nbits uint64, hashes uint, writers int) *bitArray {
	if nbits < 64 {
		nbits = 64
	}
	nbits = 1 << bits.Len64(nbits-1) // round up to a power of two
	return &bitArray{
		words:  allocSlice[atomic.Uint64](mem, int(nbits/64)),
		mask:   nbits - 1,
		hashes: uint64(hashes),
		pop:    make([][popRow]int64, max(writers, 1)),
	}
}

// blockMask is the set of k bits a fingerprint owns in its word: the word
// is chosen by lo, the bit positions by 6-bit slices of hi. Keeping all k
// bits in one word (a blocked Bloom filter) makes test-and-set a single
// atomic Or, so two workers inserting the same state concurrently cannot
// both believe it is new, and costs one cache miss instead of k.
func (b *bitArray) blockMask(f fingerprint) (word uint64, m uint64) {
	h := f.hi
	for i := uint64(0); i < b.hashes; i++ {
		m |= 1 << (h & 63)
		h = h>>6 | h<<58
		if i%10 == 9 { // 64 bits give ten 6-bit slices; remix for more
			h *= 0x9e3779b97f4a7c15
		}
	}
	return (f.lo >> 6) & (b.mask >> 6), m
}

// testAndSet sets the bits of f and reports whether all of them were
// already set, i.e. whether the state is (probably) visited. writer is
// the caller's index (see newBitArray).
func (b *bitArray) testAndSet(f fingerprint, writer int) (seen bool) {
	word, m := b.blockMask(f)
	w := &b.words[word]
	if w.Load()&m == m {
		return true
	}
	old := w.Or(m)
	if old&m == m {
		return true
	}
	// Each Or takes its word from old to old|m, so the rows together
	// follow every word's population count.
	row := &b.pop[writer]
	row[bits.OnesCount64(old)]--
	row[bits.OnesCount64(old|m)]++
	return false
}

// test reports whether all bits of f are set, without setting any.
func (b *bitArray) test(f fingerprint) bool {
	word, m := b.blockMask(f)
	return b.words[word].Load()&m == m
}

func (b *bitArray) sizeBits() uint64 { return b.mask + 1 }
func (b *bitArray) bytes() int64     { return int64(len(b.words) * 8) }

// popCounts returns, for c = 0..64, the number of words with c bits set.
// No writer may be running.
func (b *bitArray) popCounts() (n [65]int64) {
	n[0] = int64(len(b.words))
	for i := range b.pop {
		for c := range n {
			n[c] += b.pop[i][c]
		}
	}
	return n
}

// fill is the fraction of bits set. No writer may be running.
func (b *bitArray) fill() float64 {
	var set int64
	for c, k := range b.popCounts() {
		set += int64(c) * k
	}
	return float64(set) / float64(b.sizeBits())
}

// falsePositiveRate is the measured probability that a fresh state would be
// taken for visited: the mean over words of (bits set / 64)^k. No writer
// may be running.
func (b *bitArray) falsePositiveRate() float64 {
	sum := 0.0
	for c, n := range b.popCounts() {
		if n != 0 {
			sum += float64(n) * math.Pow(float64(c)/64, float64(b.hashes))
		}
	}
	return sum / float64(len(b.words))
}

// bitstateOmission estimates the expected number of states omitted while
// n states were inserted into m bits with k bits each, in 64-bit blocks:
// after i insertions the block of a new state holds Poisson(i/(m/64))
// states, and the new state is omitted when its k bits are all already set
// by them; Σ_{i<n} of that probability is integrated numerically. Stats
// also reports the measured final false-positive rate.
func bitstateOmission(n, m uint64, k uint64) (expectedOmitted float64) {
	if n == 0 || m == 0 {
		return 0
	}
	words := float64(m / 64)
	rate := func(i float64) float64 {
		// A block holding x other states has each bit set with
		// probability 1-(1-1/64)^{kx}; x is Poisson(i/words).
		lambda := i / words
		p, sum := math.Exp(-lambda), 0.0
		for x := 0; x < 64; x++ {
			if x > 0 {
				p *= lambda / float64(x)
			}
			set := 1 - math.Pow(63.0/64, float64(k)*float64(x))
			sum += p * math.Pow(set, float64(k))
		}
		return sum
	}
	const steps = 512
	h := float64(n) / steps
	sum := 0.0
	for s := 0; s < steps; s++ {
		sum += rate((float64(s)+0.5)*h) * h // midpoint rule
	}
	return sum
}

// hashCompactionCollision is the birthday bound for n distinct states and
// 128-bit fingerprints: the probability that any two collide (and so one
// of them is omitted), ≈ n²/2^129; n²/2^65 for 64-bit fingerprints. (The
// values reserved by the table, 0 and all ones, shift this by a relative
// 2^-63.)
func hashCompactionCollision(n uint64, short bool) float64 {
	x := float64(n)
	exp := 129
	if short {
		exp = 65
	}
	return math.Min(1, x*x/math.Ldexp(1, exp))
}
