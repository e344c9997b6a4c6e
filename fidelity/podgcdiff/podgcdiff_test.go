package podgcdiff

import (
	"os"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/fidelity/classify"
)

// TestMain silences klog: the collector logs every deletion through the
// global logger.
func TestMain(m *testing.M) {
	classify.SilenceKlog()
	os.Exit(m.Run())
}

// TestDifferential compares every pod's fate under the model's deletion
// of the case's nodes with upstream's gcOrphaned: no disagreement is
// expected (500 cases, rapid seed 1, by default).
func TestDifferential(t *testing.T) {
	classify.Checks(t, 500, 1)
	var counts classify.Counter
	rapid.Check(t, func(rt *rapid.T) {
		c := Draw(rt)
		up, err := Upstream(c)
		if err != nil {
			rt.Fatal(err)
		}
		got, err := Model(c)
		if err != nil {
			rt.Fatal(err)
		}
		if !slices.Equal(got, up) {
			rt.Fatalf("case %+v:\nmodel    %v\nupstream %v", c, got, up)
		}
		for _, a := range up {
			switch {
			case a.Deleted && a.Counted:
				counts.Add("deleted, counted")
			case a.Deleted:
				counts.Add("deleted with DisruptionTarget")
			default:
				counts.Add("kept")
			}
		}
	})
	counts.Log(t)
}
