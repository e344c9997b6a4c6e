package toys

import (
	"fmt"

	"github.com/kivi-go/kivi/checker"
)

// Peterson's program counters.
const (
	PCIdle     uint8 = iota // non-critical section
	PCSetFlag               // flag[i] := true
	PCSetTurn               // turn := other
	PCWait                  // await !flag[other] || turn == i
	PCCritical              // critical section; leaving clears flag[i]
)

// MarkEnter marks a step that enters the critical section.
const MarkEnter uint32 = 1

// PetersonState is Peterson's two-process mutex state.
type PetersonState struct {
	PC   [2]uint8
	Flag [2]bool
	Turn uint8
}

// Peterson is Peterson's mutual exclusion algorithm for two processes.
// Broken drops the turn test from the wait, which makes the algorithm
// unsafe. The state count is checked in the tests against an independent
// brute-force enumeration.
type Peterson struct{ Broken bool }

func (Peterson) Initial(emit func(PetersonState)) { emit(PetersonState{}) }

func (p Peterson) Next(s PetersonState, emit func(checker.Step, PetersonState)) {
	for i := range 2 {
		o := 1 - i
		t := s
		var marks uint32
		switch s.PC[i] {
		case PCIdle:
			t.PC[i] = PCSetFlag
		case PCSetFlag:
			t.Flag[i], t.PC[i] = true, PCSetTurn
		case PCSetTurn:
			t.Turn, t.PC[i] = uint8(o), PCWait
			if p.Broken {
				t.Turn = uint8(i)
			}
		case PCWait:
			if s.Flag[o] && int(s.Turn) != i {
				continue
			}
			t.PC[i], marks = PCCritical, MarkEnter
		case PCCritical:
			t.Flag[i], t.PC[i] = false, PCIdle
		}
		emit(checker.Step{Actor: uint16(i), Marks: marks}, t)
	}
}

func (Peterson) AppendEncoding(dst []byte, s PetersonState) []byte {
	b := func(v bool) byte {
		if v {
			return 1
		}
		return 0
	}
	return append(dst, s.PC[0], s.PC[1], b(s.Flag[0]), b(s.Flag[1]), s.Turn)
}

func (Peterson) Decode(enc []byte) (PetersonState, error) {
	if len(enc) != 5 {
		return PetersonState{}, fmt.Errorf("%w: peterson: %d bytes", ErrBadEncoding, len(enc))
	}
	return PetersonState{PC: [2]uint8{enc[0], enc[1]}, Flag: [2]bool{enc[2] == 1, enc[3] == 1}, Turn: enc[4]}, nil
}

// MutualExclusion is the invariant that at most one process is critical.
func MutualExclusion(s PetersonState) bool {
	return s.PC[0] != PCCritical || s.PC[1] != PCCritical
}
