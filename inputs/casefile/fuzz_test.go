package casefile_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kivi-go/kivi/inputs/casefile"
)

// FuzzParse: Parse never panics, fails only with ErrBadCase, and what it
// accepts survives Marshal and Parse unchanged. Run it with
// `go test ./inputs/casefile -fuzz FuzzParse`; the seeds are the example
// case files, testdata/files and the malformed inputs of TestMalformed
// (testdata/fuzz/FuzzParse, written by TestFuzzCorpus -rewrite).
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := casefile.Parse("fuzz.yaml", data)
		if err != nil {
			if !errors.Is(err, casefile.ErrBadCase) {
				t.Fatalf("error without ErrBadCase: %v", err)
			}
			return
		}
		out, err := casefile.Marshal(c)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		back, err := casefile.Parse("marshalled.yaml", out)
		if err != nil {
			t.Fatalf("Parse(Marshal(c)): %v\n%s", err, out)
		}
		if d := cmp.Diff(c, back, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("Parse(Marshal(c)) != c (-c +back):\n%s", d)
		}
	})
}

const corpusDir = "testdata/fuzz/FuzzParse"

// seeds returns the seed corpus by file name.
func seeds(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	for _, glob := range []string{"../../examples/cases/*.yaml", "testdata/files/*"} {
		paths, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out["file-"+filepath.Base(p)] = data
		}
	}
	for _, tc := range malformed {
		out["malformed-"+strings.ReplaceAll(tc.name, " ", "-")] = []byte(tc.input)
	}
	return out
}

func corpusEntry(data []byte) string {
	return "go test fuzz v1\n[]byte(" + strconv.Quote(string(data)) + ")\n"
}

// TestFuzzCorpus keeps the seed corpus in step with its sources.
func TestFuzzCorpus(t *testing.T) {
	want := seeds(t)
	if len(want) < 16+10 {
		t.Fatalf("%d seeds; the example case files are missing?", len(want))
	}
	rewrite := flag.Lookup("rewrite").Value.String() == "true"
	if rewrite {
		if err := os.MkdirAll(corpusDir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := filepath.Join(corpusDir, n)
		entry := corpusEntry(want[n])
		if rewrite {
			if err := os.WriteFile(p, []byte(entry), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(p)
		if err != nil || string(got) != entry {
			t.Errorf("%s is missing or stale; run go test ./inputs/casefile -rewrite", p)
		}
	}
}
