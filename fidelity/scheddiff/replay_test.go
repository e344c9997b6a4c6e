package scheddiff

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	kivisched "github.com/kivi-go/kivi/controllers/scheduler"
	"github.com/kivi-go/kivi/fidelity/walk"
	"github.com/kivi-go/kivi/inputs/casefile"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/model"
)

// replayScales are more scales of the built-in cases to replay, beyond
// the default 3 and 10 (comma-separated).
var replayScales = flag.String("replayscales", "", "more scales of C1..C8 to replay, comma-separated (e.g. 20,50)")

// replayVerbose logs every replayed decision with the real framework's
// rejections and scores, for reading a replay step by step.
var replayVerbose = flag.Bool("replayv", false, "log every replayed decision with the real scores")

// replaySource is one topology whose counterexamples are replayed.
type replaySource struct {
	name string
	load func() (*model.Cluster, error)
	// large: stop at the first counterexample and keep the symmetry
	// reduction (the traces are still concrete: the checker rebuilds
	// them by re-running the steps, and the replay checks that each
	// placement is the model's own decision). Exhausting a scale-10
	// search for every property takes minutes.
	large bool
	// wantViolation: the source is known to print a counterexample (the
	// built-in cases at the default scales, the example files that are
	// not -no-violation variants, the incidents' written inputs); a
	// source without one is an error, as the replay would then check
	// nothing.
	wantViolation bool
	// config is the KubeSchedulerConfiguration document among the
	// source's manifests (nil: none), which the real framework runs too.
	config []byte
}

// schedulerConfig returns the KubeSchedulerConfiguration document of a
// manifest stream, or nil.
func schedulerConfig(manifests []byte) []byte {
	for _, doc := range strings.Split(string(manifests), "\n---") {
		if strings.Contains(doc, "kind: KubeSchedulerConfiguration") {
			return []byte(doc)
		}
	}
	return nil
}

func replaySources(t *testing.T) []replaySource {
	var out []replaySource
	scales := []int{3, 10}
	defaults := len(scales)
	for _, f := range strings.FieldsFunc(*replayScales, func(r rune) bool { return r == ',' }) {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			t.Fatalf("-replayscales: %q is not a scale", f)
		}
		scales = append(scales, n)
	}
	for i, scale := range scales {
		for n := 1; n <= 8; n++ {
			name := fmt.Sprintf("c%d", n)
			out = append(out, replaySource{name: fmt.Sprintf("%s@%d", name, scale),
				load:  func() (*model.Cluster, error) { return cases.Get(name, scale, false) },
				large: scale > 3, wantViolation: i < defaults})
		}
	}
	files, err := filepath.Glob("../../examples/cases/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example case files: %v", err)
	}
	for _, f := range files {
		// A case file runs with Kubernetes' lifecycle: c7's pinned pods are
		// rejected by the kubelet, so its no_oscillation_eviction holds
		// (docs/divergences.md, "Verdicts of the built-in cases"); its pods
		// bypass the scheduler, so its trace had nothing to replay anyway.
		want := !strings.HasSuffix(f, "-no-violation.yaml") && filepath.Base(f) != "c7.yaml"
		out = append(out, replaySource{name: "examples/" + filepath.Base(f),
			load: func() (*model.Cluster, error) { return casefile.Load(f) }, wantViolation: want})
	}
	sources, err := walk.Sources()
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range sources {
		if strings.HasPrefix(src.Name, "incidents/") {
			out = append(out, replaySource{name: src.Name, load: src.Load, config: schedulerConfig(src.Manifests),
				wantViolation: !strings.HasSuffix(src.Name, "/fixed")})
		}
	}
	return out
}

// replayTally counts one source's replayed decisions.
type replayTally struct {
	traces, steps, placed, noFeasible, agree, sameSets int
	// onDeletedNode counts the decisions taken while some pod is still
	// bound to a deleted Node (before the pod GC's step).
	onDeletedNode int
	classes       map[string]int
}

func (c *replayTally) String() string {
	var cl []string
	for _, k := range slices.Sorted(maps.Keys(c.classes)) {
		cl = append(cl, fmt.Sprintf("%s %d", k, c.classes[k]))
	}
	return fmt.Sprintf("traces %d, decisions %d (placed %d, no feasible node %d, with a deleted Node's pods %d): agree %d, same feasible and top sets %d; disagreements by class: {%s}",
		c.traces, c.steps, c.placed, c.noFeasible, c.onDeletedNode, c.agree, c.sameSets, strings.Join(cl, ", "))
}

// add adds o's counts to c.
func (c *replayTally) add(o *replayTally) {
	c.traces += o.traces
	c.steps += o.steps
	c.placed += o.placed
	c.noFeasible += o.noFeasible
	c.agree += o.agree
	c.sameSets += o.sameSets
	c.onDeletedNode += o.onDeletedNode
	for k, v := range o.classes {
		c.classes[k] += v
	}
}

// TestReplayCounterexamples replays every scheduling decision of every
// counterexample of the built-in cases (violation variants at scales 3
// and 10, more with -replayscales) and of the example case files through the real
// framework. A placement must be among the real top-scoring nodes, a "no
// feasible node" must be the real Filter phase rejecting every node;
// every decision must agree (a disagreement of a known class is reported
// by class and fails the test too). The report is logged per
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
			// Every class a replayed step could fall in is closed (Kivi's
			// hostname alias is on the real nodes too), so every decision
			// must agree outright.
			if len(tally.classes) > 0 {
				t.Errorf("%s: decisions disagree (classified): %s", src.name, tally)
			}
			total.add(tally)
		})
	}
	t.Logf("all sources: %s", total)
}

// counterexamples builds src's problem and returns its counterexamples
// and a replayer for its universe (closed when the test ends).
func counterexamples(t *testing.T, src replaySource) (*kivi.Problem, []checker.PropertyResult[*model.State], *Replayer) {
	p, traces, rp, _ := counterexamplesOf(t, src)
	return p, traces, rp
}

// counterexamplesOf is counterexamples, with the check's result.
func counterexamplesOf(t *testing.T, src replaySource) (*kivi.Problem, []checker.PropertyResult[*model.State], *Replayer, checker.Result[*model.State]) {
	t.Helper()
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
	opts := checker.Options{Workers: 1, CollectAll: true, NoSymmetry: true, Timeout: 2 * time.Minute}
	if src.large {
		opts.CollectAll, opts.NoSymmetry = false, false
	}
	res, err := checker.Check[*model.State](context.Background(), p.System.CheckerSystem(), p.Properties, opts)
	if err != nil {
		t.Fatal(err)
	}
	var out []checker.PropertyResult[*model.State]
	for _, pr := range res.Properties {
		if pr.Trace != nil {
			out = append(out, pr)
		}
	}
	rp, err := NewReplayerConfig(p.System.U, src.config)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rp.Close)
	return p, out, rp, res
}

// replaySource1 replays one source's counterexamples.
func replaySource1(t *testing.T, src replaySource) *replayTally {
	p, traces, rp, res := counterexamplesOf(t, src)
	tally := &replayTally{classes: map[string]int{}}
	for _, pr := range traces {
		tally.traces++
		prev := pr.Trace.Initial
		for i, st := range pr.Trace.Steps {
			if isScheduler(p.System, st.Step) {
				var log func(string, ...any)
				if *replayVerbose {
					log = t.Logf
				}
				problems, err := replayDrain(rp, fmt.Sprintf("%s step %d", pr.Name, i+1), prev, st.State, tally, log)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range problems {
					t.Error(m)
				}
			}
			prev = st.State
		}
	}
	if tally.traces == 0 {
		var verdicts []string
		for _, pr := range res.Properties {
			verdicts = append(verdicts, pr.String())
		}
		if src.wantViolation {
			t.Errorf("no counterexample: %s", strings.Join(verdicts, "; "))
		} else {
			t.Logf("no counterexample to replay: %s", strings.Join(verdicts, "; "))
		}
	}
	return tally
}

// isScheduler reports whether the step is the scheduler's: by the
// process's type, which does not depend on how traces name it.
func isScheduler(sys *compose.System, step checker.Step) bool {
	if int(step.Actor) < len(sys.Actors) {
		switch sys.Actors[step.Actor].Process.(type) {
		case kivisched.Scheduler, *kivisched.Scheduler:
			return true
		}
	}
	n := sys.ActorName(step)
	return n == "Scheduler" || n == "kube-scheduler"
}

// decision is one scheduling cycle of a scheduler step: pod slot pod of
// s, which the model bound to node placed (-1: no feasible node).
type decision struct {
	s           *model.State
	pod, placed int
}

// drainDecisions lists the cycles of one scheduler step from pre to post.
// The step drains the scheduling queue as scheduler.Step does: each
// dequeued pod that is still Pending and unbound gets a cycle, on the
// state with the earlier pods of the drain bound. The model's decision is
// read off post: the pod's node there, or the step's no-feasible-node
// failure for it. A pod unbound in post without that failure was not
// reached (when ties branch, a step schedules one pod).
func drainDecisions(pre, post *model.State) []decision {
	var out []decision
	s := pre.Clone()
	for !s.Empty(model.SchedulerQueue) {
		p, _ := s.Dequeue(model.SchedulerQueue)
		if q := &s.Pods[p]; q.Phase != model.Pending || q.Node != 0 {
			continue
		}
		placed := post.Pods[p].NodeOf()
		failed := post.Failed == model.FailNoFeasibleNode && int(post.FailedArg) == p
		if placed < 0 && !failed {
			break
		}
		out = append(out, decision{s.Clone(), p, placed})
		if failed {
			break
		}
		s.Pods[p].Node = uint16(placed + 1)
	}
	return out
}

// replayDrain replays the cycles of one scheduler step from pre to post
// and returns the problems found: a trace that is not the model's own
// decision, or an unexplained disagreement.
func replayDrain(rp *Replayer, where string, pre, post *model.State, tally *replayTally, log func(string, ...any)) ([]string, error) {
	var problems []string
	for _, d := range drainDecisions(pre, post) {
		p, placed := d.pod, d.placed
		v, err := rp.Judge(d.s, p, placed)
		if err != nil {
			return problems, fmt.Errorf("%s: pod %d: %w", where, p+1, err)
		}
		if log != nil {
			log("%s: pod %d placed on %q (class %q)\n  model: %s\n  real: %s\n%s", where, p+1, v.Placed, v.Class, v.Model, v.Real, v.Real.Detail)
		}
		// The trace must be the model's own decision, or the comparison
		// says nothing about the model.
		if placed < 0 && len(v.Model.Feasible) > 0 || placed >= 0 && !slices.Contains(v.Model.Top, v.Placed) {
			problems = append(problems, fmt.Sprintf("%s: pod %d: the trace placed it on %q, the model's cycle says %s", where, p+1, v.Placed, v.Model))
			break
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
		if slices.ContainsFunc(d.s.Pods, func(q model.PodState) bool { return model.OnDeletedNode(d.s, &q) }) {
			tally.onDeletedNode++
		}
		switch v.Class {
		case "":
			tally.agree++
		case Unexplained:
			problems = append(problems, fmt.Sprintf("%s: pod %d placed on %q: unexplained disagreement\n  model: %s\n  real: %s\n%s",
				where, p+1, v.Placed, v.Model, v.Real, v.Real.Detail))
		default:
			tally.classes[v.Class]++
		}
	}
	return problems, nil
}

// TestReplayCatchesWrongDecisions shows that the replay can fail: on the
// decisions of C1's and C3's counterexamples (placements, and C3's
// no-feasible-node failure) it plants wrong ones and expects the judge to
// disagree, and it doctors a trace and expects replayDrain to report it.
//   - "No feasible node" where the model placed the pod: the real
//     framework has feasible nodes, and no known class excuses that.
//   - A placement on each node outside the real top-scoring nodes: never
//     an agreement; at least one is Unexplained (the classes may excuse
//     others, which is what they are for).
//   - A placement where the model found no node: the real Filter phase
//     rejects every node, so it is Unexplained.
//   - A trace whose pod is moved to a node outside the model's own top:
//     replayDrain reports that the trace is not the model's decision.
func TestReplayCatchesWrongDecisions(t *testing.T) {
	if testing.Short() {
		t.Skip("the searches and the real framework take a while")
	}
	var noneForPlaced, wrongNode, placedForNone, doctored int
	for _, name := range []string{"c1", "c3"} {
		p, traces, rp := counterexamples(t, replaySource{name: name, load: func() (*model.Cluster, error) { return cases.Get(name, 3, false) }, wantViolation: true})
		for _, pr := range traces {
			prev := pr.Trace.Initial
			for _, st := range pr.Trace.Steps {
				pre, post := prev, st.State
				prev = post
				if !isScheduler(p.System, st.Step) {
					continue
				}
				for _, d := range drainDecisions(pre, post) {
					if d.placed >= 0 {
						v := judge(t, rp, d.s, d.pod, -1)
						if v.Class != Unexplained {
							t.Errorf("%s pod %d: planted \"no feasible node\" judged %q (real %s)", name, d.pod+1, v.Class, v.Real)
						}
						noneForPlaced++
					}
					real := judge(t, rp, d.s, d.pod, -1).Real
					for n := range p.System.U.Nodes {
						if slices.Contains(real.Top, p.System.U.Nodes[n].Name) {
							continue
						}
						v := judge(t, rp, d.s, d.pod, n)
						if v.Class == "" {
							t.Errorf("%s pod %d: planted placement on %s outside the real top %v judged an agreement", name, d.pod+1, v.Placed, real.Top)
						}
						if v.Class == Unexplained {
							wrongNode++
							if d.placed < 0 {
								placedForNone++
							}
						}
					}
					// Doctor the trace: the pod on a node the model's own
					// cycle does not rank top.
					m := judge(t, rp, d.s, d.pod, d.placed).Model
					for n := range p.System.U.Nodes {
						if d.placed < 0 || slices.Contains(m.Top, p.System.U.Nodes[n].Name) {
							continue
						}
						bad := post.Clone()
						bad.Pods[d.pod].Node = uint16(n + 1)
						problems, err := replayDrain(rp, "doctored", pre, bad, &replayTally{classes: map[string]int{}}, nil)
						if err != nil {
							t.Fatal(err)
						}
						if len(problems) == 0 {
							t.Errorf("%s pod %d: a trace doctored to node %d replayed without a problem", name, d.pod+1, n+1)
						}
						doctored++
						break
					}
				}
			}
		}
	}
	t.Logf("planted: %d \"no feasible node\" for placed pods, %d unexplained wrong nodes (%d where the model found none), %d doctored traces",
		noneForPlaced, wrongNode, placedForNone, doctored)
	if noneForPlaced == 0 || wrongNode == 0 || placedForNone == 0 || doctored == 0 {
		t.Fatal("some kind of planted decision was never tried: the counterexamples changed; pick others")
	}
}

// judge is rp.Judge, failing the test on a framework error.
func judge(t *testing.T, rp *Replayer, s *model.State, pod, placed int) StepVerdict {
	t.Helper()
	v, err := rp.Judge(s, pod, placed)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
