package model

import "testing"

func secs(n int64) *int64 { return &n }

// TestNoExecuteToleration: upstream's processPodOnNode decision
// (GetMatchingTolerations: the first toleration of each taint;
// getMinTolerationTime: the least tolerationSeconds, ≤ 0 at once, none
// forever) over a node's NoExecute taints.
func TestNoExecuteToleration(t *testing.T) {
	gpu := Taint{Key: "gpu", Value: "yes", Effect: NoExecute}
	unreachable := Taint{Key: TaintNodeUnreachable, Effect: NoExecute}
	soft := Taint{Key: "soft", Effect: NoSchedule}
	all := Toleration{Operator: "Exists"}
	tests := []struct {
		name   string
		taints []Taint
		tols   []Toleration
		want   NoExecuteToleration
	}{
		{"no taint", nil, nil, NoExecuteToleration{}},
		{"NoSchedule only", []Taint{soft}, nil, NoExecuteToleration{}},
		{"untolerated", []Taint{gpu}, nil, NoExecuteToleration{Eviction: EvictedAtOnce}},
		{"tolerated forever", []Taint{gpu}, []Toleration{{Key: "gpu", Value: "yes", Effect: NoExecute}}, NoExecuteToleration{}},
		{"tolerated 60 s", []Taint{gpu}, []Toleration{{Key: "gpu", Value: "yes", Effect: NoExecute, TolerationSeconds: secs(60)}},
			NoExecuteToleration{Eviction: EvictedLater, Seconds: 60}},
		{"0 s is at once", []Taint{gpu}, []Toleration{{Key: "gpu", Value: "yes", Effect: NoExecute, TolerationSeconds: secs(0)}},
			NoExecuteToleration{Eviction: EvictedAtOnce}},
		{"negative is at once", []Taint{gpu}, []Toleration{{Key: "gpu", Operator: "Exists", TolerationSeconds: secs(-5)}},
			NoExecuteToleration{Eviction: EvictedAtOnce}},
		{"least of two taints", []Taint{gpu, unreachable}, []Toleration{
			{Key: "gpu", Operator: "Exists", TolerationSeconds: secs(600)},
			{Key: TaintNodeUnreachable, Operator: "Exists", TolerationSeconds: secs(300)}},
			NoExecuteToleration{Eviction: EvictedLater, Seconds: 300}},
		{"forever and finite: finite", []Taint{gpu, unreachable}, []Toleration{
			{Key: "gpu", Operator: "Exists"},
			{Key: TaintNodeUnreachable, Operator: "Exists", TolerationSeconds: secs(300)}},
			NoExecuteToleration{Eviction: EvictedLater, Seconds: 300}},
		{"one of two untolerated", []Taint{gpu, unreachable}, []Toleration{{Key: "gpu", Operator: "Exists"}},
			NoExecuteToleration{Eviction: EvictedAtOnce}},
		// The first toleration that tolerates a taint is the one used.
		{"first match wins", []Taint{unreachable}, []Toleration{all,
			{Key: TaintNodeUnreachable, Operator: "Exists", TolerationSeconds: secs(30)}}, NoExecuteToleration{}},
		{"first match wins, finite first", []Taint{unreachable}, []Toleration{
			{Key: TaintNodeUnreachable, Operator: "Exists", TolerationSeconds: secs(30)}, all},
			NoExecuteToleration{Eviction: EvictedLater, Seconds: 30}},
	}
	for _, tc := range tests {
		if got := noExecuteToleration(tc.taints, tc.tols); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestDefaultTolerationSeconds: the admission plugin adds 300 s
// tolerations of the not-ready and unreachable taints unless the pod has
// a toleration with that key (or none) and effect NoExecute (or none),
// whether or not it tolerates the taint.
func TestDefaultTolerationSeconds(t *testing.T) {
	keys := func(tols []Toleration) (nr, ur int) {
		for _, tol := range tols {
			if tol.TolerationSeconds != nil && *tol.TolerationSeconds == DefaultTolerationSeconds && tol.Operator == "Exists" && tol.Effect == NoExecute {
				switch tol.Key {
				case TaintNodeNotReady:
					nr++
				case TaintNodeUnreachable:
					ur++
				}
			}
		}
		return nr, ur
	}
	tests := []struct {
		name   string
		tols   []Toleration
		nr, ur int
	}{
		{"none", nil, 1, 1},
		{"unrelated", []Toleration{{Key: "gpu", Operator: "Exists", Effect: NoExecute}}, 1, 1},
		{"NoSchedule of the key", []Toleration{{Key: TaintNodeNotReady, Operator: "Exists", Effect: NoSchedule}}, 1, 1},
		{"not-ready given", []Toleration{{Key: TaintNodeNotReady, Operator: "Exists", Effect: NoExecute}}, 0, 1},
		{"unreachable given, any effect", []Toleration{{Key: TaintNodeUnreachable, Operator: "Exists"}}, 1, 0},
		{"empty key", []Toleration{{Operator: "Exists", Effect: NoExecute}}, 0, 0},
		// Equal with a value matches no node taint but still counts.
		{"Equal with a value", []Toleration{{Key: TaintNodeUnreachable, Value: "x", Effect: NoExecute}}, 1, 0},
	}
	for _, tc := range tests {
		in := append([]Toleration(nil), tc.tols...)
		got := withDefaultTolerationSeconds(in)
		if nr, ur := keys(got); nr != tc.nr || ur != tc.ur {
			t.Errorf("%s: added not-ready %d, unreachable %d; want %d, %d", tc.name, nr, ur, tc.nr, tc.ur)
		}
		if len(in) != len(tc.tols) {
			t.Errorf("%s: the input was changed", tc.name)
		}
	}
}

// TestNodeDownFit: compiled per node under Kubernetes' lifecycle, with a
// node's own NoExecute taints in the decision; under Kivi's every pod of
// a node that is not Ready goes at once.
func TestNodeDownFit(t *testing.T) {
	u := &Universe{
		Nodes: []Node{{Name: "a", CPU: 8, Memory: 8}, {Name: "b", CPU: 8, Memory: 8,
			Taints: []Taint{{Key: "gpu", Effect: NoExecute}}}},
		Templates: []PodTemplate{
			{Name: "plain"},
			{Name: "gpu", Tolerations: []Toleration{{Key: "gpu", Operator: "Exists", Effect: NoExecute, TolerationSeconds: secs(60)}}},
		},
		PodSlots: 1,
	}
	for _, kivi := range []bool{false, true} {
		v := *u
		v.Nodes = append([]Node(nil), u.Nodes...)
		v.Templates = append([]PodTemplate(nil), u.Templates...)
		v.Options.KiviLifecycle = kivi
		if err := v.Compile(); err != nil {
			t.Fatal(err)
		}
		plainA, gpuB, plainB := v.Templates[0].Fit[0], v.Templates[1].Fit[1], v.Templates[0].Fit[1]
		if kivi {
			if plainA.NodeDown[1].Eviction != EvictedAtOnce || gpuB.NoExecuteTaints.Evicted() || !plainB.NoExecuteTaints.Evicted() {
				t.Errorf("Kivi: %+v %+v %+v", plainA, gpuB, plainB)
			}
			continue
		}
		if want := (NoExecuteToleration{Eviction: EvictedLater, Seconds: DefaultTolerationSeconds}); plainA.NodeDown[0] != want || plainA.NodeDown[1] != want {
			t.Errorf("plain pod on a plain node: %+v, want %+v for both taints", plainA.NodeDown, want)
		}
		if want := (NoExecuteToleration{Eviction: EvictedLater, Seconds: 60}); gpuB.NoExecuteTaints != want || gpuB.NodeDown[1] != want {
			t.Errorf("gpu pod on the gpu node: %+v / %+v, want %+v", gpuB.NoExecuteTaints, gpuB.NodeDown[1], want)
		}
		if gpuB.NoExecute || !plainB.NoExecute || plainB.NodeDown[1].Eviction != EvictedAtOnce {
			t.Errorf("the scheduler's filter: gpu %+v, plain %+v", gpuB, plainB)
		}
	}
}
