package deschedulerdiff

import (
	"math/rand/v2"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestKnownClasses runs one hand-written snapshot per known class, and
// one per fixed model bug, and checks the verdict: the class, or
// agreement. Each example is a minimal disagreement of the class.
func TestKnownClasses(t *testing.T) {
	ctx := t.Context()
	d := NewDisruption(ctx)
	node := Node{MilliCPU: 1000, MemMiB: 1024, MaxPods: 110}
	small := Node{MilliCPU: 1000, MemMiB: 1024, MaxPods: 10}
	th := func(r model.Resource, v float64) model.ResourceThresholds {
		var t model.ResourceThresholds
		t.Set(r, v)
		return t
	}
	lnu := func(low, target model.ResourceThresholds) model.DeschedulerProfile {
		return model.DeschedulerProfile{Balance: []model.BalancePlugin{model.LowNodeUtilization},
			LowNodeUtilization: &model.LowNodeUtilizationArgs{Thresholds: low, TargetThresholds: target}}
	}
	diskExists := model.Selector{MatchExpressions: []model.Requirement{{Key: DiskKey, Operator: model.OpExists}}}
	cases := []struct {
		name string
		s    Snapshot
		want string
	}{{
		// Fixed model divergence: n1 is above its cpu target with a
		// critical BestEffort pod and a 600m pod. The model walked
		// BestEffort pods first and evicted both; upstream, and now the
		// model, walk the priority-0 pod first, after which n1 is below
		// target.
		name: "pod order by priority before QoS",
		s: Snapshot{Plugin: LowNodeUtilization, Nodes: []Node{node, node},
			Deps: []Dep{{Tier: "a", Critical: true, Replicas: 1}, {Tier: "a", MilliCPU: 600, Replicas: 1}},
			Pods: []Pod{{Dep: 0, Node: 0, Running: true}, {Dep: 1, Node: 0, Running: true}},
			Profile: func() model.DeschedulerProfile {
				p := lnu(th(model.ResourceCPU, 20), th(model.ResourceCPU, 50))
				p.EvictSystemCriticalPods = true
				return p
			}()},
		want: "",
	}, {
		// Fixed model divergence (node order under a total limit): one
		// ReplicaSet stacked three pods each on n1 and n2 of four nodes;
		// each node would lose one, but the total limit allows one
		// eviction. Upstream walks the owner's nodes in map order and
		// evicts n1's pod in some runs, n2's in others; the model walked
		// them in index order and evicted n1's only, and now branches
		// over which node comes first where the limit runs out.
		name: "node order under a total limit",
		s: Snapshot{Plugin: RemoveDuplicates, Nodes: []Node{node, node, node, node},
			Deps: []Dep{{Tier: "a", Replicas: 6}},
			Pods: []Pod{{Dep: 0, Node: 0, Running: true}, {Dep: 0, Node: 0, Running: true}, {Dep: 0, Node: 0, Running: true},
				{Dep: 0, Node: 1, Running: true}, {Dep: 0, Node: 1, Running: true}, {Dep: 0, Node: 1, Running: true}},
			MaxTotal: 1,
			Profile:  model.DeschedulerProfile{Balance: []model.BalancePlugin{model.RemoveDuplicates}}},
		want: "",
	}, {
		// Two ReplicaSets stacked three pods each on n1; each would lose
		// one, but the total limit allows one eviction: upstream walks
		// owners in map order, and the model branches over the owner
		// order where a limit cuts across owners.
		name: "owner order under a limit",
		s: Snapshot{Plugin: RemoveDuplicates, Nodes: []Node{node, node},
			Deps: []Dep{{Tier: "a", Replicas: 3}, {Tier: "a", Replicas: 3}},
			Pods: []Pod{{Dep: 0, Node: 0, Running: true}, {Dep: 0, Node: 0, Running: true}, {Dep: 0, Node: 0, Running: true},
				{Dep: 1, Node: 0, Running: true}, {Dep: 1, Node: 0, Running: true}, {Dep: 1, Node: 0, Running: true}},
			MaxTotal: 1,
			Profile:  model.DeschedulerProfile{Balance: []model.BalancePlugin{model.RemoveDuplicates}}},
		want: "",
	}, {
		// Pod shares 30, 3.6, 20 and 0.9 %: their average minus 10 is
		// n2's share up to the last bit, which the order of the float64
		// sum decides.
		name: "float64 sum order of the deviation average",
		s: Snapshot{Plugin: LowNodeUtilization,
			Nodes: []Node{{MilliCPU: 3500, MemMiB: 1536, MaxPods: 10}, {MilliCPU: 2500, MemMiB: 2560, MaxPods: 110},
				{MilliCPU: 4000, MemMiB: 2048, MaxPods: 10}, {MilliCPU: 4000, MemMiB: 2560, MaxPods: 110, Cordoned: true}},
			Deps: []Dep{{Tier: "b", Replicas: 10}},
			Pods: []Pod{{Dep: 0, Node: 3}, {Dep: 0, Node: 0, Running: true}, {Dep: 0, Node: 0, Running: true}, {Dep: 0, Node: 0, Running: true},
				{Dep: 0, Node: 2, Running: true}, {Dep: 0, Node: 1, Running: true}, {Dep: 0, Node: 1, Running: true},
				{Dep: 0, Node: 2, Running: true}, {Dep: 0, Node: 1, Running: true}, {Dep: 0, Node: 1, Running: true}},
			Profile: func() model.DeschedulerProfile {
				p := lnu(th(model.ResourcePods, 10), th(model.ResourcePods, 10))
				p.LowNodeUtilization.UseDeviationThresholds = true
				return p
			}()},
		want: "float64 sum order of the deviation average",
	}, {
		// Pod shares 1.81, 7.27, 0.90 and 0.90 % of 110 pods: the
		// average target share of a node's 110 pods is 3 up to the last
		// bit, which the order of the float64 sum decides, and
		// capNodeCapacitiesToThreshold truncates it to 2 or 3, so the
		// idle nodes take one or two pods each.
		name: "float64 sum order of the deviation average (capacity cap)",
		s: Snapshot{Plugin: LowNodeUtilization,
			Nodes: []Node{{MilliCPU: 2000, MemMiB: 2048, MaxPods: 110, Cordoned: true}, {MilliCPU: 2000, MemMiB: 2048, MaxPods: 110},
				{MilliCPU: 2000, MemMiB: 2048, MaxPods: 110}, {MilliCPU: 2000, MemMiB: 2048, MaxPods: 110}},
			Deps: []Dep{{Tier: "b", MilliCPU: 100, MemMiB: 64, Replicas: 12}},
			Pods: []Pod{{Dep: 0, Node: 0, Running: true}, {Dep: 0, Node: 0, Running: true},
				{Dep: 0, Node: 1, Running: true}, {Dep: 0, Node: 1, Running: true}, {Dep: 0, Node: 1, Running: true}, {Dep: 0, Node: 1, Running: true},
				{Dep: 0, Node: 1, Running: true}, {Dep: 0, Node: 1, Running: true}, {Dep: 0, Node: 1, Running: true}, {Dep: 0, Node: 1, Running: true},
				{Dep: 0, Node: 2, Running: true}, {Dep: 0, Node: 3, Running: true}},
			Profile: func() model.DeschedulerProfile {
				p := lnu(th(model.ResourcePods, 0), th(model.ResourcePods, 0))
				p.LowNodeUtilization.UseDeviationThresholds = true
				return p
			}()},
		want: "float64 sum order of the deviation average",
	}, {
		// Fixed model bug: n1 is overcommitted (three 384Mi pods on
		// 1024Mi); the BestEffort pod moved there by the hostname
		// constraint requests no memory, so NodeFit does not compare
		// memory, and upstream evicts it. The model compared a request
		// of 0 with the negative free memory and kept the pod.
		name: "BestEffort pod fits an overcommitted node",
		s: Snapshot{Plugin: TopologySpread, Nodes: []Node{node, {MilliCPU: 1000, MemMiB: 1024, MaxPods: 110, Cordoned: true}},
			Deps: []Dep{{Tier: "a", Replicas: 6, Spread: []Spread{{MaxSkew: 1, Key: model.HostnameKey, When: model.DoNotSchedule, HonorTaints: true}}},
				{Tier: "a", Replicas: 3, MemMiB: 384}},
			Pods: []Pod{{Dep: 0, Node: 0}, {Dep: 0, Node: 0}, {Dep: 0, Node: 1}, {Dep: 0, Node: 1}, {Dep: 0, Node: 1}, {Dep: 0, Node: 1},
				{Dep: 1, Node: 0}, {Dep: 1, Node: 0}, {Dep: 1, Node: 0}},
			Profile: model.DeschedulerProfile{Balance: []model.BalancePlugin{model.RemovePodsViolatingTopologySpreadConstraint}, TopologyBalanceNodeFit: true}},
		want: "",
	}, {
		// Fixed model bug (budget refusal inside the node-utilisation
		// walk): n1 holds 3 of 10 pods, above the 20 % target, and the
		// idle n2 takes 2. The BestEffort p0 goes first; its budget
		// refuses it. The model planned p0 as if evicted and stopped (n1
		// at 2 pods); upstream skips p0, uncharged, and evicts p1 or p2,
		// and so does the model now.
		name: "budget refusal inside the node-utilisation walk",
		s: Snapshot{Plugin: LowNodeUtilization, Nodes: []Node{small, small},
			Deps:    []Dep{{Tier: "a", Replicas: 1}, {Tier: "b", MilliCPU: 100, Replicas: 2}},
			Pods:    []Pod{{Dep: 0, Node: 0, Running: true}, {Dep: 1, Node: 0, Running: true}, {Dep: 1, Node: 0, Running: true}},
			PDBs:    []PDB{{MatchLabels: map[string]string{appLabel: "d0"}, MinAvailable: &model.IntOrPercent{Value: 1}}},
			Profile: lnu(th(model.ResourcePods, 10), th(model.ResourcePods, 20))},
		want: "",
	}, {
		// Fixed model bug (eviction order under a budget): two
		// ReplicaSets stacked three pods each on n1; each would lose one,
		// but their common budget allows one disruption. The model
		// evicted d0's pod (owner order); upstream walks owners in map
		// order and sometimes evicts d1's, and the model now branches
		// over the owner that comes first.
		name: "owner order under a budget",
		s: Snapshot{Plugin: RemoveDuplicates, Nodes: []Node{node, node},
			Deps: []Dep{{Tier: "a", Replicas: 3}, {Tier: "a", Replicas: 3}},
			Pods: []Pod{{Dep: 0, Node: 0, Running: true}, {Dep: 0, Node: 0, Running: true}, {Dep: 0, Node: 0, Running: true},
				{Dep: 1, Node: 0, Running: true}, {Dep: 1, Node: 0, Running: true}, {Dep: 1, Node: 0, Running: true}},
			PDBs:    []PDB{{MatchLabels: map[string]string{tierKey: "a"}, MinAvailable: &model.IntOrPercent{Value: 5}}},
			Profile: model.DeschedulerProfile{Balance: []model.BalancePlugin{model.RemoveDuplicates}}},
		want: "",
	}, {
		// Two namespaces, one eviction each: n1 stacks four pods of d0
		// (default), which would lose two, and three of d1 (team-a),
		// which would lose one. The per-namespace limit stops d0 at one
		// and leaves d1's own. The eviction order class does not cover
		// a wrong count per namespace.
		name: "per-namespace limit across namespaces",
		s: Snapshot{Plugin: RemoveDuplicates, Nodes: []Node{node, node}, Namespaces: []string{Namespace, "team-a"},
			Deps: []Dep{{Tier: "a", Replicas: 4}, {Namespace: "team-a", Tier: "a", Replicas: 3}},
			Pods: []Pod{{Dep: 0, Node: 0, Running: true}, {Dep: 0, Node: 0, Running: true}, {Dep: 0, Node: 0, Running: true},
				{Dep: 0, Node: 0, Running: true}, {Dep: 1, Node: 0, Running: true}, {Dep: 1, Node: 0, Running: true},
				{Dep: 1, Node: 0, Running: true}},
			MaxPerNamespace: 1,
			Profile:         model.DeschedulerProfile{Balance: []model.BalancePlugin{model.RemoveDuplicates}}},
		want: "",
	}, {
		// n1 at 90 % cpu against a 50 % target sheds two 300m pods. Its
		// namespace default reaches its limit of one after one of d0's
		// pods: the other is skipped, uncharged, and the walk goes on
		// to team-a's d1.
		name: "namespace at its limit in the node-utilisation walk",
		s: Snapshot{Plugin: LowNodeUtilization, Nodes: []Node{node, node}, Namespaces: []string{Namespace, "team-a"},
			Deps:            []Dep{{Tier: "a", MilliCPU: 300, Replicas: 2}, {Namespace: "team-a", Tier: "a", MilliCPU: 300, Replicas: 1}},
			Pods:            []Pod{{Dep: 0, Node: 0, Running: true}, {Dep: 0, Node: 0, Running: true}, {Dep: 1, Node: 0, Running: true}},
			MaxPerNamespace: 1,
			Profile:         lnu(th(model.ResourceCPU, 20), th(model.ResourceCPU, 50))},
		want: "",
	}, {
		// Fixed model bug: p0 tolerates the unschedulable taint and runs
		// on the cordoned n2; it prefers disk=ssd, whose n1 is cordoned
		// too. PodFitsAnyNode counts the pod's own node, where NodeFit
		// rejects an unschedulable node whatever the pod tolerates: no
		// node fits and upstream keeps p0. The model checked the own
		// node's taints only and evicted it.
		name: "own unschedulable node in PodFitsAnyNode",
		s: Snapshot{Plugin: NodeAffinity, Nodes: []Node{{MilliCPU: 1000, MemMiB: 1024, MaxPods: 110, Disk: "ssd", Cordoned: true},
			{MilliCPU: 1000, MemMiB: 1024, MaxPods: 110, Zone: "z1", Cordoned: true}},
			Deps: []Dep{{Tier: "a", Replicas: 1, Tolerations: []model.Toleration{{Key: unschedulableKey, Operator: "Exists", Effect: model.NoSchedule}},
				Preferred: []model.PreferredTerm{{Weight: 100, Term: model.Selector{MatchExpressions: []model.Requirement{{Key: DiskKey, Operator: model.OpIn, Values: []string{"ssd"}}}}}}}},
			Pods: []Pod{{Dep: 0, Node: 1, Running: true}},
			Profile: model.DeschedulerProfile{Deschedule: model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingNodeAffinity},
				NodeAffinityType: []model.NodeAffinityType{model.PreferredDuringSchedulingIgnoredDuringExecution}}}},
		want: "",
	}, {
		// Fixed model bug: d1's term (namespace default) selects tier a
		// in every namespace by namespaceSelector {}; team-b's d0 pod is
		// of tier a and shares n1. The descheduler reads a term's
		// namespaces and never its namespaceSelector, so it finds no
		// conflict; the model read the selector and evicted p0.
		name: "anti-affinity namespaceSelector not read",
		s: Snapshot{Plugin: PodAntiAffinity, Nodes: []Node{node, node}, Namespaces: []string{Namespace, "team-b"},
			Deps: []Dep{{Namespace: "team-b", Tier: "a", Replicas: 1},
				{Tier: "a", Replicas: 1, AntiAffinity: []AntiTerm{{Key: model.HostnameKey, ByTier: true, AllNamespaces: true}}}},
			Pods:    []Pod{{Dep: 1, Node: 0, Running: true}, {Dep: 0, Node: 0, Running: true}},
			Profile: model.DeschedulerProfile{Deschedule: model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingInterPodAntiAffinity}}}},
		want: "",
	}, {
		// Fixed model divergence (node order of the anti-affinity walk):
		// n1 and n2 are both in z1, and d0's pods on them conflict by
		// their zone term. The node walked first loses its pod, which
		// spares the other's: upstream walks the nodes in the order it
		// is handed them; the model walked n1 first, and now branches
		// over which node of the zone comes first.
		name: "node order of the anti-affinity walk",
		s: Snapshot{Plugin: PodAntiAffinity, Nodes: []Node{{MilliCPU: 1000, MemMiB: 1024, MaxPods: 110, Zone: "z1"}, {MilliCPU: 1000, MemMiB: 1024, MaxPods: 110, Zone: "z1"}},
			Deps:    []Dep{{Tier: "a", Replicas: 2, AntiAffinity: []AntiTerm{{Key: ZoneKey}}}},
			Pods:    []Pod{{Dep: 0, Node: 0, Running: true}, {Dep: 0, Node: 1, Running: true}},
			Profile: model.DeschedulerProfile{Deschedule: model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingInterPodAntiAffinity}}}},
		want: "",
	}, {
		// Fixed model divergence: p0 breaks both its preferred and its
		// required affinity, p1 its required affinity; n3 takes both.
		// The preferred pass evicts p0. Upstream's required pass may
		// list p0 again (the informer has not seen the deletion):
		// evicting it again succeeds and uses up the total limit of 2,
		// so p1 stays when n1 comes first. The model's second pass saw
		// p0 terminating and evicted p1; it now branches over whether
		// the informer has seen the first pass's deletions.
		name: "second nodeAffinityType pass re-evicts under a limit",
		s: Snapshot{Plugin: NodeAffinity, Nodes: []Node{node, node, {MilliCPU: 1000, MemMiB: 1024, MaxPods: 110, Disk: "ssd"}},
			Deps: []Dep{{Tier: "a", Replicas: 1, Required: []model.Selector{diskExists}, Preferred: []model.PreferredTerm{{Weight: 100, Term: diskExists}}},
				{Tier: "a", Replicas: 1, Required: []model.Selector{diskExists}}},
			Pods:     []Pod{{Dep: 0, Node: 0, Running: true}, {Dep: 1, Node: 1, Running: true}},
			MaxTotal: 2,
			Profile: model.DeschedulerProfile{Deschedule: model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingNodeAffinity},
				NodeAffinityType: []model.NodeAffinityType{model.PreferredDuringSchedulingIgnoredDuringExecution, model.RequiredDuringSchedulingIgnoredDuringExecution}}}},
		want: "",
	}, {
		// Fixed model bug: p1 (d0) and p2 (d1) conflict with the
		// terminating p0 by their hostname terms, so both go whatever
		// the order, but their budget lets one disruption through.
		// Upstream evicts the one its listing puts first; the model took
		// them in slot order and always evicted p1, and now branches.
		name: "anti-affinity picks under a budget",
		s: Snapshot{Plugin: PodAntiAffinity, Nodes: []Node{node, node},
			Deps: []Dep{{Tier: "a", Replicas: 2, AntiAffinity: []AntiTerm{{Key: model.HostnameKey, ByTier: true}}},
				{Tier: "a", Replicas: 1, AntiAffinity: []AntiTerm{{Key: model.HostnameKey, ByTier: true}}}},
			Pods:    []Pod{{Dep: 0, Node: 0, Running: true, Terminating: true}, {Dep: 0, Node: 0, Running: true}, {Dep: 1, Node: 0, Running: true}},
			PDBs:    []PDB{{MatchLabels: map[string]string{tierKey: "a"}, MinAvailable: &model.IntOrPercent{Value: 1}}},
			Profile: model.DeschedulerProfile{Deschedule: model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.RemovePodsViolatingInterPodAntiAffinity}}}},
		want: "",
	}, {
		// Fixed model divergence: p0, terminating, carries d0's evict
		// annotation. Upstream's DefaultEvictor admits it, so
		// RemoveDuplicates finds p0 and p1 duplicates on n1 and evicts
		// one of them (p0's eviction deletes nothing); the model's plugin
		// listed p1 alone, and now lists p0 too.
		name: "terminating pod with the evict annotation",
		s: Snapshot{Plugin: RemoveDuplicates, Nodes: []Node{node, node},
			Deps:    []Dep{{Tier: "a", Replicas: 2, Evict: true}},
			Pods:    []Pod{{Dep: 0, Node: 0, Running: true, Terminating: true}, {Dep: 0, Node: 0, Running: true}},
			Profile: model.DeschedulerProfile{Balance: []model.BalancePlugin{model.RemoveDuplicates}}},
		want: "",
	}, {
		// n1 is above its cpu target with two 300m pods, d0's carrying
		// the prefer-no-eviction annotation; evicting one brings n1 below
		// target. Upstream's sort puts d1's pod first and evicts it, and
		// so does the model's (podClass).
		name: "prefer-no-eviction order",
		s: Snapshot{Plugin: LowNodeUtilization, Nodes: []Node{node, node},
			Deps: []Dep{{Tier: "a", MilliCPU: 300, Replicas: 1, PreferNoEviction: true}, {Tier: "a", MilliCPU: 300, Replicas: 1}},
			Pods: []Pod{{Dep: 0, Node: 0, Running: true}, {Dep: 1, Node: 0, Running: true}},
			Profile: func() model.DeschedulerProfile {
				p := lnu(th(model.ResourceCPU, 20), th(model.ResourceCPU, 50))
				p.Evictor.NoEvictionPolicy = "Preferred"
				return p
			}()},
		want: "",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Enough orders that map order reaches both owners first.
			v, err := Judge(ctx, d, &c.s, Orders(rand.New(rand.NewPCG(1, 2)), &c.s, 24))
			if err != nil {
				t.Fatal(err)
			}
			if v.Class != c.want {
				t.Errorf("class %q, want %q: %s\n%s", v.Class, c.want, v.Result.Detail, &c.s)
			}
			t.Log(v.Result.Detail)
			if c.want != "" && v.Result.Detail == "" {
				t.Errorf("no disagreement\n%s", &c.s)
			}
		})
	}
}

// TestBranchesReached checks the other direction on small snapshots
// where the model branches over the listing order only: every branch
// is a set the real plugin evicts under some order.
func TestBranchesReached(t *testing.T) {
	ctx := t.Context()
	d := NewDisruption(ctx)
	node := Node{MilliCPU: 1000, MemMiB: 1024, MaxPods: 110}
	var low, target model.ResourceThresholds
	low.Set(model.ResourceCPU, 20)
	target.Set(model.ResourceCPU, 50)
	cases := []struct {
		name     string
		s        Snapshot
		branches int
	}{{
		// n1 at 90 % cpu against a 50 % target: evicting one of the
		// 300 m pods of d0, d1 or d2 brings it to 60 %, a second one to
		// 30 %: every pair goes, in some order.
		name: "LowNodeUtilization: which pods of a node",
		s: Snapshot{Plugin: LowNodeUtilization, Nodes: []Node{node, node},
			Deps: []Dep{{Tier: "a", MilliCPU: 300, Replicas: 1}, {Tier: "a", MilliCPU: 300, Replicas: 1}, {Tier: "a", MilliCPU: 300, Replicas: 1}},
			Pods: []Pod{{Dep: 0, Node: 0, Running: true}, {Dep: 1, Node: 0, Running: true}, {Dep: 2, Node: 0, Running: true}},
			Profile: model.DeschedulerProfile{Balance: []model.BalancePlugin{model.LowNodeUtilization},
				LowNodeUtilization: &model.LowNodeUtilizationArgs{Thresholds: low, TargetThresholds: target}}},
		branches: 3,
	}, {
		// Three pods of d0 on n1, one Pending: one of the three goes.
		name: "RemoveDuplicates: which duplicate",
		s: Snapshot{Plugin: RemoveDuplicates, Nodes: []Node{node, node},
			Deps:    []Dep{{Tier: "a", Replicas: 4}},
			Pods:    []Pod{{Dep: 0, Node: 0, Running: true}, {Dep: 0, Node: 0, Running: true}, {Dep: 0, Node: 0}, {Dep: 0, Node: 1, Running: true}},
			Profile: model.DeschedulerProfile{Balance: []model.BalancePlugin{model.RemoveDuplicates}}},
		branches: 2,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Compare(ctx, d, &c.s, Orders(rand.New(rand.NewPCG(3, 4)), &c.s, 32))
			if err != nil {
				t.Fatal(err)
			}
			if res.Detail != "" {
				t.Fatalf("disagreement: %s\n%s", res.Detail, &c.s)
			}
			if len(res.Model.Branches) != c.branches || res.Reached != c.branches {
				t.Errorf("model branches %v, %d reached, want %d reached\n%s", res.Model.Branches, res.Reached, c.branches, &c.s)
			}
		})
	}
}
