package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/model/modeltest"
)

// volatile masks what changes from run to run (timings, rates) so that
// golden outputs are stable.
var volatile = regexp.MustCompile(`Elapsed time: [0-9.]+ seconds|States: .*`)

// TestCLIScript runs testdata/cli.txt: each command is a kivi command line;
// the expected output is its stdout (volatile figures masked) and exit
// status. Regenerate with -rewrite, then read the diff.
func TestCLIScript(t *testing.T) {
	modeltest.RunScript(t, filepath.Join("testdata", "cli.txt"), func(t *testing.T, c modeltest.Command) string {
		if c.Name != "kivi" {
			t.Fatalf("%s: unknown command %q", c.Pos, c.Name)
		}
		var stdout, stderr bytes.Buffer
		args := c.Args
		if args[0] == "verify" {
			// One worker: parallel BFS finds a shortest counterexample,
			// but which one of equal length depends on timing.
			args = append(append([]string{}, args...), "--quiet", "--workers", "1")
		}
		code := run(context.Background(), args, &stdout, &stderr)
		out := volatile.ReplaceAllStringFunc(stdout.String(), func(s string) string {
			return s[:strings.Index(s, ":")+1] + " (masked)"
		})
		return strings.TrimRight(out, "\n") + "\nexit " + itoa(code)
	})
}

func itoa(n int) string { return string(rune('0' + n)) }

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
				in.Counterexample[4].Component != "Scheduler - no_feasible_node" {
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
