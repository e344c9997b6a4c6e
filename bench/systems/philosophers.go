package systems

import "github.com/kivi-go/kivi/checker"

// Philosopher states, as in philosophers.pml.
const (
	thinking byte = 0
	hasLeft  byte = 1 // holds fork i
	eating   byte = 2 // holds forks i and i+1 mod N
)

// Philosophers is the twin of philosophers.pml: ph[N], one byte each.
// Philosopher i's three d_steps are its three steps (Actor i, Choice 0).
// Reachable states: trace(M^N) for M = [[1,1,1],[1,1,1],[1,0,0]].
type Philosophers struct{ N int }

func (p Philosophers) Initial(emit func(State)) { emit(make(State, p.N)) }

// free is FREE(f): nobody holds fork f.
func (p Philosophers) free(s State, f int) bool {
	return s[f] == thinking && s[(f+p.N-1)%p.N] != eating
}

func (p Philosophers) Next(s State, emit func(checker.Step, State)) {
	succ := make(State, p.N)
	for i := range p.N {
		var to byte
		switch {
		case s[i] == thinking && p.free(s, i):
			to = hasLeft
		case s[i] == hasLeft && p.free(s, (i+1)%p.N):
			to = eating
		case s[i] == eating:
			to = thinking
		default:
			continue
		}
		copy(succ, s)
		succ[i] = to
		emit(checker.Step{Actor: uint16(i)}, succ)
	}
}

func (p Philosophers) AppendEncoding(dst []byte, s State) []byte { return append(dst, s...) }

func (p Philosophers) Decode(enc []byte) (State, error) { return decode("philosophers", p.N, enc) }
