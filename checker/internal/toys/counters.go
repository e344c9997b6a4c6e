package toys

import (
	"encoding/binary"
	"fmt"

	"github.com/kivi-go/kivi/checker"
)

// CounterWidth is the encoded size of a CounterState.
const CounterWidth = 64

// CounterState is up to 8 counters. Its encoding is 64 bytes: the
// counters, then padding derived from them, standing in for the bulkier
// states of real models.
type CounterState struct{ C [8]uint8 }

// Counters is N (<= 8) counters modulo Mod; every step increments one of
// them. All Mod^N valuations are reachable (CountersCount) and each state
// has N successors. It is the throughput benchmark toy.
type Counters struct{ N, Mod int }

// CountersCount is the closed form Mod^N.
func CountersCount(n, mod int) int64 {
	c := int64(1)
	for range n {
		c *= int64(mod)
	}
	return c
}

func (c Counters) Initial(emit func(CounterState)) { emit(CounterState{}) }

func (c Counters) Next(s CounterState, emit func(checker.Step, CounterState)) {
	for i := range c.N {
		t := s
		t.C[i] = uint8((int(s.C[i]) + 1) % c.Mod)
		emit(checker.Step{Actor: uint16(i)}, t)
	}
}

func (c Counters) AppendEncoding(dst []byte, s CounterState) []byte {
	var buf [CounterWidth]byte
	x := binary.LittleEndian.Uint64(s.C[:])
	for i := 0; i < CounterWidth/8; i++ {
		binary.LittleEndian.PutUint64(buf[8*i:], x^uint64(i)*0x0101010101010101)
	}
	return append(dst, buf[:]...)
}

func (c Counters) Decode(enc []byte) (CounterState, error) {
	var s CounterState
	if len(enc) != CounterWidth {
		return s, fmt.Errorf("%w: counters: %d bytes", ErrBadEncoding, len(enc))
	}
	copy(s.C[:], enc)
	return s, nil
}

// Independent is N processes each counting from 0 to K on their own: the
// transitions of different processes are independent, so partial-order
// reduction may explore one interleaving. Full state count (K+1)^N; the
// only terminal state is all-K. Ample picks the lowest process that can
// move.
type Independent struct{ N, K int }

func (c Independent) Initial(emit func(CounterState)) { emit(CounterState{}) }

func (c Independent) Next(s CounterState, emit func(checker.Step, CounterState)) {
	for i := range c.N {
		if int(s.C[i]) < c.K {
			t := s
			t.C[i]++
			emit(checker.Step{Actor: uint16(i)}, t)
		}
	}
}

func (c Independent) AppendEncoding(dst []byte, s CounterState) []byte {
	return append(dst, s.C[:c.N]...)
}

func (c Independent) Decode(enc []byte) (CounterState, error) {
	var s CounterState
	if len(enc) != c.N {
		return s, fmt.Errorf("%w: independent: %d bytes", ErrBadEncoding, len(enc))
	}
	copy(s.C[:], enc)
	return s, nil
}

// Ample returns the single transition of the first enabled process.
func (c Independent) Ample(s CounterState, succ []checker.Successor[CounterState]) []int {
	if len(succ) < 2 {
		return nil
	}
	return []int{0}
}
