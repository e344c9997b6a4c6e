package toys

import (
	"encoding/binary"
	"fmt"

	"github.com/kivi-go/kivi/checker"
)

// Token ring marks.
const (
	MarkFlip uint32 = 1 << iota // the holder flipped its bit
	MarkPass                    // the token moved on
)

// RingState is the token position and one bit per node.
type RingState struct {
	Token int
	Bits  uint64
}

// TokenRing is N nodes (N <= 64) passing a token; the holder may flip its
// own bit or pass the token to its neighbour. Every (position, bits) pair
// is reachable, so there are exactly N·2^N states (TokenRingCount).
type TokenRing struct{ N int }

// TokenRingCount is the closed form N·2^N.
func TokenRingCount(n int) int64 { return int64(n) << n }

func (r TokenRing) Initial(emit func(RingState)) { emit(RingState{}) }

func (r TokenRing) Next(s RingState, emit func(checker.Step, RingState)) {
	emit(checker.Step{Actor: uint16(s.Token), Choice: 0, Marks: MarkFlip}, RingState{Token: s.Token, Bits: s.Bits ^ 1<<s.Token})
	emit(checker.Step{Actor: uint16(s.Token), Choice: 1, Marks: MarkPass}, RingState{Token: (s.Token + 1) % r.N, Bits: s.Bits})
}

func (r TokenRing) AppendEncoding(dst []byte, s RingState) []byte {
	dst = append(dst, byte(s.Token))
	return binary.LittleEndian.AppendUint64(dst, s.Bits)
}

func (r TokenRing) Decode(enc []byte) (RingState, error) {
	if len(enc) != 9 {
		return RingState{}, fmt.Errorf("%w: token ring: %d bytes", ErrBadEncoding, len(enc))
	}
	return RingState{Token: int(enc[0]), Bits: binary.LittleEndian.Uint64(enc[1:])}, nil
}
