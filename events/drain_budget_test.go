package events

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

// TestDrainEvictionsAreMarked: a drain's evictions (Eviction API calls)
// and, with DisableEviction, its deletions carry model.MarkEvicted of the
// pod's deployment, as the descheduler's evictions do, so that the
// eviction-loop intents see them; a pod without a controller marks
// nothing.
func TestDrainEvictionsAreMarked(t *testing.T) {
	for _, disable := range []bool{false, true} {
		u, s := drainCluster(t, model.DrainOptions{DisableEviction: disable, Force: true})
		s.Pods[1].Owner = 0
		tx := model.NewTx(u)
		tx.Begin(nil, false)
		next := s.Clone()
		ForEvent(u, 0).Step(tx, next)
		if next.Pods[0].Phase != model.Terminating || next.Pods[1].Phase != model.Terminating {
			t.Fatalf("disableEviction=%v: want both pods gone:\n%s", disable, model.Describe(u, next))
		}
		if !slices.Equal(tx.Marks, []model.Mark{model.MarkEvicted(0)}) {
			t.Errorf("disableEviction=%v: marks %v, want %v (an eviction of web's pod, none for the bare pod)",
				disable, tx.Marks, model.MarkEvicted(0))
		}
	}
}

// TestDrainRoundMatchesEveryOrder: kubectl sends a node's evictions at
// once, so the API server may see them in any order. For random nodes of
// pods of three deployments (Running with two usages, or Pending) under
// random budgets, the drain's first step reaches exactly the evicted sets
// that some order of the evictions reaches, each checked against the
// evictions before it (model.Universe.CheckEviction), as multisets of pod
// contents.
func TestDrainRoundMatchesEveryOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 29))
	several := 0
	for i := range 300 {
		u, s := randomDrainRound(r)
		got := map[string]bool{}
		for _, o := range successors(u, s, ForEvent(u, 0)) {
			got[evictedKinds(s, o.state)] = true
		}
		var pods []int
		for p := range s.Pods {
			if s.Pods[p].NodeOf() == 0 && s.Pods[p].Active() {
				pods = append(pods, p)
			}
		}
		want := map[string]bool{}
		for _, order := range permutations(pods) {
			st := s.Clone()
			for _, p := range order {
				if u.CheckEviction(st, p).Outcome == model.EvictionAllowed {
					st.RequestDeletion(p)
				}
			}
			want[evictedKinds(s, st)] = true
		}
		if fmt.Sprint(sorted(got)) != fmt.Sprint(sorted(want)) {
			t.Fatalf("case %d: drain outcomes %v, every order %v\n%s", i, sorted(got), sorted(want), model.Describe(u, s))
		}
		if len(want) > 1 {
			several++
		}
	}
	t.Logf("%d of 300 rounds have more than one outcome", several)
	if several < 30 {
		t.Fatalf("only %d of 300 rounds have more than one outcome", several)
	}
}

func randomDrainRound(r *rand.Rand) (*model.Universe, *model.State) {
	b := build.New()
	b.AddNodes(2, build.Node().CPU(64).Mem(64))
	var deps []int
	for k := range 3 {
		tb := build.Template(fmt.Sprintf("t%d", k)).Requests(4, 4).Label("app", fmt.Sprintf("d%d", k))
		if k < 2 {
			tb.Label("tier", "web")
		}
		deps = append(deps, b.AddDeployment(fmt.Sprintf("d%d", k), b.AddTemplate(tb), 0))
	}
	count := make([]int, len(deps))
	for range 3 + r.IntN(4) {
		d := r.IntN(len(deps))
		count[d]++
		switch r.IntN(6) {
		case 0:
			b.PendingPod(deps[d], 0)
		case 1:
			b.RunPodCPU(deps[d], 0, 2)
		default:
			b.RunPod(deps[d], 0)
		}
	}
	// Replicas elsewhere keep some budgets open.
	for range r.IntN(3) {
		d := r.IntN(len(deps))
		count[d]++
		b.RunPod(deps[d], 1)
	}
	for range 1 + r.IntN(2) {
		sel := map[string]string{"app": fmt.Sprintf("d%d", r.IntN(len(deps)))}
		if r.IntN(3) == 0 {
			sel = map[string]string{"tier": "web"}
		}
		b.U.PDBs = append(b.U.PDBs, model.PodDisruptionBudget{Name: fmt.Sprintf("pdb%d", len(b.U.PDBs)),
			Selector: &model.Selector{MatchLabels: sel}, MaxUnavailable: &model.IntOrPercent{Value: r.IntN(3)}})
	}
	b.AddEvent(model.Event{Kind: model.Drain, Nodes: []int{0}})
	b.Slots = 12
	u, s := b.MustBuild()
	for d := range deps {
		s.Deps[d].Replicas = int16(count[d])
	}
	s.Init = InitialPhase(u)
	return u, s
}

// evictedKinds renders the pods active in s and terminating in st as a
// multiset of pod contents.
func evictedKinds(s, st *model.State) string {
	var parts []string
	for p := range s.Pods {
		if s.Pods[p].Active() && st.Pods[p].Phase == model.Terminating {
			parts = append(parts, fmt.Sprint(s.Pods[p]))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ";")
}

func sorted(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func permutations(xs []int) [][]int {
	if len(xs) <= 1 {
		return [][]int{slices.Clone(xs)}
	}
	var out [][]int
	for i := range xs {
		rest := slices.Delete(slices.Clone(xs), i, i+1)
		for _, p := range permutations(rest) {
			out = append(out, append([]int{xs[i]}, p...))
		}
	}
	return out
}
