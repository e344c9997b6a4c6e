package deschedulerdiff

import "testing"

// TestLimitOrderCountsPerNamespace checks that the eviction order class
// explains a different choice of pods within a namespace, never a
// different number of pods of a namespace when the per-namespace limit
// is the only one.
func TestLimitOrderCountsPerNamespace(t *testing.T) {
	s := &Snapshot{Plugin: RemoveDuplicates, Namespaces: []string{Namespace, "team-a"},
		Deps: []Dep{{Tier: "a"}, {Namespace: "team-a", Tier: "a"}},
		Pods: []Pod{{Dep: 0}, {Dep: 0}, {Dep: 1}, {Dep: 1}}, MaxPerNamespace: 1}
	var k Class
	for _, c := range Classes {
		if c.Name == "eviction order under a limit" {
			k = c
		}
	}
	model := &ModelAnswer{Branches: [][]int{{0, 2}}}
	// A terminating pod's accepted eviction counts against the limit
	// (its Dep carrying the evict annotation): {2} and the terminating
	// 1 are as many pods per namespace as {0, 2}.
	for _, c := range []struct {
		real, terminating []int
		want              bool
	}{{[]int{1, 3}, nil, true}, {[]int{1, 2}, nil, true}, {[]int{0}, nil, false}, {[]int{0, 1, 2}, nil, false},
		{[]int{2}, []int{1}, true}, {[]int{2}, nil, false}, {[]int{0, 2}, []int{1}, false}} {
		res := &Result{Model: model, Real: []*RealAnswer{{Evicted: c.real, Terminating: c.terminating}}}
		if got := k.Applies(s) && k.explains(s, res); got != c.want {
			t.Errorf("real evicts %v (terminating %v), model %v: explains %v, want %v", c.real, c.terminating, model.Branches, got, c.want)
		}
	}
	s.MaxTotal = 1
	if res := (&Result{Model: model, Real: []*RealAnswer{{Evicted: []int{0}}}}); !k.explains(s, res) {
		t.Errorf("with a total limit the order decides the namespaces' counts too: not explained")
	}
}
