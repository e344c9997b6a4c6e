package model

import (
	"errors"
	"strings"
	"testing"
)

// TestNodeTaintsArgsCounts is upstream's taintFilterFnc: NoSchedule
// taints, PreferNoSchedule ones only when included, never NoExecute;
// excludedTaints and includedTaints name a taint by key or key=value
// (the latter only for a taint with a value).
func TestNodeTaintsArgsCounts(t *testing.T) {
	ns := Taint{Key: "testTaint1", Value: "test1", Effect: NoSchedule}
	pns := Taint{Key: "testTaint1", Value: "test1", Effect: PreferNoSchedule}
	noValue := Taint{Key: "bare", Effect: NoSchedule}
	for _, tc := range []struct {
		name  string
		args  NodeTaintsArgs
		taint Taint
		want  bool
	}{
		{"NoSchedule counts", NodeTaintsArgs{}, ns, true},
		{"NoExecute never counts", NodeTaintsArgs{IncludePreferNoSchedule: true}, Taint{Key: "k", Effect: NoExecute}, false},
		{"PreferNoSchedule not by default", NodeTaintsArgs{}, pns, false},
		{"PreferNoSchedule when included", NodeTaintsArgs{IncludePreferNoSchedule: true}, pns, true},
		{"excluded by key", NodeTaintsArgs{ExcludedTaints: []string{"excludedTaint1", "testTaint1"}}, ns, false},
		{"excluded by key=value", NodeTaintsArgs{ExcludedTaints: []string{"testTaint1=test1"}}, ns, false},
		{"excluded key matches, value does not", NodeTaintsArgs{ExcludedTaints: []string{"testTaint1=test2"}}, ns, true},
		{"key= does not name a taint without value", NodeTaintsArgs{ExcludedTaints: []string{"bare="}}, noValue, true},
		{"included by key=value", NodeTaintsArgs{IncludedTaints: []string{"testTaint1=test1"}}, ns, true},
		{"not included", NodeTaintsArgs{IncludedTaints: []string{"testTaint2=test2"}}, ns, false},
	} {
		if got := tc.args.Counts(tc.taint); got != tc.want {
			t.Errorf("%s: Counts = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestCompileDeschedulePlugins: the descheduler's validation of the
// deschedule plugins' args happens at Compile, naming the field and the
// accepted values.
func TestCompileDeschedulePlugins(t *testing.T) {
	for _, tc := range []struct {
		cfg  DescheduleConfig
		want string
	}{
		{DescheduleConfig{Enabled: []DeschedulePlugin{RemovePodsViolatingNodeTaints, RemovePodsViolatingInterPodAntiAffinity}}, ""},
		{DescheduleConfig{Enabled: []DeschedulePlugin{9}}, "profiles[0].deschedule.enabled[0]: DeschedulePlugin(9) (accepted: RemovePodsViolatingNodeTaints, "},
		{DescheduleConfig{Enabled: []DeschedulePlugin{RemovePodsViolatingNodeAffinity}}, "profiles[0].deschedule.nodeAffinityType: empty"},
		{DescheduleConfig{NodeAffinityType: []NodeAffinityType{3}}, "nodeAffinityType[0]: NodeAffinityType(3) (accepted: requiredDuringSchedulingIgnoredDuringExecution, "},
		{DescheduleConfig{NodeTaints: NodeTaintsArgs{ExcludedTaints: []string{"a"}, IncludedTaints: []string{"b"}}}, "nodeTaints: includedTaints and excludedTaints are both set"},
	} {
		u := &Universe{Nodes: []Node{{Name: "n", CPU: 1, Memory: 1}}, Descheduler: &Descheduler{Profiles: []DeschedulerProfile{{Name: "p", Deschedule: tc.cfg}}}}
		err := u.Compile()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", tc.cfg, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrInvalid)):
			t.Errorf("%+v: got %v, want %q", tc.cfg, err, tc.want)
		}
	}
}
