package model

import (
	"errors"
	"strings"
	"testing"
)

// TestRestartsReach: a count held at MaxRestarts reads "at least
// MaxRestarts", so a threshold above it cannot be decided.
func TestRestartsReach(t *testing.T) {
	for _, tc := range []struct {
		restarts     uint8
		threshold    int32
		reach, known bool
	}{
		{0, 1, false, true}, {1, 1, true, true}, {254, 255, false, true}, {255, 255, true, true},
		{255, 100, true, true}, {255, 256, false, false}, {254, 256, false, true},
	} {
		if reach, known := RestartsReach(tc.restarts, tc.threshold); reach != tc.reach || known != tc.known {
			t.Errorf("RestartsReach(%d, %d) = %v, %v; want %v, %v", tc.restarts, tc.threshold, reach, known, tc.reach, tc.known)
		}
	}
	if SaturatedRestarts(-3) != 0 || SaturatedRestarts(300) != MaxRestarts || SaturatedRestarts(7) != 7 {
		t.Error("SaturatedRestarts does not clamp to 0..MaxRestarts")
	}
}

// TestInitialRestarts: a placed pod's restarts count its init
// containers' only where the profiles add them, nothing where no profile
// reads restarts, and profiles that disagree cannot share one count.
func TestInitialRestarts(t *testing.T) {
	profile := func(init bool) DeschedulerProfile {
		return DeschedulerProfile{Deschedule: DescheduleConfig{Enabled: []DeschedulePlugin{RemovePodsHavingTooManyRestarts},
			TooManyRestarts: TooManyRestartsArgs{PodRestartThreshold: 5, IncludingInitContainers: init}}}
	}
	pod := &InitialPod{Restarts: 3, InitRestarts: 2}
	for _, tc := range []struct {
		name string
		d    *Descheduler
		want uint8
		err  string
	}{
		{"no descheduler", nil, 0, ""},
		{"containers only", &Descheduler{Profiles: []DeschedulerProfile{profile(false)}}, 3, ""},
		{"with init containers", &Descheduler{Profiles: []DeschedulerProfile{profile(true)}}, 5, ""},
		{"profiles disagree", &Descheduler{Profiles: []DeschedulerProfile{profile(true), profile(false)}}, 0, "differ in includingInitContainers"},
	} {
		u := &Universe{Descheduler: tc.d}
		got, err := u.InitialRestarts(pod, "nodes[0].pods[0]")
		switch {
		case tc.err != "" && (err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%s: %d, %v; want %d", tc.name, got, err, tc.want)
		}
	}
}

// TestTooManyRestartsArgsChecked: an enabled plugin's args are validated
// as upstream validates them; a disabled one's are not read.
func TestTooManyRestartsArgsChecked(t *testing.T) {
	for _, tc := range []struct {
		args    TooManyRestartsArgs
		enabled bool
		err     string
	}{
		{TooManyRestartsArgs{PodRestartThreshold: 1}, true, ""},
		{TooManyRestartsArgs{}, true, "podRestartThreshold: 0"},
		{TooManyRestartsArgs{}, false, ""},
		{TooManyRestartsArgs{PodRestartThreshold: 2, States: []string{"Running", "CrashLoopBackOff"}}, true, ""},
		{TooManyRestartsArgs{PodRestartThreshold: 2, States: []string{"Pending"}}, true, `states[0]: "Pending" (accepted: CrashLoopBackOff, Running)`},
	} {
		err := tc.args.check("p", tc.enabled)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%+v (enabled %v): %v, want %q", tc.args, tc.enabled, err, tc.err)
		}
	}
}
