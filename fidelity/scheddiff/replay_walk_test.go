package scheddiff

import (
	"cmp"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/bench"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
)

// walkSources are the manifest inputs whose random runs TestReplayRandomRuns
// replays: every incident of the library and its fixed twin, the worked
// example of docs/inputs.md, and the realistic shapes of the benchmarks
// (12 to 30 nodes). Most of them hold, so they print no counterexample
// for TestReplayCounterexamples to replay: their scheduling decisions
// are reached by walking.
func walkSources(t *testing.T) []walkSource {
	var out []walkSource
	for _, src := range incidentSources(t) {
		out = append(out, walkSource{replaySource: src})
	}
	out = append(out, walkSource{replaySource: replaySource{name: "examples/inputs", load: func() (*model.Cluster, error) {
		var files [3]kivi.InputFile
		for i, f := range []string{"manifests.yaml", "nodes.yaml", "intents.yaml"} {
			name := "../../examples/inputs/" + f
			data, err := os.ReadFile(name)
			if err != nil {
				return nil, err
			}
			files[i] = kivi.InputFile{Name: name, Data: data}
		}
		c, _, err := kivi.LoadManifests(files[:1], &files[1], &files[2])
		return c, err
	}}})
	for _, sh := range bench.Shapes() {
		ws := walkSource{replaySource: replaySource{name: "shapes/" + sh.Name, load: sh.Cluster}}
		if sh.Name == "descheduler-soft-spread-loop" {
			// Once its 71 pods are placed, the descheduler's cycle
			// branches over thousands of eviction sets, every one of
			// which a walk enumerates before it picks: the walk stops
			// after the placements and the first cycles.
			ws.steps = 40
		}
		out = append(out, ws)
	}
	return out
}

// walkSource is a source of random runs.
type walkSource struct {
	replaySource
	// steps, when not 0, bounds its runs instead of -walksteps.
	steps int
}

// Random runs per source and their length: by default enough for every
// incident's scheduler to place its pods again after its events (a node
// failure, a drain, an eviction loop's turns), a few seconds for all
// sources.
var (
	walksPerSource = flag.Int("walks", 12, "random runs per source of TestReplayRandomRuns")
	walkSteps      = flag.Int("walksteps", 150, "steps per random run of TestReplayRandomRuns")
)

// TestReplayRandomRuns replays every scheduling decision of random runs
// of the incident library, the worked example and the realistic shapes
// through the real framework, as TestReplayCounterexamples does for
// counterexamples: each run picks a successor at random at every state
// (the steps the search would take, replayed concretely), and every
// decision must agree outright.
func TestReplayRandomRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("the real framework takes a while")
	}
	total := &replayTally{classes: map[string]int{}}
	for _, src := range walkSources(t) {
		t.Run(src.name, func(t *testing.T) {
			c, err := src.load()
			if err != nil {
				t.Fatal(err)
			}
			p, err := kivi.NewProblem(c, kivi.Options{})
			if err != nil {
				t.Fatal(err)
			}
			rp, err := NewReplayerConfig(p.System.U, src.config)
			if err != nil {
				t.Fatal(err)
			}
			defer rp.Close()
			tally := &replayTally{classes: map[string]int{}}
			var log func(string, ...any)
			if *replayVerbose {
				log = t.Logf
			}
			for seed := range uint64(*walksPerSource) {
				walk(t, p, rp, seed, cmp.Or(src.steps, *walkSteps), tally, log)
			}
			t.Logf("%s: %s", src.name, tally)
			// A pod pinned by nodeName bypasses the scheduler: an input
			// of such pods only has no decision to replay.
			scheduled := slices.ContainsFunc(p.System.U.Templates, func(t model.PodTemplate) bool { return t.NodeName == 0 })
			if tally.steps == 0 && scheduled {
				t.Errorf("%s: no scheduling decision in %d random runs: the replay checks nothing", src.name, *walksPerSource)
			}
			if len(tally.classes) > 0 {
				t.Errorf("%s: decisions disagree (classified): %s", src.name, tally)
			}
			total.add(tally)
		})
	}
	t.Logf("all sources: %s", total)
}

// walk replays the scheduler steps of one random run of p from its
// initial state, of at most steps steps.
func walk(t *testing.T, p *kivi.Problem, rp *Replayer, seed uint64, steps int, tally *replayTally, log func(string, ...any)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	sys := p.System
	var cur *model.State
	sys.Initial(func(s *model.State) {
		if cur == nil {
			cur = s.Clone()
		}
	})
	tally.traces++
	for i := range steps {
		if cur.Failed != model.NoFailure && !sys.U.ContinuesAfterFailure(cur) {
			return
		}
		var steps []checker.Step
		sys.Next(cur, func(st checker.Step, _ *model.State) { steps = append(steps, st) })
		if len(steps) == 0 {
			return
		}
		pick := steps[rng.IntN(len(steps))]
		next, _, err := sys.Replay(cur, pick)
		if err != nil {
			t.Fatalf("seed %d step %d: %v", seed, i+1, err)
		}
		if isScheduler(sys, pick) {
			problems, err := replayDrain(rp, fmt.Sprintf("seed %d step %d", seed, i+1), cur, next, tally, log)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range problems {
				t.Error(m)
			}
		}
		cur = next
	}
}
