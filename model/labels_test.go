package model

import "testing"

// TestSelectorMatches follows apimachinery's label selector rules
// (k8s.io/apimachinery/pkg/labels/selector.go): NotIn and DoesNotExist
// match objects without the key; a nil selector matches nothing; an empty
// one everything.
func TestSelectorMatches(t *testing.T) {
	var in Interner
	obj := in.Compile(map[string]string{"app": "web", "tier": "front"})
	for _, tc := range []struct {
		name string
		sel  *Selector
		want bool
	}{
		{"nil selects nothing", nil, false},
		{"empty selects everything", &Selector{}, true},
		{"matchLabels hit", &Selector{MatchLabels: map[string]string{"app": "web"}}, true},
		{"matchLabels miss", &Selector{MatchLabels: map[string]string{"app": "db"}}, false},
		{"In", &Selector{MatchExpressions: []Requirement{{Key: "tier", Operator: OpIn, Values: []string{"back", "front"}}}}, true},
		{"NotIn with the key", &Selector{MatchExpressions: []Requirement{{Key: "tier", Operator: OpNotIn, Values: []string{"front"}}}}, false},
		{"NotIn without the key", &Selector{MatchExpressions: []Requirement{{Key: "zone", Operator: OpNotIn, Values: []string{"a"}}}}, true},
		{"Exists", &Selector{MatchExpressions: []Requirement{{Key: "app", Operator: OpExists}}}, true},
		{"DoesNotExist", &Selector{MatchExpressions: []Requirement{{Key: "app", Operator: OpDoesNotExist}}}, false},
		{"ANDed", &Selector{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []Requirement{{Key: "zone", Operator: OpExists}}}, false},
	} {
		c, err := in.compileSelector(tc.sel)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := c.Matches(obj); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	if _, err := in.compileSelector(&Selector{MatchExpressions: []Requirement{{Key: "a", Operator: "Near"}}}); err == nil {
		t.Error("unknown operator accepted")
	}
}

// TestIntOrPercent follows Kubernetes' fencepost rounding
// (pkg/controller/deployment/util: maxSurge rounds up, maxUnavailable
// down).
func TestIntOrPercent(t *testing.T) {
	for _, tc := range []struct {
		in       string
		replicas int
		up, down int
	}{{"25%", 10, 3, 2}, {"25%", 1, 1, 0}, {"3", 10, 3, 3}, {"0%", 5, 0, 0}, {"100%", 7, 7, 7}} {
		v, err := ParseIntOrPercent(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Resolve(tc.replicas, true); got != tc.up {
			t.Errorf("%s of %d rounded up = %d, want %d", tc.in, tc.replicas, got, tc.up)
		}
		if got := v.Resolve(tc.replicas, false); got != tc.down {
			t.Errorf("%s of %d rounded down = %d, want %d", tc.in, tc.replicas, got, tc.down)
		}
	}
	for _, bad := range []string{"", "-1", "x%", "1.5"} {
		if _, err := ParseIntOrPercent(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
