package preemptiondiff

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

var snapshots = flag.Int("snapshots", 2000, "random snapshots TestDifferential compares (rapid checks)")

// shared is one plugin for every test of the package: building the
// framework starts informers.
var shared struct {
	once sync.Once
	r    *Real
	err  error
}

func realPreemption(t testing.TB) *Real {
	t.Helper()
	shared.once.Do(func() { shared.r, shared.err = NewReal() })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.r
}

// withChecks sets rapid's number of checks for the rest of the test.
func withChecks(t *testing.T, n int) {
	old := flag.Lookup("rapid.checks").Value.String()
	if err := flag.Set("rapid.checks", strconv.Itoa(n)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = flag.Set("rapid.checks", old) })
}

// TestDifferential compares the model's preemption with kube-scheduler's
// on -snapshots random snapshots: every disagreement must belong to a
// known class. rapid shrinks an unexplained one to a minimal snapshot
// before reporting it. The counts are logged (go test -v).
func TestDifferential(t *testing.T) {
	r := realPreemption(t)
	withChecks(t, *snapshots)
	counts := map[string]int{}
	total, agree := 0, 0
	rapid.Check(t, func(rt *rapid.T) {
		s := Generate(rt)
		c, err := Compare(r, s)
		if err != nil {
			rt.Fatal(err)
		}
		if c.Diff != "" && c.Class == "" {
			rt.Fatalf("a disagreement no known class explains: %s\n%s%s", c.Diff, s, c)
		}
		total++
		if c.Diff == "" {
			agree++
		} else {
			counts["disagree: "+c.Class]++
		}
		switch {
		case c.Real.Fits:
			counts["the pod fits a node"]++
		case c.Real.Message == "" && c.Model.Fits:
		case len(c.Real.Outcomes) > 0 && c.Real.Outcomes[0].Node != "":
			counts["preemption possible"]++
			if len(c.Model.Branches) > 1 {
				counts["preemption possible, the model branched"]++
				if c.Reached == len(c.Model.Branches) {
					counts["preemption possible, the model branched, all branches reached by the real runs"]++
				}
			}
			if len(s.PDBs) > 0 {
				counts["preemption possible, with budgets"]++
			}
			if s.Pending.Spread || s.Pending.AntiApp >= 0 {
				counts["preemption possible, with spread or anti-affinity"]++
			}
		default:
			counts["preemption not possible"]++
		}
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%d snapshots: %d agree, %d disagree\n", total, agree, total-agree)
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		fmt.Fprintf(&b, "  %-85s %6d\n", k, counts[k])
	}
	t.Log(b.String())
}
