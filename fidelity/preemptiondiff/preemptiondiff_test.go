package preemptiondiff

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kivi-go/kivi/fidelity/classify"
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

// withChecks runs n rapid checks (classify.Checks).
func withChecks(t *testing.T, n int) { classify.Checks(t, n, 0) }

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
		if !s.HasNominations() && !s.HasTerminating() {
			counts["neither nominations nor a terminating pod"]++
			if c.Diff == "" {
				counts["neither nominations nor a terminating pod, agree"]++
			}
		}
		if s.HasNominations() {
			counts["with nominations"]++
			if c.Diff == "" {
				counts["with nominations, agree"]++
			} else {
				counts["with nominations, disagree: "+c.Class]++
			}
			if s.Pending.NominatedTo != 0 {
				counts["with nominations, the pod nominated"]++
				if c.Real.Fits && len(c.Real.FitNodes) == 1 && c.Real.FitNodes[0] == NodeName(s.Pending.NominatedTo-1) {
					counts["with nominations, the pod nominated, bound to its nominated node"]++
				}
			}
			without, err := r.Preempt(s.withoutNominations())
			if err != nil {
				rt.Fatal(err)
			}
			if without.summary(s) != c.Real.summary(s) {
				counts["with nominations, the real answer differs without them"]++
			}
		}
		if s.HasTerminating() {
			counts["with a terminating pod"]++
			if c.Diff == "" {
				counts["with a terminating pod, agree"]++
			}
			if c.Real.Message == "not eligible due to a terminating pod on the nominated node." {
				counts["with a terminating pod, real: not eligible"]++
			}
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

// withoutNominations is s with no pod nominated.
func (s *Snapshot) withoutNominations() *Snapshot {
	c := *s
	c.Nominees, c.Pending.NominatedTo = nil, 0
	return &c
}

// summary renders what a real answer says, up to identical pods.
func (a *RealAnswer) summary(s *Snapshot) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%t %v %q", a.Fits, a.FitNodes, a.Message)
	for _, o := range a.Outcomes {
		b.WriteString(" " + o.key(s))
	}
	return b.String()
}
