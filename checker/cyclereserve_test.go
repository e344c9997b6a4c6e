package checker_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/kivi-go/kivi/checker"
)

// loopThenForever is 0 ⇄ 1, the step 1 → 0 marked, and from 0 an endless
// chain 2, 3, 4, …: a loop a few steps from the start in a state space
// no search finishes. Each expansion takes 50 µs, as a cluster state's
// may, so that the graph recorded before the timeout is small and its
// analysis short even on a busy machine.
type loopThenForever struct{}

const loopMark = 1

func (loopThenForever) Initial(emit func(uint64)) { emit(0) }

func (loopThenForever) Next(n uint64, emit func(checker.Step, uint64)) {
	time.Sleep(50 * time.Microsecond)
	switch n {
	case 0:
		// The chain first: a depth-first search takes the last
		// successor first, and so closes the loop before it runs off.
		emit(checker.Step{Actor: 1}, 2)
		emit(checker.Step{Actor: 0}, 1)
	case 1:
		emit(checker.Step{Actor: 0, Marks: loopMark}, 0)
	default:
		emit(checker.Step{Actor: 1}, n+1)
	}
}

func (loopThenForever) AppendEncoding(dst []byte, n uint64) []byte {
	return binary.BigEndian.AppendUint64(dst, n)
}

func (loopThenForever) Decode(enc []byte) (uint64, error) {
	if len(enc) != 8 {
		return 0, errors.New("not 8 bytes")
	}
	return binary.BigEndian.Uint64(enc), nil
}

// TestTimeoutSearchesCycles: a run with cycle properties that its
// timeout stops keeps a fifth of it for the cycle analysis of the graph
// it recorded: a loop found there is a violation with its lasso (it is a
// loop of the model), a property whose loop it did not find stays
// unknown, and so do the invariants. Before, every cycle property of a
// run its timeout stopped was unknown.
func TestTimeoutSearchesCycles(t *testing.T) {
	props := checker.Properties[uint64]{
		Invariants: []checker.Invariant[uint64]{{Name: "true", Holds: func(uint64) bool { return true }}},
		Cycles: []checker.Cycle{{Name: "marked loop", Require: loopMark},
			{Name: "never", Require: 2}},
	}
	for _, strategy := range []checker.Strategy{checker.BFS, checker.DFS} {
		for _, workers := range []int{1, 2} {
			if strategy == checker.DFS && workers > 1 {
				continue
			}
			t.Run(fmt.Sprintf("%v/workers=%d", strategy, workers), func(t *testing.T) {
				const timeout = 400 * time.Millisecond
				start := time.Now()
				res, err := checker.Check[uint64](t.Context(), loopThenForever{}, props, checker.Options{Timeout: timeout, Workers: workers, Strategy: strategy})
				if err != nil {
					t.Fatal(err)
				}
				// A search that did not stop at its timeout would run
				// forever (the model is infinite); the slack is for a
				// loaded machine (go test ./... on two cores).
				if el := time.Since(start); el > timeout+5*time.Second {
					t.Errorf("returned after %v, timeout %v", el, timeout)
				}
				for _, p := range res.Properties {
					switch p.Name {
					case "marked loop":
						if p.Verdict != checker.Violated || p.Trace == nil || p.Trace.LoopStart < 0 {
							t.Fatalf("marked loop: %v, want violated with a lasso", p)
						}
						var marks uint32
						for _, st := range p.Trace.Steps[p.Trace.LoopStart:] {
							marks |= st.Step.Marks
						}
						if marks&loopMark == 0 {
							t.Errorf("the loop %+v lacks the mark", p.Trace.Steps[p.Trace.LoopStart:])
						}
					default:
						if p.Verdict != checker.Unknown || p.Reason != checker.ReasonTimeout {
							t.Errorf("%s: %v, want unknown (timeout)", p.Name, p)
						}
					}
				}
			})
		}
	}
}
