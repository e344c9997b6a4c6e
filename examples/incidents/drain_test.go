package incidents_test

import (
	"strings"
	"testing"
)

// TestDrainBlockedSaysWhy: the valid_end_state violation of
// drain-blocked-by-pdb names the drain, the node and the refusal that
// keeps it waiting.
func TestDrainBlockedSaysWhy(t *testing.T) {
	rep := verify(t, "drain-blocked-by-pdb", false)
	r := rep.Result("valid_end_state")
	if r == nil {
		t.Fatal("no valid_end_state result")
	}
	for _, want := range []string{"kubectl drain node-a waits for ever", "The disruption budget web needs 1 healthy pods and has 1 currently"} {
		if !strings.Contains(r.Explanation, want) {
			t.Errorf("reason %q does not say %q", r.Explanation, want)
		}
	}
}
