package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// zoneSkew20 are the arguments that verify examples/zone-skew-20.
var zoneSkew20 = []string{"-f", "../../examples/zone-skew-20/manifests.yaml",
	"--nodes", "../../examples/zone-skew-20/nodes.yaml", "--intents", "../../examples/zone-skew-20/intents.yaml"}

// runSwarmShards runs shards 0..n-1 of a swarm over input with extra
// flags and returns their files; every shard must exit 0.
func runSwarmShards(t *testing.T, input []string, n int, extra ...string) []string {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for k := range n {
		f := filepath.Join(dir, fmt.Sprintf("shard-%d-of-%d.json", k, n))
		args := append(append(append([]string{"verify"}, input...), "--shard", fmt.Sprintf("%d/%d", k, n), "--shard-out", f, "--quiet"), extra...)
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != exitHolds {
			t.Fatalf("%v: exit %d, stderr %s", args, code, stderr.String())
		}
		files = append(files, f)
	}
	return files
}

func merge(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), append([]string{"merge"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// A swarm of 3 over examples/zone-skew-20 finds its violation, about 70
// steps deep; the merge names the shard and seed and how to repeat it.
func TestSwarmFindsViolation(t *testing.T) {
	files := runSwarmShards(t, zoneSkew20, 3, "--max-states", "20000", "--workers", "1")
	code, out, stderr := merge(t, files...)
	if code != exitViolated {
		t.Fatalf("merge: exit %d, stderr %s\n%s", code, stderr, out)
	}
	for _, want := range []string{"Violated intent: pod_balance_across_node", "shard 0/3: seeds 1,", "--strategy dfs --seed ", "pod_balance_across_node: violated (shard "} {
		if !strings.Contains(out, want) {
			t.Errorf("merge text lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = merge(t, append([]string{"--json"}, files...)...)
	var doc struct {
		Verdict string `json:"verdict"`
		Intents []struct {
			Name, Verdict string
			Seed          uint64
			Shard         *int
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != exitViolated {
		t.Fatalf("merge --json: exit %d, %v", code, err)
	}
	found := false
	for _, in := range doc.Intents {
		if in.Name == "pod_balance_across_node" {
			found = in.Verdict == "violated" && in.Shard != nil && in.Seed == uint64(*in.Shard+1)
		}
	}
	if !found {
		t.Errorf("merge --json: %+v; want pod_balance_across_node violated with its shard and that shard's first seed", doc.Intents)
	}
}

// On an input small enough for one search to explore, the merge says
// holds; with a state budget too small for that, unknown.
func TestSwarmHoldsOnlyWhenASearchFinished(t *testing.T) {
	input := []string{"--case", "c3", "--original", "--no-violation"}
	code, out, stderr := merge(t, runSwarmShards(t, input, 2, "--max-states", "100000", "--workers", "1")...)
	if code != exitHolds || !strings.Contains(out, "explored everything") {
		t.Errorf("generous budget: exit %d, stderr %s\n%s", code, stderr, out)
	}
	code, out, stderr = merge(t, runSwarmShards(t, input, 3, "--max-states", "10", "--workers", "2")...)
	if code != exitUnknown || !strings.Contains(out, "no search of the swarm finished") {
		t.Errorf("tight budget: exit %d, stderr %s\n%s", code, stderr, out)
	}
}

func TestSwarmUsageErrors(t *testing.T) {
	c3 := []string{"verify", "--case", "c3", "--original", "--quiet"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{append(c3, "--shard", "0/2"), "needs a bound (accepted: --shard K/N --timeout D"},
		{append(c3, "--shard", "0/2", "--timeout", "1m", "--shard-mode", "interleaved"), "--shard-mode interleaved: a swarm shard"},
		{append(c3, "--shard", "0/2", "--timeout", "1m", "--strategy", "dfs", "--seed", "3"), "--seed with --shard"},
		{append(c3, "--shard", "2/2", "--timeout", "1m"), "--shard: shard 2/2 (accepted: 0 ≤ K < N)"},
		{append(c3, "--shard", "x", "--max-states", "10"), `--shard: shard "x" (accepted: K/N`},
		{append(c3, "--shard", "0/2", "--timeout", "1m", "--strategy", "bfs"), "--strategy bfs with --shard"},
		{append(c3, "--shard", "0/2", "--timeout", "1m", "--html", filepath.Join(t.TempDir(), "page.html")), "--html with --shard"},
		{[]string{"verify", "--case", "c3", "--quiet", "--shard", "0/2", "--html", filepath.Join(t.TempDir(), "page.html")}, "--html with --shard"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tc.args, &stdout, &stderr)
		if code != exitInput || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}

// kivi merge refuses swarm shards that are not the N shards of one
// swarm, and a mix of swarm and scaling shards, naming the file or the
// shard.
func TestSwarmMergeRefuses(t *testing.T) {
	holds := []string{"--case", "c3", "--original", "--no-violation"}
	two := runSwarmShards(t, holds, 2, "--max-states", "100", "--workers", "1")
	three := runSwarmShards(t, holds, 3, "--max-states", "100", "--workers", "1")
	other := runSwarmShards(t, []string{"--case", "c3", "--original"}, 2, "--max-states", "100", "--workers", "1")
	noSym := runSwarmShards(t, holds, 2, "--max-states", "100", "--workers", "1", "--symmetry", "off")
	dir := t.TempDir()
	scalingShard := filepath.Join(dir, "scaling-0.json")
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"verify", "--case", "c5", "--confident-nodes", "1", "--confident-pods-per-node", "1",
		"--shard", "0/2", "--shard-out", scalingShard, "--quiet", "--workers", "1"}, new(bytes.Buffer), &stderr); code != exitHolds {
		t.Fatalf("scaling shard: exit %d, %s", code, stderr.String())
	}
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{"missing", two[:1], "missing swarm shard(s) 1/2"},
		{"twice", []string{two[0], two[1], two[1]}, "swarm shard 1/2 (argument 3): given twice"},
		{"another N", []string{two[0], three[1]}, "swarm shard 1/3 (argument 2): shard 0/2 is of a swarm of 2"},
		{"another input", []string{two[0], other[1]}, "(argument 2): input fingerprint"},
		{"other options", []string{two[0], noSym[1]}, "(argument 2): input fingerprint"},
		{"a scaling shard after a swarm shard", []string{two[0], scalingShard}, scalingShard + ": not a swarm shard, but " + two[0]},
		{"a swarm shard after a scaling shard", []string{scalingShard, two[1]}, two[1] + ": a swarm shard, but " + scalingShard + " is a scaling-search shard"},
	} {
		code, _, stderr := merge(t, tc.files...)
		if code != exitInput || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", tc.name, code, stderr, tc.want)
		}
	}
	if code, _, stderr := merge(t, two...); code != exitHolds {
		t.Errorf("the two shards of one swarm: exit %d, %s", code, stderr)
	}
}

// TestSwarmJobExample keeps examples/distributed/swarm-job.yaml
// consistent with the CLI: an Indexed Job whose completions equal the N
// of --shard, K taken from JOB_COMPLETION_INDEX, a --timeout (a swarm
// shard needs a bound), and a merge of N shard files.
func TestSwarmJobExample(t *testing.T) {
	data, err := os.ReadFile("../../examples/distributed/swarm-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	type container struct {
		Args []string `json:"args"`
		Env  []struct {
			Name, Value string
		} `json:"env"`
	}
	type job struct {
		Kind string `json:"kind"`
		Spec struct {
			CompletionMode string `json:"completionMode"`
			Completions    int    `json:"completions"`
			Template       struct {
				Spec struct {
					Containers []container `json:"containers"`
				} `json:"spec"`
			} `json:"template"`
		} `json:"spec"`
	}
	var search, mergeJob *job
	for _, doc := range bytes.Split(data, []byte("\n---\n")) {
		var j job
		if err := yaml.Unmarshal(doc, &j); err != nil {
			t.Fatal(err)
		}
		if j.Kind != "Job" {
			continue
		}
		if j.Spec.CompletionMode == "Indexed" {
			search = &j
		} else {
			mergeJob = &j
		}
	}
	if search == nil || mergeJob == nil {
		t.Fatal("want an Indexed swarm Job and a merge Job")
	}
	c := search.Spec.Template.Spec.Containers[0]
	shards := ""
	for _, e := range c.Env {
		if e.Name == "SHARDS" {
			shards = e.Value
		}
	}
	cmd := strings.Join(c.Args, " ")
	if shards == "" || shards != strconv.Itoa(search.Spec.Completions) {
		t.Errorf("SHARDS=%q but completions %d", shards, search.Spec.Completions)
	}
	for _, want := range []string{`--shard "${JOB_COMPLETION_INDEX}/${SHARDS}"`, "--shard-out", "--timeout"} {
		if !strings.Contains(cmd, want) {
			t.Errorf("swarm command %q lacks %s", cmd, want)
		}
	}
	if strings.Contains(cmd, "--shard-mode") {
		t.Errorf("swarm command %q: --shard-mode is for the scaling search", cmd)
	}
	if m := strings.Join(mergeJob.Spec.Template.Spec.Containers[0].Args, " "); !strings.Contains(m, "kivi merge") || !strings.Contains(m, "-of-"+shards+".json") {
		t.Errorf("merge command %q", m)
	}
}
