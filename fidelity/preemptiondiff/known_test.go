package preemptiondiff

import (
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestKnownClasses pins one example per disagreement class and the model
// bugs this test found, each with the class the comparison must give.
func TestKnownClasses(t *testing.T) {
	r := realPreemption(t)
	seeds := []int64{1, 2, 3, 4}
	for _, tc := range []struct {
		name  string
		s     Snapshot
		class string // "" for agreement
	}{
		{
			// Fixed bug: a request above a node's allocatable cpu made the
			// node Unschedulable in the model, a potential node
			// (NodeResourcesFit reports it UnschedulableAndUnresolvable).
			name: "request above allocatable: preemption is not helpful",
			s: Snapshot{Nodes: []Node{{MilliCPU: 1000, MemMiB: 1024, MaxPods: 110}},
				Apps: []App{{Priority: -100, MilliCPU: 500, Tier: "a"}}, Pods: []Pod{{App: 0, Node: 0}},
				Pending: Pending{Priority: 0, MilliCPU: 1500, AntiApp: -1}, StartSeeds: seeds},
		},
		{
			// Without their one lower-priority pod both nodes still lack
			// cpu and memory: the histogram counts both reasons.
			name: "several insufficient resources",
			s: Snapshot{Nodes: []Node{{MilliCPU: 1000, MemMiB: 1024, MaxPods: 110}, {MilliCPU: 1000, MemMiB: 1024, MaxPods: 110}},
				Apps:    []App{{Priority: 0, MilliCPU: 500, MemMiB: 512, Tier: "a"}, {Priority: -100, MilliCPU: 100, MemMiB: 100, Tier: "a"}},
				Pods:    []Pod{{App: 0, Node: 0}, {App: 0, Node: 1}, {App: 1, Node: 0}, {App: 1, Node: 1}},
				Pending: Pending{Priority: 0, MilliCPU: 600, MemMiB: 600, AntiApp: -1}, StartSeeds: seeds},
		},
		{
			// Budgets steer the choice: node 1's pod would violate its
			// budget (minAvailable 1), node 2's has none.
			name: "budget steers the node",
			s: Snapshot{Nodes: []Node{{MilliCPU: 1000, MemMiB: 1024, MaxPods: 110}, {MilliCPU: 1000, MemMiB: 1024, MaxPods: 110}},
				Apps:    []App{{Priority: 0, MilliCPU: 1000, Tier: "a"}, {Priority: 0, MilliCPU: 1000, Tier: "b"}},
				Pods:    []Pod{{App: 0, Node: 0}, {App: 1, Node: 1}},
				PDBs:    []PDB{{App: 0, MinAvailable: &model.IntOrPercent{Value: 1}}},
				Pending: Pending{Priority: 100, MilliCPU: 1000, AntiApp: -1}, StartSeeds: seeds},
		},
		{
			// Forty equal-priority pods of four Deployments on one node:
			// 4·10⁸ orders of reprieval, which the model searches as
			// counts per Deployment and answers.
			name:  "many equal-priority victims",
			s:     manyVictims(seeds),
			class: "",
		},
		{
			// n1's free cpu is taken by a pod of higher priority
			// nominated there (RunFilterPluginsWithNominatedPods): the
			// pod preempts on n2 instead.
			name: "a nominated pod of higher priority keeps its room",
			s: Snapshot{Nodes: []Node{{MilliCPU: 2000, MemMiB: 1024, MaxPods: 110}, {MilliCPU: 1000, MemMiB: 1024, MaxPods: 110}},
				Apps:     []App{{Priority: 0, MilliCPU: 1000, Tier: "a"}},
				Pods:     []Pod{{App: 0, Node: 1}},
				Nominees: []Nominee{{Priority: 150, MilliCPU: 1500, Node: 0}},
				Pending:  Pending{Priority: 100, MilliCPU: 1000, AntiApp: -1}, StartSeeds: seeds},
		},
		{
			// Both nodes fit and scoring prefers the empty n1, but the pod
			// is nominated to n2, which passes the filters: it goes there
			// (evaluateNominatedNode).
			name: "a nominated pod goes to its nominated node",
			s: Snapshot{Nodes: []Node{{MilliCPU: 2000, MemMiB: 1024, MaxPods: 110}, {MilliCPU: 2000, MemMiB: 1024, MaxPods: 110}},
				Apps:    []App{{Priority: 0, MilliCPU: 1000, Tier: "a"}},
				Pods:    []Pod{{App: 0, Node: 1}},
				Pending: Pending{Priority: 100, MilliCPU: 1000, AntiApp: -1, NominatedTo: 2}, StartSeeds: seeds},
		},
		{
			// pod2 is terminating: the cycle runs PostFilter all the
			// same and preempts pod1 (pod2, already terminating, is a
			// victim too, whose deletion is skipped).
			name: "preemption while a pod terminates",
			s: Snapshot{Nodes: []Node{{MilliCPU: 1000, MemMiB: 1024, MaxPods: 110}},
				Apps:    []App{{Priority: 0, MilliCPU: 500, Tier: "a"}},
				Pods:    []Pod{{App: 0, Node: 0}, {App: 0, Node: 0, Terminating: TerminatingByPreemption}},
				Pending: Pending{Priority: 100, MilliCPU: 1000, AntiApp: -1}, StartSeeds: seeds},
		},
		{
			// pod1 is of higher priority than the pod: no victims while
			// pod2 terminates, so the pod waits with the FitError.
			name: "no victims while a pod terminates",
			s: Snapshot{Nodes: []Node{{MilliCPU: 1000, MemMiB: 1024, MaxPods: 110}},
				Apps:    []App{{Priority: 200, MilliCPU: 500, Tier: "a"}},
				Pods:    []Pod{{App: 0, Node: 0}, {App: 0, Node: 0, Terminating: TerminatingOther}},
				Pending: Pending{Priority: 100, MilliCPU: 1000, AntiApp: -1}, StartSeeds: seeds},
		},
		{
			// pod2 terminates, but not by a preemption: the pod,
			// nominated to n1, is eligible and preempts pod1
			// (PodEligibleToPreemptOthers counts only preemption
			// victims).
			name: "eligible beside a pod terminating for another reason",
			s: Snapshot{Nodes: []Node{{MilliCPU: 1000, MemMiB: 1024, MaxPods: 110}},
				Apps:    []App{{Priority: 0, MilliCPU: 500, Tier: "a"}},
				Pods:    []Pod{{App: 0, Node: 0}, {App: 0, Node: 0, Terminating: TerminatingOther}},
				Pending: Pending{Priority: 100, MilliCPU: 1000, AntiApp: -1, NominatedTo: 1}, StartSeeds: seeds},
		},
		{
			// pod2 is the victim of an earlier preemption: the pod,
			// nominated to n1, is not eligible and waits.
			name: "not eligible while a victim terminates",
			s: Snapshot{Nodes: []Node{{MilliCPU: 1000, MemMiB: 1024, MaxPods: 110}},
				Apps:    []App{{Priority: 0, MilliCPU: 500, Tier: "a"}},
				Pods:    []Pod{{App: 0, Node: 0}, {App: 0, Node: 0, Terminating: TerminatingByPreemption}},
				Pending: Pending{Priority: 100, MilliCPU: 1000, AntiApp: -1, NominatedTo: 1}, StartSeeds: seeds},
		},
		{
			// n1 holds two tier-a pods (skew 2 against the tainted n2, one
			// too many) and a terminating tier-a pod using the cpu. With
			// the three removed, RemovePod leaves 2 − 3 = −1 tier-a pods
			// counted on n1 (the PreFilter never counted the terminating
			// one), so both running ones are reprieved; only the
			// terminating pod is a victim.
			name: "spread: the dry run subtracts a terminating pod",
			s: Snapshot{Nodes: []Node{{MilliCPU: 2000, MemMiB: 1024, MaxPods: 110}, {MilliCPU: 1000, MemMiB: 1024, MaxPods: 110, Tainted: true}},
				Apps: []App{{Priority: 0, Tier: "a"}, {Priority: 0, MilliCPU: 1000, Tier: "a"}},
				Pods: []Pod{{App: 0, Node: 0}, {App: 0, Node: 0}, {App: 1, Node: 0, Terminating: TerminatingByPreemption}},
				Pending: Pending{Priority: 100, MilliCPU: 1500, AntiApp: -1,
					Spread: true, SpreadKey: model.HostnameKey, SpreadTier: "a", MaxSkew: 1}, StartSeeds: seeds},
		},
		{
			// The dry run on n2 removes the terminating pod2 (−1 tier-a
			// pod there) and RunFilterPluginsWithNominatedPods adds nom0
			// (+1): the spread constraint passes with both, so the pod
			// preempts on n2 (found by TestDifferential: the pass with
			// the nominated pods had lost the subtraction).
			name: "spread: the pass with nominated pods subtracts a terminating pod too",
			s: Snapshot{Nodes: []Node{{MilliCPU: 1000, MemMiB: 1024, MaxPods: 3, Zone: "a", Tainted: true}, {MilliCPU: 1000, MemMiB: 1024, MaxPods: 3, Zone: "a"}},
				Apps:     []App{{Priority: -100, MilliCPU: 250, Tier: "a"}, {Priority: -100, Tier: "a"}, {Priority: -100, Tier: "a"}, {Priority: -100, MilliCPU: 1000, Tier: "b"}},
				Pods:     []Pod{{App: 3, Node: 0}, {App: 0, Node: 1, Terminating: TerminatingOther}},
				Nominees: []Nominee{{Priority: 0, Tier: "a", Node: 1}, {Priority: -50, Node: 0}},
				Pending: Pending{Priority: 0, MilliCPU: 250, Tier: "a", ZoneSelector: "a", AntiApp: 0, AntiKey: model.HostnameKey,
					Spread: true, SpreadKey: model.HostnameKey, SpreadTier: "a", MaxSkew: 1}, StartSeeds: seeds},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Compare(r, &tc.s)
			if err != nil {
				t.Fatal(err)
			}
			if c.Class != tc.class || (tc.class == "") != (c.Diff == "") {
				t.Errorf("class %q (diff %q), want %q\n%s%s", c.Class, c.Diff, tc.class, &tc.s, c)
			}
		})
	}
}

// manyVictims is one 110-pod node running ten pods of each of four
// low-priority Deployments of different sizes, and a pending pod that
// needs some of them gone.
func manyVictims(seeds []int64) Snapshot {
	s := Snapshot{Nodes: []Node{{MilliCPU: 8000, MemMiB: 8192, MaxPods: 110}},
		Apps: []App{{Priority: 0, MilliCPU: 100, MemMiB: 64, Tier: "a"}, {Priority: 0, MilliCPU: 150, MemMiB: 32, Tier: "a"},
			{Priority: 0, MilliCPU: 200, MemMiB: 16, Tier: "b"}, {Priority: 0, MilliCPU: 250, MemMiB: 8, Tier: "b"}},
		Pending: Pending{Priority: 100, MilliCPU: 7000, AntiApp: -1}, StartSeeds: seeds}
	for range 10 {
		for a := range s.Apps {
			s.Pods = append(s.Pods, Pod{App: a, Node: 0})
		}
	}
	return s
}
