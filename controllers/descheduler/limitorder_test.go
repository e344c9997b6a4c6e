package descheduler

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// Under a total or namespace eviction limit the descheduler's evictions
// depend on the order upstream walks its nodes in (the informer's node
// list, RemoveDuplicates' map of an owner's nodes), as they do under a
// disruption budget. These tests re-enact upstream's loops with its
// PodEvictor's limits over every order of owners, nodes and a node's
// listed pods, and require the cycle's branches to reach exactly the
// evicted sets some order reaches.

// upstreamEvictor re-enacts the PodEvictor's limits (evictions.go: the
// total, then the node's, then the namespace's, each checked before the
// Eviction API; a refused eviction counts against none) over
// model.Universe.CheckEviction.
type upstreamEvictor struct {
	u                        *model.Universe
	maxNode, maxNS, maxTotal int
	perNode                  []int
	perNS                    map[string]int
	total                    int
	// carryOut asks the Eviction API and carries an allowed eviction
	// out (reenact unless set).
	carryOut func(st *model.State, pod int) bool
}

func newUpstreamEvictor(u *model.Universe, s *model.State) *upstreamEvictor {
	d := u.Descheduler
	return &upstreamEvictor{u: u, maxNode: d.MaxPerNode, maxNS: d.MaxPerNamespace, maxTotal: d.MaxTotal,
		perNode: make([]int, len(s.Nodes)), perNS: map[string]int{}}
}

func (e *upstreamEvictor) clone() *upstreamEvictor {
	c := &upstreamEvictor{u: e.u, maxNode: e.maxNode, maxNS: e.maxNS, maxTotal: e.maxTotal,
		perNode: slices.Clone(e.perNode), perNS: map[string]int{}, total: e.total, carryOut: e.carryOut}
	for k, v := range e.perNS {
		c.perNS[k] = v
	}
	return c
}

// evict is PodEvictor.EvictPod on st.
func (e *upstreamEvictor) evict(st *model.State, pod int) evictOutcome {
	n := st.Pods[pod].NodeOf()
	ns := e.u.Templates[st.Pods[pod].Template].Namespace
	switch {
	case e.maxTotal > 0 && e.total+1 > e.maxTotal:
		return totalLimit
	case e.maxNode > 0 && e.perNode[n]+1 > e.maxNode:
		return nodeLimit
	case e.maxNS > 0 && e.perNS[ns]+1 > e.maxNS:
		return namespaceLimit
	}
	carryOut := e.carryOut
	if carryOut == nil {
		carryOut = func(st *model.State, pod int) bool { return reenact(e.u, st, pod) }
	}
	if !carryOut(st, pod) {
		return refused
	}
	e.total++
	e.perNode[n]++
	e.perNS[ns]++
	return evicted
}

// evictRun evicts pods one after another as a plugin's loop over a
// node's pods does: a node limit leaves the node, the total limit ends
// the plugin (it reports true), anything else goes on with the next pod.
func (e *upstreamEvictor) evictRun(st *model.State, pods []int) (stop bool) {
	for _, pod := range pods {
		switch e.evict(st, pod) {
		case nodeLimit:
			return false
		case totalLimit:
			return true
		}
	}
	return false
}

// randomLimits sets a total or a namespace limit (or both), and maybe a
// per-node one, on d.
func randomLimits(r *rand.Rand, d *model.Descheduler) {
	for d.MaxTotal == 0 && d.MaxPerNamespace == 0 {
		if r.IntN(3) > 0 {
			d.MaxTotal = 1 + r.IntN(3)
		}
		if r.IntN(3) == 0 {
			d.MaxPerNamespace = 1 + r.IntN(2)
		}
	}
	if r.IntN(3) == 0 {
		d.MaxPerNode = 1 + r.IntN(2)
	}
}

// namespaceOf picks a template's namespace, a or b.
func namespaceOf(r *rand.Rand) string { return []string{"a", "b"}[r.IntN(2)] }

// TestRemoveDuplicatesLimitsMatchEveryOrder: for random stacks of
// duplicates under a total or namespace limit (and sometimes a per-node
// limit and budgets), every order of the owners, of each owner's nodes
// and of each node's listed pods evicts a set the cycle branches to, and
// every branch is such a set.
func TestRemoveDuplicatesLimitsMatchEveryOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	contested := 0
	for i := range 150 {
		b := build.New()
		nodes := 4
		b.AddNodes(nodes, build.Node().CPU(64).Mem(64))
		deps := 1 + r.IntN(2)
		var ds []int
		for k := range deps {
			tb := build.Template(fmt.Sprintf("t%d", k)).Requests(1, 1).Label("app", fmt.Sprintf("d%d", k)).Label("tier", "web").Namespace(namespaceOf(r))
			ds = append(ds, b.AddDeployment(fmt.Sprintf("d%d", k), b.AddTemplate(tb), 0))
		}
		count := make([]int, deps)
		for range 4 + r.IntN(5) {
			d := r.IntN(deps)
			count[d]++
			n := r.IntN(2 + r.IntN(2))
			if r.IntN(5) == 0 {
				b.PendingPod(ds[d], n)
			} else {
				b.RunPod(ds[d], n)
			}
		}
		if r.IntN(3) == 0 {
			randomBudgets(r, b, deps)
		}
		b.U.Descheduler = policy(dupProfile(false))
		randomLimits(r, b.U.Descheduler)
		b.Slots = 12
		u, s := b.MustBuild()
		for d := range deps {
			s.Deps[d].Replicas = int16(count[d])
		}
		s.DeschedulerPending = true
		got := map[string]bool{}
		for _, o := range outcomes(t, u, s) {
			got[kinds(s, o)] = true
		}
		want := map[string]bool{}
		dupOrdersLimited(t, u, s, func(st *model.State) { want[evictedKinds(s, st)] = true })
		if fmt.Sprint(sortedKeys(got)) != fmt.Sprint(sortedKeys(want)) {
			d := u.Descheduler
			t.Fatalf("case %d (limits node %d, namespace %d, total %d): cycle outcomes %v, every upstream order %v\n%s",
				i, d.MaxPerNode, d.MaxPerNamespace, d.MaxTotal, sortedKeys(got), sortedKeys(want), Explain(u, s))
		}
		if len(want) > 1 {
			contested++
		}
	}
	t.Logf("%d of 150 clusters have more than one outcome", contested)
	if contested < 20 {
		t.Fatalf("only %d of 150 clusters have more than one outcome", contested)
	}
}

// dupOrdersLimited is dupOrders with upstream's eviction limits: a node
// limit leaves the owner's node, the total limit ends the plugin.
func dupOrdersLimited(t *testing.T, u *model.Universe, s *model.State, f func(*model.State)) {
	t.Helper()
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	c := newCycle(u, s.Clone(), tx, nil)
	p := &u.Descheduler.Profiles[0]
	type ownerNodes struct {
		upper int
		nodes [][]int
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

// TestNodeTaintsLimitsMatchEveryOrder: RemovePodsViolatingNodeTaints
// under a total or namespace limit (sometimes a per-node limit and
// budgets) reaches exactly the evicted sets of every order of the node
// list and of each node's listed pods.
func TestNodeTaintsLimitsMatchEveryOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 17))
	contested := 0
	for i := range 150 {
		b := build.New()
		b.AddNodes(3, build.Node().CPU(64).Mem(64).Taint("spot", "true", model.NoSchedule))
		b.AddNodes(1, build.Node().CPU(64).Mem(64))
		deps := 1 + r.IntN(2)
		var ds []int
		for k := range deps {
			tb := build.Template(fmt.Sprintf("t%d", k)).Requests(1, 1).Label("app", fmt.Sprintf("d%d", k)).Label("tier", "web").Namespace(namespaceOf(r))
			ds = append(ds, b.AddDeployment(fmt.Sprintf("d%d", k), b.AddTemplate(tb), 0))
		}
		count := make([]int, deps)
		for range 2 + r.IntN(5) {
			d := r.IntN(deps)
			count[d]++
			if n := r.IntN(4); r.IntN(5) == 0 {
				b.PendingPod(ds[d], n)
			} else {
				b.RunPod(ds[d], n)
			}
		}
		if r.IntN(3) == 0 {
			randomBudgets(r, b, deps)
		}
		b.U.Descheduler = policy(model.DeschedulerProfile{Name: "taints",
			Deschedule: model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingNodeTaints}}})
		randomLimits(r, b.U.Descheduler)
		b.Slots = 12
		u, s := b.MustBuild()
		for d := range deps {
			s.Deps[d].Replicas = int16(count[d])
		}
		s.DeschedulerPending = true
		got := map[string]bool{}
		for _, o := range outcomes(t, u, s) {
			got[kinds(s, o)] = true
		}
		var tainted [][]int
		for n := range 3 {
			var ps []int
			for p := range s.Pods {
				if s.Pods[p].NodeOf() == n && s.Pods[p].Active() {
					ps = append(ps, p)
				}
			}
			if len(ps) > 0 {
				tainted = append(tainted, ps)
			}
		}
		want := map[string]bool{}
		var rec func(st *model.State, e *upstreamEvictor, nodes [][]int)
		rec = func(st *model.State, e *upstreamEvictor, nodes [][]int) {
			if len(nodes) == 0 {
				want[evictedKinds(s, st)] = true
				return
			}
			for ni := range nodes {
				others := slices.Delete(slices.Clone(nodes), ni, ni+1)
				for _, order := range perms(nodes[ni]) {
					next, ne := st.Clone(), e.clone()
					if ne.evictRun(next, order) {
						want[evictedKinds(s, next)] = true
						continue
					}
					rec(next, ne, others)
				}
			}
		}
		rec(s.Clone(), newUpstreamEvictor(u, s), tainted)
		if fmt.Sprint(sortedKeys(got)) != fmt.Sprint(sortedKeys(want)) {
			d := u.Descheduler
			t.Fatalf("case %d (limits node %d, namespace %d, total %d): cycle outcomes %v, every upstream order %v\n%s",
				i, d.MaxPerNode, d.MaxPerNamespace, d.MaxTotal, sortedKeys(got), sortedKeys(want), Explain(u, s))
		}
		if len(want) > 1 {
			contested++
		}
	}
	t.Logf("%d of 150 clusters have more than one outcome", contested)
	if contested < 20 {
		t.Fatalf("only %d of 150 clusters have more than one outcome", contested)
	}
}

// TestRemoveFailedPodsLimitsMatchEveryOrder: RemoveFailedPods under a
// total or namespace limit (sometimes a per-node one) deletes exactly the
// sets of Failed pods some order of the node list and of each node's
// listed pods deletes (the API server deletes a Failed pod at once; no
// budget refuses it).
func TestRemoveFailedPodsLimitsMatchEveryOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 23))
	contested := 0
	for i := range 150 {
		b := build.New()
		b.AddNodes(4, build.Node().CPU(64).Mem(64))
		deps := 1 + r.IntN(2)
		var ds []int
		for k := range deps {
			tb := build.Template(fmt.Sprintf("t%d", k)).Requests(1, 1).Label("app", fmt.Sprintf("d%d", k)).Namespace(namespaceOf(r))
			ds = append(ds, b.AddDeployment(fmt.Sprintf("d%d", k), b.AddTemplate(tb), 0))
		}
		count := make([]int, deps)
		for range 2 + r.IntN(5) {
			d := r.IntN(deps)
			count[d]++
			b.RunPod(ds[d], r.IntN(4))
		}
		b.U.Descheduler = policy(model.DeschedulerProfile{Name: "failed",
			Deschedule: model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemoveFailedPods}}})
		randomLimits(r, b.U.Descheduler)
		b.Slots = 12
		u, s := b.MustBuild()
		for d := range deps {
			s.Deps[d].Replicas = int16(count[d])
		}
		var failed [][]int
		for n := range 4 {
			var ps []int
			for p := range s.Pods {
				if s.Pods[p].NodeOf() == n && s.Pods[p].Active() && r.IntN(4) > 0 {
					s.Pods[p].Phase = model.Failed
					ps = append(ps, p)
				}
			}
			if len(ps) > 0 {
				failed = append(failed, ps)
			}
		}
		s.DeschedulerPending = true
		deleted := func(st *model.State) string {
			var ps []int
			for p := range s.Pods {
				if s.Pods[p].Phase == model.Failed && st.Pods[p].Phase != model.Failed {
					ps = append(ps, p+1)
				}
			}
			return kinds(s, ps)
		}
		got := map[string]bool{}
		tx := model.NewTx(u)
		tx.Begin(nil, false)
		for {
			next := s.Clone()
			newCycle(u, next, tx, nil).runDeschedule()
			got[deleted(next)] = true
			if !tx.Advance() {
				break
			}
			tx.Restart(false)
		}
		want := map[string]bool{}
		e := newUpstreamEvictor(u, s)
		e.carryOut = func(st *model.State, pod int) bool { st.Pods[pod] = model.PodState{}; return true }
		var rec func(st *model.State, e *upstreamEvictor, nodes [][]int)
		rec = func(st *model.State, e *upstreamEvictor, nodes [][]int) {
			if len(nodes) == 0 {
				want[deleted(st)] = true
				return
			}
			for ni := range nodes {
				others := slices.Delete(slices.Clone(nodes), ni, ni+1)
				for _, order := range perms(nodes[ni]) {
					next, ne := st.Clone(), e.clone()
					if ne.evictRun(next, order) {
						want[deleted(next)] = true
						continue
					}
					rec(next, ne, others)
				}
			}
		}
		rec(s.Clone(), e, failed)
		if fmt.Sprint(sortedKeys(got)) != fmt.Sprint(sortedKeys(want)) {
			d := u.Descheduler
			t.Fatalf("case %d (limits node %d, namespace %d, total %d): cycle outcomes %v, every upstream order %v\n%s",
				i, d.MaxPerNode, d.MaxPerNamespace, d.MaxTotal, sortedKeys(got), sortedKeys(want), Explain(u, s))
		}
		if len(want) > 1 {
			contested++
		}
	}
	t.Logf("%d of 150 clusters have more than one outcome", contested)
	if contested < 20 {
		t.Fatalf("only %d of 150 clusters have more than one outcome", contested)
	}
}
