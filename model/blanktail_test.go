package model

import (
	"testing"

	"pgregory.net/rapid"
)

// TestBlankTail: BlankTail is where the trailing run of pods equal to
// PodState{} begins, field by field.
func TestBlankTail(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods := make([]PodState, rapid.IntRange(0, 40).Draw(t, "pods"))
		for i := range pods {
			if rapid.IntRange(0, 2).Draw(t, "zero") > 0 {
				continue
			}
			p := &pods[i]
			// One field set, so that each field alone must end the run.
			switch rapid.IntRange(0, 10).Draw(t, "field") {
			case 0:
				p.Phase = Phase(rapid.IntRange(1, 4).Draw(t, "phase"))
			case 1:
				p.WasRunning = true
			case 2:
				p.Owner = 1
			case 3:
				p.RS = 1
			case 4:
				p.Template = 1
			case 5:
				p.Pattern = 1
			case 6:
				p.Node = uint16(rapid.IntRange(1, 300).Draw(t, "node"))
			case 7:
				p.NominatedNode = 256
			case 8:
				p.Ordinal = 1
			case 9:
				p.CPU = int32(rapid.SampledFrom([]int{-1, 1, 1 << 24}).Draw(t, "cpu"))
			case 10:
				p.Memory = int32(rapid.SampledFrom([]int{-1, 1, 1 << 24}).Draw(t, "memory"))
			}
		}
		want := len(pods)
		for want > 0 && pods[want-1] == (PodState{}) {
			want--
		}
		if got := BlankTail(pods); got != want {
			t.Fatalf("BlankTail(%v) = %d, want %d", pods, got, want)
		}
	})
}
