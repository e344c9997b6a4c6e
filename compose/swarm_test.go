package compose_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/report"
)

func TestSwarmSeed(t *testing.T) {
	for _, tc := range []struct {
		k, n, i int
		want    uint64
	}{
		{0, 1, 0, 1}, {0, 1, 4, 5}, {0, 3, 0, 1}, {2, 3, 0, 3}, {1, 3, 2, 8}, {0, 3, 1, 4},
	} {
		if got := compose.SwarmSeed(tc.k, tc.n, tc.i); got != tc.want {
			t.Errorf("SwarmSeed(%d, %d, %d) = %d, want %d", tc.k, tc.n, tc.i, got, tc.want)
		}
	}
}

func zoneSkew20(t *testing.T) *model.Cluster {
	t.Helper()
	var files [3]kivi.InputFile
	for i, name := range []string{"manifests.yaml", "nodes.yaml", "intents.yaml"} {
		p := filepath.Join("..", "examples", "zone-skew-20", name)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = kivi.InputFile{Name: p, Data: data}
	}
	c, _, err := kivi.LoadManifests(files[:1], &files[1], &files[2])
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func problem(t *testing.T, c *model.Cluster, opts compose.Options) *compose.Problem {
	t.Helper()
	p, err := compose.NewProblem(c, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Every shard of a swarm over examples/zone-skew-20 finds its
// violation (about 70 steps deep) with its first seed, and says which.
func TestSwarmShardFindsViolation(t *testing.T) {
	p := problem(t, zoneSkew20(t), compose.Options{})
	for k := range 3 {
		sw, err := p.SwarmShard(context.Background(), checker.Options{Workers: 1, MaxStates: 20_000}, k, 3)
		if err != nil {
			t.Fatal(err)
		}
		x := sw.Report.Result("pod_balance_across_node")
		want := compose.SwarmSeed(k, 3, 0)
		if x == nil || x.Verdict != checker.Violated || x.Seed != want || x.FoundBy != report.PhaseDepthFirst {
			t.Fatalf("shard %d/3: %+v, want violated by seed %d", k, x, want)
		}
		if len(sw.Seeds) != 1 || sw.Seeds[0] != want || sw.Finished != 0 || sw.K != k || sw.N != 3 || sw.Interrupted {
			t.Errorf("shard %d/3: seeds %v finished %d k %d n %d interrupted %v", k, sw.Seeds, sw.Finished, sw.K, sw.N, sw.Interrupted)
		}
		if sw.Report.Stats.States > 20_000 {
			t.Errorf("shard %d/3: %d states over its budget", k, sw.Report.Stats.States)
		}
	}
}

// On a small input that holds, the first search explores everything:
// the shard settles every intent and names the seed that did.
func TestSwarmShardSettles(t *testing.T) {
	c, err := cases.Get("c3", 3, true)
	if err != nil {
		t.Fatal(err)
	}
	p := problem(t, c, compose.Options{})
	sw, err := p.SwarmShard(context.Background(), checker.Options{Workers: 1, MaxStates: 100_000}, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if sw.Finished != 2 || !sw.Report.Complete || sw.Report.Verdict() != checker.Holds || len(sw.Seeds) != 1 {
		t.Errorf("finished %d, complete %v, verdict %v, seeds %v; want seed 2 to settle every intent",
			sw.Finished, sw.Report.Complete, sw.Report.Verdict(), sw.Seeds)
	}
}

// A state budget bounds the shard's searches together; a shard that ran
// out of it settles nothing, and runs the next seeds of its own.
func TestSwarmShardStateBudget(t *testing.T) {
	c, err := cases.Get("c3", 3, true)
	if err != nil {
		t.Fatal(err)
	}
	p := problem(t, c, compose.Options{})
	for _, workers := range []int{1, 2} {
		sw, err := p.SwarmShard(context.Background(), checker.Options{Workers: workers, MaxStates: 10}, 0, 3)
		if err != nil {
			t.Fatal(err)
		}
		if sw.Report.Stats.States > 10 || sw.Finished != 0 || sw.Report.Verdict() != checker.Unknown {
			t.Errorf("workers %d: %d states, finished %d, verdict %v; want at most 10, none, unknown",
				workers, sw.Report.Stats.States, sw.Finished, sw.Report.Verdict())
		}
		for i, s := range sw.Seeds {
			if s != compose.SwarmSeed(0, 3, i) {
				t.Errorf("workers %d: seeds %v, want 1, 4, 7, …", workers, sw.Seeds)
				break
			}
		}
	}
}

func TestSwarmShardRefuses(t *testing.T) {
	c, err := cases.Get("c3", 3, true)
	if err != nil {
		t.Fatal(err)
	}
	p := problem(t, c, compose.Options{})
	if _, err := p.SwarmShard(context.Background(), checker.Options{}, 0, 2); !errors.Is(err, compose.ErrSwarmBound) {
		t.Errorf("no bound: %v, want ErrSwarmBound", err)
	}
	for _, kn := range [][2]int{{2, 2}, {-1, 2}, {0, 0}} {
		if _, err := p.SwarmShard(context.Background(), checker.Options{MaxStates: 10}, kn[0], kn[1]); !errors.Is(err, compose.ErrInput) {
			t.Errorf("shard %d/%d: %v, want ErrInput", kn[0], kn[1], err)
		}
	}
}

// The fingerprint is the model's and the state space's: the same input
// built twice agrees; another input, or options that change the state
// space, do not; a search bound does not enter it.
func TestSwarmFingerprint(t *testing.T) {
	c3, err := cases.Get("c3", 3, true)
	if err != nil {
		t.Fatal(err)
	}
	c3v, err := cases.Get("c3", 3, false)
	if err != nil {
		t.Fatal(err)
	}
	slots := *c3
	slots.PodSlots = 9
	base := problem(t, c3, compose.Options{}).Fingerprint(checker.Options{})
	if again := problem(t, c3, compose.Options{}).Fingerprint(checker.Options{MaxStates: 5, Workers: 3}); again != base {
		t.Errorf("the same input: %s and %s", base, again)
	}
	for name, fp := range map[string]string{
		"another input":  problem(t, c3v, compose.Options{}).Fingerprint(checker.Options{}),
		"more pod slots": problem(t, &slots, compose.Options{}).Fingerprint(checker.Options{}),
		"no symmetry":    problem(t, c3, compose.Options{}).Fingerprint(checker.Options{NoSymmetry: true}),
		"bitstate":       problem(t, c3, compose.Options{}).Fingerprint(checker.Options{Storage: checker.Bitstate}),
		"all":            problem(t, c3, compose.Options{}).Fingerprint(checker.Options{CollectAll: true}),
	} {
		if fp == base {
			t.Errorf("%s: the same fingerprint %s", name, fp)
		}
	}
}
