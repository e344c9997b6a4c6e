package por_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/reduction/por"
)

// queueProcess is a process over the State's queues alone, with exact
// footprints: each closure rule of the reduction can then be put to work
// alone, with nothing else to make the actors dependent.
type queueProcess struct {
	name          string
	reads, writes []model.Queue
	enabled       func(s *model.State) bool
	step          func(s *model.State)
	// disabledBy is what keeps the process disabled at s.
	disabledBy func(s *model.State) []model.Queue
}

func (p *queueProcess) Name() string                                   { return p.name }
func (p *queueProcess) Enabled(_ *model.Universe, s *model.State) bool { return p.enabled(s) }
func (p *queueProcess) Step(_ *model.Tx, s *model.State)               { p.step(s) }

func queues(qs []model.Queue) model.Footprint {
	var f model.Footprint
	for _, q := range qs {
		f.AddQueue(q)
	}
	return f
}

func (p *queueProcess) StaticFootprint(*model.Universe) (reads, writes model.Footprint) {
	return queues(p.reads), queues(p.writes)
}

func (p *queueProcess) StepFootprint(u *model.Universe, _ *model.State) (reads, writes model.Footprint) {
	return p.StaticFootprint(u)
}

func (p *queueProcess) DisabledBy(_ *model.Universe, s *model.State) model.Footprint {
	return queues(p.disabledBy(s))
}

// once is a process that runs once, when queue done is empty, and marks
// done; its step is f.
func once(name string, done model.Queue, reads, writes []model.Queue, f func(s *model.State)) *queueProcess {
	return &queueProcess{
		name: name, reads: append(reads, done), writes: append(writes, done),
		enabled: func(s *model.State) bool { return s.Empty(done) },
		step:    func(s *model.State) { f(s); s.Enqueue(done, 0) },
		// Disabled only once done, which it never empties.
		disabledBy: func(*model.State) []model.Queue { return []model.Queue{done} },
	}
}

const (
	qA    = model.SchedulerQueue
	qB    = model.KubeletQueue
	qC    = model.DeploymentQueue
	doneX = model.HPAQueue
	doneY = model.NodeControllerQueue
	doneZ = model.TaintManagerQueue
)

// deadlocks returns the states without successors reachable from s0,
// with the reduction's ample sets or every successor. The systems here
// run each process once, so the graphs have no cycle and need no cycle
// proviso.
func deadlocks(t *testing.T, r *por.Reduction, actors []por.Actor, s0 *model.State, reduce bool) map[string]bool {
	t.Helper()
	u := &model.Universe{}
	out := map[string]bool{}
	seen := map[string]bool{}
	stack := []*model.State{s0}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		key := fmt.Sprint(s.Queues)
		if seen[key] {
			continue
		}
		seen[key] = true
		var succ []checker.Successor[*model.State]
		for i := range actors {
			if actors[i].Enabled(u, s) {
				next := s.Clone()
				actors[i].Process.Step(nil, next)
				succ = append(succ, checker.Successor[*model.State]{Step: checker.Step{Actor: uint16(i)}, State: next})
			}
		}
		if len(succ) == 0 {
			out[key] = true
			continue
		}
		if reduce {
			if sel := r.Ample(s, succ); sel != nil {
				var kept []checker.Successor[*model.State]
				for _, i := range sel {
					kept = append(kept, succ[i])
				}
				succ = kept
			}
		}
		for _, x := range succ {
			stack = append(stack, x.State)
		}
	}
	return out
}

// TestClosureRules: small systems whose stubborn sets are right only
// with each closure rule of the reduction. Each runs every process once;
// the reduced system must reach every deadlock (end state) the full one
// reaches, which a stubborn set without the rule loses, and the reduction
// must (or must not) reduce at the start, as the rule decides.
//   - "write-read": x writes queue A, which y reads and does not write;
//     from x, only the rule that x's writes meet y's reads takes y in;
//     from y, only the rule that y's reads meet x's writes takes x in.
//     Without either rule one of them runs alone first, and the end state
//     where y read A before x wrote it (or after) is lost.
//   - "write-write": x and y append to the same queue A and read nothing
//     of each other's: only the rule that their writes meet orders them.
//   - "disabled": x writes A, which z reads; z is disabled until y fills
//     queue B, and y touches nothing x touches. From x the set takes in z
//     (disabled), and z must take in y, the step that enables it: else x
//     runs alone first and the run y, z, x (z reading A before x writes
//     it) is lost. The right set is {y, z}: y alone first.
func TestClosureRules(t *testing.T) {
	lenA := func(s *model.State) int { return len(s.Queues[qA]) }
	for _, tc := range []struct {
		name   string
		procs  []*queueProcess
		reduce bool // the reduction may explore fewer than every enabled actor at the start
	}{
		{"write-read", []*queueProcess{
			once("x", doneX, nil, []model.Queue{qA}, func(s *model.State) { s.Enqueue(qA, 7) }),
			once("y", doneY, []model.Queue{qA}, []model.Queue{qB}, func(s *model.State) { s.Enqueue(qB, lenA(s)) }),
		}, false},
		{"write-write", []*queueProcess{
			once("x", doneX, nil, []model.Queue{qA}, func(s *model.State) { s.Enqueue(qA, 1) }),
			once("y", doneY, nil, []model.Queue{qA}, func(s *model.State) { s.Enqueue(qA, 2) }),
		}, false},
		{"disabled", []*queueProcess{
			once("x", doneX, nil, []model.Queue{qA}, func(s *model.State) { s.Enqueue(qA, 7) }),
			once("y", doneY, nil, []model.Queue{qB}, func(s *model.State) { s.Enqueue(qB, 0) }),
			{
				name: "z", reads: []model.Queue{qA, qB, qC}, writes: []model.Queue{qC},
				enabled: func(s *model.State) bool { return !s.Empty(qB) && s.Empty(qC) },
				step:    func(s *model.State) { s.Enqueue(qC, lenA(s)) },
				disabledBy: func(s *model.State) []model.Queue {
					if s.Empty(qB) {
						return []model.Queue{qB}
					}
					return []model.Queue{qC}
				},
			},
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var actors []por.Actor
			for _, p := range tc.procs {
				actors = append(actors, por.Actor{Process: p})
			}
			r := por.New(por.Config{U: &model.Universe{}, Actors: actors})
			if r == nil {
				t.Fatal("no reduction")
			}
			s0 := &model.State{}
			if !r.MayReduce(s0) && tc.reduce {
				t.Fatal("no stubborn set leaves an actor out at the start")
			}
			full, reduced := deadlocks(t, r, actors, s0, false), deadlocks(t, r, actors, s0, true)
			if len(full) < 2 {
				t.Fatalf("the system has %d end states: nothing for the reduction to lose", len(full))
			}
			if !maps.Equal(full, reduced) {
				t.Errorf("end states: %v without reduction, %v with", slices.Sorted(maps.Keys(full)), slices.Sorted(maps.Keys(reduced)))
			}
			if r.MayReduce(s0) != tc.reduce {
				t.Errorf("the reduction may reduce at the start: %v, want %v", r.MayReduce(s0), tc.reduce)
			}
		})
	}
}
