package model_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// TestHPAMemoryEncoding: Encode and DecodeHPAMemory round-trip, the
// empty memory is "", and a truncated or padded encoding is an error,
// never a panic.
func TestHPAMemoryEncoding(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		recs := func(name string) []model.HPARecommendation {
			var l []model.HPARecommendation
			for range rapid.IntRange(0, 5).Draw(t, name) {
				l = append(l, model.HPARecommendation{Age: uint8(rapid.IntRange(0, 240).Draw(t, "age")), Replicas: int16(rapid.IntRange(0, model.MaxPodSlots).Draw(t, "r"))})
			}
			return l
		}
		events := func(name string) []model.HPAScaleEvent {
			var l []model.HPAScaleEvent
			for range rapid.IntRange(0, model.MaxHPAScaleEvents).Draw(t, name) {
				l = append(l, model.HPAScaleEvent{Age: uint8(rapid.IntRange(0, 120).Draw(t, "age")), Change: int16(rapid.IntRange(0, model.MaxPodSlots).Draw(t, "c"))})
			}
			return l
		}
		m := model.HPAMemory{UpRecs: recs("up"), DownRecs: recs("down"), UpEvents: events("upe"), DownEvents: events("downe")}
		enc := m.Encode()
		if (enc == "") != m.Empty() {
			t.Fatalf("empty %v but encoding %q", m.Empty(), enc)
		}
		var got model.HPAMemory
		if err := model.DecodeHPAMemory(enc, &got); err != nil {
			t.Fatal(err)
		}
		if got.Encode() != enc {
			t.Fatalf("round trip: %+v != %+v", got, m)
		}
		if enc != "" {
			if model.DecodeHPAMemory(enc[:len(enc)-1], &got) == nil {
				t.Fatalf("truncated %q decoded", enc)
			}
			if model.DecodeHPAMemory(enc+"\x00", &got) == nil {
				t.Fatalf("padded %q decoded", enc)
			}
		}
	})
}

// TestSyncs: a record counts at the syncs of age 0..Syncs−1, that is
// while 15·age < seconds.
func TestSyncs(t *testing.T) {
	for _, tc := range []struct{ seconds, want int }{{0, 0}, {1, 1}, {14, 1}, {15, 1}, {16, 2}, {60, 4}, {61, 5}, {300, 20}, {1800, 120}, {3600, 240}} {
		if got := model.Syncs(tc.seconds); got != tc.want {
			t.Errorf("Syncs(%d) = %d, want %d", tc.seconds, got, tc.want)
		}
	}
}

// TestToleranceNanos: decimals with up to nine places are exact, finer
// ones and negative ones are refused.
func TestToleranceNanos(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want int64
		ok   bool
	}{{0, 0, true}, {0.05, 50_000_000, true}, {0.1, 100_000_000, true}, {1.5, 1_500_000_000, true}, {0.000000001, 1, true},
		{0.0000000001, 0, false}, {-0.1, 0, false}, {2e6, 0, false}} {
		got, ok := model.ToleranceNanos(tc.f)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ToleranceNanos(%v) = %d, %v; want %d, %v", tc.f, got, ok, tc.want, tc.ok)
		}
	}
}

// TestHPABehaviorDefaults: an empty behavior is the API server's
// defaults, with the controller's 300 s scale-down window.
func TestHPABehaviorDefaults(t *testing.T) {
	b := model.DefaultHPABehavior()
	up, down := b.ScaleUp, b.ScaleDown
	if up.StabilizationWindowSeconds != 0 || up.SelectPolicy != model.MaxChangePolicy || up.ToleranceNanos != -1 || len(up.Policies) != 2 ||
		up.Policies[0] != (model.HPAScalingPolicy{Type: model.PodsPolicy, Value: 4, PeriodSeconds: 15}) ||
		up.Policies[1] != (model.HPAScalingPolicy{Type: model.PercentPolicy, Value: 100, PeriodSeconds: 15}) {
		t.Errorf("scaleUp %+v", up)
	}
	if down.StabilizationWindowSeconds != 300 || down.SelectPolicy != model.MaxChangePolicy || down.ToleranceNanos != -1 || len(down.Policies) != 1 ||
		down.Policies[0] != (model.HPAScalingPolicy{Type: model.PercentPolicy, Value: 100, PeriodSeconds: 15}) {
		t.Errorf("scaleDown %+v", down)
	}
}
