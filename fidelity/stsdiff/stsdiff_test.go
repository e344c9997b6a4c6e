package stsdiff

import (
	"context"
	"flag"
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/fidelity/classify"
	"github.com/kivi-go/kivi/model"
)

var cases = flag.Int("cases", 5000, "random cases TestDifferential compares (rapid checks)")

// genCase draws a StatefulSet and its pods:
//   - replicas 0..6, spec.ordinals.start 0 (or 1..3 in one case of four),
//     OrderedReady or Parallel;
//   - OnDelete in one case of four, else RollingUpdate with partition 0
//     (half the cases) or 0..replicas, and in one case of three
//     maxUnavailable 1..3 or 10, 25, 50, 100 %;
//   - a Shape of its revisions (each of five equally likely);
//   - pods at a random subset (two in three) of the ordinals from 0 to
//     start+replicas+0..2 (below start, in range, above), each of v1 or,
//     where the Shape has two revisions, v2; Running (three in five),
//     Pending or Failed; Terminating in one of six; in one case of four,
//     a Running pod is not Ready in one of three.
func genCase(t *rapid.T) *Case {
	c := &Case{
		Replicas: rapid.IntRange(0, 6).Draw(t, "replicas"),
		Parallel: rapid.Bool().Draw(t, "parallel"),
		OnDelete: rapid.IntRange(0, 3).Draw(t, "onDelete") == 0,
		Shape:    Shape(rapid.IntRange(0, int(shapes)-1).Draw(t, "shape")),
	}
	if rapid.IntRange(0, 3).Draw(t, "startGiven") == 0 {
		c.Start = rapid.IntRange(1, 3).Draw(t, "start")
	}
	if !c.OnDelete {
		if rapid.Bool().Draw(t, "partitioned") {
			c.Partition = rapid.IntRange(0, c.Replicas).Draw(t, "partition")
		}
		if rapid.IntRange(0, 2).Draw(t, "maxUnavailableGiven") == 0 {
			v := model.IntOrPercent{Value: rapid.IntRange(1, 3).Draw(t, "maxUnavailable")}
			if rapid.Bool().Draw(t, "percent") {
				v = model.IntOrPercent{Value: rapid.SampledFrom([]int{10, 25, 50, 100}).Draw(t, "maxUnavailablePercent"), Percent: true}
			}
			c.MaxUnavailable = &v
		}
	}
	unready := rapid.IntRange(0, 3).Draw(t, "unreadyCase") == 0
	for o := range c.Start + c.Replicas + rapid.IntRange(0, 3).Draw(t, "above") {
		if rapid.IntRange(0, 2).Draw(t, "absent") == 0 {
			continue
		}
		p := Pod{Ordinal: o}
		if c.Shape.TwoRevisions() {
			p.Template = rapid.IntRange(0, 1).Draw(t, "template")
		}
		switch rapid.IntRange(0, 4).Draw(t, "phase") {
		case 0:
			p.Phase = Pending
		case 1:
			p.Phase = Failed
		default:
			p.Phase = Running
			p.Unready = unready && rapid.IntRange(0, 2).Draw(t, "unready") == 0
		}
		p.Terminating = rapid.IntRange(0, 5).Draw(t, "terminating") == 0
		c.Pods = append(c.Pods, p)
	}
	return c
}

// withChecks runs n rapid checks (classify.Checks).
func withChecks(t *testing.T, n int) { classify.Checks(t, n, 0) }

func newUpstream(t *testing.T) *Upstream {
	up := NewUpstream(context.Background())
	t.Cleanup(func() {
		if err := up.Close(); err != nil {
			t.Error(err)
		}
	})
	return up
}

// TestDifferential compares the model with the StatefulSetController on
// -cases random cases: every disagreement must belong to a known class;
// rapid shrinks an unexplained one. The counts are logged, with how many
// cases acted at all.
func TestDifferential(t *testing.T) {
	ctx := context.Background()
	up := newUpstream(t)
	withChecks(t, *cases)
	counts := map[string]int{}
	n, acted, created, deleted := 0, 0, 0, 0
	// kinds counts the cases of each kind and how many of them agree.
	kinds := map[string][2]int{}
	rapid.Check(t, func(t *rapid.T) {
		c := genCase(t)
		v, err := Check(ctx, up, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		if v.Class == Unexplained {
			t.Fatalf("unexplained disagreement\n%smodel:    %s\nupstream: %s", c, v.Model, v.Upstream)
		}
		n++
		counts[v.Class]++
		if len(v.Upstream.Created)+len(v.Upstream.Deleted) > 0 {
			acted++
		}
		created += len(v.Upstream.Created)
		deleted += len(v.Upstream.Deleted)
		for _, k := range c.kinds() {
			x := kinds[k]
			x[0]++
			if v.Class == Agree {
				x[1]++
			}
			kinds[k] = x
		}
	})
	t.Logf("%d cases: agree %d; upstream acted in %d (%d pods created, %d deleted)", n, counts[Agree], acted, created, deleted)
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		if k != Agree {
			t.Logf("  %s: %d", k, counts[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		t.Logf("  %s: %d cases, %d agree", k, kinds[k][0], kinds[k][1])
	}
}

// kinds names what a case exercises, for TestDifferential's breakdown.
func (c *Case) kinds() []string {
	k := []string{"shape " + c.Shape.String()}
	switch {
	case c.OnDelete:
		k = append(k, "OnDelete")
	case c.MaxUnavailable != nil:
		k = append(k, "RollingUpdate with maxUnavailable")
	default:
		k = append(k, "RollingUpdate")
	}
	if c.Partition > 0 {
		k = append(k, "partition > 0")
	}
	if c.Parallel {
		k = append(k, "Parallel")
	} else {
		k = append(k, "OrderedReady")
	}
	if c.Start > 0 {
		k = append(k, "ordinals.start > 0")
	}
	if slices.ContainsFunc(c.Pods, func(p Pod) bool { return p.Phase == Failed }) {
		k = append(k, "a Failed pod")
	}
	if slices.ContainsFunc(c.Pods, func(p Pod) bool { return p.Terminating }) {
		k = append(k, "a Terminating pod")
	}
	if slices.ContainsFunc(c.Pods, func(p Pod) bool { return p.Ordinal < c.Start || p.Ordinal >= c.Start+c.Replicas }) {
		k = append(k, "a condemned pod")
	}
	return k
}

// TestKnownClasses pins two agreements that took model fixes (under
// Parallel a Failed replica's deletion does not end the sync; the
// maxUnavailable path deletes that pod again and spends budget on it) and
// a minimal case of each class.
func TestKnownClasses(t *testing.T) {
	ctx := context.Background()
	up := newUpstream(t)
	two := model.IntOrPercent{Value: 2}
	for _, tc := range []struct {
		name string
		c    Case
		want string
		m    string
	}{
		{"Parallel: a Failed replica, then the condemned", Case{Replicas: 1, Parallel: true, OnDelete: true,
			Pods: []Pod{{Ordinal: 0, Phase: Failed}, {Ordinal: 3, Phase: Pending}}},
			Agree, "delete web-0, delete web-3"},
		{"maxUnavailable: the Failed replica deleted twice", Case{Replicas: 2, Start: 2, Parallel: true, MaxUnavailable: &two, Shape: Applied,
			Pods: []Pod{{Ordinal: 2, Phase: Running}, {Ordinal: 3, Phase: Failed}}},
			Agree, "delete web-3"},
		{"rollback below the partition", Case{Replicas: 1, Partition: 1, Shape: Rollback},
			RolledBack, "create web-0 v2"},
		{"OrderedReady waits for a Running pod that is not Ready", Case{Replicas: 2, Pods: []Pod{{Ordinal: 0, Phase: Running, Unready: true}}},
			Agree, "nothing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Check(ctx, up, &tc.c, nil)
			if err != nil {
				t.Fatal(err)
			}
			if v.Class != tc.want {
				t.Fatalf("class %q, want %q\n%smodel:    %s\nupstream: %s", v.Class, tc.want, &tc.c, v.Model, v.Upstream)
			}
			if got := v.Model.String(); got != tc.m {
				t.Fatalf("model %s, want %s", got, tc.m)
			}
		})
	}
}

// TestPlantedBugs: wrong models are judged unexplained on some of 1000
// random cases, so the test can fail: the partition, Parallel,
// spec.ordinals.start or maxUnavailable ignored.
func TestPlantedBugs(t *testing.T) {
	ctx := context.Background()
	up := newUpstream(t)
	spec := func(s *model.State, u *model.Universe) *model.StatefulSetSpec {
		return &u.Configs[s.Deps[0].Config].StatefulSet
	}
	planted := map[string]Plant{
		"partition ignored":      func(u *model.Universe, s *model.State) { spec(s, u).Partition = 0 },
		"Parallel ignored":       func(u *model.Universe, s *model.State) { spec(s, u).PodManagement = model.OrderedReady },
		"ordinals.start ignored": func(u *model.Universe, s *model.State) { spec(s, u).OrdinalsStart = 0 },
		"maxUnavailable ignored": func(u *model.Universe, s *model.State) { spec(s, u).MaxUnavailableSet = false },
	}
	gen := rapid.Custom(genCase)
	for _, name := range slices.Sorted(maps.Keys(planted)) {
		t.Run(name, func(t *testing.T) {
			found := 0
			for i := range 1000 {
				c := gen.Example(i)
				v, err := Check(ctx, up, c, planted[name])
				if err != nil {
					t.Fatal(err)
				}
				if v.Class == Unexplained {
					if found == 0 {
						t.Logf("first caught:\n%smodel:    %s\nupstream: %s", c, v.Model, v.Upstream)
					}
					found++
				}
			}
			if found == 0 {
				t.Fatal("the planted bug was never caught")
			}
			t.Logf("caught on %d of 1000 cases", found)
		})
	}
}
