package bench

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/scaling"
)

// TestCanonicalEncodingOfReachableStates: on the successors the engine
// canonicalises (those of decoded canonical representatives) in the
// built-in cases' scaling setups and in BenchmarkSearch's 20-node rows,
// AppendCanonical and AppendRepresentative's key, which write the
// canonical form from the state and its plan, are the encoding of the
// permuted state Canonical builds.
func TestCanonicalEncodingOfReachableStates(t *testing.T) {
	type run struct {
		name  string
		nv    bool
		setup scaling.Setup
	}
	var runs []run
	for n := 1; n <= 8; n++ {
		for _, nv := range []bool{false, true} {
			c, err := cases.Get(fmt.Sprintf("c%d", n), 3, nv)
			if err != nil {
				t.Fatal(err)
			}
			setups, err := scaling.Setups(c, scaling.EnumerateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < len(setups); i += max(1, len(setups)/4) {
				runs = append(runs, run{fmt.Sprintf("c%d", n), nv, setups[i]})
			}
		}
	}
	runs = append(runs, run{"c3", true, scaling.Setup{Nodes: []int{10, 10}, Replicas: []int{40}}},
		run{"c8", false, scaling.Setup{Nodes: []int{6, 14}, Replicas: []int{40}}})
	limit := 3000
	if testing.Short() {
		limit = 300
	}
	checked := 0
	for _, r := range runs {
		c, err := cases.Get(r.name, 3, r.nv)
		if err != nil {
			t.Fatal(err)
		}
		u, s0, err := scaling.Build(c, r.setup)
		if err != nil {
			t.Fatal(err)
		}
		p, err := compose.NewProblemFrom(c.Name, u, s0, c.Intents, kivi.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sys := p.System
		canon := sys.Symmetry
		if canon == nil {
			continue
		}
		cs := sys.CheckerSystem()
		next := cs.Next
		if up, ok := cs.(checker.SymmetricSuccessors[*model.State]); ok {
			next = up.NextUpToSymmetry
		}
		seen := map[string]bool{}
		var queue [][]byte
		sys.Initial(func(s *model.State) {
			if k := string(canon.AppendCanonical(nil, s)); !seen[k] {
				seen[k] = true
				queue = append(queue, []byte(k))
			}
		})
		n := 0
		for len(queue) > 0 && n < limit {
			parent, err := sys.Decode(queue[0])
			if err != nil {
				t.Fatal(err)
			}
			queue = queue[1:]
			next(parent, func(_ checker.Step, s *model.State) {
				n++
				got := canon.AppendCanonical([]byte{1}, s)
				key, _ := canon.AppendRepresentative([]byte{1}, nil, s)
				want := canon.Canonical(s).AppendEncoding(u, []byte{1})
				if !bytes.Equal(got, want) || !bytes.Equal(key, want) {
					t.Fatalf("%s %v: AppendCanonical %x,\nAppendRepresentative %x,\nthe permuted state's encoding %x", r.name, r.setup, got, key, want)
				}
				if k := string(got[1:]); !seen[k] {
					seen[k] = true
					queue = append(queue, []byte(k))
				}
			})
		}
		checked += n
		sys = nil
	}
	t.Logf("%d successors of %d setups", checked, len(runs))
}
