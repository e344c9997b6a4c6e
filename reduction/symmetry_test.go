package reduction_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/reduction/symmetry"
	"github.com/kivi-go/kivi/scaling"
)

// Tests of node and pod-slot symmetry reduction (reduction/symmetry plugged
// into compose.System): the canonical form is invariant under the
// permutations it claims, never merges states that are not permutations
// of each other, commutes with the transition relation, and leaves every
// verdict and shortest counterexample length unchanged.

// symCluster is one topology the property tests draw from.
type symCluster struct {
	name string
	p    *kivi.Problem
}

// caseProblem builds built-in case name at a scale.
func caseProblem(t testing.TB, name string, scale int, noViolation bool) *kivi.Problem {
	t.Helper()
	c, err := cases.Get(name, scale, noViolation)
	if err != nil {
		t.Fatal(err)
	}
	p, err := kivi.NewProblem(c, kivi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// setupProblem builds one scaling setup of a built-in case.
func setupProblem(t testing.TB, name string, noViolation bool, nodes, replicas []int) *kivi.Problem {
	t.Helper()
	c, err := cases.Get(name, 3, noViolation)
	if err != nil {
		t.Fatal(err)
	}
	u, s, err := scaling.Build(c, scaling.Setup{Nodes: nodes, Replicas: replicas})
	if err != nil {
		t.Fatal(err)
	}
	p, err := compose.NewProblemFrom(fmt.Sprintf("%s%v%v", name, nodes, replicas), u, s, c.Intents, kivi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// eventsProblem is a hand-built cluster whose nodes carry event memory:
// identical small nodes with kernel panics and a rolling maintenance, and
// a RemoveDuplicates descheduler (no limits: symmetric). Pods start
// stacked on the first node so that the descheduler has work.
func eventsProblem(t testing.TB, nodes int, maintenance bool) *kivi.Problem {
	t.Helper()
	b := build.New()
	b.AddNodes(nodes, build.Node().CPU(20).Mem(64))
	app := b.AddTemplate(build.Template("app").Requests(6, 4).Label("name", "app"))
	d := b.AddDeployment("web", app, 3)
	b.RunPod(d, 0).RunPod(d, 0).RunPodCPU(d, 1, 7)
	b.AddEvent(model.Event{Kind: model.KernelPanic})
	if maintenance {
		b.AddEvent(model.Event{Kind: model.Maintenance, Slot: model.AfterStable, Parallel: 1})
	}
	b.U.Descheduler = &model.Descheduler{Profiles: []model.DeschedulerProfile{{Name: "dup", Balance: []model.BalancePlugin{model.RemoveDuplicates}}}}
	b.Slots = 5
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	decls := []model.IntentDecl{{Name: "no_kernel_panic"}, {Name: "pod_balance_across_node", Params: map[string]any{"did": 1, "maxSkew": 1}}}
	p, err := compose.NewProblemFrom(fmt.Sprintf("events%d", nodes), u, s, decls, kivi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// symmetricClusters are the topologies of the property tests: built-in
// cases, scaling setups (empty identical nodes) and the event cluster.
func symmetricClusters(t testing.TB) []symCluster {
	var out []symCluster
	for _, name := range cases.Names() {
		for _, nv := range []bool{false, true} {
			out = append(out, symCluster{fmt.Sprintf("%s/nv=%v", name, nv), caseProblem(t, name, 3, nv)})
		}
	}
	out = append(out,
		symCluster{"c1[4][3]", setupProblem(t, "c1", true, []int{4}, []int{3})},
		symCluster{"c3[3 1][3]", setupProblem(t, "c3", false, []int{3, 1}, []int{3})},
		symCluster{"c4[3][4]", setupProblem(t, "c4", false, []int{3}, []int{4})},
		symCluster{"c8[1 3][4]/nv", setupProblem(t, "c8", true, []int{1, 3}, []int{4})},
		symCluster{"c8[1 3][6]", setupProblem(t, "c8", false, []int{1, 3}, []int{6})},
		symCluster{"events3", eventsProblem(t, 3, false)},
		symCluster{"events4+maintenance", eventsProblem(t, 4, true)},
	)
	out = append(out, affinityClusters(t)...)
	out = append(out, nodeUtilizationClusters(t)...)
	out = append(out, pdbClusters(t)...)
	out = append(out, deschedulePluginClusters(t)...)
	out = append(out, drainClusters(t)...)
	out = append(out, deleteNodeClusters(t)...)
	out = append(out, readinessClusters(t)...)
	out = append(out, preemptionClusters(t)...)
	out = append(out, zoneClusters(t)...)
	out = append(out, maintenanceOrderClusters(t)...)
	out = append(out, osClusters(t)...)
	out = append(out, restartsClusters(t)...)
	out = append(out, indexedJobClusters(t)...)
	// Two deployments (every built-in case has one): the kubelet queue's
	// owner order and the pod rules for several owners.
	for _, tc := range []struct {
		name  string
		nv    bool
		nodes []int
		reps  [2]int
	}{
		{"c3", true, []int{2, 1}, [2]int{1, 2}},
		{"c4", false, []int{3}, [2]int{2, 1}},
		{"c5", false, []int{2, 1}, [2]int{2, 1}},
		{"c6", false, []int{3}, [2]int{1, 1}},
		{"c8", true, []int{1, 2}, [2]int{2, 1}},
	} {
		p := TwoDeploymentSetup(t, tc.name, tc.nv, tc.nodes, tc.reps)
		out = append(out, symCluster{p.Name, p})
	}
	return append(out, lifecycleClusters(t)...)
}

// asClusters are problems as symmetry clusters.
func asClusters(pps []porProblem) []symCluster {
	out := make([]symCluster, 0, len(pps))
	for _, pp := range pps {
		out = append(out, symCluster{pp.name, pp.p})
	}
	return out
}

// successors returns copies of every successor of s.
func successors(sys *compose.System, s *model.State) []*model.State {
	var out []*model.State
	sys.Next(s, func(_ checker.Step, t *model.State) { out = append(out, t.Clone()) })
	return out
}

// walk draws a random run of up to 40 steps from the initial state.
func walk(rt *rapid.T, sys *compose.System) *model.State { return walkUpTo(rt, sys, 40) }

// symPerm is one element of the symmetry group: a node permutation
// within the movable blocks and a pod-slot permutation (identity when
// pods are fixed).
type symPerm = symmetry.Permutation

// randomPermutation permutes the movable blocks of s, and the pod slots
// when they move, at random.
func randomPermutation(rt *rapid.T, c *symmetry.Canonicalizer, s *model.State) symPerm {
	perm := make([]int, len(s.Nodes))
	for i := range perm {
		perm[i] = i
	}
	for _, block := range c.Movable(s) {
		shuffled := rapid.Permutation(block).Draw(rt, "block")
		for i, old := range block {
			perm[old] = shuffled[i]
		}
	}
	// Interchangeable topology domains: each goes wholesale to another
	// domain of its group, each of its classes onto the same class there
	// in any order.
	for _, group := range c.Analysis().Domains() {
		to := rapid.Permutation(identity(len(group))).Draw(rt, "domains")
		for d, blocks := range group {
			for k, block := range blocks {
				shuffled := rapid.Permutation(group[to[d]][k]).Draw(rt, "domain block")
				for i, old := range block {
					perm[old] = shuffled[i]
				}
			}
		}
	}
	pods := make([]int, len(s.Pods))
	for i := range pods {
		pods[i] = i
	}
	if c.PodsMove() {
		pods = rapid.Permutation(pods).Draw(rt, "pods")
	}
	return symPerm{Nodes: perm, Pods: pods}
}

// equivariant reports whether the successors of g(s) are exactly the
// g-images of the successors of s, up to symmetry.NormalQueues,
// for g the monotone representative of p (symmetry.Commutes).
func equivariant(sys *compose.System, s *model.State, p symPerm) (bool, string) {
	ok, images, direct := symmetry.Commutes(sys.U, s, p, func(t *model.State) []*model.State { return successors(sys, t) })
	if ok {
		return true, ""
	}
	var b strings.Builder
	for _, t := range images {
		fmt.Fprintf(&b, "image:\n%s\n", model.Describe(sys.U, t))
	}
	for _, t := range direct {
		fmt.Fprintf(&b, "direct:\n%s\n", model.Describe(sys.U, t))
	}
	return false, b.String()
}

func encode(u *model.Universe, s *model.State) []byte { return s.AppendEncoding(u, nil) }

// TestSymmetryCanonicalInvariant (a): every permutation within the movable
// blocks of a reachable state has the same canonical encoding, the
// canonical form is a fixpoint, and Canonical never modifies its input.
func TestSymmetryCanonicalInvariant(t *testing.T) { canonicalInvariant(t, symmetricClusters(t)) }

// canonicalInvariant is TestSymmetryCanonicalInvariant over clusters.
func canonicalInvariant(t *testing.T, clusters []symCluster) {
	rapid.Check(t, func(rt *rapid.T) {
		cl := rapid.SampledFrom(clusters).Draw(rt, "cluster")
		sys := cl.p.System
		c := sys.Symmetry
		s := walk(rt, sys)
		before := encode(sys.U, s)
		want := encode(sys.U, c.Canonical(s))
		if !bytes.Equal(encode(sys.U, s), before) {
			rt.Fatalf("%s: Canonical modified its input", cl.name)
		}
		perm := randomPermutation(rt, c, s)
		got := encode(sys.U, c.Canonical(perm.Apply(sys.U, s)))
		if !bytes.Equal(got, want) {
			rt.Fatalf("%s: permutation %v changes the canonical form\nstate:\n%s\npermuted:\n%s", cl.name, perm,
				model.Describe(sys.U, s), model.Describe(sys.U, perm.Apply(sys.U, s)))
		}
		if again := encode(sys.U, c.Canonical(c.Canonical(s))); !bytes.Equal(again, want) {
			rt.Fatalf("%s: Canonical is not idempotent", cl.name)
		}
	})
}

// TestSymmetryCommutesWithSteps (b): a state and its canonical form (and
// any permutation of it) satisfy the same invariants and end conditions,
// are valid end states alike, and have the same successors up to
// symmetry: the permutations are automorphisms of the transition
// relation, one step deep, on reachable states. This is what catches a
// controller reading node indices.
func TestSymmetryCommutesWithSteps(t *testing.T) {
	clusters := symmetricClusters(t)
	rapid.Check(t, func(rt *rapid.T) {
		cl := rapid.SampledFrom(clusters).Draw(rt, "cluster")
		sys := cl.p.System
		c := sys.Symmetry
		s := walk(rt, sys)
		perm := randomPermutation(rt, c, s)
		for _, other := range []*model.State{c.Canonical(s), perm.Apply(sys.U, s)} {
			for _, inv := range cl.p.Properties.Invariants {
				if inv.Holds(s) != inv.Holds(other) {
					rt.Fatalf("%s: invariant %s differs between a state and its permutation", cl.name, inv.Name)
				}
			}
			for _, end := range cl.p.Properties.EndConditions {
				if end.Holds(s) != end.Holds(other) {
					rt.Fatalf("%s: end condition %s differs between a state and its permutation", cl.name, end.Name)
				}
			}
			// Successor sets are compared exactly below (equivariant); here
			// only their sizes, because controllers that evict several
			// pods of one owner order them by slot, which changes the
			// kubelet queue's order but nothing reachable
			// (normalKubeletQueue), and canonical keys see the order.
			a, b := successors(sys, s), successors(sys, other)
			if len(a) != len(b) {
				rt.Fatalf("%s: %d successors, %d after permutation", cl.name, len(a), len(b))
			}
		}
		// Exactly, without trusting the canonicaliser: the successors of
		// g(s) are the g-images of the successors of s, g the monotone
		// representative of the drawn permutation. This is what makes the
		// controllers' tie-breaks among pods slot-independent.
		if ok, detail := equivariant(sys, s, perm); !ok {
			rt.Fatalf("%s: permutation %v is not an automorphism here\nstate:\n%s\n%s", cl.name, perm, model.Describe(sys.U, s), detail)
		}
	})
}

// permutations calls f with every permutation of 0..n-1 that maps each
// block onto itself.
func permutations(n int, blocks [][]int, f func([]int)) {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	var rec func(b int)
	rec = func(b int) {
		if b == len(blocks) {
			f(perm)
			return
		}
		block := blocks[b]
		img := slices.Clone(block)
		var heap func(k int)
		heap = func(k int) {
			if k == 1 {
				for i, old := range block {
					perm[old] = img[i]
				}
				rec(b + 1)
				return
			}
			for i := 0; i < k; i++ {
				heap(k - 1)
				if k%2 == 0 {
					img[i], img[k-1] = img[k-1], img[i]
				} else {
					img[0], img[k-1] = img[k-1], img[0]
				}
			}
		}
		heap(len(block))
	}
	rec(0)
}

// TestSymmetryNeverMergesDistinctOrbits (c): for clusters of at most three
// nodes and six pod slots, two reachable states have the same canonical
// encoding exactly when one is a permutation of the other (brute force
// over the whole group: node permutations within the movable blocks times
// every pod-slot permutation when pods move, times the reorderings of the
// kubelet queue that keep its owners' first appearances in order when
// there are no taints, kubeletNormal, times the relabellings of Indexed
// Jobs' completion indexes that keep the unfinished ones' order,
// indexRelabellings), and the canonical form is itself in the state's
// orbit.
func TestSymmetryNeverMergesDistinctOrbits(t *testing.T) {
	var small []symCluster
	for _, cl := range symmetricClusters(t) {
		u := cl.p.System.U
		if len(u.Nodes) <= 3 && u.PodSlots <= 6 && !cl.p.System.Symmetry.Trivial() {
			small = append(small, cl)
		}
	}
	if len(small) < 5 {
		t.Fatalf("only %d small symmetric clusters", len(small))
	}
	withPods := 0
	for _, cl := range small {
		if cl.p.System.Symmetry.PodsMove() {
			withPods++
		}
	}
	if withPods < 5 {
		t.Fatalf("only %d small clusters permute pods", withPods)
	}
	rapid.Check(t, func(rt *rapid.T) {
		cl := rapid.SampledFrom(small).Draw(rt, "cluster")
		sys := cl.p.System
		c := sys.Symmetry
		s := walk(rt, sys)
		var other *model.State
		if rapid.Bool().Draw(rt, "permuted") {
			other = randomPermutation(rt, c, s).Apply(sys.U, s)
		} else {
			other = walk(rt, sys)
		}
		inOrbit := orbitOf(sys, s)
		canon := c.Canonical(s)
		if !inOrbit(canon) {
			rt.Fatalf("%s: the canonical form is not a permutation of the state", cl.name)
		}
		same := bytes.Equal(encode(sys.U, canon), encode(sys.U, c.Canonical(other)))
		if inOrbit := inOrbit(other); same != inOrbit {
			rt.Fatalf("%s: canonical forms equal=%v but other in orbit=%v\nstate:\n%s\nother:\n%s", cl.name, same, inOrbit,
				model.Describe(sys.U, s), model.Describe(sys.U, other))
		}
	})
}

// orbitOf returns a test of whether a state is in s's orbit, by brute
// force over the whole group: every swap of interchangeable topology
// domains (symmetry.Analysis.Domains), then every permutation of nodes
// within the movable blocks, times every pod-slot permutation when pods
// move, times the reorderings of the queues that are sets
// (kubeletNormal), times the relabellings of Indexed Jobs' completion
// indexes that keep the unfinished ones' order (indexRelabellings, which
// commute with the rest: x is in the orbit when a relabelling of x is in
// the rest's).
func orbitOf(sys *compose.System, s *model.State) func(*model.State) bool {
	c := sys.Symmetry
	podBlocks := [][]int{}
	if c.PodsMove() {
		all := make([]int, len(s.Pods))
		for i := range all {
			all[i] = i
		}
		podBlocks = append(podBlocks, all)
	}
	samePods := make([]int, len(s.Pods))
	for i := range samePods {
		samePods[i] = i
	}
	orbit := map[string]bool{}
	domainSwaps(c, len(s.Nodes), func(swap []int) {
		b := symmetry.PermuteAll(sys.U, s, swap, samePods)
		permutations(len(b.Nodes), c.Movable(b), func(np []int) {
			permutations(len(b.Pods), podBlocks, func(pp []int) {
				orbit[string(encode(sys.U, kubeletNormal(sys.U, symmetry.PermuteAll(sys.U, b, np, pp), c.PodsMove())))] = true
			})
		})
	})
	return func(x *model.State) bool {
		found := false
		indexRelabellings(sys, x, func(y *model.State) {
			found = found || orbit[string(encode(sys.U, kubeletNormal(sys.U, y, c.PodsMove())))]
		})
		return found
	}
}

// domainSwaps calls f with every node permutation that maps the
// interchangeable topology domains onto each other wholesale (block k of
// a domain onto block k of its image, node for node in order); the
// identity when there are none.
func domainSwaps(c *symmetry.Canonicalizer, nodes int, f func([]int)) {
	groups := c.Analysis().Domains()
	perm := make([]int, nodes)
	for i := range perm {
		perm[i] = i
	}
	var swapGroup func(g int)
	swapGroup = func(g int) {
		if g == len(groups) {
			f(slices.Clone(perm))
			return
		}
		group := groups[g]
		domains := make([]int, len(group))
		for i := range domains {
			domains[i] = i
		}
		permutations(len(domains), [][]int{domains}, func(to []int) {
			for d, blocks := range group {
				for k, block := range blocks {
					for i, node := range block {
						perm[node] = group[to[d]][k][i]
					}
				}
			}
			swapGroup(g + 1)
		})
	}
	swapGroup(0)
}

// kubeletNormal is the dumb reference for the queues that are sets
// (reduction/symmetry/kubeletqueue.go, taintqueue.go): unless node
// taints meet Kivi's lifecycle or a template pins its pods to a node
// (spec.nodeName), the kubelet queue sorted stably by the first
// appearance of each pod's owner, then by pod id; under Kubernetes'
// lifecycle, the taint-manager queue sorted by pod id; when pods move,
// each run of nominated twins in the scheduling queue sorted by pod id.
// States equal after it differ by a reordering that the kubelet's drain,
// the taint manager and the scheduler cannot tell apart.
func kubeletNormal(u *model.Universe, s *model.State, podsMove bool) *model.State {
	if !u.Options.KiviLifecycle && u.PodSlots > 1 {
		s = s.Clone()
		slices.Sort(s.Queues[model.TaintManagerQueue])
	}
	if podsMove {
		s = s.Clone()
		sq := s.Queues[model.SchedulerQueue]
		twins := func(a, b model.PodState) bool {
			if a.NominatedNode == 0 || b.NominatedNode == 0 {
				return false
			}
			a.NominatedNode, b.NominatedNode = 0, 0
			return a == b
		}
		for i := 0; i < len(sq); {
			j := i + 1
			for j < len(sq) && twins(s.Pods[sq[i]], s.Pods[sq[j]]) {
				j++
			}
			slices.Sort(sq[i:j])
			i = j
		}
	}
	if u.HasTaints && u.Options.KiviLifecycle || slices.ContainsFunc(u.Templates, func(t model.PodTemplate) bool { return t.NodeName != 0 }) {
		return s
	}
	t := s.Clone()
	q := t.Queues[model.KubeletQueue]
	owner := func(p uint16) int {
		if int(p) < len(t.Pods) {
			return int(t.Pods[p].Owner)
		}
		return 0
	}
	first := map[int]int{}
	for i, p := range q {
		if _, ok := first[owner(p)]; !ok {
			first[owner(p)] = i
		}
	}
	sort.SliceStable(q, func(i, j int) bool {
		a, b := first[owner(q[i])], first[owner(q[j])]
		if a != b {
			return a < b
		}
		return q[i] < q[j]
	})
	return t
}

// checkResult runs the engine on p, with or without symmetry, collecting
// a verdict for every property.
func checkResult(t testing.TB, p *kivi.Problem, noSymmetry bool) checker.Result[*model.State] {
	t.Helper()
	res, err := checker.Check[*model.State](context.Background(), p.System.CheckerSystem(), p.Properties,
		checker.Options{CollectAll: true, NoSymmetry: noSymmetry, Workers: 2, MaxStates: 2_000_000})
	if err != nil {
		t.Fatalf("%s (noSymmetry=%v): %v", p.Name, noSymmetry, err)
	}
	return res
}

// replayConcrete re-executes a counterexample in the unreduced System and
// checks that every step reaches the state the trace records.
func replayConcrete(t testing.TB, sys *compose.System, tr *checker.Trace[*model.State]) {
	t.Helper()
	cur := tr.Initial
	for i, st := range tr.Steps {
		next, _, err := sys.Replay(cur, st.Step)
		if err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		if !bytes.Equal(encode(sys.U, next), encode(sys.U, st.State)) {
			t.Fatalf("step %d: replay reaches another state", i+1)
		}
		cur = next
	}
}

// compareVerdicts (d) checks one problem with and without symmetry.
func compareVerdicts(t *testing.T, p *kivi.Problem) (reduced, full int64) {
	t.Helper()
	off := checkResult(t, p, true)
	on := checkResult(t, p, false)
	if len(off.Properties) != len(on.Properties) {
		t.Fatalf("%s: %d vs %d properties", p.Name, len(off.Properties), len(on.Properties))
	}
	bounded := off.Stats.States >= 2_000_000 || on.Stats.States >= 2_000_000
	for i, a := range off.Properties {
		b := on.Properties[i]
		if bounded && (a.Verdict == checker.Unknown || b.Verdict == checker.Unknown) {
			continue
		}
		if a.Verdict != b.Verdict {
			t.Errorf("%s: %s: %v without symmetry, %v with", p.Name, a.Name, a.Verdict, b.Verdict)
			continue
		}
		if b.Trace == nil {
			continue
		}
		replayConcrete(t, p.System, b.Trace)
		if a.Kind == "invariant" && len(a.Trace.Steps) != len(b.Trace.Steps) {
			t.Errorf("%s: %s: shortest counterexample %d steps without symmetry, %d with", p.Name, a.Name, len(a.Trace.Steps), len(b.Trace.Steps))
		}
	}
	// Two runs cut at the state bound say nothing about which space is
	// larger (a run may store a state past the bound).
	if !bounded && on.Stats.States > off.Stats.States {
		t.Errorf("%s: symmetry stores more states (%d) than without (%d)", p.Name, on.Stats.States, off.Stats.States)
	}
	return on.Stats.States, off.Stats.States
}

// TestSymmetrySameVerdictsOnCases (d): every built-in case at scales 2 and
// 3, both variants, has the same verdict for every property with and
// without symmetry; the reduced run's counterexamples replay in the
// unreduced System and invariant counterexamples are as short.
func TestSymmetrySameVerdictsOnCases(t *testing.T) {
	for _, name := range cases.Names() {
		for _, scale := range []int{2, 3} {
			for _, nv := range []bool{false, true} {
				p := caseProblem(t, name, scale, nv)
				on, off := compareVerdicts(t, p)
				t.Logf("%s scale %d noViolation=%v: %d states reduced, %d full", name, scale, nv, on, off)
			}
		}
	}
}

// TestSymmetrySameVerdictsOnSetups (d): the scaling search's small setups
// (empty identical nodes, up to 3 nodes and 4 replicas) of every case.
func TestSymmetrySameVerdictsOnSetups(t *testing.T) {
	if testing.Short() {
		t.Skip("scaling setups")
	}
	for _, name := range cases.Names() {
		for _, nv := range []bool{false, true} {
			c, err := cases.Get(name, 3, nv)
			if err != nil {
				t.Fatal(err)
			}
			setups, err := scaling.Setups(c, scaling.EnumerateOptions{ConfidentNodes: 3})
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for _, s := range setups {
				if s.TotalNodes() > 3 || s.TotalReplicas() > 4 {
					continue
				}
				p := setupProblem(t, name, nv, s.Nodes, s.Replicas)
				compareVerdicts(t, p)
				checked++
			}
			t.Logf("%s noViolation=%v: %d setups", name, nv, checked)
		}
	}
	// The event cluster: kernel panics, maintenance and the descheduler.
	for _, n := range []int{3, 4} {
		compareVerdicts(t, eventsProblem(t, n, n == 4))
	}
	// Two deployments.
	for _, cl := range symmetricClusters(t) {
		if strings.Contains(cl.name, "x2") {
			on, off := compareVerdicts(t, cl.p)
			t.Logf("%s: %d states reduced, %d full, %d pod slots", cl.name, on, off, cl.p.System.U.PodSlots)
		}
	}
}

func pow(n, k int) int64 {
	r := int64(1)
	for range k {
		r *= int64(n)
	}
	return r
}

// boundLayers returns the numbers of pods bound in the states the
// scheduler passes through while it places k queued pods: {k} when one
// step drains the queue, {1, …, k} when it places one pod per step
// (an atomic drain through shared intermediate states).
func boundLayers(sys *compose.System, s *model.State, k int) []int {
	bound := 0
	for _, t := range successors(sys, s)[:1] {
		for i := range t.Pods {
			if t.Pods[i].Node != 0 {
				bound++
			}
		}
	}
	if bound == k {
		return []int{k}
	}
	var out []int
	for j := 1; j <= k; j++ {
		out = append(out, j)
	}
	return out
}

// multisets returns C(n+k−1, k): the multisets of k pods over n labelled
// nodes.
func multisets(n, k int) int64 {
	out := int64(1)
	for i := 1; i <= k; i++ {
		out = out * int64(n+i-1) / int64(i)
	}
	return out
}

// partitions returns the number of partitions of k into at most n parts.
func partitions(k, n int) int64 {
	if k == 0 {
		return 1
	}
	if n == 0 {
		return 0
	}
	if n > k {
		return partitions(k, k)
	}
	return partitions(k, n-1) + partitions(k-n, n)
}

// placementSystem is the placement-only model of the known-orbit tests:
// n empty nodes (identical, or each of its own type with distinctTypes)
// and k bare pods that need nothing, all queued for the scheduler.
func placementSystem(t *testing.T, n, k int, nodes placement) *compose.System {
	t.Helper()
	b := build.New()
	switch nodes {
	case distinctShapes:
		for i := range n {
			b.AddNodes(1, build.Node().MaxPods(100+i))
		}
	case distinctZones:
		for i := range n {
			b.AddNodes(1, build.Node().Label(model.ZoneKey, fmt.Sprint(i)))
		}
	default:
		b.AddNodes(n, build.Node())
	}
	b.AddTemplate(build.Template("bare"))
	b.Slots = k
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range k {
		s.Pods[i] = model.PodState{Phase: model.Pending}
		s.Enqueue(model.SchedulerQueue, i)
	}
	s.Init = model.InitMain
	return &compose.System{U: u, Init: s, Actors: compose.Actors(u, s, compose.ActorOptions{}), Symmetry: symmetry.New(u, compose.SymmetryFacts(u))}
}

// placement is placementSystem's kind of nodes.
type placement int

const (
	// identicalNodes: one class.
	identicalNodes placement = iota
	// distinctShapes: every node its own class (its own pod limit).
	distinctShapes
	// distinctZones: identical nodes, each in its own zone: every zone
	// is a domain of one node, and the domains are interchangeable.
	distinctZones
)

// TestSymmetryKnownOrbits (e): n identical nodes and k identical bare pods
// that need nothing, queued for the scheduler, and no other dynamics.
// Every node ties for every pod, so binding j pods gives n^j states (all
// of them queued for the kubelet; j = k only when the scheduler drains its
// queue in one step, every j ≤ k when it places one pod per step,
// boundLayers), and the kubelet then starts them: 1 + Σ_j n^j + n^k
// states. Bare pods have one owner, so the kubelet queue is a set
// (reduction/symmetry/kubeletqueue.go) and bound pods are identical whether
// waiting for the kubelet or started: the orbits are the multisets of pod
// counts over unlabelled nodes, 1 + Σ_j p(j, ≤ n) + p(k, ≤ n), with
// p(j, ≤ n) the partitions of j into at most n parts (C(n+j−1, j)
// multisets over labelled nodes, divided by the node permutations).
func TestSymmetryKnownOrbits(t *testing.T) {
	for _, tc := range []struct{ nodes, pods int }{{2, 2}, {3, 3}, {3, 4}, {4, 3}, {5, 4}, {6, 4}} {
		sys := placementSystem(t, tc.nodes, tc.pods, identicalNodes)
		s := sys.Init
		count := func(noSymmetry bool) int64 {
			res, err := checker.Check[*model.State](context.Background(), sys.CheckerSystem(), checker.Properties[*model.State]{},
				checker.Options{NoSymmetry: noSymmetry})
			if err != nil {
				t.Fatal(err)
			}
			return res.Stats.States
		}
		var full, orbits int64
		for _, j := range boundLayers(sys, s, tc.pods) {
			full += pow(tc.nodes, j)
			orbits += partitions(j, tc.nodes)
		}
		if got, want := count(true), 1+full+pow(tc.nodes, tc.pods); got != want {
			t.Errorf("%d nodes, %d pods without symmetry: %d states, want %d", tc.nodes, tc.pods, got, want)
		}
		if got, want := count(false), 1+orbits+partitions(tc.pods, tc.nodes); got != want {
			t.Errorf("%d nodes, %d pods with symmetry: %d states, want %d", tc.nodes, tc.pods, got, want)
		}
	}
}

// TestSymmetryKnownPodOrbits (e): as TestSymmetryKnownOrbits, but every
// node has its own shape, so nodes stay in place and only pod slots move.
// Bound pods are identical whether waiting in the kubelet queue (a set for
// pods of one owner) or started, so every layer of j bound pods
// (boundLayers) has the multisets of j pods over n labelled nodes,
// C(n+j−1, j) states, and so has the started layer.
func TestSymmetryKnownPodOrbits(t *testing.T) {
	for _, tc := range []struct{ nodes, pods int }{{2, 2}, {2, 4}, {3, 3}, {3, 4}, {4, 3}} {
		sys := placementSystem(t, tc.nodes, tc.pods, distinctShapes)
		s, sym := sys.Init, sys.Symmetry
		if !sym.PodsMove() || len(sym.Movable(s)) != 0 {
			t.Fatalf("want pods only: classes %v", sym.Analysis().Classes)
		}
		res, err := checker.Check[*model.State](context.Background(), sys.CheckerSystem(), checker.Properties[*model.State]{}, checker.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var bound int64
		for _, j := range boundLayers(sys, s, tc.pods) {
			bound += multisets(tc.nodes, j)
		}
		if got, want := res.Stats.States, 1+bound+multisets(tc.nodes, tc.pods); got != want {
			t.Errorf("%d nodes, %d pods: %d states, want %d", tc.nodes, tc.pods, got, want)
		}
	}
}

// TestSymmetryClassesOfCases pins the classes and the rules that fire on
// the built-in cases (Kivi's case definitions topologies).
func TestSymmetryClassesOfCases(t *testing.T) {
	for _, tc := range []struct {
		name    string
		nv      bool
		classes string
		off     bool
	}{
		{"c1", false, "[[0 1 2]]", false},
		{"c3", false, "[[0 1] [2]]", false}, // zone 1 twice, zone 2 once
		{"c7", false, "[[0] [1 2]]", false}, // node 1 is the nodeName pin
		{"c8", false, "[[0] [1 2]]", false}, // on-demand once, spot twice
		{"c8", true, "[[0] [1 2]]", false},  // only hard constraints balanced: none
		{"c6", false, "[[0 1 2]]", false},   // maintenance pins per state, not here
	} {
		p := caseProblem(t, tc.name, 3, tc.nv)
		a := symmetry.Analyze(p.System.U, compose.SymmetryFacts(p.System.U))
		if got := fmt.Sprint(a.Classes); got != tc.classes || a.Off() != tc.off {
			t.Errorf("%s nv=%v: classes %s off=%v, want %s off=%v (%+v)", tc.name, tc.nv, got, a.Off(), tc.classes, tc.off, a.Decisions)
		}
	}
}

// BenchmarkSymmetry reports the stored states of C3 and C8 scaling
// setups with 3, 6 and 10 identical nodes, with and without symmetry.
// C8's original variant balances hostname domains in the descheduler
// (branching over equal domains, symmetric); its no-violation variant
// (c8n) does not balance.
func BenchmarkSymmetry(b *testing.B) {
	type setup struct {
		name     string
		nv       bool
		nodes    []int
		replicas []int
	}
	for _, s := range []setup{
		{"c3", false, []int{3, 0}, []int{3}},
		{"c3", false, []int{6, 0}, []int{3}},
		{"c3", false, []int{10, 0}, []int{2}},
		{"c8", false, []int{1, 2}, []int{6}},
		{"c8", false, []int{2, 4}, []int{6}},
		{"c8", false, []int{2, 8}, []int{4}},
		{"c8n", true, []int{1, 2}, []int{6}},
		{"c8n", true, []int{2, 4}, []int{6}},
		{"c8n", true, []int{2, 8}, []int{4}},
	} {
		c, err := cases.Get(s.name[:2], 3, s.nv)
		if err != nil {
			b.Fatal(err)
		}
		u, st, err := scaling.Build(c, scaling.Setup{Nodes: s.nodes, Replicas: s.replicas})
		if err != nil {
			b.Fatal(err)
		}
		p, err := compose.NewProblemFrom(c.Name, u, st, c.Intents, kivi.Options{})
		if err != nil {
			b.Fatal(err)
		}
		total := 0
		for _, n := range s.nodes {
			total += n
		}
		for _, on := range []bool{true, false} {
			mode := map[bool]string{true: "on", false: "off"}[on]
			b.Run(fmt.Sprintf("case=%s/nodes=%d/replicas=%d/symmetry=%s", s.name, total, s.replicas[0], mode), func(b *testing.B) {
				var states int64
				for b.Loop() {
					rep, err := p.Check(context.Background(), checker.Options{NoSymmetry: !on, CollectAll: true})
					if err != nil {
						b.Fatal(err)
					}
					states = rep.Stats.States
				}
				b.ReportMetric(float64(states), "states")
			})
		}
	}
}

// automorphic reports whether the permutation (nodes perm, pods podPerm,
// nil = identity) maps the successors of s onto the successors of its
// image (equivariant: up to identical pods and normalKubeletQueue).
func automorphic(sys *compose.System, s *model.State, perm, podPerm []int) bool {
	if podPerm == nil {
		podPerm = make([]int, len(s.Pods))
		for i := range podPerm {
			podPerm[i] = i
		}
	}
	if perm == nil {
		perm = make([]int, len(s.Nodes))
		for i := range perm {
			perm[i] = i
		}
	}
	ok, _ := equivariant(sys, s, symPerm{Nodes: perm, Pods: podPerm})
	return ok
}

// TestSymmetryRulesAreNecessary shows, for every rule that switches
// symmetry off or pins nodes per state, a state where the permutation the
// rule forbids is not an automorphism, and checks that the analysis
// forbids it.
func TestSymmetryRulesAreNecessary(t *testing.T) {
	swap01 := []int{1, 0, 2}
	swap12 := []int{0, 2, 1}
	for _, tc := range []struct {
		name  string
		build func() (*model.Universe, *model.State)
		perm  []int
		// podPerm, when set, is a pod-slot permutation (perm may be nil)
		// that a pod rule must forbid.
		podPerm []int
		rule    string // the rule that must fire ("" = per-state pinning)
	}{{
		// Two nodes tie for a new pod; LowestIndex takes node 1, whose
		// content the swap changes (controllers/scheduler/scheduler.go).
		name: "LowestIndex", rule: "LowestIndexTieBreak", perm: swap01,
		build: func() (*model.Universe, *model.State) {
			b := build.New()
			b.AddNodes(3, build.Node())
			b.AddTemplate(build.Template("bare"))
			b.U.Options.TieBreak = model.LowestIndex
			b.Slots = 3
			u, s := b.MustBuild()
			s.Pods[0] = model.PodState{Phase: model.Running, Node: 1}
			s.Pods[1] = model.PodState{Phase: model.Running, Node: 2}
			s.Pods[2] = model.PodState{Phase: model.Pending}
			s.Enqueue(model.SchedulerQueue, 2)
			return u, s
		},
	}, {
		// A deployment of one replica runs two pods, on nodes 1 and 3;
		// with Kivi's tie-break the deployment controller deletes the
		// lower slot (model.Tx.ChoosePods), so swapping the two slots
		// changes which node keeps a pod.
		name: "LowestIndexPods", rule: "LowestIndexTieBreak", podPerm: []int{1, 0},
		build: func() (*model.Universe, *model.State) {
			b := build.New()
			b.AddNodes(3, build.Node())
			app := b.AddTemplate(build.Template("app").Requests(8, 8).Label("name", "app"))
			d := b.AddDeployment("web", app, 1)
			b.RunPod(d, 0).RunPod(d, 2)
			b.U.Options.TieBreak = model.LowestIndex
			b.Slots = 2
			u, s := b.MustBuild()
			s.Enqueue(model.DeploymentQueue, d)
			return u, s
		},
	}, {
		// Maintenance has finished node 1 and waits for node 2 next: the
		// driver starts node 2, whatever it holds (events/maintenance.go).
		name: "MaintenanceOrder", perm: swap12,
		build: func() (*model.Universe, *model.State) {
			b := build.New()
			b.AddNodes(3, build.Node())
			app := b.AddTemplate(build.Template("app").Requests(8, 8).Label("name", "app"))
			d := b.AddDeployment("web", app, 1)
			b.RunPod(d, 1)
			b.AddEvent(model.Event{Kind: model.Maintenance, Slot: model.AfterStable, Parallel: 1})
			u, s := b.MustBuild()
			s.EventVars[0], s.EventVars[1] = 1, 3 // next node 1; node 0 done
			return u, s
		},
	}, {
		// Node 1 panics with pods of two deployments on it; under Kivi's
		// lifecycle the node controller evicts them in slot order, so the
		// owners reach the kubelet queue, and then the deployment queue,
		// in slot order (controllers/nodelifecycle/nodecontroller.go).
		name: "NodeControllerSlotOrder", rule: "NodeControllerSlotOrder", podPerm: []int{1, 0},
		build: func() (*model.Universe, *model.State) {
			b := build.New()
			b.U.Options.KiviLifecycle = true
			b.AddNodes(2, build.Node())
			app := b.AddTemplate(build.Template("app").Requests(8, 8).Label("name", "app"))
			a, c := b.AddDeployment("a", app, 1), b.AddDeployment("b", app, 1)
			b.RunPod(a, 0).RunPod(c, 0)
			b.AddEvent(model.Event{Kind: model.KernelPanic})
			b.Slots = 2
			u, s := b.MustBuild()
			s.Nodes[0].Status = model.Unhealthy
			s.Enqueue(model.NodeControllerQueue, 0)
			return u, s
		},
	}, {
		// Two deployments' pods follow a CPU pattern; under Kivi's
		// lifecycle the pattern step queues their owners for the HPA in
		// slot order, and the first rescale ends the HPA's drain
		// (events/cpupattern.go; under Kubernetes' lifecycle owner order:
		// TestCPUPatternInOwnerOrder).
		name: "CPUPatternSlotOrder", rule: "CPUPatternSlotOrder", podPerm: []int{1, 0},
		build: func() (*model.Universe, *model.State) {
			return cpuPatternPair(true)
		},
	}, {
		// Under Kivi's tie-break the descheduler evicts the lowest slots
		// of its duplicates and a per-node eviction limit of one keeps
		// the first of them in slot order; with pods that differ, which
		// one goes depends on the slots (controllers/descheduler; under
		// upstream's orders the model branches over it:
		// TestDeschedulerLimitsInContentOrder).
		name: "DeschedulerEvictionLimitsTieBreak", rule: model.LowestIndexTieBreakRule, podPerm: []int{1, 0, 2},
		build: func() (*model.Universe, *model.State) {
			b := build.New()
			b.U.Options.TieBreak = model.LowestIndex
			b.AddNodes(3, build.Node())
			app := b.AddTemplate(build.Template("app").Requests(8, 8).Label("name", "app"))
			d := b.AddDeployment("web", app, 3)
			b.RunPod(d, 0).RunPodCPU(d, 0, 3).RunPodCPU(d, 0, 5)
			b.U.Descheduler = &model.Descheduler{MaxPerNode: 1, Profiles: []model.DeschedulerProfile{{Name: "dup",
				Balance: []model.BalancePlugin{model.RemoveDuplicates}}}}
			b.Slots = 3
			u, s := b.MustBuild()
			s.DeschedulerPending = true
			return u, s
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			u, s := tc.build()
			if s.Init < model.InitMain {
				s.Init = model.InitMain
			}
			if len(u.Events) > 0 {
				s.Init = model.InitStable
			}
			sys := &compose.System{U: u, Init: s, Actors: compose.Actors(u, s, compose.ActorOptions{})}
			if automorphic(sys, s, tc.perm, tc.podPerm) {
				t.Fatalf("permutation %v / pods %v is an automorphism here: the rule is not shown necessary", tc.perm, tc.podPerm)
			}
			c := symmetry.New(u, compose.SymmetryFacts(u))
			if tc.podPerm != nil {
				a := c.Analysis()
				if a.Pods || c.PodsMove() || !slices.ContainsFunc(a.Decisions, func(d symmetry.Decision) bool { return d.Rule == tc.rule && d.PodsFixed }) {
					t.Fatalf("rule %s did not fix pod slots: %+v", tc.rule, a.Decisions)
				}
				return
			}
			if tc.rule != "" {
				a := c.Analysis()
				if !a.Off() || !slices.ContainsFunc(a.Decisions, func(d symmetry.Decision) bool { return d.Rule == tc.rule }) {
					t.Fatalf("rule %s did not switch symmetry off: %+v", tc.rule, a.Decisions)
				}
				return
			}
			for _, block := range c.Movable(s) {
				for old, new := range tc.perm {
					if old != new && slices.Contains(block, old) && slices.Contains(block, new) {
						t.Fatalf("movable blocks %v allow the permutation %v", c.Movable(s), tc.perm)
					}
				}
			}
		})
	}
}

// TestCPUPatternInOwnerOrder: under Kubernetes' lifecycle the CPU
// pattern step applies the due pods' usages in owner order, so the HPA
// queue gets the owners in that order whichever slots their pods hold:
// swapping the slots of two deployments' pods is an automorphism of the
// steps, and the pods keep their symmetry (the rule CPUPatternSlotOrder is
// Kivi's lifecycle's only).
func TestCPUPatternInOwnerOrder(t *testing.T) {
	u, s := cpuPatternPair(false)
	s.Init = model.InitStable
	sys := &compose.System{U: u, Init: s, Actors: compose.Actors(u, s, compose.ActorOptions{})}
	if !automorphic(sys, s, nil, []int{1, 0}) {
		t.Fatal("swapping the two deployments' pods is not an automorphism of the steps")
	}
	if a := symmetry.New(u, compose.SymmetryFacts(u)).Analysis(); !a.Pods {
		t.Fatalf("pod slots fixed: %+v", a.Decisions)
	}
}

// cpuPatternPair is two deployments of one template with a CPU pattern
// and an HPA, one Running pod each on nodes 0 and 1, both at the
// pattern's second entry; kivi runs Kivi's lifecycle.
func cpuPatternPair(kivi bool) (*model.Universe, *model.State) {
	b := build.New()
	b.U.Options.KiviLifecycle = kivi
	b.AddNodes(2, build.Node())
	app := b.AddTemplate(build.Template("app").Requests(8, 8).Label("name", "app").
		Pattern(model.UsagePoint{CPU: 8}, model.UsagePoint{CPU: 1, At: 300}))
	h := b.AddHPA(1, 3, 50)
	a, c := b.AddDeployment("a", app, 1), b.AddDeployment("b", app, 1)
	b.WithHPA(a, h).WithHPA(c, h)
	b.RunPod(a, 0).RunPod(c, 1)
	b.Slots = 2
	u, s := b.MustBuild()
	s.Pods[0].Pattern, s.Pods[1].Pattern = 1, 1
	return u, s
}

// TestNodeDownEvictionsInOwnerOrder: under Kubernetes' lifecycle the
// node controller evicts a failed node's pods at once in owner order
// (model.NodePodsInOwnerOrder), so swapping the slots of
// two deployments' pods on the node is an automorphism of the steps, and
// the pods keep their symmetry (the rule NodeControllerSlotOrder is Kivi's
// lifecycle's only).
func TestNodeDownEvictionsInOwnerOrder(t *testing.T) {
	b := build.New()
	b.AddNodes(2, build.Node())
	// tolerationSeconds 0 on both node-down taints: evicted at once.
	zero := int64(0)
	tmpl := build.Template("app").Requests(8, 8).Label("name", "app")
	for _, k := range model.NodeDownTaints {
		tmpl.TolerationWith(model.Toleration{Key: k, Operator: "Exists", Effect: model.NoExecute, TolerationSeconds: &zero})
	}
	app := b.AddTemplate(tmpl)
	a, c := b.AddDeployment("a", app, 1), b.AddDeployment("b", app, 1)
	b.RunPod(a, 0).RunPod(c, 0)
	b.AddEvent(model.Event{Kind: model.NodeFailure, Node: 0})
	b.Slots = 2
	u, s := b.MustBuild()
	if u.Options.KiviLifecycle {
		t.Fatal("the builder's universe runs Kivi's lifecycle")
	}
	s.Nodes[0].Status = model.NotReady
	s.Enqueue(model.NodeControllerQueue, 0)
	s.Init = model.InitStable
	sys := &compose.System{U: u, Init: s, Actors: compose.Actors(u, s, compose.ActorOptions{})}
	if !automorphic(sys, s, nil, []int{1, 0}) {
		t.Fatal("swapping the two deployments' pods is not an automorphism of the steps")
	}
	if a := symmetry.New(u, compose.SymmetryFacts(u)).Analysis(); !a.Pods {
		t.Fatalf("pod slots fixed: %+v", a.Decisions)
	}
}

// TestDeschedulerLimitsInContentOrder: upstream's plugins send a node's
// evictions in informer or map order, so when an eviction limit cuts them
// short the model branches over which pods come first, by content
// (controllers/descheduler/evictor.go, inLimitOrder): swapping the slots
// of pods, of one owner or of two, is an automorphism of the steps under
// a per-node, namespace or total limit, with and without a disruption
// budget, and pod slots keep their symmetry. Node 1 holds web's pods of
// usages 1, 3, 5 and api's of usages 2, 4, stacked (RemoveDuplicates) or
// on a tainted node (RemovePodsViolatingNodeTaints).
func TestDeschedulerLimitsInContentOrder(t *testing.T) {
	limits := map[string]model.Descheduler{
		"node": {MaxPerNode: 1}, "namespace": {MaxPerNamespace: 1}, "total": {MaxTotal: 2},
		"node and total": {MaxPerNode: 2, MaxTotal: 1},
	}
	perms := [][]int{{2, 1, 0, 3, 4}, {0, 3, 2, 1, 4}, {4, 3, 2, 1, 0}}
	for _, plugin := range []string{"duplicates", "taints"} {
		for name, limit := range limits {
			for _, budget := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/budget=%v", plugin, name, budget), func(t *testing.T) {
					u, s := limitedDeschedulerPods(plugin, limit, budget)
					sys := &compose.System{U: u, Init: s, Actors: compose.Actors(u, s, compose.ActorOptions{})}
					for _, perm := range perms {
						if !automorphic(sys, s, nil, perm) {
							t.Fatalf("pod permutation %v is not an automorphism of the steps", perm)
						}
					}
					if a := symmetry.New(u, compose.SymmetryFacts(u)).Analysis(); !a.Pods {
						t.Fatalf("pod slots fixed: %+v", a.Decisions)
					}
				})
			}
		}
	}
}

// TestDeschedulerLimitedNodeWalkIsSymmetric: nodes 1 and 2 each hold
// three pods of one owner (Failed pods for RemoveFailedPods), node 3 none;
// a total or namespace limit lets fewer evictions through than the two
// nodes would make. Upstream walks its node list in informer order, and
// the cycle branches over which node comes first (budgetorder.go), so
// swapping nodes 1 and 2 is an automorphism of the steps and the nodes
// stay interchangeable.
func TestDeschedulerLimitedNodeWalkIsSymmetric(t *testing.T) {
	limits := map[string]model.Descheduler{
		"total": {MaxTotal: 1}, "namespace": {MaxPerNamespace: 1}, "node and total": {MaxPerNode: 1, MaxTotal: 1},
	}
	for _, plugin := range []string{"duplicates", "taints", "failed"} {
		for name, limit := range limits {
			t.Run(plugin+"/"+name, func(t *testing.T) {
				b := build.New()
				node := build.Node().CPU(64).Mem(64)
				if plugin == "taints" {
					node = node.Taint("spot", "true", model.NoSchedule)
				}
				b.AddNodes(2, node)
				b.AddNodes(1, build.Node().CPU(64).Mem(64))
				d := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(8, 8).Label("app", "web")), 6)
				b.RunPod(d, 0).RunPod(d, 0).RunPod(d, 0).RunPod(d, 1).RunPod(d, 1).RunPod(d, 1)
				profile := model.DeschedulerProfile{Name: plugin}
				switch plugin {
				case "taints":
					profile.Deschedule = model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingNodeTaints}}
				case "failed":
					profile.Deschedule = model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemoveFailedPods}}
				default:
					profile.Balance = []model.BalancePlugin{model.RemoveDuplicates}
				}
				limit.Profiles = []model.DeschedulerProfile{profile}
				b.U.Descheduler = &limit
				u, s := b.MustBuild()
				if plugin == "failed" {
					for p := range s.Pods {
						if s.Pods[p].Active() {
							s.Pods[p].Phase = model.Failed
						}
					}
				}
				s.DeschedulerPending = true
				s.Init = model.InitMain
				sys := &compose.System{U: u, Init: s, Actors: compose.Actors(u, s, compose.ActorOptions{})}
				if !automorphic(sys, s, []int{1, 0, 2}, nil) {
					t.Fatal("swapping nodes 1 and 2 is not an automorphism of the steps")
				}
				c := symmetry.New(u, compose.SymmetryFacts(u))
				if a := c.Analysis(); a.Off() {
					t.Fatalf("node symmetry off: %+v", a.Decisions)
				}
			})
		}
	}
}

// limitedDeschedulerPods is TestDeschedulerLimitsInContentOrder's
// cluster: three nodes, web's pods of usages 1, 3, 5 and api's of usages
// 2, 4 on node 1 (tainted for "taints"), the descheduler due with the
// given limits, and with budget a PodDisruptionBudget letting one of
// web's pods go.
func limitedDeschedulerPods(plugin string, limit model.Descheduler, budget bool) (*model.Universe, *model.State) {
	b := build.New()
	first := build.Node()
	if plugin == "taints" {
		first = first.Taint("spot", "true", model.NoSchedule)
	}
	b.AddNodes(1, first)
	b.AddNodes(2, build.Node())
	web := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(8, 8).Label("app", "web")), 3)
	api := b.AddDeployment("api", b.AddTemplate(build.Template("api").Requests(8, 8).Label("app", "api")), 2)
	b.RunPodCPU(web, 0, 1).RunPodCPU(web, 0, 3).RunPodCPU(web, 0, 5).RunPodCPU(api, 0, 2).RunPodCPU(api, 0, 4)
	profile := model.DeschedulerProfile{Name: plugin}
	if plugin == "taints" {
		profile.Deschedule = model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingNodeTaints}}
	} else {
		profile.Balance = []model.BalancePlugin{model.RemoveDuplicates}
	}
	limit.Profiles = []model.DeschedulerProfile{profile}
	b.U.Descheduler = &limit
	if budget {
		b.U.PDBs = []model.PodDisruptionBudget{{Name: "web", Selector: &model.Selector{MatchLabels: map[string]string{"app": "web"}},
			MaxUnavailable: &model.IntOrPercent{Value: 1}}}
	}
	b.Slots = 5
	u, s := b.MustBuild()
	s.DeschedulerPending = true
	s.Init = model.InitMain
	return u, s
}

// TestSymmetryDeschedulerEqualDomains: hostname domains of sizes 0, 2, 2
// on interchangeable nodes. Upstream's descheduler sorts equal domains in
// no fixed order, and the model branches over which one pods are moved
// out of (balanceDomains' fixSource), so swapping the two full nodes is an
// automorphism of the transition relation and the nodes stay
// interchangeable.
func TestSymmetryDeschedulerEqualDomains(t *testing.T) {
	b := build.New()
	b.AddNodes(3, build.Node())
	app := b.AddTemplate(build.Template("app").Requests(8, 8).Label("name", "app").
		Spread(1, model.HostnameKey, model.ScheduleAnyway))
	d := b.AddDeployment("web", app, 4)
	b.RunPod(d, 1).RunPod(d, 1).RunPod(d, 2).RunPod(d, 2)
	b.U.Descheduler = &model.Descheduler{Profiles: []model.DeschedulerProfile{{Name: "spread",
		Balance: []model.BalancePlugin{model.RemovePodsViolatingTopologySpreadConstraint}, Constraints: model.AllConstraints}}}
	u, s := b.MustBuild()
	s.DeschedulerPending = true
	s.Init = model.InitMain
	sys := &compose.System{U: u, Init: s, Actors: compose.Actors(u, s, compose.ActorOptions{})}
	if !automorphic(sys, s, []int{0, 2, 1}, nil) {
		t.Fatal("swapping the two full nodes is not an automorphism")
	}
	if got := fmt.Sprint(symmetry.Classes(u, compose.SymmetryFacts(u))); got != "[[0 1 2]]" {
		t.Fatalf("classes %s, want [[0 1 2]]", got)
	}
	// Both full nodes are a source in some successor: the model does not
	// fix upstream's unspecified order.
	sources := map[int]bool{}
	for _, next := range successors(sys, s) {
		for n := 1; n <= 2; n++ {
			if terminatingOn(next, n) {
				sources[n] = true
			}
		}
	}
	if !sources[1] || !sources[2] {
		t.Fatalf("pods are moved out of nodes %v only, want both 1 and 2", sources)
	}
}

func terminatingOn(s *model.State, n int) bool {
	for _, p := range s.Pods {
		if p.Phase == model.Terminating && p.NodeOf() == n {
			return true
		}
	}
	return false
}

// TestSymmetryAppendCanonical: the direct canonical encoding equals the
// encoding of the canonical state, on random reachable states.
func TestSymmetryAppendCanonical(t *testing.T) {
	clusters := symmetricClusters(t)
	rapid.Check(t, func(rt *rapid.T) {
		cl := rapid.SampledFrom(clusters).Draw(rt, "cluster")
		sys := cl.p.System
		s := walk(rt, sys)
		want := encode(sys.U, sys.Symmetry.Canonical(s))
		if got := sys.Symmetry.AppendCanonical([]byte{7}, s); !bytes.Equal(got[1:], want) || got[0] != 7 {
			rt.Fatalf("%s: AppendCanonical differs from the canonical state's encoding", cl.name)
		}
		// As the engine calls it: on a decoded state and on the successors
		// derived from it (model.State.DeriveInto), whose encodings copy
		// bytes of the decoded one.
		d, err := sys.Decode(encode(sys.U, s))
		if err != nil {
			rt.Fatal(err)
		}
		check := func(what string, x *model.State) {
			want := encode(sys.U, sys.Symmetry.Canonical(x))
			if got := sys.Symmetry.AppendCanonical(nil, x); !bytes.Equal(got, want) {
				rt.Fatalf("%s: AppendCanonical of the %s differs from the canonical state's encoding", cl.name, what)
			}
		}
		check("decoded state", d)
		sys.Next(d, func(_ checker.Step, x *model.State) { check("derived successor", x) })
	})
}

// canonicalOnly offers the engine symmetry without NextUpToSymmetry: every
// tied node stays a branch.
type canonicalOnly struct{ *compose.System }

func (s canonicalOnly) Canonical(x *model.State) *model.State { return s.Symmetry.Canonical(x) }

// TestSymmetryOneBranchPerOrbit: branching over one node per orbit
// (NextUpToSymmetry) stores exactly the states that branching over every
// tied node stores, with the same verdicts, and no more transitions.
func TestSymmetryOneBranchPerOrbit(t *testing.T) {
	fewer := false
	for _, cl := range symmetricClusters(t) {
		sys := cl.p.System
		if sys.Symmetry == nil || sys.Symmetry.Trivial() {
			continue
		}
		run := func(cs checker.System[*model.State]) checker.Result[*model.State] {
			res, err := checker.Check[*model.State](context.Background(), cs, cl.p.Properties,
				checker.Options{CollectAll: true, Workers: 1, NoPOR: true, MaxStates: 500_000})
			if err != nil {
				t.Fatalf("%s: %v", cl.name, err)
			}
			return res
		}
		all, orbits := run(canonicalOnly{sys}), run(sys.CheckerSystem())
		if all.Stats.States != orbits.Stats.States || orbits.Stats.Transitions > all.Stats.Transitions {
			t.Errorf("%s: %d states / %d transitions branching over every node, %d / %d over orbits",
				cl.name, all.Stats.States, all.Stats.Transitions, orbits.Stats.States, orbits.Stats.Transitions)
		}
		fewer = fewer || orbits.Stats.Transitions < all.Stats.Transitions
		for i, a := range all.Properties {
			if b := orbits.Properties[i]; a.Verdict != b.Verdict {
				t.Errorf("%s: %s: %v branching over every node, %v over orbits", cl.name, a.Name, a.Verdict, b.Verdict)
			} else if b.Trace != nil {
				replayConcrete(t, sys, b.Trace)
			}
		}
	}
	if !fewer {
		t.Error("no cluster had fewer transitions over orbits: the test compared nothing")
	}
}

// TestSymmetryRepresentativesStepLikeTheirStates: on every reachable
// state (breadth-first, up to a bound per cluster) the state and its
// canonical form have successors with the same canonical keys where the
// canonicaliser says representatives are exact, and up to the kubelet
// queue's same-owner order (as in equivariant) elsewhere. The engine
// explores representatives instead of the concrete states that reached
// them (checker.RepresentativeEncoder), which is sound when this holds,
// and maps their traces back to concrete runs by the exact keys; the
// random walks of TestSymmetryCommutesWithSteps reach few of these
// states.
func TestSymmetryRepresentativesStepLikeTheirStates(t *testing.T) {
	const bound = 6000
	for _, cl := range symmetricClusters(t) {
		sys := cl.p.System
		c := sys.Symmetry
		if c == nil || c.Trivial() {
			continue
		}
		if s, a, b := stepsApart(sys, bound); s != nil {
			t.Errorf("%s: a state and its canonical form step to %d and %d orbits\nstate:\n%s\ncanonical form:\n%s",
				cl.name, a, b, model.Describe(sys.U, s), model.Describe(sys.U, c.Canonical(s)))
		}
	}
}

// stepsApart explores sys breadth-first up to bound canonical states and
// returns the first state whose successors and its canonical form's have
// different canonical keys, with how many each has; nil when there is
// none. Where representatives are not exact (the engine then explores
// concrete states) the keys are compared up to the orders the model
// leaves to pod slots between pods that behave alike (looseOrbitKey).
func stepsApart(sys *compose.System, bound int) (*model.State, int, int) {
	c := sys.Symmetry
	exact := func(s *model.State) string { return string(c.AppendCanonical(nil, s)) }
	keys := func(s *model.State, key func(*model.State) string) []string {
		var out []string
		sys.Next(s, func(_ checker.Step, x *model.State) { out = append(out, key(x)) })
		slices.Sort(out)
		return slices.Compact(out)
	}
	seen := map[string]bool{}
	var queue []*model.State
	push := func(x *model.State) {
		if k := exact(x); !seen[k] {
			seen[k] = true
			queue = append(queue, x.Clone())
		}
	}
	sys.Initial(push)
	for len(queue) > 0 && len(seen) < bound {
		s := queue[0]
		queue = queue[1:]
		if a, b := keys(s, exact), keys(c.Canonical(s), exact); !slices.Equal(a, b) {
			if c.ExactRepresentatives() {
				return s, len(a), len(b)
			}
			loose := func(x *model.State) string { return looseOrbitKey(c, x) }
			if a, b := keys(s, loose), keys(c.Canonical(s), loose); !slices.Equal(a, b) {
				return s, len(a), len(b)
			}
		}
		sys.Next(s, func(_ checker.Step, x *model.State) { push(x) })
	}
	return nil, 0, 0
}

// looseOrbitKey is the least canonical key of s over the orders the model
// leaves to pod slots between pods that behave alike, which a state and
// its canonical form may therefore step to differently: the Terminating
// pods of one owner that one step queued together for the kubelet, among
// their places (a run of the queue: the kubelet drains its queue in one
// step and removes them one after the other, which no pod between them
// sees; symmetry.NormalQueues). The least key over every such order is
// the same for every state of one orbit, as a slot order is not. Waiting
// pods alike but for their nominated node are no longer among them: the
// scheduler takes them in any order and the canonical form treats their
// run as a set, so their order needs no loosening.
func looseOrbitKey(c *symmetry.Canonicalizer, s *model.State) string {
	// Each block holds the places of the kubelet queue whose pods may
	// come in any order.
	kq := s.Queues[model.KubeletQueue]
	var blocks [][]int
	for i := 0; i < len(kq); {
		j := i + 1
		if s.Pods[kq[i]].Phase == model.Terminating {
			for j < len(kq) && s.Pods[kq[j]].Phase == model.Terminating && s.Pods[kq[j]].Owner == s.Pods[kq[i]].Owner {
				j++
			}
		}
		if j-i > 1 {
			var block []int
			for k := i; k < j; k++ {
				block = append(block, k)
			}
			blocks = append(blocks, block)
		}
		i = j
	}
	items := slices.Clone(kq)
	best := ""
	t := s.Clone()
	permutations(len(items), blocks, func(perm []int) {
		for i := range kq {
			t.Queues[model.KubeletQueue][i] = items[perm[i]]
		}
		if key := string(c.AppendCanonical(nil, t)); best == "" || key < best {
			best = key
		}
	})
	return best
}

// TestKubeletQueueOrderOfPinnedPods: pods pinned by spec.nodeName bypass
// the scheduler, and the kubelet admits them in queue order against the
// pods it already runs. With room for two of three pinned pods, the
// queues A1, B1, A2 and A1, A2, B1 turn different pods away, so the
// canonical forms of the two states must differ: the kubelet queue is
// not a set there (symmetry/kubeletqueue.go).
func TestKubeletQueueOrderOfPinnedPods(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node().CPU(2))
	a := b.AddDeployment("a", b.AddTemplate(build.Template("a").Requests(1, 1).NodeName(0)), 2)
	c := b.AddDeployment("b", b.AddTemplate(build.Template("b").Requests(1, 1).NodeName(0)), 1)
	b.PendingPod(a, 0).PendingPod(c, 0).PendingPod(a, 0)
	b.Slots = 3
	u, s1 := b.MustBuild()
	s1.Init = model.InitMain
	s2 := s1.Clone()
	s1.Queues[model.KubeletQueue] = []uint16{0, 1, 2}
	s2.Queues[model.KubeletQueue] = []uint16{0, 2, 1}
	sys := &compose.System{U: u, Init: s1, Actors: compose.Actors(u, s1, compose.ActorOptions{})}
	turnedAway := func(s *model.State) int {
		for i := range sys.Actors {
			if sys.Actors[i].Process.Name() != "Kubelet" {
				continue
			}
			next := s.Clone()
			sys.Actors[i].Process.Step(model.NewTx(u), next)
			for p := range next.Pods {
				if next.Pods[p].Phase == model.Failed {
					return p
				}
			}
		}
		return -1
	}
	if x, y := turnedAway(s1), turnedAway(s2); x != 2 || y != 1 {
		t.Fatalf("the kubelet turned away slot %d from A1, B1, A2 and slot %d from A1, A2, B1; want 2 and 1", x, y)
	}
	c1 := symmetry.New(u, compose.SymmetryFacts(u))
	if k1, k2 := c1.AppendCanonical(nil, s1), c1.AppendCanonical(nil, s2); string(k1) == string(k2) {
		t.Fatal("the two kubelet queues have one canonical form")
	}
}
