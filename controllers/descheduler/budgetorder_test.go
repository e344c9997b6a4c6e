package descheduler

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// Under PodDisruptionBudgets the descheduler's evictions depend on the
// order upstream takes its owners, nodes and pods in. These tests re-enact
// upstream's loops over every such order, asking the model's Eviction API
// (model.Universe.CheckEviction, measured against the API server in
// fidelity/deschedulerdiff) pod by pod, and require the cycle's branches to
// reach exactly the evicted sets some order reaches, as multisets of pod
// contents.

// randomBudgets gives b's deployments app labels and puts one to three
// budgets over them: one deployment's pods, or a tier of several, with
// maxUnavailable or minAvailable; a budget may overlap another (its pods
// are then refused for good).
func randomBudgets(r *rand.Rand, b *build.Builder, deps int) {
	for range 1 + r.IntN(3) {
		sel := map[string]string{"app": fmt.Sprintf("d%d", r.IntN(deps))}
		if r.IntN(3) == 0 {
			sel = map[string]string{"tier": "web"}
		}
		pdb := model.PodDisruptionBudget{Name: fmt.Sprintf("pdb%d", len(b.U.PDBs)), Selector: &model.Selector{MatchLabels: sel}}
		if r.IntN(2) == 0 {
			pdb.MaxUnavailable = &model.IntOrPercent{Value: r.IntN(3)}
		} else {
			pdb.MinAvailable = &model.IntOrPercent{Value: 1 + r.IntN(4)}
		}
		b.U.PDBs = append(b.U.PDBs, pdb)
	}
}

// reenact asks the Eviction API about pod in st as upstream's Evict does
// and carries an allowed eviction out; it reports whether it was.
func reenact(u *model.Universe, st *model.State, pod int) bool {
	if u.CheckEviction(st, pod).Outcome != model.EvictionAllowed {
		return false
	}
	st.RequestDeletion(pod)
	return true
}

// evictedKinds renders the pods s had active and st has terminating.
func evictedKinds(s, st *model.State) string { return kinds(s, evictedBy(s, st)) }

// TestRemoveDuplicatesBudgetsMatchEveryOrder: for random stacks of
// duplicates under budgets, every order of the owners, of each owner's
// nodes and of each node's listed pods (upstream keeps the first pods of a
// node in listing order and evicts the rest, in that order) evicts a set
// the cycle branches to, and every branch is such a set.
func TestRemoveDuplicatesBudgetsMatchEveryOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	contested := 0
	for i := range 200 {
		u, s := randomDuplicates(r, false)
		got := map[string]bool{}
		for _, o := range outcomes(t, u, s) {
			got[kinds(s, o)] = true
		}
		want := map[string]bool{}
		dupOrders(t, u, s, func(st *model.State) { want[evictedKinds(s, st)] = true })
		if fmt.Sprint(sortedKeys(got)) != fmt.Sprint(sortedKeys(want)) {
			t.Fatalf("case %d: cycle outcomes %v, every upstream order %v\n%s", i, sortedKeys(got), sortedKeys(want), Explain(u, s))
		}
		if len(want) > 1 {
			contested++
		}
	}
	t.Logf("%d of 200 clusters have more than one outcome", contested)
	if contested < 20 {
		t.Fatalf("only %d of 200 clusters have more than one outcome", contested)
	}
}

// randomDuplicates stacks pods of one or two deployments (each its own
// owner; Running, or Pending in one of five) mostly on the first nodes of
// four, under random budgets; with limits, in namespaces a and b, under
// an eviction limit (randomLimits) and budgets one time in three.
func randomDuplicates(r *rand.Rand, limits bool) (*model.Universe, *model.State) {
	b := build.New()
	nodes := 4
	b.AddNodes(nodes, build.Node().CPU(64).Mem(64))
	ds := randomDeployments(r, b, limits)
	deps := len(ds)
	count := make([]int, deps)
	for range 5 + r.IntN(6) {
		d := r.IntN(deps)
		count[d]++
		// Piled on the first two or three nodes: duplicates on several
		// nodes, with room for them elsewhere.
		n := r.IntN(2 + r.IntN(2))
		if r.IntN(4) == 0 {
			n = r.IntN(nodes)
		}
		if r.IntN(5) == 0 {
			b.PendingPod(ds[d], n)
		} else {
			b.RunPod(ds[d], n)
		}
	}
	if !limits || r.IntN(3) == 0 {
		randomBudgets(r, b, deps)
	}
	b.U.Descheduler = policy(dupProfile(false))
	if limits {
		randomLimits(r, b.U.Descheduler)
	}
	return buildDue(b, count)
}

// dupOrders re-enacts RemoveDuplicates over every order of the owners,
// of each owner's nodes and of each node's listed pods (a node evicts all
// but its first upper pods), with upstream's eviction limits (a node
// limit leaves the owner's node, the total limit ends the plugin), and
// calls f with each end state.
func dupOrders(t *testing.T, u *model.Universe, s *model.State, f func(*model.State)) {
	t.Helper()
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	c := newCycle(u, s.Clone(), tx, nil)
	p := &u.Descheduler.Profiles[0]
	type ownerNodes struct {
		upper int
		nodes [][]int // the owner's listed pods, per node with duplicates
	}
	var owners []ownerNodes
	for _, o := range (removeDuplicates{}).listOwners(c, p) {
		targets := c.targetNodes(int(o.key.template))
		if !o.hasDuplicates() || targets < 2 {
			continue
		}
		on := ownerNodes{upper: ceilDiv(o.occurrence, targets)}
		for _, pods := range o.onNode {
			if len(pods) > on.upper {
				on.nodes = append(on.nodes, pods)
			}
		}
		owners = append(owners, on)
	}
	var rec func(st *model.State, e *upstreamEvictor, owners []ownerNodes)
	rec = func(st *model.State, e *upstreamEvictor, owners []ownerNodes) {
		if len(owners) == 0 {
			f(st)
			return
		}
		for oi := range owners {
			rest := slices.Delete(slices.Clone(owners), oi, oi+1)
			o := owners[oi]
			var nodesRec func(st *model.State, e *upstreamEvictor, nodes [][]int)
			nodesRec = func(st *model.State, e *upstreamEvictor, nodes [][]int) {
				if len(nodes) == 0 {
					rec(st, e, rest)
					return
				}
				for ni := range nodes {
					others := slices.Delete(slices.Clone(nodes), ni, ni+1)
					for _, order := range perms(nodes[ni]) {
						next, ne := st.Clone(), e.clone()
						if ne.evictRun(next, order[o.upper:]) {
							f(next)
							continue
						}
						nodesRec(next, ne, others)
					}
				}
			}
			nodesRec(st, e, o.nodes)
		}
	}
	rec(s.Clone(), newUpstreamEvictor(u, s), owners)
}

// TestNodeUtilizationBudgetsMatchEveryOrder is TestWalkOutcomesMatchEveryOrder
// under budgets: upstream skips a pod the Eviction API refuses, without
// charging the headroom or the node's limit, and walks on. Templates
// carry random priorities, so a node's pods fall into up to four
// (priority, QoS) classes and a budget may span several of them.
func TestNodeUtilizationBudgetsMatchEveryOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 19))
	refusedSome := 0
	for i := range 300 {
		u, s := randomNUClusterWithBudgets(r, i%2 == 0)
		got := map[string]bool{}
		for _, o := range outcomes(t, u, s) {
			got[kinds(s, o)] = true
		}
		want := map[string]bool{}
		refused := false
		for _, st := range nuOrdersWithBudgets(u, s, &refused) {
			want[evictedKinds(s, st)] = true
		}
		if refused {
			refusedSome++
		}
		if fmt.Sprint(sortedKeys(got)) != fmt.Sprint(sortedKeys(want)) {
			t.Fatalf("case %d: cycle outcomes %v, every upstream order %v\n%s", i, sortedKeys(got), sortedKeys(want), Explain(u, s))
		}
	}
	t.Logf("a budget refused in %d of 300", refusedSome)
	if refusedSome < 30 {
		t.Fatalf("a budget refused an eviction in only %d of 300 clusters", refusedSome)
	}
}

func randomNUClusterWithBudgets(r *rand.Rand, low bool) (*model.Universe, *model.State) {
	b := build.New()
	nodes := 2 + r.IntN(3)
	for n := range nodes {
		b.AddNodes(1, nuNode(fmt.Sprintf("n%d", n+1), 2000, 2000, 6+r.IntN(3)))
	}
	sizes := []int64{0, 200, 300, 500}
	var deps []int
	for k := range 4 {
		tb := build.Template(fmt.Sprintf("t%d", k)).Requests(sizes[r.IntN(len(sizes))], sizes[r.IntN(len(sizes))]).
			Label("app", fmt.Sprintf("d%d", k)).Priority(int32(10 * r.IntN(3)))
		if k < 2 {
			tb.Label("tier", "web")
		}
		deps = append(deps, b.AddDeployment(fmt.Sprintf("d%d", k), b.AddTemplate(tb), 0))
	}
	count := make([]int, len(deps))
	for range 3 + r.IntN(6) {
		d := r.IntN(len(deps))
		count[d]++
		if r.IntN(6) == 0 {
			b.PendingPod(deps[d], r.IntN(nodes))
		} else {
			b.RunPod(deps[d], r.IntN(nodes))
		}
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
	randomBudgets(r, b, len(deps))
	b.U.Descheduler = policy(p)
	u, s := b.MustBuild()
	for d := range deps {
		s.Deps[d].Replicas = int16(count[d])
	}
	s.DeschedulerPending = true
	return u, s
}

// nuOrdersWithBudgets walks every order upstream may take, asking the
// Eviction API before each eviction, and returns the end states; refused
// says whether some order saw a refusal.
func nuOrdersWithBudgets(u *model.Universe, s *model.State, refused *bool) []*model.State {
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	c := newCycle(u, s.Clone(), tx, nil)
	p := &u.Descheduler.Profiles[0]
	var w *walk
	var sources []nodeUsage
	if !planSetup(c, p, func(pw *walk, src []nodeUsage) { w, sources = pw, src }) {
		return []*model.State{s.Clone()}
	}
	var out []*model.State
	var rec func(st *model.State, rest []nodeUsage, avail resources)
	rec = func(st *model.State, rest []nodeUsage, avail resources) {
		if len(rest) == 0 {
			out = append(out, st)
			return
		}
		for i := range rest {
			if usageKey(&rest[i]) != usageKey(&rest[0]) {
				break
			}
			nu := rest[i]
			others := slices.Delete(slices.Clone(rest), i, i+1)
			pods, class := w.eligible(&nu)
			for _, order := range classOrders(pods, class) {
				next := st.Clone()
				a, used := avail, nu.used
				evicted := 0
				if len(pods) > 0 && w.cont(&nu, used, a) {
					for _, pod := range order {
						if w.nodeLimit >= 0 && evicted >= w.nodeLimit {
							break
						}
						if !reenact(u, next, pod) {
							*refused = true
							continue
						}
						evicted++
						req := c.podRequests(pod)
						for k := range nRes {
							used[k] -= req[k]
							a[k] -= req[k]
						}
						if !w.cont(&nu, used, a) {
							break
						}
					}
				}
				rec(next, others, a)
			}
		}
	}
	rec(s.Clone(), sources, w.avail)
	return out
}

// TestNodeTaintsBudgetsMatchEveryOrder: RemovePodsViolatingNodeTaints
// walks the node list and each node's pods in informer order, evicting
// every pod that does not tolerate its node's taint; under random budgets
// every order of the nodes and of each node's pods evicts a set the cycle
// branches to, and every branch is such a set.
func TestNodeTaintsBudgetsMatchEveryOrder(t *testing.T) {
	taintsMatchEveryOrder(t, rand.New(rand.NewPCG(41, 43)), 200, 20, true, false)
}

// taintsMatchEveryOrder compares, on n random tainted clusters
// (randomTaintedCluster), the cycle's outcomes with every upstream order's,
// at least min clusters having more than one.
func taintsMatchEveryOrder(t *testing.T, r *rand.Rand, n, min int, budgets, limits bool) {
	check := orderCheck{t: t}
	for i := range n {
		u, s, tainted := randomTaintedCluster(r, budgets, limits)
		want := map[string]bool{}
		nodeOrders(s.Clone(), newUpstreamEvictor(u, s), tainted, func(st *model.State) { want[evictedKinds(s, st)] = true })
		check.compare(i, u, s, cycleOutcomes(u, s, func(st *model.State) string { return evictedKinds(s, st) }), want)
	}
	check.atLeast(min)
}

// randomDeployments adds one or two deployments d0, d1 of one-CPU pods
// labelled app=d<k> and tier=web (what randomBudgets selects), each in a
// namespace of namespaceOf when namespaced (what randomLimits counts by).
func randomDeployments(r *rand.Rand, b *build.Builder, namespaced bool) []int {
	var ds []int
	for k := range 1 + r.IntN(2) {
		tb := build.Template(fmt.Sprintf("t%d", k)).Requests(1, 1).Label("app", fmt.Sprintf("d%d", k)).Label("tier", "web")
		if namespaced {
			tb.Namespace(namespaceOf(r))
		}
		ds = append(ds, b.AddDeployment(fmt.Sprintf("d%d", k), b.AddTemplate(tb), 0))
	}
	return ds
}

// activeOn is node n's Pending and Running pods, in slot order.
func activeOn(s *model.State, n int) []int {
	var ps []int
	for p := range s.Pods {
		if s.Pods[p].NodeOf() == n && s.Pods[p].Active() {
			ps = append(ps, p)
		}
	}
	return ps
}

// randomTaintedCluster: three nodes tainted spot=true:NoSchedule and a
// clean one, pods of one or two deployments (tier web) placed at random,
// some Pending, some busier than the others,
// budgets over them (with budgets; else one time in three) and an
// eviction limit (with limits: randomLimits); RemovePodsViolatingNodeTaints
// is due. It returns the tainted nodes' active pods, node by node.
func randomTaintedCluster(r *rand.Rand, budgets, limits bool) (*model.Universe, *model.State, [][]int) {
	b := build.New()
	b.AddNodes(3, build.Node().CPU(64).Mem(64).Taint("spot", "true", model.NoSchedule))
	b.AddNodes(1, build.Node().CPU(64).Mem(64))
	ds := randomDeployments(r, b, limits)
	count := randomPods(r, b, ds, 2+r.IntN(5), 4, 5, 4)
	if budgets || r.IntN(3) == 0 {
		randomBudgets(r, b, len(ds))
	}
	b.U.Descheduler = policy(model.DeschedulerProfile{Name: "taints",
		Deschedule: model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingNodeTaints}}})
	if limits {
		randomLimits(r, b.U.Descheduler)
	}
	u, s := buildDue(b, count)
	var tainted [][]int
	for n := range 3 {
		if ps := activeOn(s, n); len(ps) > 0 {
			tainted = append(tainted, ps)
		}
	}
	return u, s, tainted
}

// TestNodeUtilizationBudgetAcrossPriorityClasses: a budget over two
// priority classes is used up by the lower one, so the node-utilisation
// walk sees the middle class refused and goes on to the highest, where
// either of two pods may go first. Both sets are upstream's, and the
// cycle must branch to both.
func TestNodeUtilizationBudgetAcrossPriorityClasses(t *testing.T) {
	b := build.New()
	b.AddNodes(1, nuNode("n1", 2000, 2000, 8))
	b.AddNodes(1, nuNode("n2", 2000, 2000, 8))
	var deps []int
	for k, tc := range []struct {
		cpu      int64
		priority int32
	}{{300, 0}, {300, 10}, {300, 20}, {500, 20}} {
		tb := build.Template(fmt.Sprintf("t%d", k)).Requests(tc.cpu, tc.cpu).Label("app", fmt.Sprintf("d%d", k)).Priority(tc.priority)
		if k < 2 {
			tb.Label("tier", "web")
		}
		deps = append(deps, b.AddDeployment(fmt.Sprintf("d%d", k), b.AddTemplate(tb), 0))
	}
	for _, d := range deps {
		b.RunPod(d, 0)
	}
	b.U.PDBs = append(b.U.PDBs, model.PodDisruptionBudget{Name: "web",
		Selector:       &model.Selector{MatchLabels: map[string]string{"tier": "web"}},
		MaxUnavailable: &model.IntOrPercent{Value: 1}})
	b.U.Descheduler = policy(lnuProfile(thr(10, -1, -1), thr(30, -1, -1)))
	u, s := b.MustBuild()
	for d := range deps {
		s.Deps[d].Replicas = 1
	}
	s.DeschedulerPending = true
	got := map[string]bool{}
	for _, o := range outcomes(t, u, s) {
		got[kinds(s, o)] = true
	}
	want := map[string]bool{}
	refused := false
	for _, st := range nuOrdersWithBudgets(u, s, &refused) {
		want[evictedKinds(s, st)] = true
	}
	if !refused || len(want) != 2 {
		t.Fatalf("the cluster no longer has a refusal and two outcomes: refused %t, %v", refused, sortedKeys(want))
	}
	if fmt.Sprint(sortedKeys(got)) != fmt.Sprint(sortedKeys(want)) {
		t.Fatalf("cycle outcomes %v, every upstream order %v\n%s", sortedKeys(got), sortedKeys(want), Explain(u, s))
	}
	// Every order tries the middle class's pod (pod#2) and sees it
	// refused: the trace says so.
	_, lines, _ := runCycle(t, u, s)
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "Error evicting pod pod#2") }) {
		t.Fatalf("no refused eviction of pod#2 in the trace:\n%s", strings.Join(lines, "\n"))
	}
}
