package scaling

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"pgregory.net/rapid"
)

// TestShardsPartition: for every N and mode the shards' indices cover the
// list exactly once, in increasing order; interleaved puts i in shard
// i mod N, contiguous sizes differ by at most one.
func TestShardsPartition(t *testing.T) {
	for _, mode := range []ShardMode{Interleaved, Contiguous} {
		for total := 0; total < 30; total++ {
			for n := 1; n <= 7; n++ {
				owner := make([]int, total)
				for i := range owner {
					owner[i] = -1
				}
				smallest, largest := total, 0
				for k := range n {
					idx := Shard{K: k, N: n, Mode: mode}.Indices(total)
					smallest, largest = min(smallest, len(idx)), max(largest, len(idx))
					for j, i := range idx {
						if owner[i] >= 0 || j > 0 && idx[j-1] >= i {
							t.Fatalf("%v %d/%d of %d: index %d repeated or out of order", mode, k, n, total, i)
						}
						owner[i] = k
						if mode == Interleaved && i%n != k {
							t.Fatalf("interleaved: %d in shard %d of %d", i, k, n)
						}
					}
				}
				for i, k := range owner {
					if k < 0 {
						t.Fatalf("%v n=%d total=%d: setup %d in no shard", mode, n, total, i)
					}
				}
				if largest-smallest > 1 {
					t.Fatalf("%v n=%d total=%d: shard sizes %d..%d", mode, n, total, smallest, largest)
				}
			}
		}
	}
}

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shard
		err  bool
	}{
		{"0/4", Shard{K: 0, N: 4}, false},
		{"3/4", Shard{K: 3, N: 4}, false},
		{"4/4", Shard{}, true}, // K is 0-based (JOB_COMPLETION_INDEX)
		{"-1/4", Shard{}, true},
		{"1/0", Shard{}, true},
		{"1", Shard{}, true},
		{"a/b", Shard{}, true},
	} {
		got, err := ParseShard(tc.in, Interleaved)
		if (err != nil) != tc.err || err == nil && got != tc.want || err != nil && !errors.Is(err, ErrShard) {
			t.Errorf("%q: %+v, %v", tc.in, got, err)
		}
	}
}

// runShards runs every shard concurrently (a local stand-in for the
// processes of an Indexed Job), passes each result through JSON and
// returns them in a scrambled order.
func runShards(t fataler, w toyWorld, n int, mode ShardMode, all bool, rot int) []ShardResult {
	files := make([][]byte, n)
	var wg sync.WaitGroup
	errs := make([]error, n)
	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := RunShard(context.Background(), w.setups, Shard{K: k, N: n, Mode: mode}, w.verify, Options{Workers: 2, All: all})
			if err != nil {
				errs[k] = err
				return
			}
			files[k], errs[k] = json.Marshal(r)
		}()
	}
	wg.Wait()
	out := make([]ShardResult, n)
	for k := range n {
		if errs[k] != nil {
			t.Fatal(errs[k])
		}
		if err := json.Unmarshal(files[k], &out[k]); err != nil {
			t.Fatalf("shard %d: %v\n%s", k, err, files[k])
		}
	}
	rot %= n
	return append(out[rot:], out[:rot]...)
}

// fataler is what runShards needs of *testing.T and *rapid.T.
type fataler interface {
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// TestShardMergeEqualsSingleRun: splitting into N shards, running them,
// writing and reading their JSON and merging gives the single run's
// answer (same minimal failing setup, verdicts, counts, states, details).
func TestShardMergeEqualsSingleRun(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t, false)
		all := rapid.Bool().Draw(t, "all")
		n := rapid.IntRange(1, 5).Draw(t, "shards")
		mode := ShardMode(rapid.IntRange(0, 1).Draw(t, "mode"))
		single, err := Search(context.Background(), w.setups, w.verify, Options{Workers: 3, All: all})
		if err != nil {
			t.Fatal(err)
		}
		merged, err := Merge(runShards(t, w, n, mode, all, rapid.IntRange(0, 4).Draw(t, "rotate"))...)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := w.sequential(all)
		if e := sameAnswer(merged, want); e != nil {
			t.Fatalf("merged: %v", e)
		}
		if merged.String() != single.String() || len(merged.Failures) != len(single.Failures) {
			t.Fatalf("merged %s, single %s", merged.String(), single.String())
		}
		for i, s := range merged.Setups {
			if s.Status == NotRun {
				continue
			}
			d, _ := s.Outcome.Detail.(json.RawMessage)
			if !strings.Contains(string(d), s.Setup.String()) || len(s.Outcome.Violated) != len(single.Setups[i].Outcome.Violated) {
				t.Fatalf("setup %d: detail %s violated %v", i, d, s.Outcome.Violated)
			}
		}
	})
}

// TestMergeRefuses: missing, repeated, foreign and interrupted shards are
// errors naming the shard.
func TestMergeRefuses(t *testing.T) {
	w := smallWorld()
	shards := runShards(t, w, 3, Interleaved, false, 1)
	w.setups = w.setups[:len(w.setups)-1]
	other, _ := RunShard(context.Background(), w.setups, Shard{K: 1, N: 3}, w.verify, Options{})
	byK := map[int]ShardResult{}
	for _, s := range shards {
		byK[s.Shard.K] = s
	}
	if _, err := Merge(byK[0], byK[1], byK[2]); err != nil {
		t.Fatal(err)
	}
	interrupted := byK[2]
	interrupted.Interrupted = true
	all := byK[2]
	all.All = true
	old := byK[2]
	old.Version = 0
	short := byK[2]
	short.Setups = short.Setups[1:]
	for _, tc := range []struct {
		shards []ShardResult
		want   string
	}{
		{nil, "no shard results"},
		{[]ShardResult{byK[0], byK[2]}, "missing shard(s) 1/3"},
		{[]ShardResult{byK[0], byK[1], byK[1], byK[2]}, "shard 1/3 (argument 3): given twice"},
		{[]ShardResult{byK[0], other, byK[2]}, "shard 1/3 (argument 2): setup list"},
		{[]ShardResult{byK[0], byK[1], interrupted}, "interrupted"},
		{[]ShardResult{byK[0], byK[1], all}, "all=true"},
		{[]ShardResult{byK[0], byK[1], old}, "format version 0"},
		{[]ShardResult{byK[0], byK[1], short}, "setup results, its slice has"},
	} {
		_, err := Merge(tc.shards...)
		if err == nil || !errors.Is(err, ErrShard) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v", tc.want, err)
		}
	}
	// A file of another version is refused when read.
	var r ShardResult
	if err := json.Unmarshal([]byte(`{"format":"kivi-scaling-shard","version":2}`), &r); !errors.Is(err, ErrShard) {
		t.Errorf("version 2 read: %v", err)
	}
}

// smallWorld: one node type 0..2, one deployment 0..4; setups with 2
// nodes and ≥ 3 replicas fail.
func smallWorld() toyWorld {
	w := toyWorld{}
	w.setups, _ = Enumerate(Bounds{NodeTypes: []TypeBounds{{Max: 2}}, Deployments: []DeploymentBounds{{Max: 4, MaxPodsPerNode: 7}}}, EnumerateOptions{})
	for _, s := range w.setups {
		v := checker.Holds
		if s.TotalNodes() == 2 && s.TotalReplicas() >= 3 {
			v = checker.Violated
		}
		w.verdict, w.fails, w.yields = append(w.verdict, v), append(w.fails, false), append(w.yields, 0)
	}
	return w
}

// TestShardFileGolden pins format version 1 (testdata/shard-v1.json,
// regenerate with -rewrite): shard 1/2 of the small world, timings zeroed.
func TestShardFileGolden(t *testing.T) {
	w := smallWorld()
	r, err := RunShard(context.Background(), w.setups, Shard{K: 1, N: 2}, w.verify, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	r.Elapsed = 0
	for i := range r.Setups {
		r.Setups[i].Elapsed = 0
	}
	got, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	const path = "testdata/shard-v1.json"
	if f := flag.Lookup("rewrite"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != string(got)+"\n" {
		t.Errorf("shard file changed (bump ShardFormatVersion if the format did):\n%s", got)
	}
	var back ShardResult
	if err := json.Unmarshal(want, &back); err != nil {
		t.Fatal(err)
	}
	again, _ := json.MarshalIndent(back, "", "  ")
	if string(again) != string(got) {
		t.Errorf("round trip changed the file:\n%s", again)
	}
}
