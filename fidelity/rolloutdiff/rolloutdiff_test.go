package rolloutdiff

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

var cases = flag.Int("cases", 2000, "random cases TestDifferential compares (rapid checks)")

// genCase draws a deployment mid-rollout: the strategy (Recreate in one
// case of six) and fenceposts (integers 0..3 or 0, 10, 25, 50, 100 %),
// the desired-replicas annotation 1..8 and a spec.replicas 0..10 (equal
// to it in one case of four: no scaling event), and the sets:
//   - two sets, the old one and the one of the deployment's template
//     (new), in either slot; in one case of four the new set is the older
//     (a rollback);
//   - in one case of six, two old sets and a new template with no set yet;
//   - in one case of six, a third, oldest set merged into a slot in the
//     model.
//
// Each set has 0..8 replicas, of which 0..all are available, and a
// max-replicas annotation of desired-replicas + the maxSurge resolved at
// it, or in one case of four another surge 0..4 (a configuration applied
// since).
//
// One case in four is paused (spec.paused), reshaped by genPaused.
func genCase(t *rapid.T) *Case {
	fence := func(label string) model.IntOrPercent {
		if rapid.Bool().Draw(t, label+"Percent") {
			return model.IntOrPercent{Value: rapid.SampledFrom([]int{0, 10, 25, 50, 100}).Draw(t, label), Percent: true}
		}
		return model.IntOrPercent{Value: rapid.IntRange(0, 3).Draw(t, label)}
	}
	c := &Case{
		Recreate:       rapid.IntRange(0, 5).Draw(t, "recreate") == 0,
		MaxSurge:       fence("maxSurge"),
		MaxUnavailable: fence("maxUnavailable"),
		Desired:        rapid.IntRange(1, 8).Draw(t, "desired"),
	}
	c.Spec = rapid.IntRange(0, 10).Draw(t, "spec")
	if rapid.IntRange(0, 3).Draw(t, "noScalingEvent") == 0 {
		c.Spec = c.Desired
	}
	cfg := model.DeploymentConfig{MaxSurge: c.MaxSurge}
	if c.Recreate {
		cfg.Strategy = model.Recreate
	}
	set := func(template, slot int) Set {
		s := Set{Template: template, Slot: slot, Replicas: rapid.IntRange(0, 8).Draw(t, "replicas")}
		s.Available = rapid.IntRange(0, s.Replicas).Draw(t, "available")
		s.MaxReplicas = c.Desired + model.MaxSurge(&cfg, c.Desired)
		if rapid.IntRange(0, 3).Draw(t, "staleMax") == 0 {
			s.MaxReplicas = c.Desired + rapid.IntRange(0, 4).Draw(t, "otherSurge")
		}
		return s
	}
	newSlot := rapid.IntRange(0, 1).Draw(t, "newSlot")
	switch shape := rapid.IntRange(0, 5).Draw(t, "shape"); shape {
	case 0:
		// A new template without its set: two old sets, the current slot
		// holding the one that had the template last.
		c.Template = 2
		c.Sets = []Set{set(0, 1-newSlot), set(1, newSlot)}
		c.Current = newSlot
		if rapid.IntRange(0, 3).Draw(t, "rolledBack") == 0 {
			c.Current = 1 - newSlot
		}
	default:
		c.Template = 1
		old, cur := set(0, 1-newSlot), set(1, newSlot)
		c.Sets = []Set{old, cur}
		if rapid.IntRange(0, 3).Draw(t, "rollback") == 0 {
			c.Sets = []Set{cur, old}
		}
		c.Current = newSlot
		if shape == 1 {
			c.Sets = append([]Set{set(3, rapid.IntRange(0, 1).Draw(t, "mergedSlot"))}, c.Sets...)
		}
	}
	if c.Paused = rapid.IntRange(0, 3).Draw(t, "paused") == 0; c.Paused {
		genPaused(t, c, set, newSlot)
	}
	return c
}

// genPaused reshapes a paused case: no set (created paused), one set of
// an older template (changed while paused), a saturated new set, every
// set inactive (scaled to 0 while paused; in one case of two with a new
// template that has no set), or the sets as drawn with the model's
// current slot on the other set in one case of two (the template set
// back to that set's while paused).
func genPaused(t *rapid.T, c *Case, set func(template, slot int) Set, newSlot int) {
	switch rapid.IntRange(0, 4).Draw(t, "pausedShape") {
	case 0:
		c.Template, c.Sets, c.Current = 1, nil, newSlot
	case 1:
		c.Template, c.Sets, c.Current = 1, []Set{set(0, newSlot)}, newSlot
	case 2:
		if c.Template != 1 || c.Spec == 0 {
			return
		}
		c.Desired = c.Spec
		for i := range c.Sets {
			if s := &c.Sets[i]; s.Template == 1 {
				s.Replicas, s.Available = c.Spec, c.Spec
			} else if s.Replicas == 0 {
				s.Replicas = 1
			}
		}
	case 3:
		if rapid.Bool().Draw(t, "noSetOfTemplate") {
			c.Template = 2
		}
		for i := range c.Sets {
			c.Sets[i].Replicas, c.Sets[i].Available = 0, 0
		}
	case 4:
		if rapid.Bool().Draw(t, "setBack") {
			c.Current = 1 - c.Current
		}
	}
}

// withChecks runs n rapid checks (classify.Checks).
func withChecks(t *testing.T, n int) { classify.Checks(t, n, 0) }

// TestDifferential compares the model with the DeploymentController on
// -cases random cases: every disagreement must belong to a known class;
// rapid shrinks an unexplained one. The counts are logged, with how many
// cases were scaling events.
func TestDifferential(t *testing.T) {
	ctx := context.Background()
	up, err := NewUpstream(ctx)
	if err != nil {
		t.Fatal(err)
	}
	withChecks(t, *cases)
	counts := map[Class]int{}
	scalingEvents, proportional, proportionalAgree := 0, 0, 0
	paused, pausedAgree := 0, 0
	bounded := 0
	rapid.Check(t, func(t *rapid.T) {
		c := genCase(t)
		v, err := Check(ctx, up, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		if v.Class == Unexplained {
			t.Fatalf("unexplained disagreement\n%smodel:    %s\nupstream: %s", c, v.Model, v.Upstream)
		}
		counts[v.Class]++
		// A run's default never disagrees silently: a case the model
		// holds without merging either agrees as with the option, or
		// reaches the bound of ReplicaSet revisions where the option
		// would merge (an empty set the model overwrites aside).
		if !c.merged() {
			r, bound, err := c.ModelAsRun()
			switch {
			case err != nil:
				t.Fatal(err)
			case bound:
				bounded++
			case v.Class != Agree && !sameButEmptySets(r, v.Upstream):
				t.Fatalf("the run's default disagrees (%s) without reaching the bound\n%smodel:    %s\nupstream: %s", v.Class, c, r, v.Upstream)
			case !maps.Equal(r, v.Model):
				t.Fatalf("the run's default differs from MergeOldRevisions without a merge\n%sdefault: %s\nmerged:  %s", c, r, v.Model)
			}
		}
		if c.Paused {
			paused++
			if v.Class == Agree {
				pausedAgree++
			}
		}
		if c.scalingEvent() {
			scalingEvents++
			if c.activeSets() > 1 && !c.Recreate {
				proportional++
				if v.Class == Agree {
					proportionalAgree++
				}
			}
		}
	})
	t.Logf("agree %d, %s %d (of %d cases; %d scaling events, %d of them with two or more active RollingUpdate sets: %d agree; %d paused: %d agree); "+
		"with a run's default options, %d of the cases held in two slots reach the bound of ReplicaSet revisions, the others agree (empty sets aside)",
		counts[Agree], ThirdRevision, counts[ThirdRevision], *cases, scalingEvents, proportional, proportionalAgree, paused, pausedAgree, bounded)
}

// sameButEmptySets: m and up agree but for ReplicaSets of 0 replicas
// that one of them has and the other does not (the model overwrites a
// slot whose set has neither replicas nor pods, which no controller acts
// on; upstream keeps the empty set as revision history).
func sameButEmptySets(m, up Result) bool {
	for k, o := range m {
		if up[k] != o {
			return false
		}
	}
	for k, o := range up {
		if _, ok := m[k]; !ok && o != (Out{}) {
			return false
		}
	}
	return true
}

// scalingEvent: some set is active and spec.replicas is not the
// desired-replicas annotation.
func (c *Case) scalingEvent() bool { return c.activeSets() > 0 && c.Spec != c.Desired }

func (c *Case) activeSets() int {
	n := 0
	for _, s := range c.Sets {
		if s.Replicas > 0 {
			n++
		}
	}
	return n
}

// TestKnownClasses pins an agreement on proportional scaling during a
// rollout (sync_test.go's "proportional scaling: 5 -> 10" with max-replicas
// 5: the old set of 3 becomes 6, the new set of 2 becomes 4), a rollback's
// creation order deciding the leftover, two paused syncs (the rounding
// leftover of a sync that is no scaling event; a changed template not
// rolled out) and the minimal third revision.
func TestKnownClasses(t *testing.T) {
	ctx := context.Background()
	up, err := NewUpstream(ctx)
	if err != nil {
		t.Fatal(err)
	}
	one := model.IntOrPercent{Value: 1}
	zero := model.IntOrPercent{}
	for _, tc := range []struct {
		name string
		c    Case
		want Class
		m    Result
	}{
		{"proportional 5 -> 10", Case{MaxSurge: zero, MaxUnavailable: one, Template: 1, Spec: 10, Desired: 5, Current: 1,
			Sets: []Set{{Template: 0, Replicas: 3, Available: 3, MaxReplicas: 5}, {Template: 1, Replicas: 2, MaxReplicas: 5, Slot: 1}}},
			Agree, Result{0: {6, 10, 10}, 1: {4, 10, 10}}},
		{"rollback: the leftover of equal sets to the newer, the old one", Case{MaxSurge: zero, MaxUnavailable: one, Template: 1, Spec: 3, Desired: 2,
			Sets: []Set{{Template: 1, Replicas: 1, MaxReplicas: 2}, {Template: 0, Replicas: 1, MaxReplicas: 2, Slot: 1}}},
			Agree, Result{0: {2, 3, 3}, 1: {1, 3, 3}}},
		{"paused mid-rollout: the leftover to the larger set", Case{Paused: true, MaxSurge: one, MaxUnavailable: zero, Template: 1, Spec: 4, Desired: 4, Current: 1,
			Sets: []Set{{Template: 0, Replicas: 3, Available: 3, MaxReplicas: 5}, {Template: 1, Replicas: 1, MaxReplicas: 5, Slot: 1}}},
			Agree, Result{0: {4, 4, 5}, 1: {1, 4, 5}}},
		{"paused, template changed: the old set scaled, none created", Case{Paused: true, MaxSurge: one, MaxUnavailable: zero, Template: 1, Spec: 5, Desired: 3,
			Sets: []Set{{Template: 0, Replicas: 3, Available: 3, MaxReplicas: 4}}},
			Agree, Result{0: {5, 5, 6}}},
		{"third revision", Case{MaxSurge: one, MaxUnavailable: zero, Template: 1, Spec: 4, Desired: 3, Current: 1,
			Sets: []Set{{Template: 3, Replicas: 1, MaxReplicas: 4}, {Template: 0, Replicas: 2, MaxReplicas: 4}, {Template: 1, Replicas: 1, MaxReplicas: 4, Slot: 1}}},
			ThirdRevision, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Check(ctx, up, &tc.c, nil)
			if err != nil {
				t.Fatal(err)
			}
			if v.Class != tc.want {
				t.Fatalf("class %q, want %q\n%smodel:    %s\nupstream: %s", v.Class, tc.want, &tc.c, v.Model, v.Upstream)
			}
			if tc.m != nil && !maps.Equal(v.Model, tc.m) {
				t.Fatalf("model %s, want %s", v.Model, tc.m)
			}
		})
	}
}

// TestPlantedBugs: wrong models are judged unexplained on some of 1000
// random cases, so the test can fail: the rollout absorbing a scale (no
// scaling event, the model before proportional scaling), proportions read
// from the current maxSurge instead of the max-replicas annotations,
// equal sets ordered without their creation times, and spec.paused
// ignored (the model before paused Deployments).
func TestPlantedBugs(t *testing.T) {
	ctx := context.Background()
	up, err := NewUpstream(ctx)
	if err != nil {
		t.Fatal(err)
	}
	planted := map[string]Plant{
		"no scaling event": func(u *model.Universe, s *model.State) {
			ds := &s.Deps[0]
			a := ds.Annotations(u)
			a.Desired = max(0, int(ds.Replicas))
			ds.SetAnnotations(u, a)
		},
		"max-replicas ignored":   func(_ *model.Universe, s *model.State) { s.Deps[0].MaxReplicas = [2]int16{} },
		"creation order ignored": func(_ *model.Universe, s *model.State) { s.Deps[0].NewRSOlder = false },
		"paused ignored":         func(_ *model.Universe, s *model.State) { s.Deps[0].Paused = false },
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
