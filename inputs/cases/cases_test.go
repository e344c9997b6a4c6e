package cases_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/inputs/cases"
)

// TestList checks the catalogue against Kivi's case definitions (external id,
// internal id, intent) and Kivi's intent user names.
func TestList(t *testing.T) {
	want := []struct{ id, kivi, expect string }{
		{"c1", "h1", "no_oscillation_replica_num"},
		{"c2", "h2", "replica_num_always_meet_min"},
		{"c3", "s3", "pod_always_schedulable"},
		{"c4", "s4", "no_kernel_panic"},
		{"c5", "s1", "no_oscillation_eviction"},
		{"c6", "s6", "replica_num_always_meet_exp"},
		{"c7", "d1", "no_oscillation_eviction"},
		{"c8", "s9", "no_oscillation_eviction"},
	}
	got := cases.List()
	if len(got) != len(want) {
		t.Fatalf("%d cases, want %d", len(got), len(want))
	}
	for i, w := range want {
		in := got[i]
		if in.ID != w.id || in.KiviID != w.kivi || in.Expect != w.expect {
			t.Errorf("case %d = %s/%s expects %s, want %s/%s expects %s", i, in.ID, in.KiviID, in.Expect, w.id, w.kivi, w.expect)
		}
		if in.Title == "" || len(in.Scenario) != 2 || in.NoViolation == "" {
			t.Errorf("%s: title, two scenario lines and the no-violation change are needed", in.ID)
		}
		for _, cn := range []bool{false, true} {
			c, err := cases.Get(w.id, 3, cn)
			if err != nil {
				t.Fatal(err)
			}
			exp := w.expect
			if cn {
				exp = cases.ExpectNone
			}
			if c.Expect != exp || c.Name != cases.FileName(w.id, cn) {
				t.Errorf("%s cn=%v: name %q expect %q, want %q, %q", w.id, cn, c.Name, c.Expect, cases.FileName(w.id, cn), exp)
			}
		}
	}
}

// TestGetErrors: only lower-case ids are accepted, scale
// must be ≥ 1.
func TestGetErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		scale int
		err   error
		msg   string
	}{
		{"C1", 3, cases.ErrUnknownCase, `case "C1": unknown case (accepted: c1, c2, c3, c4, c5, c6, c7, c8)`},
		{"c9", 3, cases.ErrUnknownCase, `case "c9": unknown case (accepted: c1, c2, c3, c4, c5, c6, c7, c8)`},
		{"h1", 3, cases.ErrUnknownCase, `case "h1": unknown case`},
		{"c1", 0, cases.ErrBadScale, "case c1: scale 0: bad scale (accepted: an integer ≥ 1, default 3)"},
		{"c3", -2, cases.ErrBadScale, "scale -2"},
	} {
		_, err := cases.Get(tc.name, tc.scale, false)
		if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Get(%q, %d) = %v, want %v containing %q", tc.name, tc.scale, err, tc.err, tc.msg)
		}
	}
}

// TestIntentParameters: Kivi's parameters (Kivi's case definitions per case): did 1, and
// C6's expReplicas re-read from the spec ("0" in the variant).
func TestIntentParameters(t *testing.T) {
	c, _ := cases.Get("c6", 3, false)
	if p := c.Intents[0].Params; p["did"] != 1 || p["expReplicas"] != "d[did].specReplicas-1" {
		t.Errorf("c6 intent params = %v", p)
	}
	c, _ = cases.Get("c6", 3, true)
	if p := c.Intents[0].Params; p["expReplicas"] != "0" {
		t.Errorf("c6 -cn intent params = %v", p)
	}
	for _, id := range []string{"c1", "c2"} {
		c, _ := cases.Get(id, 3, true)
		if len(c.Intents) != 0 {
			t.Errorf("%s -cn has intents %v, want none", id, c.Intents)
		}
	}
	c, _ = cases.Get("c3", 3, false)
	if len(c.Intents) != 0 {
		t.Errorf("c3 has intents %v, want none (only the default)", c.Intents)
	}
}

// TestCasesHaveKiviAlias: the built-in cases are Kivi's, written against
// its `hostname` alias (C3, C6 and C8 spread by it).
func TestCasesHaveKiviAlias(t *testing.T) {
	for _, name := range cases.Names() {
		c, err := cases.Get(name, cases.DefaultScale, false)
		if err != nil {
			t.Fatal(err)
		}
		if !c.KiviHostnameAlias {
			t.Errorf("case %s: no hostname alias", name)
		}
	}
}
