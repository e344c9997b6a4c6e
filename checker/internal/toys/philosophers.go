package toys

import (
	"fmt"

	"github.com/kivi-go/kivi/checker"
)

// Philosopher states.
const (
	Thinking uint8 = iota
	HasLeft        // holds fork i, waits for fork i+1
	Eating         // holds forks i and i+1
)

// MarkEat marks the step in which a philosopher starts eating.
const MarkEat uint32 = 1

// Philosophers is the dining philosophers with left-then-right fork
// acquisition: it deadlocks when everyone holds their left fork. Philosopher
// i uses forks i and (i+1) mod N. A state is one byte per philosopher; a
// fork's holder is implied by its neighbours' states.
//
// Reachable states: the configurations where no fork has two holders, i.e.
// cyclic words over {T, L, E} with no E immediately followed by L or E;
// their number is trace(M^N) for M = [[1,1,1],[1,1,1],[1,0,0]] (rows:
// previous philosopher, columns: next); see PhilosophersCount.
type Philosophers struct{ N int }

var _ checker.Canonicalizer[[]uint8] = Philosophers{}

// PhilosophersCount is trace(M^N), the closed form above.
func PhilosophersCount(n int) int64 {
	m := [3][3]int64{{1, 1, 1}, {1, 1, 1}, {1, 0, 0}}
	p := [3][3]int64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	for range n {
		var q [3][3]int64
		for i := range 3 {
			for j := range 3 {
				for k := range 3 {
					q[i][j] += p[i][k] * m[k][j]
				}
			}
		}
		p = q
	}
	return p[0][0] + p[1][1] + p[2][2]
}

func (p Philosophers) Initial(emit func([]uint8)) { emit(make([]uint8, p.N)) }

// forkFree reports whether fork f is held by nobody.
func (p Philosophers) forkFree(s []uint8, f int) bool {
	left := (f + p.N - 1) % p.N // the philosopher whose right fork is f
	return s[f] == Thinking && s[left] != Eating
}

func (p Philosophers) Next(s []uint8, emit func(checker.Step, []uint8)) {
	succ := make([]uint8, p.N)
	for i := range p.N {
		var to uint8
		var marks uint32
		switch {
		case s[i] == Thinking && p.forkFree(s, i):
			to = HasLeft
		case s[i] == HasLeft && p.forkFree(s, (i+1)%p.N):
			to, marks = Eating, MarkEat
		case s[i] == Eating:
			to = Thinking
		default:
			continue
		}
		copy(succ, s)
		succ[i] = to
		emit(checker.Step{Actor: uint16(i), Marks: marks}, succ)
	}
}

func (p Philosophers) AppendEncoding(dst []byte, s []uint8) []byte { return append(dst, s...) }

func (p Philosophers) Decode(enc []byte) ([]uint8, error) {
	if len(enc) != p.N {
		return nil, fmt.Errorf("%w: philosophers: %d bytes", ErrBadEncoding, len(enc))
	}
	return append([]uint8(nil), enc...), nil
}

// Canonical is the lexicographically least rotation: the table is
// symmetric under rotation.
func (p Philosophers) Canonical(s []uint8) []uint8 {
	best := s
	for r := 1; r < p.N; r++ {
		rot := append(append([]uint8(nil), s[r:]...), s[:r]...)
		if string(rot) < string(best) {
			best = rot
		}
	}
	return best
}

// Explain renders a step.
func (p Philosophers) Explain(s []uint8, st checker.Step) []checker.Line {
	verb := [...]string{"picks up the left fork", "picks up the right fork and eats", "puts both forks down"}[s[st.Actor]]
	return []checker.Line{{Component: fmt.Sprintf("philosopher %d", st.Actor), Message: verb}}
}

// NoAdjacentEating is the invariant that two neighbours never eat at once.
func (p Philosophers) NoAdjacentEating(s []uint8) bool {
	for i := range p.N {
		if s[i] == Eating && s[(i+1)%p.N] == Eating {
			return false
		}
	}
	return true
}
