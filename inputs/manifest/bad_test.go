package manifest

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the golden files under testdata")

// validIntents is the intent catalogue the tests pass in (the root's
// intents package is not importable here).
var validIntents = []string{"pod_always_schedulable", "no_kernel_panic"}

func testOptions() Options {
	return Options{KnownIntent: func(n string) bool {
		for _, x := range validIntents {
			if x == n {
				return true
			}
		}
		return false
	}, IntentNames: validIntents}
}

// loadBadCase feeds testdata/bad/NAME.yaml as the manifest stream. The
// nodes are testdata/c3/nodes.yaml unless the stream has its own Nodes
// or NAME.nodes exists (Kivi's cluster_configs); NAME.intents, when
// present, is the intents file.
func loadBadCase(t *testing.T, yamlPath string) error {
	data, err := os.ReadFile(yamlPath)
	if err != nil {
		t.Fatal(err)
	}
	base := strings.TrimSuffix(yamlPath, ".yaml")
	var nodes, intents *File
	if nd, err := os.ReadFile(base + ".nodes"); err == nil {
		nodes = &File{Name: filepath.Base(base) + ".nodes", Data: nd}
	} else if !strings.Contains(string(data), "kind: Node") {
		nd, err := os.ReadFile("testdata/c3/nodes.yaml")
		if err != nil {
			t.Fatal(err)
		}
		nodes = &File{Name: "nodes.yaml", Data: nd}
	}
	if id, err := os.ReadFile(base + ".intents"); err == nil {
		intents = &File{Name: filepath.Base(base) + ".intents", Data: id}
	}
	_, err = LoadStream([]File{{Name: filepath.Base(yamlPath), Data: data}}, nodes, intents, testOptions())
	return err
}

// TestBadInputs: every malformed input of testdata/bad gives one error
// wrapping ErrInput, whose text is the golden NAME.want (go test
// -rewrite regenerates them; read them before keeping).
func TestBadInputs(t *testing.T) {
	files, _ := filepath.Glob("testdata/bad/*.yaml")
	if len(files) < 25 {
		t.Fatalf("%d malformed inputs, want at least 25", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			err := loadBadCase(t, f)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, ErrInput) {
				t.Fatalf("error does not wrap ErrInput: %v", err)
			}
			got := err.Error() + "\n"
			want := strings.TrimSuffix(f, ".yaml") + ".want"
			if *rewrite {
				if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			w, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (run with -rewrite)", err)
			}
			if string(w) != got {
				t.Errorf("got  %swant %s", got, w)
			}
		})
	}
}
