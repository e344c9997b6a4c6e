package symmetry

import (
	"bytes"
	"fmt"
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
