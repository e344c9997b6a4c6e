package deschedulerdiff

import (
	"slices"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// Bounds of a generated snapshot: small, so that the model's branches
// stay few and a node's pods stay within sort.Slice's insertion sort
// (upstream's pod sort has an inconsistent comparator; see
// docs/divergences.md).
const (
	maxNodes       = 4
	maxDeps        = 3
	maxPods        = 12
	maxPodsPerNode = 8
)

func oneIn(t *rapid.T, n int, label string) bool { return rapid.IntRange(1, n).Draw(t, label) == 1 }

func pct(v float64) *float64 { return &v }

// drawThresholds draws a percentage for each of cpu, memory and pods
// (at least one) from values.
func drawThresholds(t *rapid.T, label string, values []float64, set [model.NumResources]bool) model.ResourceThresholds {
	var th model.ResourceThresholds
	for r := range model.NumResources {
		if set[r] {
			th.Set(r, rapid.SampledFrom(values).Draw(t, label))
		}
	}
	return th
}

func drawResourceSet(t *rapid.T) [model.NumResources]bool {
	var set [model.NumResources]bool
	for {
		any := false
		for r := range model.NumResources {
			set[r] = rapid.Bool().Draw(t, "resource")
			any = any || set[r]
		}
		if any {
			return set
		}
	}
}

// Generate draws a snapshot for plugin p.
func Generate(t *rapid.T, p Plugin) *Snapshot {
	s := &Snapshot{Plugin: p}
	zones := []string{"z1", "z2", "z3"}
	nn := rapid.IntRange(2, maxNodes).Draw(t, "nodes")
	for range nn {
		n := Node{
			MilliCPU: 500 * rapid.Int64Range(2, 6).Draw(t, "cpu"),
			MemMiB:   512 * rapid.Int64Range(2, 6).Draw(t, "mem"),
			MaxPods:  rapid.SampledFrom([]int{110, 110, 4, 6, 10}).Draw(t, "maxPods"),
		}
		if !oneIn(t, 4, "noZone") {
			n.Zone = rapid.SampledFrom(zones).Draw(t, "zone")
		}
		for range []int{0, 0, 0, 0, 1, 2}[rapid.IntRange(0, 5).Draw(t, "taints")] {
			n.Taints = append(n.Taints, model.Taint{
				Key:    rapid.SampledFrom([]string{"dedicated", "gpu"}).Draw(t, "taintKey"),
				Value:  "a",
				Effect: rapid.SampledFrom([]model.TaintEffect{model.NoSchedule, model.PreferNoSchedule, model.NoExecute}).Draw(t, "effect"),
			})
		}
		n.Cordoned = oneIn(t, 8, "cordoned")
		s.Nodes = append(s.Nodes, n)
	}
	nd := rapid.IntRange(1, maxDeps).Draw(t, "deps")
	for range nd {
		d := Dep{Tier: rapid.SampledFrom([]string{"a", "b"}).Draw(t, "tier")}
		if !oneIn(t, 6, "bestEffort") {
			d.MilliCPU = 100 * rapid.Int64Range(0, 6).Draw(t, "reqCPU")
			d.MemMiB = 64 * rapid.Int64Range(0, 8).Draw(t, "reqMem")
		}
		d.Critical = oneIn(t, 8, "critical")
		if oneIn(t, 6, "zoneSelector") {
			d.ZoneSelector = rapid.SampledFrom(zones).Draw(t, "zoneSelector")
		}
		for range rapid.IntRange(0, 1).Draw(t, "tolerations") {
			d.Tolerations = append(d.Tolerations, model.Toleration{
				Key: rapid.SampledFrom([]string{"dedicated", "gpu"}).Draw(t, "tolKey"), Operator: "Equal", Value: "a",
				Effect: rapid.SampledFrom([]model.TaintEffect{"", model.NoSchedule, model.NoExecute}).Draw(t, "tolEffect"),
			})
		}
		if p == TopologySpread || oneIn(t, 6, "spreadElsewhere") {
			for range rapid.IntRange(1, 2).Draw(t, "spread") {
				d.Spread = append(d.Spread, Spread{
					MaxSkew:       rapid.IntRange(1, 2).Draw(t, "maxSkew"),
					Key:           rapid.SampledFrom([]string{ZoneKey, model.HostnameKey}).Draw(t, "spreadKey"),
					When:          rapid.SampledFrom([]model.WhenUnsatisfiable{model.DoNotSchedule, model.ScheduleAnyway}).Draw(t, "when"),
					HonorTaints:   oneIn(t, 4, "honorTaints"),
					IgnoreAffinty: oneIn(t, 4, "ignoreAffinity"),
					MergeOther:    oneIn(t, 4, "matchLabelKeys"),
				})
			}
		}
		s.Deps = append(s.Deps, d)
	}
	np := rapid.IntRange(0, maxPods).Draw(t, "pods")
	if p == RemoveFailedPods || p == PodLifeTime || p == TooManyRestarts {
		// PodLifeTime branches over every set of matching pods,
		// RemovePodsHavingTooManyRestarts over the pods that may wait in
		// CrashLoopBackOff.
		np = min(np, maxLifetimePods)
	}
	perNode := make([]int, nn)
	for range np {
		pod := Pod{Dep: rapid.IntRange(0, nd-1).Draw(t, "dep"), Node: rapid.IntRange(0, nn-1).Draw(t, "node"),
			Running: !oneIn(t, 6, "pending"), Terminating: oneIn(t, 10, "terminating")}
		pod.NotReady = pod.Running && !pod.Terminating && oneIn(t, 8, "notReady")
		// RemoveDuplicates needs stacks, the node-utilisation plugins
		// busy and idle nodes: pile pods on the first nodes.
		if p != TopologySpread && rapid.Bool().Draw(t, "stack") {
			pod.Node = rapid.IntRange(0, min(1, nn-1)).Draw(t, "stackNode")
			if p == RemoveDuplicates {
				pod.Node = 0
			}
		}
		if perNode[pod.Node] == maxPodsPerNode {
			continue
		}
		perNode[pod.Node]++
		s.Pods = append(s.Pods, pod)
	}
	for i := range s.Deps {
		have := 0
		for _, pod := range s.Pods {
			if pod.Dep == i {
				have++
			}
		}
		s.Deps[i].Replicas = max(0, have+rapid.IntRange(-1, 1).Draw(t, "replicasDelta"))
	}
	if oneIn(t, 3, "pdbs") {
		s.PDBs = drawPDBs(t, nd)
	}
	pr := &s.Profile
	pr.NodeFit = rapid.Bool().Draw(t, "nodeFit")
	pr.EvictSystemCriticalPods = oneIn(t, 4, "evictCritical")
	switch p {
	case LowNodeUtilization:
		set := drawResourceSet(t)
		a := &model.LowNodeUtilizationArgs{UseDeviationThresholds: oneIn(t, 4, "deviation")}
		if a.UseDeviationThresholds {
			a.Thresholds = drawThresholds(t, "threshold", []float64{0, 5, 10, 20}, set)
			a.TargetThresholds = drawThresholds(t, "target", []float64{0, 5, 10, 20}, set)
		} else {
			a.Thresholds = drawThresholds(t, "threshold", []float64{5, 10, 20, 30}, set)
			a.TargetThresholds = drawThresholds(t, "target", []float64{30, 40, 50, 60}, set)
		}
		a.NumberOfNodes = []int{0, 0, 0, 1, 2}[rapid.IntRange(0, 4).Draw(t, "numberOfNodes")]
		if oneIn(t, 4, "evictionLimitNode") {
			n := rapid.IntRange(0, 2).Draw(t, "limitNode")
			a.EvictionLimitNode = &n
		}
		pr.Balance = []model.BalancePlugin{model.LowNodeUtilization}
		pr.LowNodeUtilization = a
	case HighNodeUtilization:
		a := &model.HighNodeUtilizationArgs{
			Thresholds:                drawThresholds(t, "threshold", []float64{5, 10, 15, 20}, drawResourceSet(t)),
			NumberOfNodes:             []int{0, 0, 0, 1}[rapid.IntRange(0, 3).Draw(t, "numberOfNodes")],
			OnlyThresholdingResources: oneIn(t, 4, "onlyThresholding"),
		}
		pr.Balance = []model.BalancePlugin{model.HighNodeUtilization}
		pr.HighNodeUtilization = a
	case RemoveDuplicates:
		pr.Balance = []model.BalancePlugin{model.RemoveDuplicates}
	case TopologySpread:
		pr.Balance = []model.BalancePlugin{model.RemovePodsViolatingTopologySpreadConstraint}
		pr.Constraints = rapid.SampledFrom([]model.TopologySpreadConstraints{model.HardConstraints, model.SoftConstraints, model.AllConstraints}).Draw(t, "constraints")
		pr.TopologyBalanceNodeFit = !oneIn(t, 4, "noTopologyBalanceNodeFit")
	case RemoveFailedPods, PodLifeTime:
		drawLifetime(t, s)
	case NodeTaints, NodeAffinity, PodAntiAffinity:
		drawViolations(t, s)
	case TooManyRestarts:
		drawRestarts(t, s)
	}
	if p == TooManyRestarts || p == PodLifeTime {
		drawCrashBudgets(t, s)
	}
	if oneIn(t, 5, "limits") {
		s.MaxPerNode = rapid.IntRange(0, 2).Draw(t, "maxPerNode")
		s.MaxPerNamespace = rapid.IntRange(0, 3).Draw(t, "maxPerNamespace")
		s.MaxTotal = rapid.IntRange(0, 3).Draw(t, "maxTotal")
	}
	// Drawn last, so that the single-namespace snapshots are the ones
	// the same draws gave before namespaces.
	if oneIn(t, 3, "namespaces") {
		drawNamespaces(t, s)
		if s.isViolations() {
			drawAntiNamespaces(t, s)
		}
	}
	drawEvictor(t, s)
	drawQoS(t, s)
	return s
}

// namespaceNames are the namespaces a multi-namespace snapshot draws
// from.
var namespaceNames = [...]string{Namespace, "team-a", "team-b"}

// drawNamespaces spreads the Deps of s over two or three namespaces
// (two Deps or more: at least two namespaces), puts its budgets in the
// namespace of a Dep or any of them (which may hold no pod), lets some
// spread constraints select a tier (several Deps, counted per
// namespace), draws a per-namespace eviction limit more often than not,
// and sometimes the plugin's namespace filter over these namespaces.
func drawNamespaces(t *rapid.T, s *Snapshot) {
	s.Namespaces = slices.Clone(namespaceNames[:rapid.IntRange(2, len(namespaceNames)).Draw(t, "numNamespaces")])
	nn := len(s.Namespaces)
	same := true
	for i := range s.Deps {
		s.Deps[i].Namespace = rapid.SampledFrom(s.Namespaces).Draw(t, "depNamespace")
		same = same && s.Deps[i].Namespace == s.Deps[0].Namespace
	}
	if last := len(s.Deps) - 1; same && last > 0 {
		k := slices.Index(s.Namespaces, s.Deps[0].Namespace)
		s.Deps[last].Namespace = s.Namespaces[(k+1)%nn]
	}
	for i := range s.Deps {
		for k := range s.Deps[i].Spread {
			s.Deps[i].Spread[k].ByTier = oneIn(t, 3, "spreadByTier")
		}
	}
	drawPDBNamespaces(t, s, 0)
	if !oneIn(t, 3, "noNamespaceLimit") {
		s.MaxPerNamespace = rapid.IntRange(1, 2).Draw(t, "maxPerNamespace")
	}
	if !oneIn(t, 3, "namespaceFilter") {
		return
	}
	pr := &s.Profile
	switch s.Plugin {
	case LowNodeUtilization:
		pr.LowNodeUtilization.ExcludedNamespaces = drawSubset(t, s.Namespaces, 1, nn-1)
	case HighNodeUtilization:
		pr.HighNodeUtilization.ExcludedNamespaces = drawSubset(t, s.Namespaces, 1, nn-1)
	case RemoveDuplicates, TopologySpread, RemoveFailedPods, PodLifeTime, NodeTaints, NodeAffinity, PodAntiAffinity, TooManyRestarts:
		f := &pr.RemoveDuplicatesFilter
		switch s.Plugin {
		case NodeTaints, NodeAffinity, PodAntiAffinity:
			f = s.violationsFilter()
		case TopologySpread:
			f = &pr.TopologySpreadFilter
		case RemoveFailedPods:
			f = &pr.Deschedule.FailedPodsFilter
		case PodLifeTime:
			f = &pr.Deschedule.PodLifeTimeFilter
		case TooManyRestarts:
			f = &pr.Deschedule.TooManyRestartsFilter
		}
		if rapid.Bool().Draw(t, "include") {
			f.IncludeNamespaces = drawSubset(t, s.Namespaces, 1, nn-1)
		} else {
			f.ExcludeNamespaces = drawSubset(t, s.Namespaces, 1, nn-1)
		}
	}
}

// drawPDBNamespaces puts budgets from on of a multi-namespace snapshot
// in a namespace: mostly that of a Dep (of the Dep it selects by name),
// sometimes any.
func drawPDBNamespaces(t *rapid.T, s *Snapshot, from int) {
	if len(s.Namespaces) == 0 {
		return
	}
	for i := from; i < len(s.PDBs); i++ {
		b := &s.PDBs[i]
		switch {
		case oneIn(t, 3, "pdbAnyNamespace"):
			b.Namespace = rapid.SampledFrom(s.Namespaces).Draw(t, "pdbNamespace")
		case b.MatchLabels[appLabel] != "":
			for k := range s.Deps {
				if depName(k) == b.MatchLabels[appLabel] {
					b.Namespace = s.Deps[k].Namespace
				}
			}
		default:
			b.Namespace = s.Deps[rapid.IntRange(0, len(s.Deps)-1).Draw(t, "pdbDep")].Namespace
		}
	}
}

// drawSubset draws between lo and hi of the names.
func drawSubset(t *rapid.T, names []string, lo, hi int) []string {
	k := rapid.IntRange(lo, hi).Draw(t, "subsetSize")
	return rapid.Permutation(names).Draw(t, "subset")[:k]
}

func depName(d int) string { return "d" + string(rune('0'+d)) }

// drawPDBs draws one or two budgets selecting a Dep's pods or a tier's,
// with an integer or percentage minAvailable or maxUnavailable, or
// neither, and either unhealthy-pod eviction policy.
func drawPDBs(t *rapid.T, nd int) []PDB {
	var out []PDB
	for range rapid.IntRange(1, 2).Draw(t, "npdbs") {
		var b PDB
		if oneIn(t, 3, "byTier") {
			b.MatchLabels = map[string]string{tierKey: rapid.SampledFrom([]string{"a", "b"}).Draw(t, "pdbTier")}
		} else {
			b.MatchLabels = map[string]string{appLabel: depName(rapid.IntRange(0, nd-1).Draw(t, "pdbDep"))}
		}
		v := &model.IntOrPercent{Value: rapid.IntRange(0, 3).Draw(t, "pdbValue")}
		if oneIn(t, 3, "pdbPercent") {
			*v = model.IntOrPercent{Value: rapid.SampledFrom([]int{0, 25, 50, 75, 100}).Draw(t, "pdbPercentValue"), Percent: true}
		}
		switch rapid.IntRange(0, 5).Draw(t, "pdbKind") {
		case 0:
			// Neither field: the budget expects no pod.
		case 1, 2, 3:
			b.MinAvailable = v
		default:
			b.MaxUnavailable = v
		}
		b.AlwaysAllow = oneIn(t, 4, "alwaysAllow")
		out = append(out, b)
	}
	return out
}

// drawCrashBudgets gives the snapshots whose pods crash budgets in two
// of three, over the crashing pods: a crashing pod is not Ready, so it is
// not healthy in the disruption controller's currentHealthy, and the
// Eviction API lets it go under unhealthyPodEvictionPolicy AlwaysAllow,
// or IfHealthyBudget while currentHealthy reaches desiredHealthy, without
// using a disruption. The first budget often selects a crashing pod's
// Deployment; either policy is as likely; a budget's minAvailable or
// maxUnavailable is often near the number of pods it selects (one less,
// as many, one more), where one pod's readiness decides whether it
// allows a disruption.
func drawCrashBudgets(t *rapid.T, s *Snapshot) {
	if len(s.PDBs) == 0 && rapid.Bool().Draw(t, "crashPDBs") {
		s.PDBs = drawPDBs(t, len(s.Deps))
	}
	if len(s.PDBs) == 0 {
		return
	}
	var crashing []int
	for i, p := range s.Pods {
		if p.crashing() {
			crashing = append(crashing, i)
		}
	}
	if len(crashing) > 0 && rapid.Bool().Draw(t, "pdbOnCrash") {
		d := s.Pods[rapid.SampledFrom(crashing).Draw(t, "crashingPod")].Dep
		s.PDBs[0].MatchLabels = map[string]string{appLabel: depName(d)}
	}
	for i := range s.PDBs {
		b := &s.PDBs[i]
		b.AlwaysAllow = rapid.Bool().Draw(t, "crashAlwaysAllow")
		if !rapid.Bool().Draw(t, "pdbNearCount") {
			continue
		}
		n := 0
		for _, p := range s.Pods {
			if b.MatchLabels[appLabel] == depName(p.Dep) || b.MatchLabels[tierKey] == s.Deps[p.Dep].Tier {
				n++
			}
		}
		v := &model.IntOrPercent{Value: max(0, n+rapid.IntRange(-1, 1).Draw(t, "pdbNearDelta"))}
		if rapid.Bool().Draw(t, "pdbNearMinAvailable") {
			b.MinAvailable, b.MaxUnavailable = v, nil
		} else {
			b.MinAvailable, b.MaxUnavailable = nil, v
		}
	}
}

// GenerateBudgets draws a snapshot for the budget comparison: the
// cluster of Generate with one or two budgets always.
func GenerateBudgets(t *rapid.T) *Snapshot {
	s := Generate(t, RemoveDuplicates)
	if len(s.PDBs) == 0 {
		s.PDBs = drawPDBs(t, len(s.Deps))
		drawPDBNamespaces(t, s, 0)
	}
	return s
}
