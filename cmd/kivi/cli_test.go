package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
)

// volatile masks what changes from run to run (timings, rates) so that
// golden outputs are stable.
var volatile = regexp.MustCompile(`Elapsed time: [0-9.]+ seconds|States: .*`)

// Note: kivitest/script's -rewrite flag is not linked into this test
// binary, so the flag is declared here.

// goldenRuns are the command lines whose output is kept in
// testdata/golden: every built-in case at scale 3, original topology
// (C4 with --all: its shortest counterexample is an unschedulable pod,
// the kernel panic comes later, docs/divergences.md), its non-violation
// variant, the scaling search of C3, C3 with both reductions off (the
// same counterexample), and two releases applied mid-rollout, ending at
// the bound of ReplicaSet revisions or, with --merge-old-revisions,
// verified under the stated approximation.
func goldenRuns() map[string][]string {
	runs := map[string][]string{"cases": {"cases"}}
	for n := 1; n <= 8; n++ {
		c := "c" + itoa(n)
		args := []string{"verify", "--case", c, "--original"}
		if n == 4 {
			args = append(args, "--all")
		}
		runs[c] = args
		runs[c+"-no-violation"] = []string{"verify", "--case", c, "--original", "--no-violation"}
	}
	runs["c3-scaling"] = []string{"verify", "--case", "c3"}
	runs["c3-pod-slots"] = []string{"verify", "--case", "c3", "--original", "--pod-slots", "5"}
	own := []string{"verify", "-f", "testdata/own/app.yaml", "--nodes", "testdata/own/nodes.yaml"}
	runs["own"] = own
	runs["own-search"] = append(append([]string{}, own...), "--search")
	third := []string{"verify", "-f", "testdata/thirdrevision/v1.yaml", "--nodes", "testdata/thirdrevision/nodes.yaml", "--intents", "testdata/thirdrevision/intents.yaml"}
	runs["third-revision"] = third
	runs["third-revision-merged"] = append(append([]string{}, third...), "--merge-old-revisions")
	runs["c3-no-reductions"] = []string{"verify", "--case", "c3", "--original", "--symmetry", "off", "--por", "off"}
	return runs
}

// TestCLIGolden runs each golden command line and compares its stdout
// (timings masked) and exit status with testdata/golden/NAME.txt, whose
// first line is the command. Regenerate with -rewrite and read the diff.
func TestCLIGolden(t *testing.T) {
	for name, args := range goldenRuns() {
		t.Run(name, func(t *testing.T) {
			if args[0] == "verify" {
				// One worker: parallel BFS finds a shortest
				// counterexample, but which one of equal length depends
				// on timing.
				args = append(append([]string{}, args...), "--quiet", "--workers", "1")
			}
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), args, &stdout, &stderr)
			out := volatile.ReplaceAllStringFunc(stdout.String(), func(s string) string {
				return s[:strings.Index(s, ":")+1] + " (masked)"
			})
			got := "$ kivi " + strings.Join(args, " ") + "\n" + out + "exit " + itoa(code) + "\n"
			path := filepath.Join("testdata", "golden", name+".txt")
			if *rewrite {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("%s differs (rerun with -rewrite and read the diff):\n--- got:\n%s\n--- want:\n%s", path, got, want)
			}
		})
	}
}

var rewrite = flag.Bool("rewrite", false, "rewrite testdata/golden")

func itoa(n int) string { return strconv.Itoa(n) }

// TestJSONRoundTrip parses --json output back.
func TestJSONRoundTrip(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"verify", "--case", "c3", "--original", "--json"}, &stdout, &stderr)
	if code != exitViolated {
		t.Fatalf("exit %d, stderr %s", code, stderr.String())
	}
	var doc kivi.JSONReport
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	if doc.Verdict != "violated" {
		t.Fatalf("verdict %q", doc.Verdict)
	}
	var found bool
	for _, in := range doc.Intents {
		if in.Name == "pod_always_schedulable" {
			found = true
			if in.Verdict != "violated" || len(in.Counterexample) != 5 ||
				in.Counterexample[4].Component != "kube-scheduler" {
				t.Fatalf("pod_always_schedulable: %+v", in)
			}
		}
	}
	if !found {
		t.Fatal("no pod_always_schedulable in the JSON report")
	}
}

// TestInputErrors checks exit status 2 and a message naming what is wrong.
func TestInputErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"verify", "--case", "c9", "--original"}, "c9"},
		{[]string{"verify"}, "nothing to verify"},
		{[]string{"verify", "--case", "c3", "--storage", "disk"}, "--storage"},
		{[]string{"verify", "--case", "c3", "--por", "maybe"}, "--por"},
		{[]string{"verify", "--case", "c3", "--symmetry", "auto"}, "--symmetry"},
		{[]string{"verify", "--case", "c3", "--depth-first", "yes"}, "--depth-first"},
		{[]string{"verify", "--case", "c3", "--seed", "3"}, "--strategy dfs"},
		{[]string{"verify", "--case", "c3", "--strategy", "dfs", "--seed", "-3"}, "-seed"},
		{[]string{"verify", "--case", "c3", "--workers", "-1"}, "--workers"},
		{[]string{"verify", "--case", "c3", "--timeout", "-1s"}, "--timeout"},
		{[]string{"verify", "--case", "c3", "--max-memory", "lots"}, "--max-memory"},
		{[]string{"verify", "testdata/does-not-exist.yaml"}, "does-not-exist.yaml"},
		{[]string{"frobnicate"}, "unknown command"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tc.args, &stdout, &stderr)
		if code != exitInput || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 mentioning %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}

// TestNothingToVerify: an input without anything to verify is an input
// error naming the file and what is missing, never "No failure is found".
func TestNothingToVerify(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const nodes = "../../inputs/manifest/testdata/c3/nodes.yaml"
	const app = "../../inputs/manifest/testdata/c3/app.yaml"
	empty := write("empty.yaml", "")
	comments := write("comments.yaml", "# later\n---\n# still later\n")
	sts := write("replicationcontroller.yaml", `apiVersion: v1
kind: ReplicationController
metadata: {name: db}
spec:
  replicas: 1
  template:
    spec:
      containers: [{name: db}]
`)
	noIntents := write("intents.yaml", "[]\n")
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"verify", "-f", empty, "--nodes", nodes, "--original"}, []string{empty, "no Kubernetes object"}},
		{[]string{"verify", "-f", comments, "--nodes", nodes}, []string{comments, "only comments"}},
		{[]string{"verify", "-f", sts, "--nodes", nodes, "--original"}, []string{sts, "no Deployment"}},
		{[]string{"verify", "-f", app, "--nodes", empty, "--original"}, []string{empty, "no node"}},
		{[]string{"verify", "-f", app}, []string{app, "no node"}},
		{[]string{"verify", "-f", app, "--nodes", nodes, "--intents", noIntents}, []string{noIntents, "no intent"}},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tc.args, &stdout, &stderr)
		ok := code == exitInput && stdout.Len() == 0
		for _, w := range tc.want {
			ok = ok && strings.Contains(stderr.String(), w)
		}
		if !ok {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 mentioning %q", tc.args, code, stdout.String(), stderr.String(), tc.want)
		}
	}
}

// TestOwnConfigSearchInBounds: with --search a user's manifests (3
// replicas, an HPA up to 8, three nodes) are searched only at sizes the
// input can reach: replicas within the HPA's 3..8, at most three nodes,
// and every setup says whether it is the input's size.
func TestOwnConfigSearchInBounds(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := []string{"verify", "-f", "testdata/own/app.yaml", "--nodes", "testdata/own/nodes.yaml", "--search", "--all", "--json", "--workers", "1", "--quiet"}
	code := run(context.Background(), args, &stdout, &stderr)
	if code != exitViolated {
		t.Fatalf("exit %d, stderr %s", code, stderr.String())
	}
	var doc kivi.JSONReport
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.InputSetup != "{node type 0: 3, deployment type 0: 3}" {
		t.Errorf("inputSetup %q", doc.InputSetup)
	}
	sawInput := false
	for _, s := range doc.Setups {
		var nodes, replicas int
		if _, err := fmt.Sscanf(s.Setup, "{node type 0: %d, deployment type 0: %d}", &nodes, &replicas); err != nil {
			t.Fatalf("setup %q: %v", s.Setup, err)
		}
		if nodes < 1 || nodes > 3 || replicas < 3 || replicas > 8 {
			t.Errorf("setup %s is outside the input's bounds (1..3 nodes, 3..8 replicas)", s.Setup)
		}
		if s.SizeOfInput == nil || *s.SizeOfInput != (nodes == 3 && replicas == 3) {
			t.Errorf("setup %s: sizeOfInput %v", s.Setup, s.SizeOfInput)
		}
		sawInput = sawInput || (nodes == 3 && replicas == 3)
	}
	if !sawInput {
		t.Error("the input's own size is not among the setups")
	}
}

// TestJSONSameForSameInput: with several workers, the JSON report of a
// counterexample is the same on every run once the measured figures
// (timings, memory) are set aside: the counterexample is the one a
// one-worker search reports.
func TestJSONSameForSameInput(t *testing.T) {
	for _, c := range []string{"c1", "c3", "c8"} {
		var first []byte
		for i := range 10 {
			workers := []string{"1", "2", "4"}[i%3]
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"verify", "--case", c, "--original", "--scale", "6", "--workers", workers, "--json"}, &stdout, &stderr)
			if code != exitViolated {
				t.Fatalf("%s: exit %d, stderr %s", c, code, stderr.String())
			}
			var doc map[string]any
			if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if _, ok := doc["measured"]; !ok {
				t.Fatalf("%s: no measured figures in the report", c)
			}
			delete(doc, "measured")
			got, _ := json.Marshal(doc)
			if first == nil {
				first = got
			} else if !bytes.Equal(got, first) {
				t.Fatalf("%s: run %d (%s workers) differs from the first (one worker)", c, i, workers)
			}
		}
	}
}

// TestModelBoundIsUnknown: a built-in case too large for the model (C1
// at 4001 nodes) ends Unknown with exit status 3, naming the bound: not
// an input error, and no verdict.
func TestModelBoundIsUnknown(t *testing.T) {
	for _, args := range [][]string{
		{"verify", "--case", "c1", "--scale", "4001", "--original"},
		{"verify", "--case", "c1", "--scale", "4001", "--original", "--json"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, &stdout, &stderr)
		if code != exitUnknown {
			t.Fatalf("%v: exit %d, stderr %s", args, code, stderr.String())
		}
		if !strings.Contains(stdout.String(), "4001 nodes") || !strings.Contains(stdout.String(), "model bound") {
			t.Errorf("%v: the bound is not named:\n%s", args, stdout.String())
		}
	}
}

// TestTimeoutBoundsTheScalingSearch: --timeout bounds a scaling search as
// a whole, not each setup: C3's no-violation search of 264 setups,
// given a millisecond, stops with setups not run, says why, and ends
// Unknown (exit status 3), never "No failure is found!".
func TestTimeoutBoundsTheScalingSearch(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"verify", "--case", "c3", "--no-violation", "--timeout", "1ms", "--quiet"}, &stdout, &stderr)
	if code != exitUnknown {
		t.Fatalf("exit %d, want %d (unknown)\n%s%s", code, exitUnknown, stdout.String(), stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"the search stopped before it verified every setup", "Stopped: --timeout 1ms ran out", " not run (of 264)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "No failure is found!") {
		t.Errorf("an interrupted search says no failure is found:\n%s", out)
	}
}
