package systems

import "github.com/kivi-go/kivi/checker"

// Spread is the twin of spread.pml, a compact C3 (two hard spread
// constraints, HPA, CPU-change events, ReplicaSet, scheduler, kubelets).
// Variables, in the model's order: rep, st[P], nd[P], pend, tot, nrun, mn,
// zc[2], bnd[NN], rng[NN], busy[NN], nbusy, nact, with P = NN+1.
// Node j's four d_steps are Actor j, Choice 0..3; the control process's
// four are Actor NN, Choice 0..3.
type Spread struct {
	NN, P                    int
	cap, minR, maxR          int
	slots                    slots
	rep, pend, tot, nrun, mn int
	zc, bnd, rng, busy       int
	nbusy, nact, size        int
}

// NewSpread returns the model with nn nodes.
func NewSpread(nn int) Spread {
	p := nn + 1
	s := Spread{NN: nn, P: p, cap: 2, minR: nn, maxR: p}
	off := 0
	take := func(n int) int { o := off; off += n; return o }
	s.rep = take(1)
	s.slots = slots{st: take(p), nd: take(p), n: p}
	s.pend, s.tot, s.nrun, s.mn = take(1), take(1), take(1), take(1)
	s.zc, s.bnd, s.rng, s.busy = take(2), take(nn), take(nn), take(nn)
	s.nbusy, s.nact = take(1), take(1)
	s.size = off
	return s
}

func (m Spread) zone(j int) int { return j % 2 }

func (m Spread) on(s State, j int) int { return int(s[m.bnd+j]) + int(s[m.rng+j]) }

// recomputeMin is RECOMPUTE_MN.
func (m Spread) recomputeMin(s State) {
	mn := 255
	for k := range m.NN {
		mn = min(mn, m.on(s, k))
	}
	s[m.mn] = byte(mn)
}

func (m Spread) Initial(emit func(State)) {
	s := make(State, m.size)
	s[m.rep] = byte(m.minR)
	emit(s)
}

func (m Spread) Next(s State, emit func(checker.Step, State)) {
	succ := make(State, m.size)
	step := func(actor, choice int) {
		emit(checker.Step{Actor: uint16(actor), Choice: uint32(choice)}, succ)
	}
	rep, pend, tot, nrun := int(s[m.rep]), int(s[m.pend]), int(s[m.tot]), int(s[m.nrun])
	zmin := min(s[m.zc], s[m.zc+1])
	for j := range m.NN {
		z := m.zone(j)
		if pend > 0 && m.on(s, j) < m.cap && m.on(s, j) <= int(s[m.mn]) && s[m.zc+z] <= zmin {
			copy(succ, s)
			k := m.slots.lowest(succ, slotPending, 0)
			succ[m.slots.st+k], succ[m.slots.nd+k] = slotBound, byte(j)
			succ[m.pend]--
			succ[m.bnd+j]++
			succ[m.zc+z]++
			m.recomputeMin(succ)
			step(j, 0)
		}
		if s[m.bnd+j] > 0 {
			copy(succ, s)
			k := m.slots.lowest(succ, slotBound, j)
			succ[m.slots.st+k] = slotRunning
			succ[m.bnd+j]--
			succ[m.rng+j]++
			succ[m.nrun]++
			if succ[m.rng+j] == 1 {
				succ[m.nact]++
			}
			step(j, 1)
		}
		if tot > rep && pend == 0 && s[m.rng+j] > 0 {
			copy(succ, s)
			k := m.slots.highestRunning(succ, j)
			succ[m.slots.st+k], succ[m.slots.nd+k] = slotNone, 0
			succ[m.rng+j]--
			succ[m.nrun]--
			succ[m.tot]--
			succ[m.zc+z]--
			m.recomputeMin(succ)
			if succ[m.rng+j] == 0 {
				succ[m.nact]--
				succ[m.nbusy] -= succ[m.busy+j]
				succ[m.busy+j] = 0
			}
			step(j, 2)
		}
		if s[m.rng+j] > 0 { // CPU change event
			copy(succ, s)
			succ[m.nbusy] = succ[m.nbusy] + 1 - 2*succ[m.busy+j]
			succ[m.busy+j] = 1 - succ[m.busy+j]
			step(j, 3)
		}
	}
	c := m.NN
	if tot < rep { // ReplicaSet creates
		copy(succ, s)
		k := m.slots.lowest(succ, slotNone, 0)
		succ[m.slots.st+k] = slotPending
		succ[m.pend]++
		succ[m.tot]++
		step(c, 0)
	}
	if tot > rep && pend > 0 { // ReplicaSet deletes a pending pod
		copy(succ, s)
		k := m.slots.lowest(succ, slotPending, 0)
		succ[m.slots.st+k] = slotNone
		succ[m.pend]--
		succ[m.tot]--
		step(c, 1)
	}
	stable := nrun == rep
	if 2*int(s[m.nbusy]) > int(s[m.nact]) && stable && rep < m.maxR { // HPA scales up
		copy(succ, s)
		succ[m.rep]++
		step(c, 2)
	}
	if s[m.nbusy] == 0 && stable && rep > m.minR { // HPA scales down
		copy(succ, s)
		succ[m.rep]--
		step(c, 3)
	}
}

func (m Spread) AppendEncoding(dst []byte, s State) []byte { return append(dst, s...) }

func (m Spread) Decode(enc []byte) (State, error) { return decode("spread", m.size, enc) }
