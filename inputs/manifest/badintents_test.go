package manifest_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/inputs/manifest"
	"github.com/kivi-go/kivi/intents"
)

var rewriteIntents = flag.Bool("rewrite-intents", false, "rewrite testdata/badintents/*.want from the current messages")

// cliOptions are the options `kivi verify` passes: the intent catalogue
// and its parameter check.
func cliOptions() manifest.Options {
	return manifest.Options{
		KnownIntent: func(name string) bool { _, ok := intents.UserName(name); return ok },
		IntentNames: intents.Names(),
		CheckIntent: intents.Check,
	}
}

// workedExample reads docs/inputs.md's manifests and nodes
// (examples/inputs), which every bad intents file is read with.
func workedExample(t *testing.T) (manifests, nodes manifest.File) {
	t.Helper()
	read := func(name string) manifest.File {
		data, err := os.ReadFile(filepath.Join("..", "..", "examples", "inputs", name))
		if err != nil {
			t.Fatal(err)
		}
		return manifest.File{Name: name, Data: data}
	}
	return read("manifests.yaml"), read("nodes.yaml")
}

// TestBadIntentsFiles: every bad intents file gets its expected message,
// which names that file (never the manifests), the 0-based path in the
// file's own keys and the accepted values, and no Go type name.
func TestBadIntentsFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/badintents/*.yaml")
	if len(files) < 15 {
		t.Fatalf("%d bad intents files, want at least 15", len(files))
	}
	m, n := workedExample(t)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Base(f)
			opts := cliOptions()
			// The manifests the events apply are in testdata/badintents/apply/,
			// named relative to the intents file as a user writes them.
			opts.ReadFile = func(p string) ([]byte, error) { return os.ReadFile(filepath.Join("testdata", "badintents", p)) }
			_, err = manifest.LoadStream([]manifest.File{m}, &n, &manifest.File{Name: name, Data: data}, opts)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, manifest.ErrInput) {
				t.Fatalf("error does not wrap ErrInput: %v", err)
			}
			got := err.Error() + "\n"
			// An error inside a manifest an event applies names that file.
			if !strings.HasPrefix(got, name+": ") && !strings.HasPrefix(got, "apply/") {
				t.Errorf("%q does not start with the intents file's name or the applied manifest's", got)
			}
			for _, goName := range []string{"intentsDoc", "kiviEvent", "string, want", "float64", "int64", "map[", "[]interface", "Go "} {
				if strings.Contains(got, goName) {
					t.Errorf("%q speaks Go (%s)", got, goName)
				}
			}
			want := strings.TrimSuffix(f, ".yaml") + ".want"
			if *rewriteIntents {
				if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			w, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (run with -rewrite-intents)", err)
			}
			if string(w) != got {
				t.Errorf("got  %swant %s", got, w)
			}
		})
	}
}
