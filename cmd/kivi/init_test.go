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

// TestInitWritesUsableIntents: on every real-world input, kivi init writes
// an intents file that the manifests load with and that names each
// Deployment, StatefulSet and Job; a verification of a small input with
// it runs to a verdict; -o does not overwrite a file, and --intents or no
// manifests is a usage error.
func TestInitWritesUsableIntents(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "..", "examples", "realworld", "*", "manifests.yaml"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no real-world inputs: %v", err)
	}
	for _, m := range dirs {
		dir := filepath.Dir(m)
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{"init", "-f", m, "--nodes", filepath.Join(dir, "nodes.yaml")}, &stdout, &stderr); code != exitHolds {
			t.Errorf("%s: init exit %d: %s", dir, code, stderr.String())
			continue
		}
		text := stdout.String()
		if !strings.Contains(text, "- name: pod_always_schedulable") || !strings.Contains(text, "kind: maintenance") {
			t.Errorf("%s: the starting intents lack pod_always_schedulable or the maintenance:\n%s", dir, text)
		}
		intents := filepath.Join(t.TempDir(), "intents.yaml")
		if err := os.WriteFile(intents, stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		stderr.Reset()
		// A state bound of one: the intents are read and checked against
		// the input, and the run ends at once (unknown, exit 3) or finds a
		// violation in its first state.
		code := run(context.Background(), []string{"verify", "-f", m, "--nodes", filepath.Join(dir, "nodes.yaml"), "--intents", intents, "--quiet", "--max-states", "1"}, io.Discard, &stderr)
		if code == exitInput {
			t.Errorf("%s: the written intents do not load: %s\n%s", dir, stderr.String(), text)
		}
	}

	out := filepath.Join(t.TempDir(), "intents.yaml")
	m := filepath.Join("..", "..", "examples", "inputs", "manifests.yaml")
	nodes := filepath.Join("..", "..", "examples", "inputs", "nodes.yaml")
	if code := run(context.Background(), []string{"init", "-f", m, "--nodes", nodes, "-o", out}, io.Discard, io.Discard); code != exitHolds {
		t.Fatalf("init -o: exit %d", code)
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"verify", "-f", m, "--nodes", nodes, "--intents", out, "--quiet"}, &stdout, &stderr); code != exitViolated && code != exitHolds {
		t.Errorf("verify with the written intents: exit %d: %s", code, stderr.String())
	}
	// Without an intents file, verify says what it checks and names kivi
	// init; with one, it does not.
	for _, tc := range []struct {
		args []string
		hint bool
	}{
		{[]string{"verify", "-f", m, "--nodes", nodes, "--quiet"}, true},
		{[]string{"verify", "-f", m, "--nodes", nodes, "--intents", out, "--quiet"}, false},
	} {
		stderr.Reset()
		run(context.Background(), tc.args, io.Discard, &stderr)
		if got := strings.Contains(stderr.String(), "`kivi init` writes a starting intents file"); got != tc.hint {
			t.Errorf("%q: the hint to run kivi init printed %v, want %v: %q", tc.args, got, tc.hint, stderr.String())
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"init", "-f", m, "--nodes", nodes, "-o", out}, "the file exists"},
		{[]string{"init", "-f", m, "--intents", out}, "kivi init writes the intents file"},
		{[]string{"init"}, "kivi init needs manifests"},
	} {
		stderr.Reset()
		if code := run(context.Background(), tc.args, io.Discard, &stderr); code != exitInput || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}

// TestInitSuggestsRejectionLoop: a Deployment whose pods name an OS (by
// label or spec.os) that a node the scheduler may pick does not run gets
// no_oscillation_rejection in the starting intents, and the verification
// with them finds the loop; with a nodeSelector for its OS, or on nodes
// of its OS only, it gets none.
func TestInitSuggestsRejectionLoop(t *testing.T) {
	dir := filepath.Join("testdata", "osreject")
	for _, tc := range []struct {
		deployment, nodes string
		want              bool
	}{
		{"deployment-os.yaml", "nodes-mixed.yaml", true},
		{"deployment-label.yaml", "nodes-mixed.yaml", true},
		{"deployment-os-selector.yaml", "nodes-mixed.yaml", false},
		{"deployment-os.yaml", "nodes-windows.yaml", false},
	} {
		t.Run(tc.deployment+"/"+tc.nodes, func(t *testing.T) {
			m, n := filepath.Join(dir, tc.deployment), filepath.Join(dir, tc.nodes)
			intents := filepath.Join(t.TempDir(), "intents.yaml")
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), []string{"init", "-f", m, "--nodes", n, "-o", intents}, &stdout, &stderr); code != exitHolds {
				t.Fatalf("init: exit %d: %s", code, stderr.String())
			}
			text, err := os.ReadFile(intents)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(text), "- name: no_oscillation_rejection"); got != tc.want {
				t.Fatalf("no_oscillation_rejection suggested %v, want %v:\n%s", got, tc.want, text)
			}
			if !tc.want {
				return
			}
			stdout.Reset()
			if code := run(context.Background(), []string{"verify", "-f", m, "--nodes", n, "--intents", intents, "--quiet"}, &stdout, &stderr); code != exitViolated ||
				!strings.Contains(stdout.String(), "no_oscillation_rejection") {
				t.Fatalf("verify: exit %d, want %d with no_oscillation_rejection:\n%s", code, exitViolated, stdout.String())
			}
		})
	}
}
