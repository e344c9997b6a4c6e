package podgcdiff

import (
	"flag"
	"os"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/fidelity/classify"
)

// TestMain silences klog: the collector logs every deletion through the
// global logger.
func TestMain(m *testing.M) {
	classify.SilenceKlog()
	os.Exit(m.Run())
}

var cases = flag.Int("cases", 500, "random cases TestDifferential compares (rapid checks)")

// TestDifferential compares every pod's fate under the model's deletion
// of the case's nodes with upstream's gcOrphaned: no disagreement is
// expected (-cases, rapid seed 1 unless -rapid.seed names another).
func TestDifferential(t *testing.T) {
	classify.Checks(t, *cases, 1)
	var counts classify.Counter
	rapid.Check(t, func(rt *rapid.T) {
		c := Draw(rt)
		up, err := Upstream(c)
		if err != nil {
			rt.Fatal(err)
		}
		w, err := Model(c)
		if err != nil {
			rt.Fatal(err)
		}
		if got := w.Final; !slices.Equal(got, up) {
			rt.Fatalf("case %+v:\nmodel    %v\nupstream %v", c, got, up)
		}
		for _, a := range up {
			switch {
			case a.Deleted && a.Counted:
				counts.Add("deleted, counted")
			case a.Deleted:
				counts.Add("deleted with DisruptionTarget")
			default:
				counts.Add("kept")
			}
		}
	})
	counts.Log(t)
}

var windowCases = flag.Int("window.cases", 300, "TestWindow: cases run together")

// TestWindow compares the deletion window with upstream's collector run
// with a quarantine (300 ms standing for its 40 s): its first pass, which
// finds the nodes missing, deletes nothing, as the model's deletion step
// collects nothing; the pass after the quarantine collects the pods of
// exactly the nodes whose collector step (podgc.Orphaned) the model
// enables, with the same fates as the model's steps. The cases (drawn
// as TestDifferential's, from seeds 1..N) run their first passes one
// after the other and their second ones after one shared wait.
func TestWindow(t *testing.T) {
	const quarantine = 300 * time.Millisecond
	gen := rapid.Custom(Draw)
	cases := make([]Case, *windowCases)
	runs := make([]*Run, len(cases))
	for i := range cases {
		cases[i] = gen.Example(i + 1)
		r, err := StartUpstream(cases[i], quarantine)
		if err != nil {
			t.Fatal(err)
		}
		runs[i] = r
	}
	time.Sleep(quarantine + 200*time.Millisecond)
	var counts classify.Counter
	for i, c := range cases {
		up := runs[i].Finish()
		got, err := Model(c)
		if err != nil {
			t.Fatalf("case %d %+v: %v", i+1, c, err)
		}
		if !slices.Equal(got.First, up.First) || !slices.Equal(got.Enabled, up.Enabled) || !slices.Equal(got.Final, up.Final) {
			t.Fatalf("case %d %+v:\nmodel    %v\nupstream %v", i+1, c, got, up)
		}
		for n, deleted := range c.Deleted {
			switch {
			case up.Enabled[n]:
				counts.Add("deleted node, collected after the window")
			case deleted:
				counts.Add("deleted node without pods, nothing to collect")
			}
		}
		for j := range c.Pods {
			if up.First[j].Deleted {
				counts.Add("pod deleted before the quarantine ended")
			}
		}
	}
	counts.Log(t)
}
