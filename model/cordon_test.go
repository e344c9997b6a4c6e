package model_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// withCordons draws a cordon bit and a not-ready or unreachable taint for
// every node of s.
func withCordons(t *rapid.T, s *model.State) {
	for n := range s.Nodes {
		st := model.NodeStatus(rapid.IntRange(0, 2).Draw(t, "health"))
		if k := rapid.IntRange(-1, 1).Draw(t, "taint"); k >= 0 {
			st = st.WithNodeDownTaint(k)
		}
		s.Nodes[n] = model.NodeState{Status: st, Cordoned: rapid.Bool().Draw(t, "cordoned")}
	}
}

// TestCordonEncodingCanonical: with cordoned nodes and tainted statuses,
// decoding an encoding gives the state back, and two states have equal
// encodings iff they are equal.
func TestCordonEncodingCanonical(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u := universe(t)
		s := randomState(t, u, 1)
		withCordons(t, s)
		enc := s.AppendEncoding(u, nil)
		back, err := model.DecodeState(u, 1, enc)
		if err != nil {
			t.Fatal(err)
		}
		opts := cmp.Options{cmpopts.EquateEmpty(), cmpopts.IgnoreUnexported(model.State{})}
		if diff := cmp.Diff(s, back, opts); diff != "" {
			t.Fatalf("round trip (-want +got):\n%s", diff)
		}
		other := s.Clone()
		withCordons(t, other)
		same := cmp.Equal(s, other, opts)
		if same != (string(enc) == string(other.AppendEncoding(u, nil))) {
			t.Fatalf("equal states %v but equal encodings %v", same, !same)
		}
	})
}

// TestUncordonedNodesEncodeAsTheirStatus: a node that is not cordoned is
// encoded as its status byte alone, so models without a drain keep their
// encodings (and the built-in cases their state counts).
func TestUncordonedNodesEncodeAsTheirStatus(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u := universe(t)
		if u.WideNodes() {
			t.Skip("nodes past a byte encode as runs of equal bytes")
		}
		s := randomState(t, u, 0)
		withCordons(t, s)
		for n := range s.Nodes {
			s.Nodes[n].Cordoned = false
		}
		enc := s.AppendEncoding(u, nil)
		// The flags byte, Failed and FailedArg (two bytes in a wide
		// universe) come first, then the nodes.
		at := 3
		if u.WideRefs() {
			at = 4
		}
		for n := range s.Nodes {
			if got, want := enc[at+n], byte(s.Nodes[n].Status); got != want {
				t.Fatalf("node %d encoded as %#x, its status is %#x", n, got, want)
			}
		}
	})
}
