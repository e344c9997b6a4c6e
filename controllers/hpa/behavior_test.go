package hpa

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestStoreScaleEvent: upstream's storeScaleEvent overwrites the last
// outdated event of the direction (older than its own longest policy
// period) and appends otherwise; an outdated event another direction's
// longer period still reads stays readable until overwritten; the list
// is bounded by model.MaxHPAScaleEvents.
func TestStoreScaleEvent(t *testing.T) {
	b := model.DefaultHPABehavior() // scale-up periods 15 s: an event is outdated after one sync
	b.ScaleDown.Policies = []model.HPAScalingPolicy{{Type: model.PodsPolicy, Value: 1, PeriodSeconds: 60}}
	var mem model.HPAMemory
	StoreScaleEvent(b, &mem, 1, 2) // +1
	StoreScaleEvent(b, &mem, 2, 4) // +2, appended: +1 is not outdated yet
	AdvanceBehavior(b, &mem)
	if want := []model.HPAScaleEvent{{Age: 1, Change: 1}, {Age: 1, Change: 2}}; !slices.Equal(mem.UpEvents, want) {
		t.Fatalf("up events %v, want %v", mem.UpEvents, want)
	}
	// Both are outdated for the scale-up policies but still inside the
	// scale-down policy's 60 s: the scale-down period started 3 lower.
	if got := changeInPeriod(60, mem.UpEvents); got != 3 {
		t.Errorf("scale-ups within 60 s: %d, want 3", got)
	}
	StoreScaleEvent(b, &mem, 4, 5) // overwrites the last outdated one (+2)
	if want := []model.HPAScaleEvent{{Age: 1, Change: 1}, {Age: 0, Change: 1}}; !slices.Equal(mem.UpEvents, want) {
		t.Fatalf("up events %v, want %v", mem.UpEvents, want)
	}
	for range 5 {
		AdvanceBehavior(b, &mem)
	}
	if want := []model.HPAScaleEvent{{Age: 4}, {Age: 4}}; !slices.Equal(mem.UpEvents, want) {
		t.Fatalf("expired events %v, want %v (read by no policy, in their places)", mem.UpEvents, want)
	}

	var full model.HPAMemory
	for i := range model.MaxHPAScaleEvents {
		if !StoreScaleEvent(b, &full, 10-i, 9-i) {
			t.Fatalf("event %d refused", i)
		}
	}
	if StoreScaleEvent(b, &full, 2, 1) {
		t.Errorf("a scale event beyond %d of one period was stored", model.MaxHPAScaleEvents)
	}
}

// TestHeld: a count held back by the memory is Held, one the memory did
// not change is not, and neither is a disabled direction (no sync period
// can change it).
func TestHeld(t *testing.T) {
	b := model.DefaultHPABehavior()
	bounds := Bounds{Min: 1, Max: 10}
	var mem model.HPAMemory
	RecordRecommendation(b, &mem, 6, bounds) // the scale-down window remembers 6
	out := NormalizeWithBehavior(b, &mem, 6, 3, bounds)
	if out.Desired != 6 || out.Limit != ScaleDownStabilized || !Held(b, 6, 3, out.Desired, bounds) {
		t.Errorf("within the window: %+v, held %v", out, Held(b, 6, 3, out.Desired, bounds))
	}
	b.ScaleDown.SelectPolicy = model.DisabledPolicy
	b.ScaleDown.StabilizationWindowSeconds = 0
	var empty model.HPAMemory
	out = NormalizeWithBehavior(b, &empty, 6, 3, bounds)
	if out.Desired != 6 || Held(b, 6, 3, out.Desired, bounds) {
		t.Errorf("disabled: %+v, held %v", out, Held(b, 6, 3, out.Desired, bounds))
	}
}
