package scheduler

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestReprievalAgreesWithEveryOrder compares the reprieval search over
// counts per class of identical pods with the reference that runs
// SelectVictimsOnNode on every order of the equal-priority victims: both
// must find the same outcomes (victims per class and budget violations).
// The clusters mix priorities, budgets that run out part-way, pods bound
// but not started, and filters for which more pods present can help
// (inter-pod affinity) or hurt (anti-affinity, topology spread, resources).
func TestReprievalAgreesWithEveryOrder(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		u, s, pod := reprievalCluster(rt)
		pe := preemption{u: u, s: s, pod: pod, prio: u.PodPriority(s, pod), c: new(cycle)}
		pe.pdbs = make([]int, len(u.PDBs))
		for b := range u.PDBs {
			pe.pdbs[b] = u.Disruption(s, b).DisruptionsAllowed
		}
		for n := range u.Nodes {
			sets, reason, over := pe.selectVictims(n)
			refSets, refReason, refOver := pe.refSelectVictims(n)
			if over || refOver {
				rt.Fatalf("node %d: bound reached (%v, reference %v)", n, over, refOver)
			}
			if reason != refReason {
				rt.Fatalf("node %d: reason %q, reference %q", n, reason, refReason)
			}
			got, want := outcomesByClass(s, sets), outcomesByClass(s, refSets)
			if !slices.Equal(got, want) {
				rt.Fatalf("node %d: outcomes\n%v\nreference\n%v", n, got, want)
			}
		}
	})
}

// outcomesByClass renders victim sets up to the choice among identical
// pods: per set, its victims' (template, node, phase, count) and its
// violations, sorted.
func outcomesByClass(s *model.State, sets []victimSet) []string {
	var out []string
	for _, vs := range sets {
		counts := map[model.PodState]int{}
		for _, v := range vs.victims {
			counts[s.Pods[v]]++
		}
		var parts []string
		for p, k := range counts {
			parts = append(parts, fmt.Sprintf("t%d/n%d/%v×%d", p.Template, p.Node, p.Phase, k))
		}
		slices.Sort(parts)
		out = append(out, fmt.Sprintf("%v violations=%d highest=%d sum=%d", parts, vs.violations, vs.highest, vs.sum))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// reprievalCluster draws one or two nodes full of pods of up to three
// low-priority deployments, up to two budgets, and a pending pod of
// priority 100 that may need some of them gone; it returns the pending
// pod's slot.
func reprievalCluster(rt *rapid.T) (*model.Universe, *model.State, int) {
	b := build.New()
	nodes := rapid.IntRange(1, 2).Draw(rt, "nodes")
	b.AddNodes(nodes, build.Node().CPU(16).Mem(16).MaxPods(rapid.IntRange(4, 12).Draw(rt, "maxPods")).Zone("a"))
	kinds := rapid.IntRange(1, 3).Draw(rt, "deployments")
	var deps []int
	for k := range kinds {
		name := fmt.Sprint("low", k)
		tb := build.Template(name).Label("app", name).
			Requests(rapid.Int64Range(1, 6).Draw(rt, name+".cpu"), rapid.Int64Range(0, 4).Draw(rt, name+".mem")).
			Priority(rapid.SampledFrom([]int32{0, 5}).Draw(rt, name+".priority"))
		deps = append(deps, b.AddDeployment(name, b.AddTemplate(tb), 0))
	}
	high := build.Template("high").Label("app", "high").Priority(100).
		Requests(rapid.Int64Range(1, 16).Draw(rt, "high.cpu"), rapid.Int64Range(0, 8).Draw(rt, "high.mem"))
	switch rapid.IntRange(0, 3).Draw(rt, "constraint") {
	case 1:
		high.PodAffinity("kubernetes.io/hostname", "app", "low0")
	case 2:
		high.PodAntiAffinity("kubernetes.io/hostname", "app", "low1")
	case 3:
		high.Spread(1, "kubernetes.io/hostname", model.DoNotSchedule)
	}
	hd := b.AddDeployment("high", b.AddTemplate(high), 1)
	for n := range nodes {
		for range rapid.IntRange(0, 7).Draw(rt, fmt.Sprint("pods", n)) {
			d := deps[rapid.IntRange(0, kinds-1).Draw(rt, "deployment")]
			if rapid.IntRange(0, 4).Draw(rt, "pending") == 0 {
				b.PendingPod(d, n)
			} else {
				b.RunPod(d, n)
			}
		}
	}
	for i := range rapid.IntRange(0, 2).Draw(rt, "budgets") {
		app := fmt.Sprint("low", rapid.IntRange(0, kinds-1).Draw(rt, "budget.app"))
		b.U.PDBs = append(b.U.PDBs, model.PodDisruptionBudget{Name: fmt.Sprint("pdb", i),
			Selector:     &model.Selector{MatchLabels: map[string]string{"app": app}},
			MinAvailable: &model.IntOrPercent{Value: rapid.IntRange(0, 4).Draw(rt, "budget.minAvailable")}})
	}
	b.PendingPod(hd, -1)
	u, s, err := b.Build(0)
	if err != nil {
		rt.Fatal(err)
	}
	pod := -1
	for i := range s.Pods {
		if s.Pods[i].Phase != model.Free {
			pod = i
		}
	}
	return u, s, pod
}

// TestReprievalWithPodAffinity: a pod whose required pod affinity only
// potential victims satisfy is no candidate for preemption on their node
// (upstream checks the pod with every potential victim gone first), and
// where a pod of its own priority satisfies it, putting victims back
// cannot make it fail: the filters stay monotone, which the search over
// counts relies on.
func TestReprievalWithPodAffinity(t *testing.T) {
	for _, keeper := range []bool{false, true} {
		b := build.New()
		b.AddNodes(1, build.Node().CPU(4).Mem(16))
		low0 := b.AddDeployment("low0", b.AddTemplate(build.Template("low0").Label("app", "low0").Requests(1, 1)), 0)
		low1 := b.AddDeployment("low1", b.AddTemplate(build.Template("low1").Label("app", "low1").Requests(2, 1).Priority(5)), 0)
		peer := b.AddDeployment("peer", b.AddTemplate(build.Template("peer").Label("app", "low0").Requests(1, 1).Priority(100)), 0)
		high := b.AddDeployment("high", b.AddTemplate(build.Template("high").Priority(100).Requests(2, 1).
			PodAffinity("kubernetes.io/hostname", "app", "low0")), 1)
		b.RunPod(low0, 0).RunPod(low1, 0)
		if keeper {
			b.RunPod(peer, 0)
		}
		b.PendingPod(high, -1)
		u, s := b.MustBuild()
		pod := 2
		if keeper {
			pod = 3
		}
		pe := preemption{u: u, s: s, pod: pod, prio: 100, c: new(cycle)}
		sets, reason, _ := pe.selectVictims(0)
		var want []string
		if keeper {
			// 4 cpu: peer (1) and the pod (2) leave room for low0, not low1.
			want = []string{"[t1/n1/Running×1] violations=0 highest=5 sum=2147483653"}
		} else if reason != "node(s) didn't match pod affinity rules" {
			t.Errorf("without a keeper: reason %q", reason)
		}
		if got := outcomesByClass(s, sets); !slices.Equal(got, want) {
			t.Fatalf("keeper %v: outcomes %v, want %v", keeper, got, want)
		}
		ref, refReason, _ := pe.refSelectVictims(0)
		if got := outcomesByClass(s, ref); !slices.Equal(got, want) || refReason != reason {
			t.Fatalf("keeper %v: reference %v %q", keeper, got, refReason)
		}
	}
}
