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
// encoding costs 3 ms: only the rollback of a level before the switch to
// bitstate canonicalises decoded states, so that phase alone is slow. The
// first such call starts a timer that cancels the run.
type slowRollback struct {
	decodedCanonicals *atomic.Int64
	rollbackStarted   chan struct{}
}

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
		if r.decodedCanonicals.Add(1) == 1 {
			close(r.rollbackStarted)
		}
		time.Sleep(3 * time.Millisecond)
	}
	c := tokens{t: s.t}
	slices.Sort(c.t[:])
	return c
}

// TestSwitchToBitstateCanBeStopped: the switch to bitstate when the memory
// budget runs out (the level's rollback, the bit array's build) is charged
// to the run's deadline and ctx (engine.expired, which checks both) like
// the exploration: a run stopped during a rollback that would take seconds
// returns promptly, Unknown.
func TestSwitchToBitstateCanBeStopped(t *testing.T) {
	var calls atomic.Int64
	sys := slowRollback{&calls, make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stoppedAt time.Time
	go func() {
		<-sys.rollbackStarted
		time.Sleep(100 * time.Millisecond)
		stoppedAt = time.Now()
		cancel()
	}()
	props := Properties[tokens]{Invariants: []Invariant[tokens]{{Name: "anything", Holds: func(tokens) bool { return true }}}}
	res, err := Check[tokens](ctx, sys, props, Options{Workers: 1, MaxMemory: 4 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() == 0 {
		t.Fatalf("the run never rolled a level back (%d states, switched %v): the model needs a smaller budget", res.Stats.States, res.Stats.SwitchedToBitstate)
	}
	// The rollback polls every 256 states (768 ms here); the whole level
	// would take about 7 s.
	if late := time.Since(stoppedAt); late > 2*time.Second {
		t.Fatalf("returned %v after the cancellation (%d decoded states canonicalised)", late, calls.Load())
	}
	if r := res.Properties; len(r) != 1 || r[0].Verdict != Unknown || r[0].Reason != ReasonCancelled {
		t.Fatalf("%+v, want Unknown for the cancellation", r)
	}
}
