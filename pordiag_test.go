package kivi_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/model"
)

// TestPORDiag is a diagnostic, skipped unless KIVI_PORDIAG names an input
// (manifest.yaml,intents.yaml[,states] or case:cN[:scale][,states];
// KIVI_PORDIAG_WALKS=1 samples random runs instead of the first states
// breadth first). At every state with two or more enabled actors it
// counts the closure edges that take actors into the stubborn sets, and
// checks each pair of enabled actors on the states themselves: x may be
// in a stubborn set without y only if y's step keeps x enabled and every
// run "y then x" is a run "x then y" (the first step of conditions D1 and
// D2). A pair failing both ways is dependent whatever the footprints say
// (docs/reductions.md, "On generated inputs").
func TestPORDiag(t *testing.T) {
	spec := os.Getenv("KIVI_PORDIAG")
	if spec == "" {
		t.Skip("KIVI_PORDIAG unset")
	}
	parts := strings.Split(spec, ",")
	var p *compose.Problem
	var err error
	limit := 20000
	if strings.HasPrefix(parts[0], "case:") {
		var c *kivi.Cluster
		f := strings.Split(strings.TrimPrefix(parts[0], "case:"), ":")
		scale := 3
		if len(f) > 1 {
			fmt.Sscan(f[1], &scale)
		}
		c, err = kivi.LoadCase(f[0], scale, false)
		if err != nil {
			t.Fatal(err)
		}
		p, err = kivi.NewProblem(c, kivi.Options{})
		if len(parts) > 1 {
			fmt.Sscan(parts[1], &limit)
		}
	} else {
		read := func(n string) kivi.InputFile {
			b, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			return kivi.InputFile{Name: filepath.Base(n), Data: b}
		}
		ms := []kivi.InputFile{read(parts[0])}
		in := read(parts[1])
		c, _, err := kivi.LoadManifests(ms, nil, &in)
		if err != nil {
			t.Fatal(err)
		}
		p, err = kivi.NewProblem(c, kivi.Options{})
		if len(parts) > 2 {
			fmt.Sscan(parts[2], &limit)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	sys, r := p.System, p.System.Reduction
	if r == nil {
		t.Fatal("no reduction")
	}
	names := make([]string, len(sys.Actors))
	for i, a := range sys.Actors {
		names[i] = a.Process.Name()
	}
	t.Logf("actors: %v", names)
	edge := map[string]int{}
	visStart := map[string]int{}
	visPulled := map[string]int{}
	enabledSets := map[string]int{}
	multi, reducible := 0, 0
	single := map[string]int{}
	commute := map[string]int{}
	singleSucc := map[string]int{}
	singleN := map[string]int{}
	A := len(sys.Actors)
	walk := forStatesDiag
	if os.Getenv("KIVI_PORDIAG_WALKS") != "" {
		walk = walksDiag
	}
	walk(sys, limit, func(s *model.State) {
		if s.Failed != model.NoFailure {
			return
		}
		enabled := make([]bool, A)
		visible := make([]bool, A)
		n := 0
		sys.Next(s, func(st checker.Step, t2 *model.State) {
			a := int(st.Actor)
			if !enabled[a] {
				enabled[a] = true
				n++
			}
			if t2.Failed != s.Failed || t2.FailedArg != s.FailedArg {
				visible[a] = true
			}
		})
		succs := 0
		sys.Next(s, func(checker.Step, *model.State) { succs++ })
		qs := ""
		for q := model.Queue(0); q < model.NumQueues; q++ {
			if !s.Empty(q) {
				qs += q.String() + " "
			}
		}
		if n < 2 {
			for i := range A {
				if enabled[i] {
					single[fmt.Sprintf("%s atomic=%d queues=[%s]", names[i], s.Atomic, qs)]++
					singleSucc[names[i]] += succs
					singleN[names[i]]++
				}
			}
			return
		}
		multi++
		var en []string
		for i := range A {
			if enabled[i] {
				en = append(en, names[i])
			}
		}
		enabledSets[strings.Join(en, "+")]++
		succ := map[int][]*model.State{}
		sys.Next(s, func(st checker.Step, t2 *model.State) {
			succ[int(st.Actor)] = append(succ[int(st.Actor)], t2.Clone())
		})
		for x := range A {
			for y := x + 1; y < A; y++ {
				if !enabled[x] || !enabled[y] {
					continue
				}
				key := names[x] + "|" + names[y]
				xy, okx := composedDiag(sys, succ[x], y)
				yx, oky := composedDiag(sys, succ[y], x)
				// x may be stubborn without y only if y's step keeps x
				// enabled (D2) and every y;x run has an x;y match (D1).
				xAlone := oky && subsetDiag(yx, xy)
				yAlone := okx && subsetDiag(xy, yx)
				var why string
				switch {
				case !okx && !oky:
					why = "each disables the other"
				case !okx:
					why = names[x] + " disables " + names[y]
				case !oky:
					why = names[y] + " disables " + names[x]
				case !xAlone || !yAlone:
					why = "results differ in " + diffDiag(sys, xy, yx)
				}
				if xAlone || yAlone {
					commute[fmt.Sprintf("%s: ONE-STEP D1/D2 HOLD (%s alone %v, %s alone %v) %s", key, names[x], xAlone, names[y], yAlone, why)]++
				} else {
					commute[key+": dependent: "+why]++
				}
			}
		}
		stepR := make([]model.Footprint, A)
		stepW := make([]model.Footprint, A)
		for i := range A {
			if enabled[i] {
				stepR[i], stepW[i] = r.StepFootprint(i, s)
			}
		}
		ok := false
		for start := range A {
			if !enabled[start] {
				continue
			}
			if visible[start] {
				visStart[names[start]]++
				continue
			}
			inT := make([]bool, A)
			inT[start] = true
			stack := []int{start}
			in := 1
			failed := false
		loop:
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				var d model.Footprint
				if !enabled[x] {
					d = r.DisabledBy(x, s)
				}
				for y := range A {
					if inT[y] {
						continue
					}
					ry, wy := r.StaticFootprint(y)
					var why string
					if enabled[x] {
						rx, wx := stepR[x], stepW[x]
						var c model.Footprint
						switch {
						case wx.Intersects(ry):
							c = and(wx, ry)
							why = "w/r " + comps(sys.U, c)
						case wx.Intersects(wy):
							c = and(wx, wy)
							why = "w/w " + comps(sys.U, c)
						case rx.Intersects(wy):
							c = and(rx, wy)
							why = "r/w " + comps(sys.U, c)
						default:
							continue
						}
					} else {
						if !d.Intersects(wy) {
							continue
						}
						why = "disabledBy " + comps(sys.U, and(d, wy))
					}
					tag := "dis"
					if enabled[y] {
						tag = "EN"
					}
					edge[fmt.Sprintf("%s -> %s(%s): %s", names[x], names[y], tag, why)]++
					if enabled[y] {
						if visible[y] {
							visPulled[names[y]]++
							failed = true
							break loop
						}
						in++
					}
					inT[y] = true
					stack = append(stack, y)
				}
			}
			if !failed && in < n {
				ok = true
			}
		}
		if ok {
			reducible++
		}
	})
	t.Logf("states with >=2 enabled: %d, reducible: %d", multi, reducible)
	dump := func(title string, m map[string]int, k int) {
		type kv struct {
			k string
			v int
		}
		var l []kv
		for a, b := range m {
			l = append(l, kv{a, b})
		}
		sort.Slice(l, func(i, j int) bool { return l[i].v > l[j].v })
		t.Logf("== %s", title)
		for i, e := range l {
			if i >= k {
				break
			}
			t.Logf("  %7d %s", e.v, e.k)
		}
	}
	dump("single enabled", single, 25)
	dump("single successors", singleSucc, 15)
	dump("single states", singleN, 15)
	dump("enabled sets", enabledSets, 15)
	dump("pairs at state level", commute, 30)
	dump("visible start", visStart, 10)
	dump("visible pulled in", visPulled, 10)
	dump("edges", edge, 40)
}

func and(a, b model.Footprint) model.Footprint {
	var c model.Footprint
	for i := range a {
		c[i] = a[i] & b[i]
	}
	return c
}

func comps(u *model.Universe, f model.Footprint) string {
	var out []string
	g := []string{"qSched", "qKubelet", "qDeploy", "qHPA", "qNodeCtl", "qTaint", "init", "atomic", "deschedPending", "failed", "monitors", "pool", "marks", "active"}
	for i, n := range g {
		if f[0]&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	if f[0]>>16 != 0 {
		out = append(out, "events")
	}
	if f[1] != 0 {
		out = append(out, "deps")
	}
	if f[2] != 0 || f[3] != 0 {
		out = append(out, "nodes")
	}
	if f[4] != 0 {
		out = append(out, "readiness")
	}
	return strings.Join(out, ",")
}

func forStatesDiag(sys *compose.System, limit int, f func(*model.State)) {
	seen := map[string]bool{}
	var queue []*model.State
	sys.Initial(func(x *model.State) { queue = append(queue, x.Clone()) })
	seen[string(sys.AppendEncoding(nil, queue[0]))] = true
	for len(queue) > 0 && len(seen) <= limit {
		s := queue[0]
		queue = queue[1:]
		f(s)
		sys.Next(s, func(_ checker.Step, t *model.State) {
			var k string
			if sys.Symmetry != nil {
				k = string(sys.Symmetry.AppendCanonical(nil, t))
			} else {
				k = string(sys.AppendEncoding(nil, t))
			}
			if !seen[k] {
				seen[k] = true
				queue = append(queue, t.Clone())
			}
		})
	}
	fmt.Println("explored", len(seen), "states,", len(queue), "left unexpanded")
}

func composedDiag(sys *compose.System, from []*model.State, a int) (map[string]*model.State, bool) {
	out := map[string]*model.State{}
	for _, t := range from {
		n := 0
		sys.Next(t, func(st checker.Step, u *model.State) {
			if int(st.Actor) == a {
				n++
				k := string(sys.AppendEncoding(nil, u))
				if sys.Symmetry != nil {
					k = string(sys.Symmetry.AppendCanonical(nil, u))
				}
				out[k] = u.Clone()
			}
		})
		if n == 0 {
			return nil, false
		}
	}
	return out, true
}

func subsetDiag(a, b map[string]*model.State) bool {
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}

// diffDiag names the components in which some state of a without a match
// in b differs from its nearest state of b.
func diffDiag(sys *compose.System, a, b map[string]*model.State) string {
	best := ""
	for k, x := range a {
		if _, ok := b[k]; ok {
			continue
		}
		for _, y := range b {
			c := comps(sys.U, model.Changed(sys.U, x, y))
			if best == "" || len(c) < len(best) {
				best = c
			}
		}
	}
	if best == "" {
		return "count"
	}
	return best
}

// walksDiag calls f on the distinct states of random runs (each to its end
// or 2000 steps) until limit states were seen: every phase of a run is
// sampled, not only the first levels.
func walksDiag(sys *compose.System, limit int, f func(*model.State)) {
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	runs := 0
	for len(seen) < limit && runs < 100000 {
		runs++
		var s *model.State
		sys.Initial(func(x *model.State) { s = x.Clone() })
		for range 2000 {
			k := string(sys.AppendEncoding(nil, s))
			if sys.Symmetry != nil {
				k = string(sys.Symmetry.AppendCanonical(nil, s))
			}
			if !seen[k] {
				seen[k] = true
				f(s)
			}
			var succ []*model.State
			sys.Next(s, func(_ checker.Step, t *model.State) { succ = append(succ, t.Clone()) })
			if len(succ) == 0 {
				break
			}
			s = succ[rng.IntN(len(succ))]
		}
	}
	fmt.Println("walked", runs, "runs,", len(seen), "states")
}
