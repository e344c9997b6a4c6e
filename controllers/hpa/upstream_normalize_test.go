package hpa

import (
	"slices"
	"sort"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// The tables below restate the rows of Kubernetes' tests of the HPA's
// normalisation (k8s.io/kubernetes@v1.36.3,
// pkg/controller/podautoscaler/horizontal_test.go) in the model's terms.
// Upstream's timestamps become ages in sync periods of 15 s: a record
// a seconds old (a whole number, a little more by the time the test
// reads it) is ⌊a/15⌋ syncs old, and it counts for a window or period
// of S seconds iff 15·⌊a/15⌋ < S (model.Syncs), as a < S does upstream
// for every S the rows use (multiples of 15).
//
// Not restated: the expected lengths of the recommendation lists
// (TestNormalizeDesiredReplicas' expectedLogLength,
// TestNormalizeDesiredReplicasWithBehavior's expectedRecommendations) and
// the "outdated" marks of TestStoreScaleEvents: the model keeps only the
// recommendations that can still decide a window and no mark (an event's
// age says whether a policy reads it), so the rows compare what the
// lists decide. The two TestStoreScaleEvents rows without behavior
// ("empty entries with default behavior", "one outdated entry to be kept
// untouched without behavior"): the model's legacy path remembers no
// scale events at all (model.HPAMemory exists with behavior only).

// ageOf is a record made seconds ago, in sync periods.
func ageOf(seconds int) uint8 { return uint8(seconds / model.HPASyncPeriodSeconds) }

// uniformEvents is horizontal_test.go's generateEventsUniformDistribution:
// the changes spread over the last periodSeconds, each in the middle of
// its segment (the seconds truncated as its time.Duration conversion
// does).
func uniformEvents(changes []int, periodSeconds int) []model.HPAScaleEvent {
	out := make([]model.HPAScaleEvent, len(changes))
	segment := float64(periodSeconds) / float64(len(changes))
	for i, c := range changes {
		boundary := int(float64(periodSeconds) - segment*float64(i+1) + segment/2)
		out[i] = model.HPAScaleEvent{Age: ageOf(boundary), Change: int16(c)}
	}
	return out
}

// TestUpstreamConvertDesiredReplicasWithRules: TestConvertDesiredReplicasWithRules,
// the legacy clamp (Normalize). Upstream's test sets scaleUpLimitFactor to
// 8; the last row expects calculateScaleUpLimit(3), which at the
// production factor 2 (the model's) is max(2·3, 4) = 6.
func TestUpstreamConvertDesiredReplicasWithRules(t *testing.T) {
	for _, tc := range []struct {
		name                       string
		current, desired, min, max int
		want                       int
	}{
		{"prenormalized desired replicas within range", 5, 7, 3, 8, 7},
		{"prenormalized desired replicas < minReplicas", 3, 1, 2, 8, 2},
		{"prenormalized desired zeroed replicas within range", 1, 0, 0, 10, 0},
		{"maxReplicas is the limit because maxReplicas < scaleUpLimit", 20, 1000, 1, 10, 10},
		{"scaleUpLimit is the limit because scaleUpLimit < maxReplicas", 3, 1000, 1, 2000, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Normalize(tc.current, tc.desired, Bounds{Min: tc.min, Max: tc.max}); got != tc.want {
				t.Errorf("Normalize(%d, %d) = %d, want %d", tc.current, tc.desired, got, tc.want)
			}
		})
	}
}

// rec is a recommendation made minutesAgo minutes ago.
type rec struct{ replicas, minutesAgo int }

// TestUpstreamNormalizeDesiredReplicas: TestNormalizeDesiredReplicas,
// stabilizeRecommendation over the controller's 5-minute window
// (legacyWindowSyncs).
func TestUpstreamNormalizeDesiredReplicas(t *testing.T) {
	for _, tc := range []struct {
		name     string
		recs     []rec
		proposal int
		want     int
	}{
		{"empty log", nil, 5, 5},
		{"stabilize", []rec{{4, 2}, {5, 1}}, 3, 5},
		{"no stabilize", []rec{{1, 2}, {2, 1}}, 3, 3},
		{"no stabilize - old recommendations", []rec{{10, 10}, {9, 9}}, 3, 3},
		{"stabilize - old recommendations", []rec{{10, 10}, {4, 1}, {5, 2}, {9, 9}}, 3, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			win := make([]int16, legacyWindowSyncs+1)
			for _, r := range tc.recs {
				if k := int(ageOf(r.minutesAgo * 60)); k < len(win) {
					win[k] = max(win[k], int16(r.replicas))
				}
			}
			if got := Stabilize(win, tc.proposal, 1000); got != tc.want {
				t.Errorf("stabilized %d, want %d", got, tc.want)
			}
			if win[0] < int16(tc.proposal) {
				t.Errorf("the proposal %d was not recorded: window %v", tc.proposal, win)
			}
		})
	}
}

// TestUpstreamCalculateScaleLimits: TestCalculateScaleUpLimitWithScalingRules
// and TestCalculateScaleDownLimitWithBehaviors (selectPolicy Min over a
// Pods 2 and a Percent 50 policy per 60 s, no events).
func TestUpstreamCalculateScaleLimits(t *testing.T) {
	rules := &model.HPAScalingRules{StabilizationWindowSeconds: 300, SelectPolicy: model.MinChangePolicy,
		Policies: []model.HPAScalingPolicy{{Type: model.PodsPolicy, Value: 2, PeriodSeconds: 60}, {Type: model.PercentPolicy, Value: 50, PeriodSeconds: 60}}}
	var mem model.HPAMemory
	if got := scaleUpLimit(1, &mem, rules); got != 2 {
		t.Errorf("TestCalculateScaleUpLimitWithScalingRules: %d, want 2", got)
	}
	if got := scaleDownLimit(5, &mem, rules); got != 3 {
		t.Errorf("TestCalculateScaleDownLimitWithBehaviors: %d, want 3", got)
	}
}

// TestUpstreamScalingWithRules: TestScalingWithRules,
// convertDesiredReplicasWithBehaviorRate (limitRate) with the scale
// events of the rows, and the condition it reports. The row upstream
// marks testThis (and so leaves unchecked) agrees too.
func TestUpstreamScalingWithRules(t *testing.T) {
	for _, tc := range []struct {
		name               string
		up, down           []model.HPAScaleEvent
		min, max           int
		upRules, downRules *model.HPAScalingRulesDecl
		current, desired   int
		want               int
		wantLimit          Limit
	}{
		{name: "prenormalized desired replicas within range", min: 3, max: 8, current: 5, desired: 7, want: 7, wantLimit: DesiredWithinRange},
		{name: "prenormalized desired replicas < minReplicas", min: 2, max: 8, current: 3, desired: 1, want: 2, wantLimit: TooFewReplicas},
		{name: "prenormalized desired replicas within range when minReplicas is 0", min: 0, max: 10, current: 1, desired: 0, want: 0, wantLimit: DesiredWithinRange},
		{name: "maxReplicas is the limit because maxReplicas < scaleUpLimit", min: 1, max: 10, current: 20, desired: 1000, want: 10, wantLimit: TooManyReplicas},
		{name: "desired replica count is more than the maximum replica count", min: 100, max: 150, current: 100, desired: 1000, want: 150, wantLimit: TooManyReplicas},
		{name: "scaleUpLimit is the limit because scaleUpLimit < maxReplicas with user policies", min: 1, max: 2000,
			upRules: scalingRules(0, 0, 1, 60, 0), current: 3, desired: 1000, want: 4, wantLimit: ScaleUpLimit},
		{name: "scaleDownLimit is the limit because scaleDownLimit > minReplicas with user defined policies", min: 3, max: 2000,
			downRules: scalingRules(20, 60, 0, 0, 0), current: 1000, desired: 3, want: 980, wantLimit: ScaleDownLimit},
		{name: "scaleUp with default behavior", min: 1, max: 1000, current: 10, desired: 50, want: 20, wantLimit: ScaleUpLimit},
		{name: "scaleUp with pods policy larger than percent policy", min: 1, max: 1000, upRules: scalingRules(100, 60, 100, 60, 0),
			current: 10, desired: 500, want: 110, wantLimit: ScaleUpLimit},
		{name: "scaleUp with percent policy larger than pods policy", min: 1, max: 1000, upRules: scalingRules(2, 60, 100, 60, 0),
			current: 10, desired: 500, want: 20, wantLimit: ScaleUpLimit},
		{name: "scaleUp with spec MaxReplicas limitation with large pod policy", min: 1, max: 1000, upRules: scalingRules(100, 60, 0, 0, 0),
			current: 10, desired: 50, want: 50, wantLimit: DesiredWithinRange},
		{name: "scaleUp with spec MaxReplicas limitation with large percent policy", min: 1, max: 1000, upRules: scalingRules(10000, 60, 0, 0, 0),
			current: 10, desired: 50, want: 50, wantLimit: DesiredWithinRange},
		{name: "scaleUp with pod policy limitation", min: 1, max: 1000, upRules: scalingRules(30, 60, 0, 0, 0),
			current: 10, desired: 50, want: 40, wantLimit: ScaleUpLimit},
		{name: "scaleUp with percent policy limitation", min: 1, max: 1000, upRules: scalingRules(0, 0, 200, 60, 0),
			current: 10, desired: 50, want: 30, wantLimit: ScaleUpLimit},
		{name: "scaleDown with percent policy larger than pod policy", min: 1, max: 1000, downRules: scalingRules(20, 60, 1, 60, 300),
			current: 100, desired: 2, want: 80, wantLimit: ScaleDownLimit},
		{name: "scaleDown with pod policy larger than percent policy", min: 1, max: 1000, downRules: scalingRules(2, 60, 1, 60, 300),
			current: 100, desired: 2, want: 98, wantLimit: ScaleDownLimit},
		{name: "scaleDown with spec MinReplicas=nil limitation with large pod policy", min: 1, max: 1000, downRules: scalingRules(100, 60, 0, 0, 300),
			current: 10, desired: 0, want: 1, wantLimit: TooFewReplicas},
		{name: "scaleDown with spec MinReplicas limitation with large pod policy", min: 1, max: 1000, downRules: scalingRules(100, 60, 0, 0, 300),
			current: 10, desired: 0, want: 1, wantLimit: TooFewReplicas},
		{name: "scaleDown with spec MinReplicas limitation with large percent policy", min: 5, max: 1000, downRules: scalingRules(0, 0, 100, 60, 300),
			current: 10, desired: 2, want: 5, wantLimit: TooFewReplicas},
		{name: "scaleDown with pod policy limitation", min: 1, max: 1000, downRules: scalingRules(5, 60, 0, 0, 300),
			current: 10, desired: 2, want: 5, wantLimit: ScaleDownLimit},
		{name: "scaleDown with percent policy limitation", min: 1, max: 1000, downRules: scalingRules(0, 0, 50, 60, 300),
			current: 10, desired: 5, want: 5, wantLimit: DesiredWithinRange},
		{name: "scaleUp with spec MaxReplicas limitation with large pod policy and events", up: uniformEvents([]int{1, 5, 9}, 120),
			min: 1, max: 200, upRules: scalingRules(300, 60, 0, 0, 0), current: 100, desired: 500, want: 200, wantLimit: TooManyReplicas},
		{name: "scaleUp with spec MaxReplicas limitation with large percent policy and events", up: uniformEvents([]int{1, 5, 9}, 120),
			min: 1, max: 200, upRules: scalingRules(0, 0, 10000, 60, 0), current: 100, desired: 500, want: 200, wantLimit: TooManyReplicas},
		{name: "scaleUp with currentReplicas limitation with rate.PeriodSeconds with a lot of recent scale up events", up: uniformEvents([]int{1, 5, 9}, 120),
			min: 1, max: 1000, upRules: scalingRules(5, 120, 0, 0, 0), current: 100, desired: 500, want: 100, wantLimit: ScaleUpLimit},
		{name: "scaleUp with pod policy and previous scale up events", up: uniformEvents([]int{1, 5, 9}, 120),
			min: 1, max: 1000, upRules: scalingRules(150, 120, 0, 0, 0), current: 100, desired: 500, want: 235, wantLimit: ScaleUpLimit},
		{name: "scaleUp with percent policy and previous scale up events", up: uniformEvents([]int{1, 5, 9}, 120),
			min: 1, max: 1000, upRules: scalingRules(0, 0, 200, 120, 0), current: 100, desired: 500, want: 255, wantLimit: ScaleUpLimit},
		{name: "scaleUp with percent policy and previous scale up and down events", up: uniformEvents([]int{4}, 120), down: uniformEvents([]int{2}, 120),
			min: 1, max: 1000, upRules: scalingRules(0, 0, 300, 300, 0), current: 6, desired: 24, want: 16, wantLimit: ScaleUpLimit},
		{name: "scaleDown with default policy and previous events", down: uniformEvents([]int{1, 5, 9}, 120),
			min: 1, max: 1000, current: 10, desired: 5, want: 5, wantLimit: DesiredWithinRange},
		{name: "scaleDown with spec MinReplicas=nil limitation with large pod policy and previous events", down: uniformEvents([]int{1, 5, 9}, 120),
			min: 1, max: 1000, downRules: scalingRules(115, 120, 0, 0, 300), current: 100, desired: 0, want: 1, wantLimit: TooFewReplicas},
		{name: "scaleDown with spec MinReplicas limitation with large pod policy and previous events", down: uniformEvents([]int{1, 5, 9}, 120),
			min: 5, max: 1000, downRules: scalingRules(130, 120, 0, 0, 300), current: 100, desired: 0, want: 5, wantLimit: TooFewReplicas},
		{name: "scaleDown with spec MinReplicas limitation with large percent policy and previous events", down: uniformEvents([]int{1, 5, 9}, 120),
			min: 5, max: 1000, downRules: scalingRules(0, 0, 100, 120, 300), current: 100, desired: 2, want: 5, wantLimit: TooFewReplicas},
		{name: "scaleDown with pod policy limitation and previous events", down: uniformEvents([]int{1, 5, 9}, 120),
			min: 1, max: 1000, downRules: scalingRules(5, 120, 0, 0, 300), current: 100, desired: 2, want: 100, wantLimit: ScaleDownLimit},
		{name: "scaleDown with percent policy limitation and previous events", down: uniformEvents([]int{2, 4, 6}, 120),
			min: 1, max: 1000, downRules: scalingRules(0, 0, 50, 120, 300), current: 100, desired: 0, want: 56, wantLimit: ScaleDownLimit},
		{name: "scaleDown with percent policy and previous scale up and down events", up: uniformEvents([]int{2}, 120), down: uniformEvents([]int{4}, 120),
			min: 1, max: 1000, downRules: scalingRules(0, 0, 50, 180, 0), current: 10, desired: 1, want: 6, wantLimit: ScaleDownLimit},
		{name: "scaleDown with previous events preventing further scale down", down: uniformEvents([]int{10, 10, 10}, 120),
			min: 1, max: 1000, downRules: scalingRules(0, 0, 10, 120, 300), current: 100, desired: 0, want: 100, wantLimit: ScaleDownLimit},
		{name: "scaleDown with with previous events still allowing more scale down", down: uniformEvents([]int{10, 10, 10}, 120),
			min: 1, max: 1000, downRules: scalingRules(0, 0, 1000, 120, 300), current: 10, desired: 5, want: 5, wantLimit: DesiredWithinRange},
		{name: "check 'outdated' flag for events for one behavior for up", up: uniformEvents([]int{8, 12, 9, 11}, 120),
			min: 1, max: 1000, upRules: scalingRules(1000, 60, 0, 0, 0), current: 100, desired: 200, want: 200, wantLimit: DesiredWithinRange},
		{name: "check that events were not marked 'outdated' for two different policies in the behavior for up", up: uniformEvents([]int{8, 12, 9, 11}, 120),
			min: 1, max: 1000, upRules: scalingRules(1000, 120, 100, 60, 0), current: 100, desired: 200, want: 200, wantLimit: DesiredWithinRange},
		{name: "check that events were marked 'outdated' for two different policies in the behavior for up", up: uniformEvents([]int{8, 12, 9, 11}, 120),
			min: 1, max: 1000, upRules: scalingRules(1000, 30, 100, 60, 0), current: 100, desired: 200, want: 200, wantLimit: DesiredWithinRange},
		{name: "check 'outdated' flag for events for one behavior for down", down: uniformEvents([]int{8, 12, 9, 11}, 120),
			min: 1, max: 1000, downRules: scalingRules(1000, 60, 0, 0, 300), current: 100, desired: 5, want: 5, wantLimit: DesiredWithinRange},
		{name: "check that events were not marked 'outdated' for two different policies in the behavior for down", down: uniformEvents([]int{8, 12, 9, 11}, 120),
			min: 1, max: 1000, downRules: scalingRules(1000, 120, 100, 60, 300), current: 100, desired: 5, want: 5, wantLimit: DesiredWithinRange},
		{name: "check that events were marked 'outdated' for two different policies in the behavior for down", down: uniformEvents([]int{8, 12, 9, 11}, 120),
			min: 1, max: 1000, downRules: scalingRules(1000, 30, 100, 60, 300), current: 100, desired: 5, want: 5, wantLimit: DesiredWithinRange},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := behaviorOfRules(t, tc.upRules, tc.downRules)
			mem := model.HPAMemory{UpEvents: tc.up, DownEvents: tc.down}
			got := limitRate(b, &mem, tc.current, tc.desired, Bounds{Min: tc.min, Max: tc.max})
			if got.Desired != tc.want || got.Limit != tc.wantLimit {
				t.Errorf("got %d (%v), want %d (%v)", got.Desired, got.Limit, tc.want, tc.wantLimit)
			}
		})
	}
}

// TestUpstreamStoreScaleEvents: TestStoreScaleEvents with behavior, for
// a scale-up from 10 to 15 and a scale-down from 10 to 5: the change of
// the last 60 s before the event, and the changes of the stored list in
// its order.
func TestUpstreamStoreScaleEvents(t *testing.T) {
	type event struct{ change, secondsAgo int }
	for _, tc := range []struct {
		name       string
		prev       []event
		rules      *model.HPAScalingRulesDecl
		wantChange int32
		want       []int16
	}{
		{"empty entries with two-policy-behavior", nil, scalingRules(10, 60, 100, 60, 0), 0, []int16{5}},
		{"one outdated entry to be replaced with behavior", []event{{7, 61}}, scalingRules(10, 60, 100, 60, 0), 0, []int16{5}},
		{"one actual entry to be not touched with behavior", []event{{7, 58}}, scalingRules(10, 60, 100, 60, 0), 7, []int16{7, 5}},
		{"two entries, one of them to be replaced", []event{{7, 61}, {6, 59}}, scalingRules(10, 60, 0, 0, 0), 6, []int16{5, 6}},
		{"replace one entry, use policies with different periods", []event{{8, 29}, {6, 59}, {7, 61}, {9, 61}},
			scalingRules(10, 60, 100, 30, 0), 14, []int16{8, 6, 7, 5}},
		{"two entries, both actual", []event{{7, 58}, {6, 59}}, scalingRules(10, 120, 100, 30, 0), 13, []int16{7, 6, 5}},
	} {
		for _, up := range []bool{true, false} {
			name := tc.name + "/down"
			next := 5
			if up {
				name, next = tc.name+"/up", 15
			}
			t.Run(name, func(t *testing.T) {
				events := make([]model.HPAScaleEvent, len(tc.prev))
				for i, e := range tc.prev {
					events[i] = model.HPAScaleEvent{Age: ageOf(e.secondsAgo), Change: int16(e.change)}
				}
				var b *model.HPABehavior
				var mem model.HPAMemory
				stored := &mem.DownEvents
				if up {
					b, mem.UpEvents, stored = behaviorOfRules(t, tc.rules, nil), events, &mem.UpEvents
				} else {
					b, mem.DownEvents = behaviorOfRules(t, nil, tc.rules), events
				}
				if got := changeInPeriod(60, *stored); got != tc.wantChange {
					t.Errorf("change within 60 s: %d, want %d", got, tc.wantChange)
				}
				if !StoreScaleEvent(b, &mem, 10, next) {
					t.Fatal("event refused")
				}
				var got []int16
				for _, e := range *stored {
					got = append(got, e.Change)
				}
				if !slices.Equal(got, tc.want) {
					t.Errorf("stored changes %v, want %v", got, tc.want)
				}
			})
		}
	}
}

// TestUpstreamNormalizeDesiredReplicasWithBehavior:
// TestNormalizeDesiredReplicasWithBehavior, stabilizeRecommendationWithBehaviors
// (the Stabilized count of NormalizeWithBehavior) with the rows' windows
// (0 where a row leaves one out: the test sets both) over the remembered
// recommendations, replayed into the model's memory oldest first.
func TestUpstreamNormalizeDesiredReplicasWithBehavior(t *testing.T) {
	for _, tc := range []struct {
		name              string
		recs              []rec
		current, proposal int
		upWindow, down    int
		want              int
	}{
		{"empty recommendations for scaling down", nil, 100, 5, 0, 0, 5},
		{"simple scale down stabilization", []rec{{4, 2}, {5, 1}}, 100, 3, 0, 180, 5},
		{"simple scale up stabilization", []rec{{4, 2}, {5, 1}}, 1, 7, 300, 0, 4},
		{"no scale down stabilization", []rec{{1, 2}, {2, 1}}, 100, 3, 300, 0, 3},
		{"no scale up stabilization", []rec{{4, 2}, {5, 1}}, 1, 3, 0, 300, 3},
		{"no scale down stabilization, reuse recommendation element", []rec{{10, 10}, {9, 9}}, 100, 3, 0, 0, 3},
		{"no scale up stabilization, reuse recommendation element", []rec{{10, 10}, {9, 9}}, 1, 100, 0, 0, 100},
		{"scale down stabilization, reuse one of obsolete recommendation element", []rec{{10, 10}, {4, 1}, {5, 2}, {9, 9}}, 100, 3, 0, 180, 5},
		{"scale up stabilization, reuse one of obsolete recommendation element", []rec{{10, 100}, {6, 1}, {5, 2}, {9, 3}}, 1, 100, 300, 0, 5},
		{"scale up and down stabilization, do not scale up when prenormalized rec goes down", []rec{{2, 100}, {3, 3}}, 2, 1, 300, 300, 2},
		{"scale up and down stabilization, do not scale down when prenormalized rec goes up", []rec{{2, 100}, {1, 3}}, 2, 3, 300, 300, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up, down := tc.upWindow, tc.down
			b := behaviorOfRules(t, &model.HPAScalingRulesDecl{StabilizationWindowSeconds: &up},
				&model.HPAScalingRulesDecl{StabilizationWindowSeconds: &down})
			bounds := Bounds{Min: 1, Max: 1000}
			var mem model.HPAMemory
			recs := slices.Clone(tc.recs)
			sort.SliceStable(recs, func(i, j int) bool { return recs[i].minutesAgo > recs[j].minutesAgo })
			for i, r := range recs {
				RecordRecommendation(b, &mem, r.replicas, bounds)
				newer := 0
				if i+1 < len(recs) {
					newer = recs[i+1].minutesAgo
				}
				for range int(ageOf(r.minutesAgo*60)) - int(ageOf(newer*60)) {
					AdvanceBehavior(b, &mem)
				}
			}
			if got := NormalizeWithBehavior(b, &mem, tc.current, tc.proposal, bounds); got.Stabilized != tc.want {
				t.Errorf("stabilized %d, want %d", got.Stabilized, tc.want)
			}
		})
	}
}
