package descheduler

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestWalkOutcomesMatchEveryOrder checks the plugins' branching against a
// plain re-enactment of upstream's loop: for random clusters, every order
// of the tied source nodes and of the pods within each class is walked
// one pod at a time (evict, subtract, test the condition), and the
// distinct results, as multisets of pods (identical pods are one kind),
// must be exactly the cycle's successors.
func TestWalkOutcomesMatchEveryOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := range 300 {
		u, s := randomNUCluster(r, i%2 == 0)
		got := map[string]bool{}
		for _, o := range outcomes(t, u, s) {
			got[kinds(s, o)] = true
		}
		want := map[string]bool{}
		for _, o := range bruteForce(u, s) {
			want[kinds(s, o)] = true
		}
		if fmt.Sprint(sortedKeys(got)) != fmt.Sprint(sortedKeys(want)) {
			t.Fatalf("case %d: cycle outcomes %v, every upstream order %v\n%s", i, sortedKeys(got), sortedKeys(want), Explain(u, s))
		}
	}
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// kinds renders evicted pods (printed numbers) as a multiset of pod
// contents.
func kinds(s *model.State, pods []int) string {
	var parts []string
	for _, p := range pods {
		parts = append(parts, fmt.Sprint(s.Pods[p-1]))
	}
	sort.Strings(parts)
	return strings.Join(parts, ";")
}

func randomNUCluster(r *rand.Rand, low bool) (*model.Universe, *model.State) {
	b := build.New()
	nodes := 2 + r.IntN(3)
	for n := range nodes {
		b.AddNodes(1, nuNode(fmt.Sprintf("n%d", n+1), 2000, 2000, 6+r.IntN(3)))
	}
	sizes := []int64{0, 200, 300, 500}
	var deps []int
	for k := range 3 {
		tb := build.Template(fmt.Sprintf("t%d", k)).Requests(sizes[r.IntN(len(sizes))], sizes[r.IntN(len(sizes))]).
			Priority(int32(10 * r.IntN(2)))
		deps = append(deps, b.AddDeployment(fmt.Sprintf("d%d", k), b.AddTemplate(tb), 0))
	}
	for range 3 + r.IntN(6) {
		b.RunPod(deps[r.IntN(len(deps))], r.IntN(nodes))
	}
	p := hnuProfile(thr(float64(10+r.IntN(30)), -1, -1))
	if low {
		p = lnuProfile(thr(float64(10+r.IntN(20)), -1, 20), thr(float64(30+r.IntN(30)), -1, 40))
		if r.IntN(3) == 0 {
			n := 1 + r.IntN(2)
			p.LowNodeUtilization.EvictionLimitNode = &n
		}
	}
	p.NodeFit = r.IntN(2) == 0
	b.U.Descheduler = policy(p)
	u, s := b.MustBuild()
	s.DeschedulerPending = true
	return u, s
}

// bruteForce walks every order upstream may take and returns the evicted
// pods (printed numbers) of each.
func bruteForce(u *model.Universe, s *model.State) [][]int {
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	c := newCycle(u, s.Clone(), tx, nil)
	p := &u.Descheduler.Profiles[0]
	var w *walk
	var sources []nodeUsage
	capture := func(pw *walk, src []nodeUsage) { w, sources = pw, src }
	if !planSetup(c, p, capture) {
		return [][]int{nil}
	}
	var out [][]int
	var rec func(rest []nodeUsage, avail resources, evicted []int)
	rec = func(rest []nodeUsage, avail resources, evicted []int) {
		if len(rest) == 0 {
			out = append(out, slices.Sorted(slices.Values(evicted)))
			return
		}
		// The next source is any of those of the first key.
		for i := range rest {
			if usageKey(&rest[i]) != usageKey(&rest[0]) {
				break
			}
			nu := rest[i]
			others := slices.Delete(slices.Clone(rest), i, i+1)
			pods, class := w.eligible(&nu)
			for _, order := range classOrders(pods, class) {
				a := avail
				used := nu.used
				var ev []int
				if len(pods) > 0 && w.cont(&nu, used, a) {
					for _, pod := range order {
						if w.nodeLimit >= 0 && len(ev) >= w.nodeLimit {
							break
						}
						req := c.podRequests(pod)
						for k := range nRes {
							used[k] -= req[k]
							a[k] -= req[k]
						}
						ev = append(ev, pod+1)
						if !w.cont(&nu, used, a) {
							break
						}
					}
				}
				rec(others, a, append(slices.Clone(evicted), ev...))
			}
		}
	}
	rec(sources, w.avail, nil)
	return out
}

// classOrders lists every order of pods that keeps each class (a run of
// equal class ranks) before the next.
func classOrders(pods []int, class []int) [][]int {
	out := [][]int{nil}
	for start := 0; start < len(pods); {
		end := start
		for end < len(pods) && class[end] == class[start] {
			end++
		}
		var next [][]int
		for _, a := range out {
			for _, b := range perms(pods[start:end]) {
				next = append(next, append(slices.Clone(a), b...))
			}
		}
		out, start = next, end
	}
	return out
}

func perms(xs []int) [][]int {
	if len(xs) <= 1 {
		return [][]int{slices.Clone(xs)}
	}
	var out [][]int
	for i := range xs {
		rest := slices.Delete(slices.Clone(xs), i, i+1)
		for _, p := range perms(rest) {
			out = append(out, append([]int{xs[i]}, p...))
		}
	}
	return out
}

// planSetup runs the profile's node-utilisation plugin's setup and hands
// the walk and its sorted sources to capture; false when it has nothing
// to do.
func planSetup(c *cycle, p *model.DeschedulerProfile, capture func(*walk, []nodeUsage)) bool {
	var w *walk
	var src []nodeUsage
	switch p.Balance[0] {
	case model.LowNodeUtilization:
		w, src = lowNodeUtilization{}.setup(c, p)
	case model.HighNodeUtilization:
		w, src = highNodeUtilization{}.setup(c, p)
	}
	if w == nil {
		return false
	}
	capture(w, src)
	return true
}
