package checker

import "github.com/zeebo/xxh3"

// fingerprintSeed is fixed so that runs are reproducible and the collision
// probability reported for hash compaction refers to one known function.
const fingerprintSeed uint64 = 0x6b6976692d6d6331 // "kivi-mc1"

// fingerprint is the 128-bit xxh3 hash of a state's key encoding (the
// encoding of its canonical representative when symmetry is on). hi picks
// the home slot of the table; lo and hi drive the bitstate hash functions.
// Neither word is 0 (the table's empty value) and hi is never tombstone.
type fingerprint struct{ hi, lo uint64 }

// tombstone marks a table slot whose state was rolled back.
const tombstone = ^uint64(0)

// fingerprintOf hashes key. With short set it is a 64-bit fingerprint: hi
// is the 64-bit xxh3 hash and lo a fixed bijective mix of it, so it carries
// no more information than hi.
func fingerprintOf(key []byte, short bool) fingerprint {
	var f fingerprint
	if short {
		f.hi = xxh3.HashSeed(key, fingerprintSeed)
	} else {
		h := xxh3.Hash128Seed(key, fingerprintSeed)
		f.hi, f.lo = h.Hi, h.Lo
	}
	if f.hi == 0 || f.hi == tombstone {
		f.hi = 1
	}
	if short {
		f.lo = shortLo(f.hi)
	}
	if f.lo == 0 {
		f.lo = 1
	}
	return f
}

// exactFingerprint is the fingerprint of Exact storage, which compares
// encodings in full and needs a hash only to place states: the high 32
// bits of the 64-bit xxh3 hash, in hi's high half (hi's low half is 0,
// or hi is 1), so that a shard can keep it in 4 bytes and a resize can
// place a state again from them (see table). lo is hi.
func exactFingerprint(key []byte) fingerprint {
	hi := xxh3.HashSeed(key, fingerprintSeed) &^ (1<<32 - 1)
	if hi == 0 {
		hi = 1
	}
	return fingerprint{hi: hi, lo: hi}
}

// shortLo is lo of a 64-bit fingerprint (never 0: mix64 is a bijection
// with mix64(0) = 0, and hi is never 0).
func shortLo(hi uint64) uint64 { return mix64(hi) }

// mix64 is the murmur3 finalizer (a bijection of uint64).
func mix64(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}
