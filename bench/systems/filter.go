package systems

import "github.com/kivi-go/kivi/checker"

// Filter is the twin of filter.pml, Peterson's filter lock for N
// processes: pc[N], lv[N], victim[N]. Process i has at most one enabled
// step (its pc selects the d_step), so Actor i, Choice 0 identifies it.
type Filter struct {
	N              int
	pc, lv, victim int // offsets
	size           int
}

// NewFilter returns the filter lock for n processes (2 <= n <= 8, as the
// Promela's CONFLICT macro).
func NewFilter(n int) Filter {
	return Filter{N: n, pc: 0, lv: n, victim: 2 * n, size: 3 * n}
}

func (f Filter) Initial(emit func(State)) { emit(make(State, f.size)) }

// conflict is CONFLICT: another process is at process i's level or above.
func (f Filter) conflict(s State, i int) bool {
	for k := range f.N {
		if k != i && s[f.lv+k] >= s[f.lv+i] {
			return true
		}
	}
	return false
}

func (f Filter) Next(s State, emit func(checker.Step, State)) {
	succ := make(State, f.size)
	for i := range f.N {
		copy(succ, s)
		lv := s[f.lv+i]
		switch s[f.pc+i] {
		case 0:
			succ[f.lv+i] = 1
			succ[f.pc+i] = 1
		case 1:
			succ[f.victim+int(lv)] = byte(i)
			succ[f.pc+i] = 2
		case 2:
			if s[f.victim+int(lv)] == byte(i) && f.conflict(s, i) {
				continue
			}
			if int(lv) == f.N-1 {
				succ[f.pc+i] = 3
			} else {
				succ[f.lv+i] = lv + 1
				succ[f.pc+i] = 1
			}
		case 3:
			succ[f.lv+i] = 0
			succ[f.pc+i] = 0
		}
		emit(checker.Step{Actor: uint16(i)}, succ)
	}
}

func (f Filter) AppendEncoding(dst []byte, s State) []byte { return append(dst, s...) }

func (f Filter) Decode(enc []byte) (State, error) { return decode("filter", f.size, enc) }
