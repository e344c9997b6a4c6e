// Package walk draws random runs of the library's inputs for the replay
// tests of the differential packages: every incident of
// examples/incidents (its written input and its fixed twin), the worked
// example of docs/inputs.md (examples/inputs) and the realistic shapes of
// the benchmarks (bench.Shapes). A run picks a successor at random at
// every state, the steps the search would take replayed concretely, and
// hands every step to the test, which replays the decisions of its
// controller through the real code.
package walk

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/bench"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/examples/incidents"
	"github.com/kivi-go/kivi/model"
)

// Source is an input whose random runs are replayed.
type Source struct {
	Name string
	Load func() (*model.Cluster, error)
	// Manifests is the input's manifest stream (nil for a generated
	// shape): a test reads the configuration of its controller there,
	// such as a KubeSchedulerConfiguration.
	Manifests []byte
	// Steps, when not 0, bounds its runs instead of the test's default.
	Steps int
}

// Sources lists every incident and its fixed twin, the worked example and
// the realistic shapes.
func Sources() ([]Source, error) {
	var out []Source
	for _, inc := range incidents.List() {
		for _, fixed := range []bool{false, true} {
			name, dir := "incidents/"+inc.Name, inc.Name
			if fixed {
				name += "/fixed"
				dir += "/fixed"
			}
			manifests, err := fs.ReadFile(incidents.Files, dir+"/manifests.yaml")
			if err != nil {
				return nil, err
			}
			out = append(out, Source{Name: name, Manifests: manifests, Load: func() (*model.Cluster, error) {
				c, _, err := incidents.Load(inc.Name, fixed)
				return c, err
			}})
		}
	}
	ex, err := workedExample()
	if err != nil {
		return nil, err
	}
	out = append(out, ex)
	for _, sh := range bench.Shapes() {
		src := Source{Name: "shapes/" + sh.Name, Load: sh.Cluster}
		if sh.Name == "descheduler-soft-spread-loop" {
			// Once its 71 pods are placed, the descheduler's cycle
			// branches over thousands of eviction sets, every one of
			// which a run enumerates before it picks: the run stops
			// after the placements and the first cycles.
			src.Steps = 40
		}
		out = append(out, src)
	}
	return out, nil
}

// workedExample is examples/inputs, read from the repository this file
// is part of.
func workedExample() (Source, error) {
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		return Source{}, fmt.Errorf("walk: no source path to find examples/inputs from")
	}
	dir := filepath.Join(filepath.Dir(here), "..", "..", "examples", "inputs")
	var files [3]kivi.InputFile
	for i, f := range []string{"manifests.yaml", "nodes.yaml", "intents.yaml"} {
		name := filepath.Join(dir, f)
		data, err := os.ReadFile(name)
		if err != nil {
			return Source{}, err
		}
		files[i] = kivi.InputFile{Name: name, Data: data}
	}
	return Source{Name: "examples/inputs", Manifests: files[0].Data, Load: func() (*model.Cluster, error) {
		c, _, err := kivi.LoadManifests(files[:1], &files[1], &files[2])
		return c, err
	}}, nil
}

// Step is one step of a run.
type Step struct {
	Seed  uint64
	Index int // 1-based
	// Pre is the state the step leaves, Post the one it reaches.
	Pre, Post *model.State
	Pick      checker.Step
	// Alternatives are every successor step of Pre, Pick among them:
	// the other branches of the same controller, for a test that
	// compares them all (p.System.Replay reaches their states).
	Alternatives []checker.Step
}

// Where names the step in a message.
func (s Step) Where() string { return fmt.Sprintf("seed %d step %d", s.Seed, s.Index) }

// Run walks one random run of p from its initial state, of at most steps
// steps, drawn from seed, and calls visit on every step. It stops at a
// state without successors or at a failure the system does not go on
// after.
func Run(p *kivi.Problem, seed uint64, steps int, visit func(Step) error) error {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	sys := p.System
	var cur *model.State
	sys.Initial(func(s *model.State) {
		if cur == nil {
			cur = s.Clone()
		}
	})
	for i := range steps {
		if cur.Failed != model.NoFailure && !sys.U.ContinuesAfterFailure(cur) {
			return nil
		}
		var alts []checker.Step
		sys.Next(cur, func(st checker.Step, _ *model.State) { alts = append(alts, st) })
		if len(alts) == 0 {
			return nil
		}
		pick := alts[rng.IntN(len(alts))]
		next, _, err := sys.Replay(cur, pick)
		if err != nil {
			return fmt.Errorf("seed %d step %d: %v", seed, i+1, err)
		}
		if err := visit(Step{Seed: seed, Index: i + 1, Pre: cur, Post: next, Pick: pick, Alternatives: alts}); err != nil {
			return err
		}
		cur = next
	}
	return nil
}

// Rand is a random source for a test's own draws at a step (a listing
// order), apart from the run's: the same step draws the same.
func (s Step) Rand() *rand.Rand { return rand.New(rand.NewPCG(s.Seed, uint64(s.Index))) }

// Problem reads the source's input and builds its problem as `kivi
// verify` does (default options: both reductions on).
func (s Source) Problem() (*kivi.Problem, error) {
	c, err := s.Load()
	if err != nil {
		return nil, err
	}
	return kivi.NewProblem(c, kivi.Options{})
}

// Runs draws runs random runs of p (seeds 0..runs-1), each of at most
// the source's own bound or else steps steps, and hands every step to
// visit; it stops at the first error.
func (s Source) Runs(p *kivi.Problem, runs, steps int, visit func(Step) error) error {
	if s.Steps != 0 {
		steps = s.Steps
	}
	for seed := range uint64(runs) {
		if err := Run(p, seed, steps, visit); err != nil {
			return err
		}
	}
	return nil
}
