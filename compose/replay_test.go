package compose_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/model"
)

// TestCaseCounterexamplesReplay: for every built-in case at scale 3, every
// counterexample replays step by step through the model (compose.System
// .Replay from the initial state gives the trace's states), and ends in a
// state that violates its property — or, for a cycle, returns to the
// state where the loop starts, with the cycle's marks on the loop.
func TestCaseCounterexamplesReplay(t *testing.T) {
	for n := 1; n <= 8; n++ {
		t.Run(fmt.Sprintf("c%d", n), func(t *testing.T) {
			c, err := cases.Get(fmt.Sprintf("c%d", n), 3, false)
			if err != nil {
				t.Fatal(err)
			}
			p, err := kivi.NewProblem(c, kivi.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := checker.Check[*model.State](context.Background(), p.System.CheckerSystem(), p.Properties,
				checker.Options{CollectAll: true, NoSymmetry: true})
			if err != nil {
				t.Fatal(err)
			}
			violations := 0
			for _, pr := range res.Properties {
				if pr.Verdict != checker.Violated {
					continue
				}
				violations++
				replay(t, p, pr)
			}
			if violations == 0 {
				t.Fatalf("no violation: %v", res.Properties)
			}
		})
	}
}

func replay(t *testing.T, p *kivi.Problem, pr checker.PropertyResult[*model.State]) {
	t.Helper()
	tr := pr.Trace
	cur := tr.Initial
	var marks uint32
	states := []*model.State{cur}
	for i, st := range tr.Steps {
		next, _, err := p.System.Replay(cur, st.Step)
		if err != nil {
			t.Fatalf("%s: step %d: %v", pr.Name, i, err)
		}
		if string(next.AppendEncoding(p.System.U, nil)) != string(st.State.AppendEncoding(p.System.U, nil)) {
			t.Fatalf("%s: step %d replays to another state", pr.Name, i)
		}
		if tr.LoopStart >= 0 && i >= tr.LoopStart {
			marks |= st.Step.Marks
		}
		cur = next
		states = append(states, cur)
	}
	switch pr.Kind {
	case "invariant":
		for _, inv := range p.Properties.Invariants {
			if inv.Name == pr.Name && inv.Holds(cur) {
				t.Fatalf("%s: the trace ends in a state where it holds", pr.Name)
			}
		}
	case "end":
		for _, ec := range p.Properties.EndConditions {
			if ec.Name == pr.Name && ec.Holds(cur) {
				t.Fatalf("%s: the trace ends in a state where it holds", pr.Name)
			}
		}
	case "cycle":
		if tr.LoopStart < 0 || string(states[tr.LoopStart].AppendEncoding(p.System.U, nil)) != string(cur.AppendEncoding(p.System.U, nil)) {
			t.Fatalf("%s: the loop does not close", pr.Name)
		}
		for _, cy := range p.Properties.Cycles {
			if cy.Name == pr.Name && marks&cy.Require != cy.Require {
				t.Fatalf("%s: the loop lacks marks %b (has %b)", pr.Name, cy.Require, marks)
			}
		}
	default:
		t.Fatalf("%s: unknown kind %q", pr.Name, pr.Kind)
	}
}
