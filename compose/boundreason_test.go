package compose

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestEveryBoundHasItsOwnReason: every bound of the model has its own
// value, name and reason, so a run's Unknown names the table it ran out of
// (a bound declared apart with a value another already had was reported
// as that other one).
func TestEveryBoundHasItsOwnReason(t *testing.T) {
	u := &model.Universe{PodSlots: 8}
	names, reasons := map[string]model.Bound{}, map[string]model.Bound{}
	for b := model.BoundPodSlots; b <= model.BoundReplicaSetRevisions; b++ {
		name, reason := b.String(), boundReason(u, b)
		if strings.HasPrefix(name, "Bound(") {
			t.Errorf("bound %d has no name", b)
		}
		if !strings.HasPrefix(reason, "model bound: ") {
			t.Errorf("bound %s: reason %q", name, reason)
		}
		if o, ok := names[name]; ok {
			t.Errorf("bounds %d and %d are both %q", o, b, name)
		}
		if o, ok := reasons[reason]; ok {
			t.Errorf("bounds %d and %d have the same reason %q", o, b, reason)
		}
		names[name], reasons[reason] = b, b
	}
	if got := boundReason(u, model.BoundStatefulSetOrdinals); !strings.Contains(got, "StatefulSet") {
		t.Errorf("StatefulSet ordinals: %q", got)
	}
}
