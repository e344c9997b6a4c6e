package descheduler

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestAntiAffinityMatchesEveryOrder: RemovePodsViolatingInterPodAntiAffinity
// over zone (and sometimes hostname) terms on four nodes in two zones,
// pods of two priorities placed where the scheduler would not put them,
// sometimes under budgets and eviction limits. Upstream walks the node
// list in informer order and each node's pods in priority order, listing
// order among equals; an evicted pod is struck off the list, so the pods
// it conflicted with may stay. The test re-enacts that loop over every
// order of the nodes and of each node's pods (the model's conflict and
// evictor filters, measured against upstream in fidelity/deschedulerdiff;
// upstream's limits; the Eviction API) and requires the cycle's branches
// to reach exactly the evicted sets some order reaches.
func TestAntiAffinityMatchesEveryOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 31))
	check, crossNode := orderCheck{t: t}, 0
	for i := range 200 {
		b := build.New()
		zones := []string{"z1", "z1", "z2", "z2"}
		if r.IntN(3) == 0 {
			zones[2] = "z1"
		}
		for _, z := range zones {
			b.AddNodes(1, build.Node().CPU(64).Mem(64).Label(model.ZoneKey, z))
		}
		deps := 1 + r.IntN(2)
		var ds []int
		for k := range deps {
			key := model.ZoneKey
			if r.IntN(4) == 0 {
				key = model.HostnameKey
			}
			sel := []string{"app", fmt.Sprintf("d%d", k)}
			if r.IntN(3) == 0 {
				sel = []string{"tier", "web"}
			}
			tb := build.Template(fmt.Sprintf("t%d", k)).Requests(1, 1).Label("app", fmt.Sprintf("d%d", k)).Label("tier", "web").
				Namespace(namespaceOf(r)).Priority(int32(10*r.IntN(2))).PodAntiAffinity(key, sel...)
			ds = append(ds, b.AddDeployment(fmt.Sprintf("d%d", k), b.AddTemplate(tb), 0))
		}
		count := randomPods(r, b, ds, 2+r.IntN(5), 4, 6, 0)
		if r.IntN(3) == 0 {
			randomBudgets(r, b, deps)
		}
		b.U.Descheduler = policy(antiProfile(false))
		if r.IntN(3) == 0 {
			randomLimits(r, b.U.Descheduler)
		}
		u, s := buildDue(b, count)
		want := antiAffinityOrders(u, s)
		check.compare(i, u, s, cycleOutcomes(u, s, func(st *model.State) string { return evictedKinds(s, st) }), want)
		if keySpansNodes(u) && len(want) > 1 {
			crossNode++
		}
	}
	check.atLeast(30)
	t.Logf("%d with a key several nodes share", crossNode)
	if crossNode < 20 {
		t.Fatalf("only %d clusters with more than one outcome have a key several nodes share", crossNode)
	}
}

// antiAffinityOrders re-enacts upstream's anti-affinity loop over every
// node order and every listing order of each node's pods, and returns
// the evicted sets.
func antiAffinityOrders(u *model.Universe, s *model.State) map[string]bool {
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	c := newCycle(u, s.Clone(), tx, nil)
	p := &u.Descheduler.Profiles[0]
	a := podAntiAffinity{}
	listed := make([]bool, len(s.Pods))
	for pod := range s.Pods {
		ps := &s.Pods[pod]
		listed[pod] = bound(ps) && c.isReady[ps.NodeOf()] && c.admits(p.Deschedule.Filter(model.RemovePodsViolatingInterPodAntiAffinity), pod)
	}
	want := map[string]bool{}
	var rec func(st *model.State, e *upstreamEvictor, listed []bool, nodes []int)
	rec = func(st *model.State, e *upstreamEvictor, listed []bool, nodes []int) {
		if len(nodes) == 0 {
			want[evictedKinds(s, st)] = true
			return
		}
		for ni, n := range nodes {
			others := slices.Delete(slices.Clone(nodes), ni, ni+1)
			var onNode []int
			for pod := range s.Pods {
				if listed[pod] && s.Pods[pod].NodeOf() == n {
					onNode = append(onNode, pod)
				}
			}
			for _, order := range perms(onNode) {
				slices.SortStableFunc(order, func(x, y int) int {
					switch cx, cy := classOf(c, x), classOf(c, y); {
					case cx.less(cy):
						return -1
					case cy.less(cx):
						return 1
					}
					return 0
				})
				next, ne, nl := st.Clone(), e.clone(), slices.Clone(listed)
				stop := false
			pods:
				for _, pod := range order {
					if _, ok := a.conflict(c, pod, nl); !ok || !c.filter(p, pod) || !c.preEvictionFilter(p, pod) {
						continue
					}
					switch ne.evict(next, pod) {
					case evicted:
						nl[pod] = false
					case nodeLimit:
						break pods
					case totalLimit:
						stop = true
						break pods
					}
				}
				if stop {
					want[evictedKinds(s, next)] = true
					continue
				}
				rec(next, ne, nl, others)
			}
		}
	}
	rec(s.Clone(), newUpstreamEvictor(u, s), listed, slices.Clone(c.ready))
	return want
}

// keySpansNodes reports whether some template's anti-affinity term has a
// key with one value on two nodes (a zone): pods on different nodes then
// conflict.
func keySpansNodes(u *model.Universe) bool {
	for t := range u.Templates {
		for _, k := range u.Templates[t].PodAntiAffinity {
			seen := map[model.ValueID]bool{}
			for n := range u.Nodes {
				v := u.Nodes[n].LabelSet.Get(k.Key)
				if v != 0 && seen[v] {
					return true
				}
				seen[v] = true
			}
		}
	}
	return false
}
