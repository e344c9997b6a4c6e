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
// pods are bound to them, budgets, and a pending pod.
type Snapshot struct {
	Nodes   []Node
	Apps    []App
	Pods    []Pod
	PDBs    []PDB
	Pending Pending
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
type Pod struct{ App, Node int }

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
}

// NodeName is node i's name on both sides.
func NodeName(i int) string { return fmt.Sprintf("n%d", i+1) }

// PodName is pod i's name on the real side.
func PodName(i int) string { return fmt.Sprintf("pod%d", i+1) }

func appName(a int) string { return fmt.Sprintf("app%d", a) }

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
	return s
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
		fmt.Fprintf(&b, "  %s: %s on %s\n", PodName(i), appName(p.App), NodeName(p.Node))
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
