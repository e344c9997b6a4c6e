package rsdiff

import (
	"flag"
	"slices"
	"sort"
	"sync"
	"testing"

	"github.com/kivi-go/kivi/fidelity/classify"
	v1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"k8s.io/kubernetes/pkg/controller"
)

var cases = flag.Int("cases", 10000, "random cases TestDifferential compares (rapid checks)")

// genCase draws a case: 1–3 nodes; 1–6 victim pods, 0–4 sibling pods
// (then the deployment has two ReplicaSets), 0–2 pods of another
// deployment, each unbound or on a node, a bound pod Pending or Running;
// in one case of four, a Running pod may be not Ready;
// delete 1..all victim pods. It also draws the order upstream lists the
// pods in.
func genCase(t *rapid.T) (*Case, []int) {
	c := &Case{Nodes: rapid.IntRange(1, 3).Draw(t, "nodes"), VictimSlot: rapid.IntRange(0, 1).Draw(t, "victimSlot")}
	unready := rapid.IntRange(0, 3).Draw(t, "unreadyCase") == 0
	counts := []int{rapid.IntRange(1, 6).Draw(t, "victims"), rapid.IntRange(0, 4).Draw(t, "siblings"), rapid.IntRange(0, 2).Draw(t, "others")}
	for set, n := range counts {
		for range n {
			p := Pod{Set: set, Node: rapid.IntRange(0, c.Nodes).Draw(t, "node")}
			if p.Node > 0 {
				p.Running = rapid.Bool().Draw(t, "running")
			}
			if p.Running && unready {
				p.Unready = rapid.IntRange(0, 2).Draw(t, "unready") == 0
			}
			c.Pods = append(c.Pods, p)
		}
	}
	// Shuffle the slots so that the sets interleave.
	perm := rapid.Permutation(c.Pods).Draw(t, "slots")
	c.Pods = perm
	c.Delete = rapid.IntRange(1, counts[Victim]).Draw(t, "delete")
	order := make([]int, len(c.Pods))
	for i := range order {
		order[i] = i
	}
	order = rapid.Permutation(order).Draw(t, "order")
	return c, order
}

// withChecks runs n rapid checks (classify.Checks).
func withChecks(t *testing.T, n int) { classify.Checks(t, n, 0) }

// TestDifferential compares the model with the ReplicaSet controller on
// -cases random cases: every disagreement must belong to a known class;
// rapid shrinks an unexplained one. The counts per class are logged.
func TestDifferential(t *testing.T) {
	withChecks(t, *cases)
	var mu sync.Mutex
	counts := map[Class]int{}
	branched := 0
	rapid.Check(t, func(t *rapid.T) {
		c, order := genCase(t)
		v, err := Check(c, getPodsToDelete, order)
		if err != nil {
			t.Fatal(err)
		}
		if v.Class == Unexplained {
			t.Fatalf("unexplained disagreement\n%s%s", c, v.Detail)
		}
		mu.Lock()
		counts[v.Class]++
		if v.Branches > 1 {
			branched++
		}
		mu.Unlock()
	})
	t.Logf("agree %d (of %d cases; the model branched over tied pods in %d)",
		counts[Agree], *cases, branched)
}

// TestKnownClasses pins a case where the model and upstream agree on a
// co-location pick, and one where they agree on deleting the pod that is
// not Ready first (once the class "unready Running pod").
func TestKnownClasses(t *testing.T) {
	identity := func(c *Case) []int {
		o := make([]int, len(c.Pods))
		for i := range o {
			o[i] = i
		}
		return o
	}
	for _, tc := range []struct {
		name string
		c    Case
		want Class
	}{
		{"co-location", Case{Nodes: 2, Delete: 1, Pods: []Pod{
			{Set: Victim, Node: 1, Running: true}, {Set: Sibling, Node: 1, Running: true}, {Set: Victim, Node: 2, Running: true},
		}}, Agree},
		{"unready", Case{Nodes: 2, Delete: 1, Pods: []Pod{
			{Set: Victim, Node: 1, Running: true}, {Set: Victim, Node: 1, Running: true}, {Set: Victim, Node: 2, Running: true, Unready: true},
		}}, Agree},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Check(&tc.c, getPodsToDelete, identity(&tc.c))
			if err != nil {
				t.Fatal(err)
			}
			if v.Class != tc.want {
				t.Fatalf("class %q, want %q: %s", v.Class, tc.want, v.Detail)
			}
		})
	}
}

// TestPlantedRankings: wrong rankings put in upstream's place are judged
// unexplained on some of 2000 random cases, so the test can fail.
func TestPlantedRankings(t *testing.T) {
	ranked := func(transform func(rank []int)) Ranker {
		return func(filtered, related []*v1.Pod, diff int) []*v1.Pod {
			onNode := map[string]int{}
			for _, p := range related {
				if controller.IsPodActive(p) {
					onNode[p.Spec.NodeName]++
				}
			}
			rank := make([]int, len(filtered))
			for i, p := range filtered {
				rank[i] = onNode[p.Spec.NodeName]
			}
			transform(rank)
			s := controller.ActivePodsWithRanks{Pods: slices.Clone(filtered), Rank: rank}
			sort.Sort(s)
			return s.Pods[:diff]
		}
	}
	planted := map[string]Ranker{
		"fewer co-located first": ranked(func(r []int) {
			for i := range r {
				r[i] = -r[i]
			}
		}),
		"co-location ignored": ranked(func(r []int) { clear(r) }),
		"Running before Pending": func(filtered, related []*v1.Pod, diff int) []*v1.Pod {
			swapped := func(ps []*v1.Pod) []*v1.Pod {
				out := make([]*v1.Pod, len(ps))
				for i, p := range ps {
					q := p.DeepCopy()
					switch q.Status.Phase {
					case v1.PodRunning:
						q.Status.Phase, q.Status.Conditions = v1.PodPending, nil
					case v1.PodPending:
						q.Status.Phase = v1.PodRunning
						q.Status.Conditions = []v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionTrue, LastTransitionTime: readyAt}}
					}
					out[i] = q
				}
				return out
			}
			got := getPodsToDelete(swapped(filtered), related, diff)
			var out []*v1.Pod
			for _, g := range got {
				for _, p := range filtered {
					if p.Name == g.Name {
						out = append(out, p)
					}
				}
			}
			return out
		},
	}
	gen := rapid.Custom(func(t *rapid.T) struct {
		c     *Case
		order []int
	} {
		c, order := genCase(t)
		return struct {
			c     *Case
			order []int
		}{c, order}
	})
	for name, rank := range planted {
		t.Run(name, func(t *testing.T) {
			found := 0
			for i := range 2000 {
				x := gen.Example(i)
				v, err := Check(x.c, rank, x.order)
				if err != nil {
					t.Fatal(err)
				}
				if v.Class == Unexplained {
					if found == 0 {
						t.Logf("first caught:\n%s%s", x.c, v.Detail)
					}
					found++
				}
			}
			if found == 0 {
				t.Fatal("the planted ranking was never caught")
			}
			t.Logf("caught on %d of 2000 cases", found)
		})
	}
}
