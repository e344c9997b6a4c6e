package scheddiff

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	kivisched "github.com/kivi-go/kivi/controllers/scheduler"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/model/casefile"
	"github.com/kivi-go/kivi/model/cases"
)

// replayScale10 adds the built-in cases at scale 10 to the replay (off by
// default: their searches take longer than CI should).
var replayScale10 = flag.Bool("replay10", false, "also replay the counterexamples of C1..C8 at scale 10")

// replaySource is one topology whose counterexamples are replayed.
type replaySource struct {
	name string
	load func() (*model.Cluster, error)
}

func replaySources(t *testing.T) []replaySource {
	var out []replaySource
	scales := []int{3}
	if *replayScale10 {
		scales = append(scales, 10)
	}
	for _, scale := range scales {
		for n := 1; n <= 8; n++ {
			name := fmt.Sprintf("c%d", n)
			out = append(out, replaySource{fmt.Sprintf("%s@%d", name, scale),
				func() (*model.Cluster, error) { return cases.Get(name, scale, false) }})
		}
	}
	files, err := filepath.Glob("../../examples/cases/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example case files: %v", err)
	}
	for _, f := range files {
		out = append(out, replaySource{"examples/" + filepath.Base(f), func() (*model.Cluster, error) { return casefile.Load(f) }})
	}
	return out
}

// replayTally counts one source's replayed decisions.
type replayTally struct {
	traces, steps, placed, noFeasible, agree, sameSets int
	classes                                            map[string]int
}

func (c *replayTally) String() string {
	var cl []string
	for _, k := range slices.Sorted(maps.Keys(c.classes)) {
		cl = append(cl, fmt.Sprintf("%s %d", k, c.classes[k]))
	}
	return fmt.Sprintf("traces %d, decisions %d (placed %d, no feasible node %d): agree %d, same feasible and top sets %d; disagreements by class: {%s}",
		c.traces, c.steps, c.placed, c.noFeasible, c.agree, c.sameSets, strings.Join(cl, ", "))
}

// TestReplayCounterexamples replays every scheduling decision of every
// counterexample of the built-in cases (violation variants, scale 3, and
// scale 10 with -replay10) and of the example case files through the real
// framework. A placement must be among the real top-scoring nodes, a "no
// feasible node" must be the real Filter phase rejecting every node;
// where not, the disagreement must belong to a known class (counted and
// reported per class), else the test fails. The report is logged per
// source (go test -v).
func TestReplayCounterexamples(t *testing.T) {
	if testing.Short() {
		t.Skip("the searches and the real framework take a while")
	}
	total := &replayTally{classes: map[string]int{}}
	for _, src := range replaySources(t) {
		t.Run(src.name, func(t *testing.T) {
			tally := replaySource1(t, src)
			t.Logf("%s: %s", src.name, tally)
			total.traces += tally.traces
			total.steps += tally.steps
			total.placed += tally.placed
			total.noFeasible += tally.noFeasible
			total.agree += tally.agree
			total.sameSets += tally.sameSets
			for k, v := range tally.classes {
				total.classes[k] += v
			}
		})
	}
	t.Logf("all sources: %s", total)
}

// replaySource1 checks one source and replays its counterexamples.
func replaySource1(t *testing.T, src replaySource) *replayTally {
	c, err := src.load()
	if err != nil {
		t.Fatal(err)
	}
	p, err := kivi.NewProblem(c, kivi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// CollectAll: every violated property's counterexample, not only the
	// first. NoSymmetry: the trace's states are then the concrete states
	// the steps were taken from, with every pod and node where the step
	// put it (the replay reads the placement off the next state).
	res, err := checker.Check[*model.State](context.Background(), p.System.CheckerSystem(), p.Properties,
		checker.Options{Workers: 1, CollectAll: true, NoSymmetry: true, Timeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	rp, err := NewReplayer(p.System.U)
	if err != nil {
		t.Fatal(err)
	}
	defer rp.Close()
	tally := &replayTally{classes: map[string]int{}}
	for _, pr := range res.Properties {
		if pr.Trace == nil {
			continue
		}
		tally.traces++
		prev := pr.Trace.Initial
		for i, st := range pr.Trace.Steps {
			if isScheduler(p.System, st.Step) {
				replayDrain(t, rp, fmt.Sprintf("%s step %d", pr.Name, i+1), prev, st.State, tally)
			}
			prev = st.State
		}
	}
	if strings.HasPrefix(src.name, "c") && tally.traces == 0 {
		// The violation variants exist to print counterexamples.
		t.Errorf("no counterexample: %v", res.Properties)
	}
	return tally
}

// isScheduler reports whether the step is the scheduler's: by the
// process's type, which does not depend on how traces name it.
func isScheduler(sys *kivi.System, step checker.Step) bool {
	if int(step.Actor) < len(sys.Actors) {
		switch sys.Actors[step.Actor].Process.(type) {
		case kivisched.Scheduler, *kivisched.Scheduler:
			return true
		}
	}
	n := sys.ActorName(step)
	return n == "Scheduler" || n == "kube-scheduler"
}

// replayDrain replays one scheduler step from pre to post. The step
// drains the scheduling queue as scheduler.Step does: each dequeued pod
// that is still Pending and unbound gets a cycle, on the state with the
// earlier pods of the drain bound. The model's decision is read off post:
// the pod's node there, or the step's no-feasible-node failure for it. A
// pod unbound in post without that failure was not reached (when ties
// branch, a step schedules one pod).
func replayDrain(t *testing.T, rp *Replayer, where string, pre, post *model.State, tally *replayTally) {
	t.Helper()
	s := pre.Clone()
	for !s.Empty(model.SchedulerQueue) {
		p, _ := s.Dequeue(model.SchedulerQueue)
		if q := &s.Pods[p]; q.Phase != model.Pending || q.Node != 0 {
			continue
		}
		placed := post.Pods[p].NodeOf()
		failed := post.Failed == model.FailNoFeasibleNode && int(post.FailedArg) == p
		if placed < 0 && !failed {
			return
		}
		v, err := rp.Judge(s, p, placed)
		if err != nil {
			t.Fatalf("%s: pod %d: %v", where, p+1, err)
		}
		// The trace must be the model's own decision, or the comparison
		// says nothing about the model.
		if placed < 0 && len(v.Model.Feasible) > 0 || placed >= 0 && !slices.Contains(v.Model.Top, v.Placed) {
			t.Fatalf("%s: pod %d: the trace placed it on %q, the model's cycle says %s", where, p+1, v.Placed, v.Model)
		}
		tally.steps++
		if placed < 0 {
			tally.noFeasible++
		} else {
			tally.placed++
		}
		if v.SameSets {
			tally.sameSets++
		}
		switch v.Class {
		case "":
			tally.agree++
		case Unexplained:
			t.Errorf("%s: pod %d placed on %q: unexplained disagreement\n  model: %s\n  real: %s\n%s", where, p+1, v.Placed, v.Model, v.Real, v.Real.Detail)
		default:
			tally.classes[v.Class]++
		}
		if failed {
			return
		}
		s.Pods[p].Node = uint8(placed + 1)
	}
}
