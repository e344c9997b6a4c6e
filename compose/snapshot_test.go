package compose

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/report"
)

// phaseRank orders a pod's life: Pending, Running, Terminating.
func phaseRank(p string) int {
	switch p {
	case "Pending":
		return 0
	case "Running":
		return 1
	case "Terminating":
		return 2
	}
	return -1
}

// checkPodNames checks that a name stands for one pod throughout a
// trace: unique within a snapshot, one deployment, bound at most to one
// node and never unbound again, phases only moving forward, and never
// back once gone. It returns how many distinct names the trace has.
func checkPodNames(t *testing.T, tr *report.JSONTrace) int {
	t.Helper()
	type life struct {
		dep, node string
		rank      int
		gone      bool
	}
	lives := map[string]*life{}
	snaps := []report.ClusterSnapshot{tr.Initial}
	for _, st := range tr.Steps {
		snaps = append(snaps, st.Cluster)
	}
	for k, s := range snaps {
		seen := map[string]bool{}
		for _, p := range s.Pods {
			if seen[p.Name] {
				t.Fatalf("snapshot %d: two pods named %s", k, p.Name)
			}
			seen[p.Name] = true
			l, ok := lives[p.Name]
			if !ok {
				lives[p.Name] = &life{dep: p.Deployment, node: p.Node, rank: phaseRank(p.Phase)}
				continue
			}
			switch {
			case l.gone:
				t.Errorf("snapshot %d: the name %s is back after its pod was removed", k, p.Name)
			case l.dep != p.Deployment:
				t.Errorf("snapshot %d: %s changed deployment %q → %q", k, p.Name, l.dep, p.Deployment)
			case l.node != "" && l.node != p.Node:
				t.Errorf("snapshot %d: %s moved from node %q to %q", k, p.Name, l.node, p.Node)
			case phaseRank(p.Phase) < l.rank:
				t.Errorf("snapshot %d: %s went back to %s", k, p.Name, p.Phase)
			}
			l.node, l.rank = p.Node, phaseRank(p.Phase)
		}
		for name, l := range lives {
			if !seen[name] {
				l.gone = true
			}
		}
	}
	return len(lives)
}

// TestSnapshotsFollowTheTrace verifies built-in cases and checks each
// counterexample's snapshots: one per step, the lines split as the
// counterexample's, pod names that never stand for two pods, and (C5 and
// C8, whose loops delete a pod and create another in its slot) a reused
// slot under a new name.
func TestSnapshotsFollowTheTrace(t *testing.T) {
	for _, name := range []string{"c1", "c3", "c5", "c8"} {
		t.Run(name, func(t *testing.T) {
			c, err := cases.Get(name, 3, false)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Verify(context.Background(), c, Options{Checker: checker.Options{Workers: 1}})
			if err != nil {
				t.Fatal(err)
			}
			doc := rep.JSON()
			if doc.SchemaVersion != report.SchemaVersion {
				t.Errorf("schemaVersion %d", doc.SchemaVersion)
			}
			violated := 0
			for i, in := range doc.Intents {
				r := rep.Results[i]
				if r.Trace == nil {
					if in.Trace != nil {
						t.Errorf("%s: a JSON trace without a trace", in.Name)
					}
					continue
				}
				violated++
				tr := in.Trace
				if len(tr.Steps) != len(r.Trace.Steps) || len(tr.Steps) == 0 {
					t.Fatalf("%s: %d JSON steps for %d trace steps", in.Name, len(tr.Steps), len(r.Trace.Steps))
				}
				if tr.LoopStart != r.Trace.LoopStart {
					t.Errorf("%s: loopStart %d, trace's %d", in.Name, tr.LoopStart, r.Trace.LoopStart)
				}
				lines := 0
				for k, st := range tr.Steps {
					if st.Actor != r.Trace.Steps[k].Actor {
						t.Errorf("%s step %d: actor %q, trace's %q", in.Name, k, st.Actor, r.Trace.Steps[k].Actor)
					}
					for _, l := range st.Lines {
						if l != in.Counterexample[lines] {
							t.Errorf("%s step %d: line %+v, counterexample's %+v", in.Name, k, l, in.Counterexample[lines])
						}
						lines++
					}
					if len(st.Cluster.Nodes) != len(tr.Initial.Nodes) {
						t.Errorf("%s step %d: %d nodes", in.Name, k, len(st.Cluster.Nodes))
					}
				}
				if lines != len(in.Counterexample) {
					t.Errorf("%s: %d lines in steps, %d in the counterexample", in.Name, lines, len(in.Counterexample))
				}
				names := checkPodNames(t, tr)
				if name == "c5" || name == "c8" {
					// Some slot held two pods: more names than slots used.
					slots := map[int]bool{}
					for _, s := range append([]report.JSONTraceStep{{Cluster: tr.Initial}}, tr.Steps...) {
						for _, p := range s.Cluster.Pods {
							slots[p.Slot] = true
						}
					}
					if names <= len(slots) {
						t.Errorf("%s: %d names for %d slots; the loop's new pod should have a name of its own", in.Name, names, len(slots))
					}
				}
			}
			if violated == 0 {
				t.Fatal("no counterexample")
			}
		})
	}
}

// TestTraceStepObjects: each step of C3's counterexample names the
// objects it changed: a CPU change event its pod, the HPA's rescale its
// Deployment, the deployment controller the pod it creates; the
// scheduler's failure to place that pod changes nothing. (By position,
// not by actor: the steps' names are the trace texts' business.)
func TestTraceStepObjects(t *testing.T) {
	c, err := cases.Get("c3", 3, false)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(context.Background(), c, Options{Checker: checker.Options{Workers: 1}})
	if err != nil {
		t.Fatal(err)
	}
	in, ok := rep.JSON().FirstViolation()
	if !ok || in.Trace == nil {
		t.Fatal("C3: no counterexample")
	}
	var got []string
	for _, st := range in.Trace.Steps {
		if len(st.Lines) == 0 {
			continue
		}
		var kinds []string
		for _, o := range st.Objects {
			kinds = append(kinds, o.Kind)
		}
		got = append(got, fmt.Sprint(kinds))
	}
	if want := "[[Pod] [Deployment] [Pod] []]"; fmt.Sprint(got) != want {
		t.Errorf("objects changed by the steps with lines: %v, want %s", got, want)
	}
}

// TestNoSnapshots: without snapshots a report prints the same text, its
// steps name the same pods, and no snapshot is drawn.
func TestNoSnapshots(t *testing.T) {
	for _, name := range []string{"c1", "c4", "c8"} {
		t.Run(name, func(t *testing.T) {
			c, err := cases.Get(name, 3, false)
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{Checker: checker.Options{Workers: 1}}
			with, err := Verify(context.Background(), c, opts)
			if err != nil {
				t.Fatal(err)
			}
			opts.NoSnapshots = true
			without, err := Verify(context.Background(), c, opts)
			if err != nil {
				t.Fatal(err)
			}
			var a, b bytes.Buffer
			with.WriteFailures(&a)
			without.WriteFailures(&b)
			if untimed(a.String()) != untimed(b.String()) {
				t.Errorf("the text report changes without snapshots:\n%s\nwith them:\n%s", b.String(), a.String())
			}
			traces := 0
			for i, r := range without.Results {
				if r.Trace == nil {
					continue
				}
				traces++
				if w := with.Results[i].Trace; len(w.Steps) == 0 || len(w.Initial.Nodes) == 0 {
					t.Fatalf("%s: the report with snapshots has none", r.Name)
				}
				if len(r.Trace.Initial.Nodes) != 0 {
					t.Errorf("%s: an initial snapshot was drawn", r.Name)
				}
				for k, st := range r.Trace.Steps {
					if len(st.Cluster.Nodes) != 0 || len(st.Cluster.Pods) != 0 {
						t.Errorf("%s: step %d has a snapshot", r.Name, k)
					}
				}
			}
			if traces == 0 {
				t.Fatal("no counterexample to compare")
			}
		})
	}
}

// untimed drops a text report's timings: the elapsed time and the rate.
func untimed(report string) string {
	return timings.ReplaceAllString(report, "")
}

var timings = regexp.MustCompile(`(?m)^.*Elapsed time:.*$|[0-9.]+ states/s`)
