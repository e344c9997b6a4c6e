package report_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/report"
	"github.com/kivi-go/kivi/scaling"
)

// shard is a swarm shard document of two intents, a and b, with the
// given verdicts ("v3" is violated with a counterexample of 3 steps).
func shard(k, n int, seeds []uint64, finished uint64, a, b string) report.JSONReport {
	doc := report.JSONReport{SchemaVersion: report.SchemaVersion, Mode: report.ModeShard, Name: "x",
		Warnings: []report.JSONWarning{}, Verdict: "unknown",
		Stats: report.JSONStats{States: 10, Complete: finished != 0},
		Shard: &report.JSONShard{K: k, N: n, Mode: report.ShardModeSwarm, Seeds: seeds, Finished: finished, Fingerprint: "sha256:f"}}
	for i, v := range []string{a, b} {
		in := report.JSONIntent{Name: string(rune('a' + i)), Verdict: v}
		if strings.HasPrefix(v, "v") {
			in.Verdict = "violated"
			in.Seed = seeds[0]
			in.FoundBy = report.PhaseDepthFirst
			for s := range int(v[1] - '0') {
				in.Counterexample = append(in.Counterexample, report.JSONStep{Step: s, Component: "c", Message: "m"})
			}
			doc.Verdict = "violated"
		}
		if v == "unknown" {
			in.Reason = "states"
		}
		doc.Intents = append(doc.Intents, in)
	}
	if finished != 0 && doc.Verdict == "unknown" {
		doc.Verdict = "holds"
	}
	return doc
}

func TestMergeSwarmVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		shards []report.JSONReport
		// want is each intent's verdict, then its seed and shard when
		// violated.
		want    []string
		verdict string
	}{
		{"one shard finds it", []report.JSONReport{
			shard(0, 2, []uint64{1, 3}, 0, "unknown", "unknown"),
			shard(1, 2, []uint64{2}, 0, "v5", "unknown")},
			[]string{"violated seed 2 shard 1", "unknown"}, "violated"},
		{"the shortest counterexample wins", []report.JSONReport{
			shard(0, 3, []uint64{1}, 0, "v5", "unknown"),
			shard(1, 3, []uint64{2}, 0, "v3", "unknown"),
			shard(2, 3, []uint64{3}, 0, "v4", "unknown")},
			[]string{"violated seed 2 shard 1", "unknown"}, "violated"},
		{"a tie keeps the lowest seed", []report.JSONReport{
			shard(1, 2, []uint64{2}, 0, "v3", "unknown"),
			shard(0, 2, []uint64{1}, 0, "v3", "unknown")},
			[]string{"violated seed 1 shard 0", "unknown"}, "violated"},
		{"a finished search settles", []report.JSONReport{
			shard(0, 2, []uint64{1}, 1, "holds", "holds"),
			shard(1, 2, []uint64{2}, 0, "unknown", "unknown")},
			[]string{"holds", "holds"}, "holds"},
		{"holds without a finished search is unknown", []report.JSONReport{
			shard(0, 2, []uint64{1}, 0, "holds", "unknown"),
			shard(1, 2, []uint64{2}, 0, "unknown", "unknown")},
			[]string{"unknown", "unknown"}, "unknown"},
		{"a violation and a settled intent", []report.JSONReport{
			shard(0, 2, []uint64{1}, 1, "v2", "holds"),
			shard(1, 2, []uint64{2}, 0, "unknown", "unknown")},
			[]string{"violated seed 1 shard 0", "holds"}, "violated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := report.MergeSwarm(tc.shards...)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, in := range doc.Intents {
				s := in.Verdict
				if in.Shard != nil {
					s += " seed " + itoa(int(in.Seed)) + " shard " + itoa(*in.Shard)
				}
				got = append(got, s)
			}
			if strings.Join(got, "; ") != strings.Join(tc.want, "; ") || doc.Verdict != tc.verdict || doc.Mode != report.ModeMerge {
				t.Errorf("got %q, verdict %s (mode %s); want %q, %s", got, doc.Verdict, doc.Mode, tc.want, tc.verdict)
			}
			for _, in := range doc.Intents {
				want := "no search of the swarm finished"
				if doc.Verdict == "violated" {
					want = "stopped at its first violations" // no --all
				}
				if in.Verdict == "unknown" && !strings.Contains(in.Reason, want) {
					t.Errorf("%s: unknown with reason %q; want one containing %q", in.Name, in.Reason, want)
				}
			}
			if doc.Swarm == nil || len(doc.Swarm.Shards) != len(tc.shards) || doc.Swarm.Shards[0].K != 0 {
				t.Errorf("swarm %+v; want every shard in order of K", doc.Swarm)
			}
			var text bytes.Buffer
			report.WriteSwarm(&text, doc, "kivi verify in.yaml")
			for _, in := range doc.Intents {
				if in.Shard != nil && !strings.Contains(text.String(), "`kivi verify in.yaml --strategy dfs --seed "+itoa(int(in.Seed))+"`") {
					t.Errorf("text does not say how to repeat seed %d:\n%s", in.Seed, text.String())
				}
			}
		})
	}
}

// Stopped at its first violation (no --all), a swarm says so of the
// intents it did not settle.
func TestMergeSwarmStopped(t *testing.T) {
	doc, err := report.MergeSwarm(shard(0, 1, []uint64{1}, 0, "v2", "unknown"))
	if err != nil {
		t.Fatal(err)
	}
	if r := doc.Intents[1].Reason; !strings.Contains(r, "stopped at its first violations") {
		t.Errorf("reason %q", r)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestMergeSwarmRefuses(t *testing.T) {
	ok := func(k int) report.JSONReport { return shard(k, 3, []uint64{uint64(k + 1)}, 0, "unknown", "unknown") }
	with := func(k int, change func(*report.JSONReport)) report.JSONReport {
		d := ok(k)
		change(&d)
		return d
	}
	for _, tc := range []struct {
		name   string
		shards []report.JSONReport
		want   string
	}{
		{"missing", []report.JSONReport{ok(0), ok(2)}, "missing swarm shard(s) 1/3"},
		{"twice", []report.JSONReport{ok(0), ok(1), ok(1), ok(2)}, "swarm shard 1/3 (argument 3): given twice"},
		{"another N", []report.JSONReport{ok(0), ok(1), with(2, func(d *report.JSONReport) { d.Shard.N = 4 })}, "swarm shard 2/4 (argument 3): shard 0/3 is of a swarm of 3"},
		{"another input", []report.JSONReport{ok(0), with(1, func(d *report.JSONReport) { d.Shard.Fingerprint = "sha256:g" }), ok(2)}, "(argument 2): input fingerprint sha256:g differs"},
		{"another --all", []report.JSONReport{ok(0), ok(1), with(2, func(d *report.JSONReport) { d.Shard.All = true })}, "all=true but shard 0/3 has all=false"},
		{"other intents", []report.JSONReport{ok(0), with(1, func(d *report.JSONReport) { d.Intents[1].Name = "z" }), ok(2)}, "its intents differ"},
		{"none", nil, "no swarm shards"},
	} {
		_, err := report.MergeSwarm(tc.shards...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, scaling.ErrShard) {
			t.Errorf("%s: error %v; want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestReadSwarmShard(t *testing.T) {
	good, _ := json.Marshal(shard(1, 2, []uint64{2}, 0, "v3", "unknown"))
	doc, err := report.ReadSwarmShard(good)
	if err != nil || doc.Shard.K != 1 || doc.Intents[0].Seed != 2 || !report.IsSwarmShard(good) {
		t.Fatalf("ReadSwarmShard(good) = %+v, %v", doc.Shard, err)
	}
	change := func(f func(d *report.JSONReport)) []byte {
		d := shard(1, 2, []uint64{2}, 0, "v3", "unknown")
		f(&d)
		b, _ := json.Marshal(d)
		return b
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"not JSON", []byte("{"), "shard error"},
		{"newer", change(func(d *report.JSONReport) { d.SchemaVersion = 99 }), "newer than this kivi's"},
		{"a topology report", change(func(d *report.JSONReport) { d.Mode = report.ModeTopology }), "not a shard"},
		{"a scaling shard", change(func(d *report.JSONReport) { d.Shard.Mode = "interleaved" }), "scaling-search shard"},
		{"K out of range", change(func(d *report.JSONReport) { d.Shard.K = 2 }), "shard 2/2 (accepted: 0 ≤ K < N)"},
		{"no fingerprint", change(func(d *report.JSONReport) { d.Shard.Fingerprint = "" }), "no shard.fingerprint"},
		{"bad verdict", change(func(d *report.JSONReport) { d.Verdict = "fine" }), `verdict "fine"`},
		{"bad intent verdict", change(func(d *report.JSONReport) { d.Intents[1].Verdict = "maybe" }), `intents[1].verdict "maybe"`},
		{"an intent twice", change(func(d *report.JSONReport) { d.Intents[1].Name = "a" }), `intents[1]: "a" twice`},
	} {
		_, err := report.ReadSwarmShard(tc.data)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, scaling.ErrShard) {
			t.Errorf("%s: error %v; want one containing %q", tc.name, err, tc.want)
		}
	}
	// A swarm shard is not a scaling shard: the scaling reader says so.
	if _, err := report.ReadShard(good); err == nil || !strings.Contains(err.Error(), "a swarm shard") {
		t.Errorf("ReadShard(swarm shard): %v", err)
	}
}

// FuzzReadSwarmShard: ReadSwarmShard never panics, fails only with
// scaling.ErrShard, and a shard it accepts merges on its own when it is
// a swarm of one. The seeds are testdata/fuzz/FuzzReadSwarmShard.
func FuzzReadSwarmShard(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := report.ReadSwarmShard(data)
		if err != nil {
			if !errors.Is(err, scaling.ErrShard) {
				t.Fatalf("error without ErrShard: %v", err)
			}
			return
		}
		if doc.Shard.N == 1 {
			m, err := report.MergeSwarm(doc)
			if err != nil {
				t.Fatalf("a swarm of one does not merge: %v", err)
			}
			if len(m.Intents) != len(doc.Intents) {
				t.Fatalf("merged %d intents of %d", len(m.Intents), len(doc.Intents))
			}
		}
	})
}

// TestFuzzSeeds keeps the fuzz seeds readable: at least one is accepted
// and one refused.
func TestFuzzSeeds(t *testing.T) {
	files, _ := filepath.Glob("testdata/fuzz/FuzzReadSwarmShard/*")
	accepted, refused := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(string(data), "\n", 2)
		if len(lines) < 2 || !strings.HasPrefix(lines[1], "[]byte(") {
			t.Fatalf("%s: not a corpus file", f)
		}
		s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(lines[1]), "[]byte("), ")"))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if _, err := report.ReadSwarmShard([]byte(s)); err == nil {
			accepted++
		} else {
			refused++
		}
	}
	if accepted == 0 || refused == 0 {
		t.Errorf("%d seeds accepted, %d refused; want some of each", accepted, refused)
	}
}
