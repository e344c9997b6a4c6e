package scheddiff

import (
	"flag"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/fidelity/walk"
	"github.com/kivi-go/kivi/model"
)

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
	sources, err := walk.Sources()
	if err != nil {
		t.Fatal(err)
	}
	total := &replayTally{classes: map[string]int{}}
	for _, src := range sources {
		t.Run(src.Name, func(t *testing.T) {
			p, err := src.Problem()
			if err != nil {
				t.Fatal(err)
			}
			rp, err := NewReplayerConfig(p.System.U, schedulerConfig(src.Manifests))
			if err != nil {
				t.Fatal(err)
			}
			defer rp.Close()
			tally := &replayTally{classes: map[string]int{}}
			var log func(string, ...any)
			if *replayVerbose {
				log = t.Logf
			}
			tally.traces = *walksPerSource
			err = src.Runs(p, *walksPerSource, *walkSteps, func(st walk.Step) error {
				if !isScheduler(p.System, st.Pick) {
					return nil
				}
				problems, err := replayDrain(rp, st.Where(), st.Pre, st.Post, tally, log)
				for _, m := range problems {
					t.Error(m)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s", src.Name, tally)
			// A pod pinned by nodeName bypasses the scheduler: an input
			// of such pods only has no decision to replay.
			scheduled := slices.ContainsFunc(p.System.U.Templates, func(t model.PodTemplate) bool { return t.NodeName == 0 })
			if tally.steps == 0 && scheduled {
				t.Errorf("%s: no scheduling decision in %d random runs: the replay checks nothing", src.Name, *walksPerSource)
			}
			if len(tally.classes) > 0 {
				t.Errorf("%s: decisions disagree (classified): %s", src.Name, tally)
			}
			total.add(tally)
		})
	}
	t.Logf("all sources: %s", total)
}
