package preemptiondiff

import (
	"fmt"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// Label keys and values of the snapshots.
const (
	appLabel    = "app"
	tierLabel   = "tier"
	zoneKey     = "topology.kubernetes.io/zone"
	taintKey    = "dedicated"
	taintValue  = "infra"
	incomingApp = "incoming"
)

// Snapshot is one preemption question: nodes, Deployments whose Running
// pods are bound to them, budgets, pending pods nominated to nodes, and
// the pending pod to schedule.
type Snapshot struct {
	Nodes []Node
	Apps  []App
	Pods  []Pod
	PDBs  []PDB
	// Nominees are pending pods other than Pending, each nominated to a
	// node by an earlier preemption and waiting in the scheduling queue.
	Nominees []Nominee
	Pending  Pending
	// StartSeeds draw the start times of the real runs: one run per seed,
	// every pod a distinct start time (upstream orders pods of equal
	// priority by it; the model has none and branches).
	StartSeeds []int64
}

// Node is node i, named NodeName(i).
type Node struct {
	MilliCPU, MemMiB int64
	MaxPods          int
	// Zone is the zone label's value, "" for none.
	Zone string
	// Tainted: the node carries dedicated=infra:NoSchedule.
	Tainted bool
}

// App is a Deployment (of one ReplicaSet) whose pods are labelled
// app=<name> and tier=<Tier>.
type App struct {
	Priority         int32
	MilliCPU, MemMiB int64
	Tier             string
}

// Pod is a Running, Ready pod of App on Node.
type Pod struct {
	App, Node int
	// Terminating: the pod is being deleted (its grace period runs).
	Terminating Termination
}

// Termination says whether and why a pod is terminating.
type Termination uint8

const (
	// NotTerminating: the pod runs on.
	NotTerminating Termination = iota
	// TerminatingByPreemption: a preemption deleted the pod, which
	// carries the DisruptionTarget condition with reason
	// PreemptionByScheduler.
	TerminatingByPreemption
	// TerminatingOther: deleted for another reason (a scale-down), no
	// DisruptionTarget condition.
	TerminatingOther
)

// Nominee is a pending pod of its own Deployment ("nom<i>"), labelled
// app=nom<i> and tier=<Tier> when Tier is set, whose
// status.nominatedNodeName is node Node.
type Nominee struct {
	Priority         int32
	MilliCPU, MemMiB int64
	Tier             string
	Node             int
}

// PDB is a budget selecting the pods of one app (App ≥ 0) or of a tier.
type PDB struct {
	App  int
	Tier string
	// MinAvailable, MaxUnavailable: at most one is set.
	MinAvailable, MaxUnavailable *model.IntOrPercent
}

// Pending is the pod to schedule (app "incoming", a Deployment of one).
type Pending struct {
	Priority         int32
	Never            bool // preemptionPolicy: Never
	MilliCPU, MemMiB int64
	Tier             string
	ZoneSelector     string
	Tolerates        bool
	// Spread: a DoNotSchedule constraint selecting the tier SpreadTier.
	Spread     bool
	SpreadKey  string
	SpreadTier string
	MaxSkew    int
	// AntiApp ≥ 0: a required anti-affinity to that app's pods.
	AntiApp int
	AntiKey string
	// NominatedTo is status.nominatedNodeName as node index + 1, 0 for
	// none.
	NominatedTo int
}

// NodeName is node i's name on both sides.
func NodeName(i int) string { return fmt.Sprintf("n%d", i+1) }

// PodName is pod i's name on the real side.
func PodName(i int) string { return fmt.Sprintf("pod%d", i+1) }

func appName(a int) string { return fmt.Sprintf("app%d", a) }

func nomineeName(i int) string { return fmt.Sprintf("nom%d", i) }

var priorityPool = []int32{-100, 0, 10, 100, 1000}

func oneIn(t *rapid.T, n int, label string) bool { return rapid.IntRange(0, n-1).Draw(t, label) == 0 }

// Generate draws a snapshot. In three snapshots of four the pending pod's
// cpu request exceeds the free cpu of every node, mostly without exceeding
// the largest node's allocatable cpu, so that preemption is asked and can
// help most of the time.
func Generate(t *rapid.T) *Snapshot {
	s := &Snapshot{}
	for range rapid.IntRange(2, 6).Draw(t, "nodes") {
		s.Nodes = append(s.Nodes, Node{
			MilliCPU: rapid.SampledFrom([]int64{1000, 2000, 4000}).Draw(t, "cpu"),
			MemMiB:   rapid.SampledFrom([]int64{1024, 2048, 4096}).Draw(t, "mem"),
			MaxPods:  rapid.SampledFrom([]int{3, 4, 110, 110}).Draw(t, "maxPods"),
			Zone:     rapid.SampledFrom([]string{"a", "b", "a", "b", ""}).Draw(t, "zone"),
			Tainted:  oneIn(t, 6, "tainted"),
		})
	}
	prios := rapid.SliceOfNDistinct(rapid.SampledFrom(priorityPool), 2, 4, rapid.ID[int32]).Draw(t, "priorities")
	slices.Sort(prios)
	for range rapid.IntRange(1, 4).Draw(t, "apps") {
		s.Apps = append(s.Apps, App{
			Priority: rapid.SampledFrom(prios[:len(prios)-1+boolInt(oneIn(t, 4, "appTopPriority"))]).Draw(t, "appPriority"),
			MilliCPU: rapid.SampledFrom([]int64{0, 250, 500, 1000}).Draw(t, "appCPU"),
			MemMiB:   rapid.SampledFrom([]int64{0, 256, 512}).Draw(t, "appMem"),
			Tier:     rapid.SampledFrom([]string{"a", "b"}).Draw(t, "tier"),
		})
	}
	// Pods go where they fit (a kubelet admits no more).
	usedCPU, usedMem, count := make([]int64, len(s.Nodes)), make([]int64, len(s.Nodes)), make([]int, len(s.Nodes))
	for range rapid.IntRange(0, 18).Draw(t, "pods") {
		a := rapid.IntRange(0, len(s.Apps)-1).Draw(t, "podApp")
		n := rapid.IntRange(0, len(s.Nodes)-1).Draw(t, "podNode")
		app, node := &s.Apps[a], &s.Nodes[n]
		if usedCPU[n]+app.MilliCPU > node.MilliCPU || usedMem[n]+app.MemMiB > node.MemMiB || count[n] >= node.MaxPods {
			continue
		}
		usedCPU[n] += app.MilliCPU
		usedMem[n] += app.MemMiB
		count[n]++
		s.Pods = append(s.Pods, Pod{App: a, Node: n})
	}
	for range rapid.IntRange(0, 2).Draw(t, "pdbs") {
		b := PDB{App: -1}
		if oneIn(t, 3, "tierBudget") {
			b.Tier = rapid.SampledFrom([]string{"a", "b"}).Draw(t, "budgetTier")
		} else {
			b.App = rapid.IntRange(0, len(s.Apps)-1).Draw(t, "budgetApp")
		}
		v := &model.IntOrPercent{Value: rapid.IntRange(0, 3).Draw(t, "budgetValue")}
		if oneIn(t, 4, "percent") {
			v = &model.IntOrPercent{Value: rapid.SampledFrom([]int{25, 50, 75}).Draw(t, "budgetPercent"), Percent: true}
		}
		if rapid.Bool().Draw(t, "minAvailable") {
			b.MinAvailable = v
		} else {
			b.MaxUnavailable = v
		}
		s.PDBs = append(s.PDBs, b)
	}
	p := &s.Pending
	p.Priority = prios[len(prios)-1]
	if oneIn(t, 8, "lowerPending") {
		p.Priority = rapid.SampledFrom(prios).Draw(t, "pendingPriority")
	}
	p.Never = oneIn(t, 12, "never")
	var maxFree, maxAlloc int64
	for n := range s.Nodes {
		maxFree = max(maxFree, s.Nodes[n].MilliCPU-usedCPU[n])
		maxAlloc = max(maxAlloc, s.Nodes[n].MilliCPU)
	}
	p.MilliCPU = rapid.SampledFrom([]int64{250, 500, 1000, 1500, 2000, 3000}).Draw(t, "pendingCPU")
	if !oneIn(t, 4, "pendingAnyCPU") {
		p.MilliCPU = maxFree + rapid.SampledFrom([]int64{1, 250, 500, 1000}).Draw(t, "pendingOver")
		if !oneIn(t, 6, "pendingAboveAllocatable") {
			// Mostly within the largest node: preemption can help.
			p.MilliCPU = min(p.MilliCPU, maxAlloc)
		}
	}
	p.MemMiB = rapid.SampledFrom([]int64{0, 256, 512, 1024}).Draw(t, "pendingMem")
	if oneIn(t, 3, "pendingTier") {
		p.Tier = rapid.SampledFrom([]string{"a", "b"}).Draw(t, "pendingTierValue")
	}
	if oneIn(t, 6, "zoneSelector") {
		p.ZoneSelector = rapid.SampledFrom([]string{"a", "b"}).Draw(t, "zoneSelectorValue")
	}
	p.Tolerates = rapid.Bool().Draw(t, "tolerates")
	if p.Spread = oneIn(t, 5, "spread"); p.Spread {
		p.SpreadKey = rapid.SampledFrom([]string{model.HostnameKey, zoneKey}).Draw(t, "spreadKey")
		p.SpreadTier = rapid.SampledFrom([]string{"a", "b"}).Draw(t, "spreadTier")
		p.MaxSkew = rapid.IntRange(1, 2).Draw(t, "maxSkew")
	}
	p.AntiApp = -1
	if oneIn(t, 5, "antiAffinity") {
		p.AntiApp = rapid.IntRange(0, len(s.Apps)-1).Draw(t, "antiApp")
		p.AntiKey = rapid.SampledFrom([]string{model.HostnameKey, zoneKey}).Draw(t, "antiKey")
	}
	for range 4 {
		s.StartSeeds = append(s.StartSeeds, rapid.Int64().Draw(t, "startSeed"))
	}
	s.generateNominations(t)
	return s
}

// generateNominations draws, after everything else (so that the rest of
// the snapshot keeps its distribution), the state an earlier preemption
// leaves: in one snapshot of four, 1–3 pending pods nominated to nodes,
// of priority below, equal to (most often) or above the pending pod's,
// and, in one of three of those, a nomination of the pending pod itself
// (whose cpu request, in one of two, is cut to its nominated node's free
// cpu);
// independently, in one snapshot of eight, a terminating pod, on the
// pending pod's nominated node when it has one and holds pods, deleted
// by a preemption in two of three.
func (s *Snapshot) generateNominations(t *rapid.T) {
	p := &s.Pending
	if oneIn(t, 4, "nominations") {
		for range rapid.IntRange(1, 3).Draw(t, "nominees") {
			n := Nominee{
				Priority: p.Priority + rapid.SampledFrom([]int32{-50, 0, 0, 50}).Draw(t, "nomineePriority"),
				MilliCPU: rapid.SampledFrom([]int64{0, 250, 500, 1000, 2000}).Draw(t, "nomineeCPU"),
				MemMiB:   rapid.SampledFrom([]int64{0, 256, 512}).Draw(t, "nomineeMem"),
				Node:     rapid.IntRange(0, len(s.Nodes)-1).Draw(t, "nomineeNode"),
			}
			if oneIn(t, 3, "nomineeTier") {
				n.Tier = rapid.SampledFrom([]string{"a", "b"}).Draw(t, "nomineeTierValue")
			}
			s.Nominees = append(s.Nominees, n)
		}
		if oneIn(t, 3, "pendingNominated") {
			p.NominatedTo = rapid.IntRange(1, len(s.Nodes)).Draw(t, "pendingNominatedTo")
			if rapid.Bool().Draw(t, "pendingFitsNominated") {
				// Its victims gone: the cpu it asks for is free there
				// (unless pods nominated there claim it).
				free := s.Nodes[p.NominatedTo-1].MilliCPU
				for _, q := range s.Pods {
					if q.Node == p.NominatedTo-1 {
						free -= s.Apps[q.App].MilliCPU
					}
				}
				p.MilliCPU = min(p.MilliCPU, free)
			}
		}
	}
	if len(s.Pods) > 0 && oneIn(t, 8, "terminating") {
		var on []int
		for i, q := range s.Pods {
			if q.Node == p.NominatedTo-1 {
				on = append(on, i)
			}
		}
		if len(on) == 0 {
			on = make([]int, len(s.Pods))
			for i := range on {
				on[i] = i
			}
		}
		i := rapid.SampledFrom(on).Draw(t, "terminatingPod")
		s.Pods[i].Terminating = TerminatingByPreemption
		if oneIn(t, 3, "terminatingOther") {
			s.Pods[i].Terminating = TerminatingOther
		}
	}
	if !s.canPreempt() {
		// No pod can have been nominated in such a cluster: the model's
		// scheduler does not read nominations there.
		s.Nominees, p.NominatedTo = nil, 0
	}
}

// canPreempt reports whether some pod of the snapshot may preempt
// another: a pod whose preemptionPolicy allows it, of priority above the
// lowest (model.Universe.CanPreempt).
func (s *Snapshot) canPreempt() bool {
	type prio struct {
		p     int32
		never bool
	}
	all := []prio{{s.Pending.Priority, s.Pending.Never}}
	for _, a := range s.Apps {
		all = append(all, prio{p: a.Priority})
	}
	for _, n := range s.Nominees {
		all = append(all, prio{p: n.Priority})
	}
	lowest := all[0].p
	for _, x := range all {
		lowest = min(lowest, x.p)
	}
	for _, x := range all {
		if !x.never && x.p > lowest {
			return true
		}
	}
	return false
}

// HasNominations reports whether some pod of s is nominated to a node.
func (s *Snapshot) HasNominations() bool { return len(s.Nominees) > 0 || s.Pending.NominatedTo != 0 }

// HasTerminating reports whether some pod of s is terminating.
func (s *Snapshot) HasTerminating() bool {
	for _, q := range s.Pods {
		if q.Terminating != NotTerminating {
			return true
		}
	}
	return false
}

// String renders s for disagreement reports.
func (s *Snapshot) String() string {
	var b strings.Builder
	for i, n := range s.Nodes {
		fmt.Fprintf(&b, "  node %s: cpu %dm mem %dMi pods %d zone %q tainted %t\n", NodeName(i), n.MilliCPU, n.MemMiB, n.MaxPods, n.Zone, n.Tainted)
	}
	for a, app := range s.Apps {
		fmt.Fprintf(&b, "  %s: priority %d req %dm/%dMi tier %s\n", appName(a), app.Priority, app.MilliCPU, app.MemMiB, app.Tier)
	}
	for i, p := range s.Pods {
		fmt.Fprintf(&b, "  %s: %s on %s", PodName(i), appName(p.App), NodeName(p.Node))
		switch p.Terminating {
		case TerminatingByPreemption:
			b.WriteString(" terminating (preempted)")
		case TerminatingOther:
			b.WriteString(" terminating (not preempted)")
		}
		b.WriteByte('\n')
	}
	for i, n := range s.Nominees {
		fmt.Fprintf(&b, "  %s: pending, priority %d req %dm/%dMi tier %q nominated to %s\n", nomineeName(i), n.Priority, n.MilliCPU, n.MemMiB, n.Tier, NodeName(n.Node))
	}
	for i, d := range s.PDBs {
		sel := "tier=" + d.Tier
		if d.App >= 0 {
			sel = "app=" + appName(d.App)
		}
		fmt.Fprintf(&b, "  pdb%d: %s minAvailable %s maxUnavailable %s\n", i, sel, intOrPercent(d.MinAvailable), intOrPercent(d.MaxUnavailable))
	}
	p := &s.Pending
	fmt.Fprintf(&b, "  pending: priority %d never %t req %dm/%dMi tier %q zoneSelector %q tolerates %t", p.Priority, p.Never, p.MilliCPU, p.MemMiB, p.Tier, p.ZoneSelector, p.Tolerates)
	if p.Spread {
		fmt.Fprintf(&b, " spread %s maxSkew %d tier=%s", p.SpreadKey, p.MaxSkew, p.SpreadTier)
	}
	if p.AntiApp >= 0 {
		fmt.Fprintf(&b, " antiAffinity %s app=%s", p.AntiKey, appName(p.AntiApp))
	}
	if p.NominatedTo != 0 {
		fmt.Fprintf(&b, " nominated to %s", NodeName(p.NominatedTo-1))
	}
	b.WriteByte('\n')
	return b.String()
}

func intOrPercent(v *model.IntOrPercent) string {
	switch {
	case v == nil:
		return "-"
	case v.Percent:
		return fmt.Sprintf("%d%%", v.Value)
	}
	return fmt.Sprint(v.Value)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
