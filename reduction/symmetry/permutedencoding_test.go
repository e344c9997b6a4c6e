package symmetry

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// encodingUniverse returns a compiled universe of n nodes and slots pod
// slots whose two templates request what randomState's pods often use,
// so that both the common pod layout and the general one are encoded
// (and, past a byte of nodes or slots, the wide layouts).
func encodingUniverse(t *rapid.T, n, slots int) *model.Universe {
	u := &model.Universe{PodSlots: slots}
	for i := range n {
		u.Nodes = append(u.Nodes, model.Node{Name: fmt.Sprint("n", i), CPU: 1000, Memory: 1000})
	}
	u.Templates = []model.PodTemplate{{Name: "a", CPU: 100, Memory: 100}, {Name: "b", CPU: 0, Memory: 0}}
	if err := u.Compile(); err != nil {
		t.Fatal(err)
	}
	return u
}

// TestCanonicalEncodingIsThePermutedStates: AppendCanonical, which
// writes the canonical form from the state and its plan, appends the
// bytes of the permuted state that Canonical builds (every reference
// renamed, the queues that are sets sorted), on random states and
// canonicalisers, narrow and wide.
func TestCanonicalEncodingIsThePermutedStates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := randomCanonicalizer(t)
		for range 3 { // reuse the canonicaliser's buffers across states
			s := randomState(t, c)
			c.u = encodingUniverse(t, len(s.Nodes), len(s.Pods))
			prefix := []byte{7}
			got := c.AppendCanonical(bytes.Clone(prefix), s)
			want := c.Canonical(s).AppendEncoding(c.u, bytes.Clone(prefix))
			if !bytes.Equal(got, want) {
				t.Fatalf("AppendCanonical %x,\nthe permuted state's encoding %x", got, want)
			}
		}
	})
}

// TestNominatedRunsAreSets: where pods move, a state whose scheduling
// queue holds a run of nominated twins (model.NominatedTwins) in another
// order has the same canonical form, which lists the run in slot order.
func TestNominatedRunsAreSets(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := randomCanonicalizer(t)
		s := randomState(t, c)
		c.u = encodingUniverse(t, len(s.Nodes), len(s.Pods))
		q := s.Queues[model.SchedulerQueue]
		var runs [][2]int
		for i := 0; i < len(q); {
			end := i + 1
			for end < len(q) && referenceTwins(s, q[i], q[end]) {
				end++
			}
			if end-i > 1 {
				runs = append(runs, [2]int{i, end})
			}
			i = end
		}
		if len(runs) == 0 || !c.pods {
			t.Skip("no run of nominated twins, or pods fixed")
		}
		r := rapid.SampledFrom(runs).Draw(t, "run")
		other := s.Clone()
		oq := other.Queues[model.SchedulerQueue][r[0]:r[1]]
		perm := rapid.Permutation(slices.Clone(oq)).Draw(t, "order")
		copy(oq, perm)
		want := c.AppendCanonical(nil, s)
		if got := c.AppendCanonical(nil, other); !bytes.Equal(got, want) {
			t.Fatalf("the run %v reordered to %v changes the canonical form", q[r[0]:r[1]], oq)
		}
		canon := c.Canonical(s)
		if _, sorted := nominatedRuns(canon, canon.Queues[model.SchedulerQueue]); !sorted {
			t.Fatalf("the canonical form's runs are not in slot order: %v", canon.Queues[model.SchedulerQueue])
		}
	})
}
