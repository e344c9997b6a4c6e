package model

import (
	"encoding/binary"
	"unsafe"
)

// Byte views of the state's slices, for the encoder and decoder's hot
// paths: comparing, copying and writing pods as memory. Each
// view is sound only for the layout asserted at the bottom of this file
// (the build fails if a field moves).

// samePodBytes reports whether a and b are the same 24 bytes: a few word
// compares, where PodState's == compares its fields one by one. Equal
// bytes are equal fields (layoutMismatch below checks every offset and
// the size, and PodState's only padding is a blank field, always zero), so equal bytes mean equal
// pods.
func samePodBytes(a, b *PodState) bool {
	// Compared as 16 bytes and 8: each part compiles to word compares,
	// where 24 bytes at once call the runtime's memequal.
	pa, pb := (*[podBytes]byte)(unsafe.Pointer(a)), (*[podBytes]byte)(unsafe.Pointer(b))
	return *(*[16]byte)(pa[:16]) == *(*[16]byte)(pb[:16]) && *(*[8]byte)(pa[16:]) == *(*[8]byte)(pb[16:])
}

// sameButNode reports whether a and b are equal in every field but Node:
// the word of Phase through Node compared without Node's two bytes, and
// the 16 bytes after it as memory (samePodBytes says why that is sound).
func sameButNode(a, b *PodState) bool {
	const nodeBytes = 0xFFFF << 48 // Node is bytes 6 and 7 of the head
	pa, pb := (*[podBytes]byte)(unsafe.Pointer(a)), (*[podBytes]byte)(unsafe.Pointer(b))
	ha, hb := binary.LittleEndian.Uint64(pa[:8]), binary.LittleEndian.Uint64(pb[:8])
	return (ha^hb)&^nodeBytes == 0 && *(*[16]byte)(pa[8:]) == *(*[16]byte)(pb[8:])
}

// podBytesOf views pods as their bytes (see samePodBytes for why
// comparing them is sound).
func podBytesOf(pods []PodState) []byte {
	if len(pods) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&pods[0])), len(pods)*podBytes)
}

// podBytes is the size of a PodState (the conversion above needs it to
// be exact: layoutMismatch below checks it).
const podBytes = 24

// setPodHead writes a pod's first eight bytes, Phase through Node, from
// head (byte k of the pod is byte k of head, little end first; Node is
// bytes 6 and 7): one store where the fields' own would be seven. The
// offsets it relies on are checked below.
func setPodHead(p *PodState, head uint64) {
	binary.LittleEndian.PutUint64((*[podBytes]byte)(unsafe.Pointer(p))[:8], head)
}

// setPodWords writes a whole pod: its head (setPodHead), zero in bytes
// 8-15 (NominatedNode, Ordinal, Readiness, Failure, Restarts and the padding), and
// usage in bytes 16-23 (CPU, then Memory, little end first).
func setPodWords(p *PodState, head, usage uint64) {
	b := (*[podBytes]byte)(unsafe.Pointer(p))
	binary.LittleEndian.PutUint64(b[:8], head)
	binary.LittleEndian.PutUint64(b[8:16], 0)
	binary.LittleEndian.PutUint64(b[16:], usage)
}

// The layout setPodHead and setPodWords write, checked at compile time: every field at
// the offset it assumes (a mismatch makes layoutMismatch non-zero, and
// an array of that length is not a [0]byte).
const layoutMismatch = unsafe.Offsetof(PodState{}.Phase) |
	(unsafe.Offsetof(PodState{}.WasRunning) ^ 1) |
	(unsafe.Offsetof(PodState{}.Owner) ^ 2) |
	(unsafe.Offsetof(PodState{}.RS) ^ 3) |
	(unsafe.Offsetof(PodState{}.Template) ^ 4) |
	(unsafe.Offsetof(PodState{}.Pattern) ^ 5) |
	(unsafe.Offsetof(PodState{}.Node) ^ 6) |
	(unsafe.Offsetof(PodState{}.NominatedNode) ^ 8) |
	(unsafe.Offsetof(PodState{}.Ordinal) ^ 10) |
	(unsafe.Offsetof(PodState{}.Readiness) ^ 11) |
	(unsafe.Offsetof(PodState{}.Failure) ^ 12) |
	(unsafe.Offsetof(PodState{}.Restarts) ^ 13) |
	(unsafe.Offsetof(PodState{}.CPU) ^ 16) |
	(unsafe.Offsetof(PodState{}.Memory) ^ 20) |
	(unsafe.Sizeof(PodState{}) ^ podBytes)

var _ [0]byte = [layoutMismatch]byte{}
