package scheduler

import (
	"reflect"
	"slices"
	"testing"
)

// TestDecide: Decide answers what the reference cycle answers, and leaves
// the state as it was (compared as clones, which Clone normalises).
func TestDecide(t *testing.T) {
	u, s := c8(t)
	before := s.Clone()
	for p := range 6 {
		feasible, top := Decide(u, s, p)
		ref := referenceCycle(u, s, p)
		if !slices.Equal(feasible, ref.feasible) {
			t.Errorf("pod %d: feasible %v, reference %v", p+1, feasible, ref.feasible)
		}
		if want := referenceHosts(u, s, p); !slices.Equal(top, want) {
			t.Errorf("pod %d: top %v, reference %v", p+1, top, want)
		}
	}
	if !reflect.DeepEqual(s.Clone(), before) {
		t.Error("Decide changed the state")
	}
}
