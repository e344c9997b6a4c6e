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

// orderCheck compares, cluster by cluster, the evicted sets of a cycle's
// branches with those of every upstream order, and counts the clusters
// with more than one.
type orderCheck struct {
	t                   *testing.T
	clusters, contested int
}

// compare fails the test unless got (the cycle's outcomes) equals want
// (every upstream order's).
func (o *orderCheck) compare(i int, u *model.Universe, s *model.State, got, want map[string]bool) {
	o.t.Helper()
	o.clusters++
	if fmt.Sprint(sortedKeys(got)) != fmt.Sprint(sortedKeys(want)) {
		d := u.Descheduler
		o.t.Fatalf("case %d (limits node %d, namespace %d, total %d): cycle outcomes %v, every upstream order %v\n%s",
			i, d.MaxPerNode, d.MaxPerNamespace, d.MaxTotal, sortedKeys(got), sortedKeys(want), Explain(u, s))
	}
	if len(want) > 1 {
		o.contested++
	}
}

// atLeast fails the test when fewer than min clusters had more than one
// outcome: the test would not show the orders matter.
func (o *orderCheck) atLeast(min int) {
	o.t.Helper()
	o.t.Logf("%d of %d clusters have more than one outcome", o.contested, o.clusters)
	if o.contested < min {
		o.t.Fatalf("only %d of %d clusters have more than one outcome", o.contested, o.clusters)
	}
}

// cycleOutcomes renders, with render, the end state of every branch of a
// descheduling cycle from s.
func cycleOutcomes(u *model.Universe, s *model.State, render func(*model.State) string) map[string]bool {
	got := map[string]bool{}
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	for {
		next := s.Clone()
		New().Step(tx, next)
		got[render(next)] = true
		if !tx.Advance() {
			return got
		}
		tx.Restart(false)
	}
}

// nodeOrders re-enacts a deschedule plugin's walk over every order of
// nodes (each a node's candidates) and of each node's candidates, with
// upstream's limits, and calls end with every end state.
func nodeOrders(st *model.State, e *upstreamEvictor, nodes [][]int, end func(*model.State)) {
	if len(nodes) == 0 {
		end(st)
		return
	}
	for ni := range nodes {
		others := slices.Delete(slices.Clone(nodes), ni, ni+1)
		for _, order := range perms(nodes[ni]) {
			next, ne := st.Clone(), e.clone()
			if ne.evictRun(next, order) {
				end(next)
				continue
			}
			nodeOrders(next, ne, others, end)
		}
	}
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

// randomPods places n pods of the deployments ds, each on one of the
// first nodes nodes, Pending one time in pendingIn and, of the others,
// using 2 CPU one time in busyIn (never with 0), and returns how many each
// deployment got.
func randomPods(r *rand.Rand, b *build.Builder, ds []int, n, nodes, pendingIn, busyIn int) []int {
	count := make([]int, len(ds))
	for range n {
		d := r.IntN(len(ds))
		count[d]++
		switch at := r.IntN(nodes); {
		case pendingIn > 0 && r.IntN(pendingIn) == 0:
			b.PendingPod(ds[d], at)
		case busyIn > 0 && r.IntN(busyIn) == 0:
			b.RunPodCPU(ds[d], at, 2)
		default:
			b.RunPod(ds[d], at)
		}
	}
	return count
}

// buildDue builds b with twelve pod slots, each deployment's spec at
// count of its pods, and a descheduling cycle due.
func buildDue(b *build.Builder, count []int) (*model.Universe, *model.State) {
	b.Slots = 12
	u, s := b.MustBuild()
	for d, n := range count {
		s.Deps[d].Replicas = int16(n)
	}
	s.DeschedulerPending = true
	return u, s
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
	check := orderCheck{t: t}
	for i := range 150 {
		u, s := randomDuplicates(r, true)
		want := map[string]bool{}
		dupOrders(t, u, s, func(st *model.State) { want[evictedKinds(s, st)] = true })
		check.compare(i, u, s, cycleOutcomes(u, s, func(st *model.State) string { return evictedKinds(s, st) }), want)
	}
	check.atLeast(20)
}

// TestNodeTaintsLimitsMatchEveryOrder: RemovePodsViolatingNodeTaints
// under a total or namespace limit (sometimes a per-node limit and
// budgets) reaches exactly the evicted sets of every order of the node
// list and of each node's listed pods.
func TestNodeTaintsLimitsMatchEveryOrder(t *testing.T) {
	taintsMatchEveryOrder(t, rand.New(rand.NewPCG(13, 17)), 150, 20, false, true)
}

// TestRemoveFailedPodsLimitsMatchEveryOrder: RemoveFailedPods under a
// total or namespace limit (sometimes a per-node one) deletes exactly the
// sets of Failed pods some order of the node list and of each node's
// listed pods deletes (the API server deletes a Failed pod at once; no
// budget refuses it).
func TestRemoveFailedPodsLimitsMatchEveryOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 23))
	check := orderCheck{t: t}
	for i := range 150 {
		b := build.New()
		b.AddNodes(4, build.Node().CPU(64).Mem(64))
		ds := randomDeployments(r, b, true)
		count := randomPods(r, b, ds, 2+r.IntN(5), 4, 0, 0)
		b.U.Descheduler = policy(model.DeschedulerProfile{Name: "failed",
			Deschedule: model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemoveFailedPods}}})
		randomLimits(r, b.U.Descheduler)
		u, s := buildDue(b, count)
		var failed [][]int
		for n := range 4 {
			var ps []int
			for _, p := range activeOn(s, n) {
				if r.IntN(4) > 0 {
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
		want := map[string]bool{}
		e := newUpstreamEvictor(u, s)
		e.carryOut = func(st *model.State, pod int) bool { st.Pods[pod] = model.PodState{}; return true }
		nodeOrders(s.Clone(), e, failed, func(st *model.State) { want[deleted(st)] = true })
		check.compare(i, u, s, cycleOutcomes(u, s, deleted), want)
	}
	check.atLeast(20)
}
