package systems

import "github.com/kivi-go/kivi/checker"

// Dedup is the twin of dedup.pml, a compact C5 (RemoveDuplicates eviction
// loop). Variables, in the model's order: st[D], nd[D], pend, tot, nroom,
// bnd[NN], rng[NN], with D = NN replicas. Node j's three d_steps are
// Actor j, Choice 0..2; the ReplicaSet's is Actor NN.
type Dedup struct {
	NN, D            int
	slots            slots
	pend, tot, nroom int
	bnd, rng, size   int
}

// NewDedup returns the model with nn nodes.
func NewDedup(nn int) Dedup {
	m := Dedup{NN: nn, D: nn}
	m.slots = slots{st: 0, nd: nn, n: nn}
	m.pend, m.tot, m.nroom = 2*nn, 2*nn+1, 2*nn+2
	m.bnd, m.rng = 2*nn+3, 3*nn+3
	m.size = 4*nn + 3
	return m
}

// capacity is CAP(j): node 0 has room for every replica, the others for one.
func (m Dedup) capacity(j int) int {
	if j == 0 {
		return m.D
	}
	return 1
}

func (m Dedup) on(s State, j int) int { return int(s[m.bnd+j]) + int(s[m.rng+j]) }

func (m Dedup) Initial(emit func(State)) {
	s := make(State, m.size)
	s[m.nroom] = byte(m.NN)
	emit(s)
}

func (m Dedup) Next(s State, emit func(checker.Step, State)) {
	succ := make(State, m.size)
	step := func(actor, choice int) {
		emit(checker.Step{Actor: uint16(actor), Choice: uint32(choice)}, succ)
	}
	for j := range m.NN {
		room := m.on(s, j) < m.capacity(j)
		if s[m.pend] > 0 && room { // scheduler binds
			copy(succ, s)
			k := m.slots.lowest(succ, slotPending, 0)
			succ[m.slots.st+k], succ[m.slots.nd+k] = slotBound, byte(j)
			succ[m.pend]--
			succ[m.bnd+j]++
			if m.on(succ, j) == m.capacity(j) {
				succ[m.nroom]--
			}
			step(j, 0)
		}
		if s[m.bnd+j] > 0 { // kubelet starts
			copy(succ, s)
			k := m.slots.lowest(succ, slotBound, j)
			succ[m.slots.st+k] = slotRunning
			succ[m.bnd+j]--
			succ[m.rng+j]++
			step(j, 1)
		}
		other := int(s[m.nroom])
		if room {
			other--
		}
		if s[m.rng+j] >= 2 && other > 0 { // descheduler evicts a duplicate
			copy(succ, s)
			k := m.slots.highestRunning(succ, j)
			succ[m.slots.st+k], succ[m.slots.nd+k] = slotNone, 0
			if !room {
				succ[m.nroom]++
			}
			succ[m.rng+j]--
			succ[m.tot]--
			step(j, 2)
		}
	}
	if int(s[m.tot]) < m.D { // ReplicaSet creates
		copy(succ, s)
		k := m.slots.lowest(succ, slotNone, 0)
		succ[m.slots.st+k] = slotPending
		succ[m.pend]++
		succ[m.tot]++
		step(m.NN, 0)
	}
}

func (m Dedup) AppendEncoding(dst []byte, s State) []byte { return append(dst, s...) }

func (m Dedup) Decode(enc []byte) (State, error) { return decode("dedup", m.size, enc) }
