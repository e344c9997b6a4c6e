package checker

import "github.com/zeebo/xxh3"

// fingerprintSeed is fixed so that runs are reproducible and the collision
// probability reported for hash compaction refers to one known function.
const fingerprintSeed uint64 = 0x6b6976692d6d6331 // "kivi-mc1"

// fingerprint is the 128-bit xxh3 hash of a state's key encoding (the
// encoding of its canonical representative when symmetry is on). The top
// bits of hi pick the shard, bits 24..31 of hi are the index tag, lo picks
// the home slot and, with hi, drives the bitstate hash functions.
type fingerprint struct{ hi, lo uint64 }

func fingerprintOf(key []byte) fingerprint {
	h := xxh3.Hash128Seed(key, fingerprintSeed)
	return fingerprint{hi: h.Hi, lo: h.Lo}
}

func (f fingerprint) tag() uint32 { return uint32(f.hi>>24) & 0xff }
