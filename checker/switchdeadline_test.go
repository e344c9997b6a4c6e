package checker

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// slowRollback is five interchangeable tokens counting up to 29. The
// canonical form (the sorted tokens) of a state decoded from a stored
// encoding costs 3 ms: only the rollback of a level before the
// switch to bitstate canonicalises decoded states, so that phase alone is
// slow.
type slowRollback struct{ decodedCanonicals *atomic.Int64 }

type tokens struct {
	t       [5]uint8
	decoded bool
}

func (slowRollback) Initial(emit func(tokens)) { emit(tokens{}) }

func (slowRollback) Next(s tokens, emit func(Step, tokens)) {
	for i := range s.t {
		if s.t[i] < 29 {
			n := tokens{t: s.t}
			n.t[i]++
			emit(Step{Actor: uint16(i)}, n)
		}
	}
}

func (slowRollback) AppendEncoding(dst []byte, s tokens) []byte { return append(dst, s.t[:]...) }

func (slowRollback) Decode(enc []byte) (tokens, error) {
	var s tokens
	if len(enc) != len(s.t) {
		return s, errBadGraphState
	}
	copy(s.t[:], enc)
	s.decoded = true
	return s, nil
}

func (r slowRollback) Canonical(s tokens) tokens {
	if s.decoded {
		r.decodedCanonicals.Add(1)
		time.Sleep(3 * time.Millisecond)
	}
	c := tokens{t: s.t}
	slices.Sort(c.t[:])
	return c
}

// TestSwitchToBitstateKeepsTheDeadline: the switch to bitstate when the
// memory budget runs out (the level's rollback, the bit array's build) is
// charged to Timeout like the exploration: a run whose rollback would take
// seconds returns at its deadline, Unknown for the timeout.
func TestSwitchToBitstateKeepsTheDeadline(t *testing.T) {
	var calls atomic.Int64
	sys := slowRollback{&calls}
	const timeout = 2 * time.Second
	start := time.Now()
	res, err := Check[tokens](context.Background(), sys, Properties[tokens]{Invariants: []Invariant[tokens]{{Name: "anything", Holds: func(tokens) bool { return true }}}}, Options{Workers: 1, MaxMemory: 4 << 20, Timeout: timeout})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() == 0 {
		t.Fatalf("the run never rolled a level back (%d states, switched %v): the model needs a smaller budget", res.Stats.States, res.Stats.SwitchedToBitstate)
	}
	if took > timeout+2*time.Second {
		t.Fatalf("returned after %v with a timeout of %v (%d decoded states canonicalised)", took, timeout, calls.Load())
	}
	if r := res.Properties; len(r) != 1 || r[0].Verdict != Unknown || r[0].Reason != ReasonTimeout {
		t.Fatalf("reason %v, want the timeout", r[0].Reason)
	}
}
