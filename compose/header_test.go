package compose

import (
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestCPUDeltas: a CPU change's amounts are said in millicores for a
// cluster read from manifests, in Kivi's model units otherwise, with the
// step between them when it is not 1.
func TestCPUDeltas(t *testing.T) {
	for _, c := range []struct {
		alias     bool
		max, step int
		want      string
	}{
		{true, 6, 0, "1..6 more CPU (model units)"},
		{true, 6, 1, "1..6 more CPU (model units)"},
		{true, 3, 8, "8 to 24 more CPU (3 amounts, 8 apart; model units)"},
		{false, 6, 62, "62m to 372m more CPU (6 amounts, 62m apart)"},
		{false, 4, 1, "1m to 4m more CPU"},
		{false, 1, 1, "1m more CPU"},
		{true, 1, 0, "1 more CPU (model units)"},
	} {
		u := &model.Universe{Options: model.Options{KiviHostnameAlias: c.alias}}
		e := &model.Event{Kind: model.CPUChange, MaxDelta: c.max, DeltaUnit: c.step}
		if got := cpuDeltas(u, e); got != c.want {
			t.Errorf("alias %v, %d×%d: %q, want %q", c.alias, c.max, c.step, got, c.want)
		}
	}
}
