package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// example is a file of the worked example of docs/inputs.md.
func example(name string) string { return filepath.Join("..", "..", "examples", "inputs", name) }

// kiviDir lays the worked example out as Kivi's configuration directory.
func kiviDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []struct{ from, to string }{
		{"manifests.yaml", "yaml/app.yaml"}, {"nodes.yaml", "yaml/nodes.yaml"}, {"intents.yaml", "user_input/intents.yaml"},
	} {
		data, err := os.ReadFile(example(f.from))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, f.to)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSimulateTakesEveryInput: simulate reads what verify reads, and
// exits 1 when its run violates an intent. Seed 205 of the worked example
// fails node-b once web's three pods run, and web drops below its minimum
// when its pod there is evicted after its 300 s toleration.
func TestSimulateTakesEveryInput(t *testing.T) {
	stream := []string{"-f", example("manifests.yaml"), "--nodes", example("nodes.yaml"), "--intents", example("intents.yaml")}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"manifests", append([]string{"simulate", "--seed", "205"}, stream...), exitViolated, "Stopped: failed: replica_num_always_meet_min"},
		{"manifests, a run without violation", append([]string{"simulate", "--seed", "1"}, stream...), exitHolds, "Stopped: deadlock"},
		{"built-in case", []string{"simulate", "--case", "c3"}, exitViolated, "Stopped: failed: pod_always_schedulable"},
		{"case file", []string{"simulate", filepath.Join("..", "..", "examples", "cases", "c3.yaml")}, exitViolated, "Stopped: failed: pod_always_schedulable"},
		{"Kivi directory", []string{"simulate", "--seed", "205", kiviDir(t)}, exitViolated, "Stopped: failed: replica_num_always_meet_min"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tc.args, &stdout, &stderr)
			if code != tc.code || !strings.Contains(stdout.String(), tc.want) {
				t.Errorf("exit %d (want %d), stdout %q, stderr %q; want %q", code, tc.code, stdout.String(), stderr.String(), tc.want)
			}
		})
	}
}

// TestManifestAsCaseFile: a manifest passed where a case file goes gets
// the hint to use -f, in every command.
func TestManifestAsCaseFile(t *testing.T) {
	for _, cmd := range []string{"verify", "simulate"} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{cmd, example("manifests.yaml")}, &stdout, &stderr)
		if code != exitInput || !strings.Contains(stderr.String(), "this is a Kubernetes manifest (kind: Deployment), not a case file: pass manifests with -f") {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 with the -f hint", cmd, code, stderr.String())
		}
	}
}

// TestEventsByNameInEveryMode: the worked example names its node and
// deployment in its events; the written topology and the scaling search
// both read them and find the zone spread's violation.
func TestEventsByNameInEveryMode(t *testing.T) {
	stream := []string{"-f", example("manifests.yaml"), "--nodes", example("nodes.yaml"), "--intents", example("intents.yaml")}
	for _, mode := range [][]string{{"--original"}, {"--search"}} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append(append([]string{"verify", "--quiet"}, mode...), stream...), &stdout, &stderr)
		if code != exitViolated || !strings.Contains(stdout.String(), "Violating intent(s): pod_always_schedulable") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want the pod_always_schedulable violation", mode, code, stdout.String(), stderr.String())
		}
	}
}

// TestInputsDocShowsTheExample: docs/inputs.md shows the worked example's
// files exactly as examples/inputs holds them (which the tests above
// run), and the README links the page from its first screen.
func TestInputsDocShowsTheExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "inputs.md"))
	if err != nil {
		t.Fatal(err)
	}
	shown := 0
	lines := strings.SplitAfter(string(doc), "\n")
	for i := 0; i < len(lines); i++ {
		path, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), "```yaml file=")
		if !ok {
			continue
		}
		var block strings.Builder
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			block.WriteString(lines[i])
		}
		want, err := os.ReadFile(filepath.Join("..", "..", path))
		if err != nil {
			t.Fatalf("docs/inputs.md shows %s: %v", path, err)
		}
		if block.String() != string(want) {
			t.Errorf("docs/inputs.md shows %s differently from the file:\n%s", path, block.String())
		}
		shown++
	}
	if shown != 3 {
		t.Errorf("docs/inputs.md shows %d example files, want manifests, nodes and intents", shown)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Join(strings.SplitN(string(readme), "\n", 20)[:19], "\n")
	if !strings.Contains(first, "(docs/inputs.md)") {
		t.Error("README.md does not link docs/inputs.md in its first 20 lines")
	}
}

// TestWorkedExampleAsDocumented: the results docs/inputs.md states for
// its example: both intents violated with --all, and a JSON document.
func TestWorkedExampleAsDocumented(t *testing.T) {
	stream := []string{"-f", example("manifests.yaml"), "--nodes", example("nodes.yaml"), "--intents", example("intents.yaml")}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), append([]string{"verify", "--quiet", "--all"}, stream...), &stdout, &stderr)
	if code != exitViolated || !strings.Contains(stdout.String(), "Violating intent(s): pod_always_schedulable replica_num_always_meet_min") {
		t.Errorf("--all: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	stdout.Reset()
	code = run(context.Background(), append([]string{"verify", "--quiet", "--json"}, stream...), &stdout, &stderr)
	if code != exitViolated || !strings.HasPrefix(strings.TrimSpace(stdout.String()), "{") {
		t.Errorf("--json: exit %d, stdout %q", code, stdout.String())
	}
}

// TestManifestDirectory: -f DIR reads the directory's .yaml, .yml and
// .json files in lexical order, as kubectl apply -f does, and its
// subdirectories with -R; other files are skipped, and a directory
// without a manifest is a usage error.
func TestManifestDirectory(t *testing.T) {
	dir := t.TempDir()
	write := func(name, from string) {
		data, err := os.ReadFile(example(from))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("b-app.yml", "manifests.yaml")
	write("a-nodes.yaml", "nodes.yaml")
	write("README.md", "manifests.yaml")
	write("more/extra.yaml", "manifests.yaml")
	got, err := manifestFiles([]string{dir, "-"}, false)
	want := []string{filepath.Join(dir, "a-nodes.yaml"), filepath.Join(dir, "b-app.yml"), "-"}
	if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("manifestFiles = %q, %v; want %q", got, err, want)
	}
	got, _ = manifestFiles([]string{dir}, true)
	if len(got) != 3 || got[2] != filepath.Join(dir, "more", "extra.yaml") {
		t.Errorf("manifestFiles recursive = %q; want the subdirectory's file last", got)
	}
	// The --nodes and --intents files may sit in the -f directory: they
	// are read once, by their flags.
	write("c-intents.yaml", "intents.yaml")
	got, _ = manifestFiles([]string{dir}, false, filepath.Join(dir, "a-nodes.yaml"), filepath.Join(dir, "c-intents.yaml"))
	if want := []string{filepath.Join(dir, "b-app.yml")}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("manifestFiles skipping the --nodes and --intents files = %q; want %q", got, want)
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"verify", "-f", dir, "--nodes", filepath.Join(dir, "a-nodes.yaml"), "--intents", filepath.Join(dir, "c-intents.yaml"), "--quiet"}, &stdout, &stderr)
	if code != exitViolated {
		t.Errorf("verify -f DIR --nodes DIR/… --intents DIR/…: exit %d, stderr %q", code, stderr.String())
	}
	if err := os.Remove(filepath.Join(dir, "c-intents.yaml")); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	code = run(context.Background(), []string{"verify", "-f", dir, "--intents", example("intents.yaml"), "--quiet"}, &stdout, &stderr)
	if code != exitViolated || !strings.Contains(stdout.String(), "replica_num_always_meet_min") {
		t.Errorf("verify -f DIR: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	stderr.Reset()
	code = run(context.Background(), []string{"verify", "-f", t.TempDir()}, &stdout, &stderr)
	if code != exitInput || !strings.Contains(stderr.String(), "the directory holds no manifest (accepted: files ending in .yaml, .yml or .json; -R reads its subdirectories too)") {
		t.Errorf("an empty directory: exit %d, stderr %q", code, stderr.String())
	}
}

// TestOneDirectory: a directory holding the manifests, the Nodes and the
// intents file is verified as `kivi verify DIR` and as `kivi verify -f
// DIR`, the intents file told apart by its content; a second intents
// file, or one next to --intents, is an input error, and a directory with
// neither layout is a usage error.
func TestOneDirectory(t *testing.T) {
	dir := t.TempDir()
	for name, from := range map[string]string{"app.yaml": "manifests.yaml", "nodes.yaml": "nodes.yaml", "intents.yaml": "intents.yaml"} {
		data, err := os.ReadFile(example(from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var want bytes.Buffer
	if code := run(context.Background(), []string{"verify", "-f", filepath.Join(dir, "app.yaml"), "--nodes", filepath.Join(dir, "nodes.yaml"), "--intents", filepath.Join(dir, "intents.yaml"), "--quiet"}, &want, io.Discard); code != exitViolated {
		t.Fatalf("the files named one by one: exit %d", code)
	}
	for _, args := range [][]string{{"verify", dir}, {"verify", "-f", dir}} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append(args, "--quiet"), &stdout, &stderr)
		if code != exitViolated || withoutRates(stdout.String()) != withoutRates(want.String()) {
			t.Errorf("%q: exit %d, stderr %q; want the report of the files named one by one", args, code, stderr.String())
		}
	}
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"verify", "-f", dir, "--intents", example("intents.yaml"), "--quiet"}, io.Discard, &stderr)
	if code != exitInput || !strings.Contains(stderr.String(), "are both intents files") {
		t.Errorf("an intents file in -f DIR next to --intents: exit %d, stderr %q", code, stderr.String())
	}
	// A manifest that an event applies later (kubectl apply of a new
	// version) may sit in the directory: it is not read as part of the
	// cluster at the start, with or without --intents.
	applyDir := filepath.Join("..", "..", "examples", "realworld", "rollout-apply-50")
	for _, args := range [][]string{{"verify", applyDir}, {"verify", "-f", applyDir, "--intents", filepath.Join(applyDir, "intents.yaml")}} {
		stderr.Reset()
		if code := run(context.Background(), append(args, "--quiet", "--timeout", "20s"), io.Discard, &stderr); code == exitInput {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr.String())
		}
	}
	stderr.Reset()
	code = run(context.Background(), []string{"verify", t.TempDir()}, io.Discard, &stderr)
	if code != exitInput || !strings.Contains(stderr.String(), "neither Kivi's configuration directory") {
		t.Errorf("an empty directory: exit %d, stderr %q", code, stderr.String())
	}
}

// withoutRates drops a text report's lines of time and rates, which
// differ from run to run.
func withoutRates(report string) string {
	var keep []string
	for _, l := range strings.Split(report, "\n") {
		if !strings.HasPrefix(l, "    Elapsed time:") && !strings.HasPrefix(l, "    States:") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestCurrentPlacement: --current-placement reads a running cluster's
// dump with its pods where they run (the real-world running-cluster-100
// folder: it holds), as -f files or as one directory; it goes with
// manifests only.
func TestCurrentPlacement(t *testing.T) {
	dir := filepath.Join("..", "..", "examples", "realworld", "running-cluster-100")
	for _, args := range [][]string{
		{"verify", "-f", filepath.Join(dir, "manifests.yaml"), "--nodes", filepath.Join(dir, "nodes.yaml"), "--intents", filepath.Join(dir, "intents.yaml")},
		{"verify", dir},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append(args, "--current-placement", "--quiet", "--timeout", "60s"), &stdout, &stderr)
		if code != exitHolds || !strings.Contains(stderr.String(), "belong to no workload of the input") {
			t.Errorf("%q: exit %d, stderr %q, stdout %q", args, code, stderr.String(), stdout.String())
		}
	}
	for _, args := range [][]string{{"verify", "--case", "c3"}, {"verify", "--logs", filepath.Join("..", "..", "examples", "inputs")}} {
		var stderr bytes.Buffer
		code := run(context.Background(), append(args, "--current-placement"), io.Discard, &stderr)
		if code != exitInput || !strings.Contains(stderr.String(), "--current-placement reads a running cluster's manifests") {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr.String())
		}
	}
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"verify", dir, "--current-placement", "--search"}, io.Discard, &stderr); code != exitInput || !strings.Contains(stderr.String(), "a running cluster is one topology") {
		t.Errorf("--search with --current-placement: exit %d, stderr %q", code, stderr.String())
	}
}
