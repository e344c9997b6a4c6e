package classify

import (
	"flag"
	"strconv"
	"testing"
)

// Checks sets rapid's number of checks (-rapid.checks) for the rest of
// t and, when seed is not 0 and no -rapid.seed was given, its seed, so
// that a differential test's default run compares the same cases every
// time (seed 0 leaves rapid to draw one).
func Checks(t testing.TB, n int, seed uint64) {
	t.Helper()
	set := map[string]string{"rapid.checks": strconv.Itoa(n)}
	if seed != 0 {
		set["rapid.seed"] = strconv.FormatUint(seed, 10)
	}
	for name, v := range set {
		f := flag.Lookup(name)
		if f == nil {
			t.Fatalf("no flag -%s: the test does not use rapid", name)
		}
		if name == "rapid.seed" && f.Value.String() != f.DefValue {
			continue
		}
		old := f.Value.String()
		if err := flag.Set(name, v); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = flag.Set(name, old) })
	}
}
