//go:build spin

package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/kivi-go/kivi/bench/systems"
	"github.com/kivi-go/kivi/checker"
)

// TestStateCountsEqualSpin checks, for every model pair at its small
// sizes, that SPIN (exhaustive, -DNOREDUCE, full state storage) and our
// engine store the same number of states: the premise of every timing in
// the table. Run by .ci/run after bench/setup.sh:
//
//	go test -tags spin ./bench/...
func TestStateCountsEqualSpin(t *testing.T) {
	if err := haveSpin(); err != nil {
		t.Skipf("!!! SKIPPING the SPIN state-count comparison: %v !!!", err)
	}
	pdir, err := promelaDir("")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	for _, m := range systems.Models() {
		for _, n := range m.Small {
			t.Run(fmt.Sprintf("%s/%d", m.Name, n), func(t *testing.T) {
				res, err := checker.Check(context.Background(), m.New(n), checker.Properties[systems.State]{}, checker.Options{Workers: 1})
				if err != nil {
					t.Fatal(err)
				}
				ours := res.Stats.States
				for _, sm := range []spinMode{spinModes[0], spinModes[3]} { // exhaustive, multi-core
					pb, err := buildPan(work, filepath.Join(pdir, m.Name+".pml"), m.Param, n, sm, ours)
					if err != nil {
						t.Fatal(err)
					}
					out, err := exec.Command(pb.Exe, panArgs(sm, ours, int(ours)+10)...).Output()
					if err != nil {
						t.Fatalf("%s: %v\n%s", sm.Name, err, out)
					}
					ps, err := parsePan(string(out))
					if err != nil {
						t.Fatalf("%s: %v", sm.Name, err)
					}
					if ps.States != ours {
						t.Errorf("%s %s=%d: SPIN %s stores %d states, our engine %d", m.Name, m.Param, n, sm.Name, ps.States, ours)
					}
				}
			})
		}
	}
}

// TestParsePan pins the parser to pan's summary format (SPIN 6.5.2).
func TestParsePan(t *testing.T) {
	out := `State-vector 108 byte, depth reached 899232, errors: 0
 23253901 states, stored
 1.547598e+08 transitions (= stored+matched)
 2838.611	equivalent memory usage for states (stored*(State-vector + overhead))
 2544.000	total actual memory usage

pan: elapsed time 47.1 seconds
`
	ps, err := parsePan(out)
	if err != nil {
		t.Fatal(err)
	}
	if ps.States != 23253901 || ps.Transitions != 154759800 || ps.Depth != 899232 || ps.MemoryMB != 2544 || ps.Elapsed.Seconds() != 47.1 {
		t.Errorf("parsed %+v", ps)
	}
	if _, err := parsePan("error: max search depth too small\n" + out); err == nil {
		t.Error("a truncated search parsed as complete")
	}
}
