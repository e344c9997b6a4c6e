package model_test

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// TestDerivedEncoding: a state derived from a decoded state encodes
// exactly as a copy that knows nothing of its origin (the reference, full
// encoder), whatever was changed in it, and whatever was changed in the
// origin after it was decoded.
func TestDerivedEncoding(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u := universe(t)
		monitors := rapid.IntRange(0, 2).Draw(t, "monitors")
		origin, err := model.DecodeState(u, monitors, randomState(t, u, monitors).AppendEncoding(u, nil))
		if err != nil {
			t.Fatal(err)
		}
		derived := &model.State{}
		origin.DeriveInto(derived)
		other := randomState(t, u, monitors)
		for i := range derived.Pods {
			switch rapid.IntRange(0, 3).Draw(t, "change") {
			case 1:
				derived.Pods[i] = other.Pods[i]
			case 2:
				// Usage back to the template's requests: the short form.
				if derived.Pods[i].Phase != model.Free {
					derived.Pods[i].CPU, derived.Pods[i].Memory = 8, 8
					derived.Pods[i].Pattern = 0
				}
			case 3:
				derived.Pods[i].Node = other.Pods[i].Node
			}
		}
		if rapid.Bool().Draw(t, "rest") {
			derived.Nodes = append(derived.Nodes[:0], other.Nodes...)
			derived.Deps = append(derived.Deps[:0], other.Deps...)
			derived.Queues = other.Queues
		}
		if rapid.Bool().Draw(t, "origin changes") {
			origin.Pods[rapid.IntRange(0, len(origin.Pods)-1).Draw(t, "origin pod")] = other.Pods[0]
		}
		want := derived.Clone().AppendEncoding(u, nil)
		if got := derived.AppendEncoding(u, []byte{0xAA}); !bytes.Equal(got[1:], want) || got[0] != 0xAA {
			t.Fatalf("derived encoding\n%x\nwant\n%x", got[1:], want)
		}
		// Another universe: the record is not used.
		u2 := universe(t)
		if got, want := derived.AppendEncoding(u2, nil), derived.Clone().AppendEncoding(u2, nil); !bytes.Equal(got, want) {
			t.Fatalf("derived encoding in another universe\n%x\nwant\n%x", got, want)
		}
	})
}
