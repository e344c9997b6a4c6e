package evictiondiff

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/fidelity/classify"
	"github.com/kivi-go/kivi/model"
)

// TestPlantedBugs: the comparison catches a model that ranks by the
// wrong priority, forgets the minimum reclaim, or ignores the soft
// threshold: each planted bug makes some random case an unexplained
// disagreement.
func TestPlantedBugs(t *testing.T) {
	for _, b := range []struct {
		name  string
		plant Plant
	}{
		{"priority reversed", func(u *model.Universe, _ *model.State) {
			for i := range u.Templates {
				if !u.Templates[i].KubeletCritical() {
					u.Templates[i].Priority = -u.Templates[i].Priority
				}
			}
		}},
		{"no minimum reclaim", func(u *model.Universe, _ *model.State) { u.Nodes[0].Eviction.MinimumReclaim = 0 }},
		{"no soft threshold", func(u *model.Universe, _ *model.State) { u.Nodes[0].Eviction.Soft = 0 }},
		{"threshold on the pods' usage above the allocatable", func(u *model.Universe, _ *model.State) { u.Nodes[0].Eviction.Hard *= 2 }},
	} {
		t.Run(b.name, func(t *testing.T) {
			classify.Checks(t, 3000, 1)
			found := false
			rapid.Check(t, func(t *rapid.T) {
				if found {
					return
				}
				c := genCase(t)
				v, err := Check(c, b.plant)
				if err != nil {
					t.Fatal(err)
				}
				found = v.Class == Unexplained
			})
			if !found {
				t.Errorf("no case tells the planted bug apart")
			}
		})
	}
}
