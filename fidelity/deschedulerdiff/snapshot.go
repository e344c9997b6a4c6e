package deschedulerdiff

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// Plugin is the Balance plugin a Snapshot runs.
type Plugin int

const (
	LowNodeUtilization Plugin = iota
	HighNodeUtilization
	RemoveDuplicates
	TopologySpread
	// RemoveFailedPods and PodLifeTime are Deschedule plugins
	// (lifetime.go).
	RemoveFailedPods
	PodLifeTime
	// NodeTaints, NodeAffinity and PodAntiAffinity are the Deschedule
	// plugins RemovePodsViolatingNodeTaints, RemovePodsViolatingNodeAffinity
	// and RemovePodsViolatingInterPodAntiAffinity (violations.go).
	NodeTaints
	NodeAffinity
	PodAntiAffinity
	// TooManyRestarts is the Deschedule plugin
	// RemovePodsHavingTooManyRestarts (restarts.go).
	TooManyRestarts
	numPlugins
)

func (p Plugin) String() string {
	return [...]string{"LowNodeUtilization", "HighNodeUtilization", "RemoveDuplicates",
		"RemovePodsViolatingTopologySpreadConstraint", "RemoveFailedPods", "PodLifeTime",
		"RemovePodsViolatingNodeTaints", "RemovePodsViolatingNodeAffinity", "RemovePodsViolatingInterPodAntiAffinity",
		"RemovePodsHavingTooManyRestarts"}[p]
}

// Label keys of the snapshots' nodes and pods.
const (
	ZoneKey  = "topology.kubernetes.io/zone"
	appLabel = "app"
	tierKey  = "tier"
	// unschedulableKey is the taint the node lifecycle controller puts on
	// a cordoned node, and the model's spelling of spec.unschedulable.
	unschedulableKey = "node.kubernetes.io/unschedulable"
)

// Node is one Ready node: allocatable millicores, MiB and pods, an
// optional zone label and disk label (violations.go), taints, and
// whether it is cordoned.
type Node struct {
	MilliCPU, MemMiB int64
	MaxPods          int
	Zone             string
	Disk             string
	Taints           []model.Taint
	Cordoned         bool
}

// Spread is a topology spread constraint of a Dep, selecting the Dep's
// own pods (its app label).
type Spread struct {
	MaxSkew       int
	Key           string // ZoneKey or model.HostnameKey
	When          model.WhenUnsatisfiable
	HonorTaints   bool // nodeTaintsPolicy Honor (default Ignore)
	IgnoreAffinty bool // nodeAffinityPolicy Ignore (default Honor)
	// ByTier selects the pods of the Dep's tier instead (several Deps'
	// pods, counted in the Dep's namespace only).
	ByTier bool
	// MergeOther: matchLabelKeys names the label the selector does not
	// (tier for an app selector, app for a tier one), whose value the
	// declaring pod's own merges into the selector.
	MergeOther bool
}

// matchLabelKeys is the constraint's matchLabelKeys.
func (c Spread) matchLabelKeys() []string {
	switch {
	case !c.MergeOther:
		return nil
	case c.ByTier:
		return []string{appLabel}
	}
	return []string{tierKey}
}

// selector is the constraint's label selector for Dep d.
func (c Spread) selector(d int, dep Dep) map[string]string {
	if c.ByTier {
		return map[string]string{tierKey: dep.Tier}
	}
	return map[string]string{appLabel: depName(d)}
}

// Dep is a Deployment with one ReplicaSet: the pod template's requests
// (both 0: a BestEffort pod), labels app=d<i> and tier, whether its pods
// are system-critical, a zone nodeSelector, tolerations and spread
// constraints, required and preferred node affinity and required pod
// anti-affinity (violations.go), spec.replicas (what a percentage budget
// counts) and its namespace ("": Namespace), which its ReplicaSet and
// pods share.
type Dep struct {
	Namespace        string
	MilliCPU, MemMiB int64
	Tier             string
	Critical         bool
	ZoneSelector     string
	Tolerations      []model.Toleration
	Spread           []Spread
	Required         []model.Selector
	Preferred        []model.PreferredTerm
	AntiAffinity     []AntiTerm
	Replicas         int
	// Evict and PreferNoEviction: the pods carry the
	// descheduler.alpha.kubernetes.io/evict and prefer-no-eviction
	// annotations (evictor.go).
	Evict, PreferNoEviction bool
	// Guaranteed: the container limits what it requests, cpu and memory
	// both above zero (QoS class Guaranteed; else Burstable, or
	// BestEffort without requests).
	Guaranteed bool
}

// Pod is a pod of Dep bound to Node, Running or Pending, and
// Terminating when its deletion was requested (a deletion timestamp; the
// model's Terminating phase).
type Pod struct {
	Dep, Node   int
	Running     bool
	Terminating bool
	// Failed: rejected at admission with status reason Reason (lifetime.go).
	Failed bool
	Reason string
	// Creating: a Pending pod whose container shows the waiting reason
	// ContainerCreating; AgeSeconds is the pod's age. The model knows
	// neither.
	Creating   bool
	AgeSeconds int
	// Restarts and InitRestarts are its containers' and init
	// containers' restartCount; CrashLoop: its container waits in
	// CrashLoopBackOff; OOMKilled: its container is terminated, OOM-killed
	// (exit code 137), not yet restarted (restarts.go).
	Restarts, InitRestarts int
	CrashLoop, OOMKilled   bool
	// InitCrashLoop: a Pending pod's init container, which restarted,
	// waits in CrashLoopBackOff; InitFailed: it is terminated with an
	// error before its restart (else it runs).
	InitCrashLoop, InitFailed bool
	// NotReady: Running with its Ready condition False (a readiness
	// probe that does not pass).
	NotReady bool
}

// PDB is a PodDisruptionBudget of a namespace ("": Namespace) selecting
// MatchLabels among that namespace's pods.
type PDB struct {
	Namespace                    string
	MatchLabels                  map[string]string
	MinAvailable, MaxUnavailable *model.IntOrPercent
	AlwaysAllow                  bool
}

// Snapshot is one descheduling question: a cluster, the plugin with its
// arguments and the DefaultEvictor's (Profile), the evictor's limits
// (0: none) and the disruption budgets. Namespaces, when set, are the
// namespaces the Deps and budgets were drawn over (the plugins'
// namespace filters name them); otherwise everything is in Namespace.
type Snapshot struct {
	Namespaces []string
	Nodes      []Node
	Deps       []Dep
	Pods       []Pod
	PDBs       []PDB
	Plugin     Plugin
	Profile    model.DeschedulerProfile
	// NamespaceLabels are the labels of the Namespace objects beyond
	// kubernetes.io/metadata.name, by name (evictor.go).
	NamespaceLabels map[string]map[string]string
	// ExtraEnabled spells the profile's PodsWithoutPDB protection as
	// podProtections.extraEnabled (else ignorePodsWithoutPDB).
	ExtraEnabled bool
	// MaxPerNode, MaxPerNamespace and MaxTotal are the PodEvictor's
	// limits (0: none).
	MaxPerNode, MaxPerNamespace, MaxTotal int
	// ZeroLimit gives one of the limits as 0, which admits no eviction
	// (model.Descheduler.EvictionLimitZero): 0 none, 1 the node limit,
	// 2 the namespace limit, 3 the total limit.
	ZeroLimit int
	// InformerCaughtUp runs RemovePodsViolatingNodeAffinity's
	// nodeAffinityType passes as plugins of one type each, the informer
	// seeing the deletions of a pass before the next lists pods
	// (TestDifferential runs both informers).
	InformerCaughtUp bool
}

// NodeName is the name of node i on both sides.
func NodeName(i int) string { return fmt.Sprintf("n%d", i+1) }

// namespace is the Dep's namespace.
func (d Dep) namespace() string { return cmp.Or(d.Namespace, Namespace) }

// namespace is the budget's namespace.
func (b PDB) namespace() string { return cmp.Or(b.Namespace, Namespace) }

// PodName is the name of pod i on both sides.
func PodName(i int) string { return fmt.Sprintf("p%d", i) }

func (s *Snapshot) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "plugin %s, nodeFit %v, evictSystemCriticalPods %v", s.Plugin, s.Profile.NodeFit, s.Profile.EvictSystemCriticalPods)
	switch s.Plugin {
	case LowNodeUtilization:
		a := s.Profile.LowNodeUtilization
		fmt.Fprintf(&b, ", thresholds %s, targetThresholds %s, useDeviationThresholds %v, numberOfNodes %d",
			fmtThresholds(a.Thresholds), fmtThresholds(a.TargetThresholds), a.UseDeviationThresholds, a.NumberOfNodes)
		if a.EvictionLimitNode != nil {
			fmt.Fprintf(&b, ", evictionLimits.node %d", *a.EvictionLimitNode)
		}
	case HighNodeUtilization:
		a := s.Profile.HighNodeUtilization
		fmt.Fprintf(&b, ", thresholds %s, numberOfNodes %d, onlyThresholdingResources %v",
			fmtThresholds(a.Thresholds), a.NumberOfNodes, a.OnlyThresholdingResources)
	case TopologySpread:
		fmt.Fprintf(&b, ", constraints %s, topologyBalanceNodeFit %v", [...]string{"DoNotSchedule", "ScheduleAnyway", "both"}[s.Profile.Constraints],
			s.Profile.TopologyBalanceNodeFit)
	}
	if f := s.Profile.RemoveDuplicatesFilter; s.Plugin == RemoveDuplicates {
		fmtFilter(&b, f)
	}
	if f := s.Profile.TopologySpreadFilter; s.Plugin == TopologySpread {
		fmtFilter(&b, f)
	}
	if a := s.Profile.LowNodeUtilization; s.Plugin == LowNodeUtilization && len(a.ExcludedNamespaces) > 0 {
		fmt.Fprintf(&b, ", evictableNamespaces.exclude %v", a.ExcludedNamespaces)
	}
	if a := s.Profile.HighNodeUtilization; s.Plugin == HighNodeUtilization && len(a.ExcludedNamespaces) > 0 {
		fmt.Fprintf(&b, ", evictableNamespaces.exclude %v", a.ExcludedNamespaces)
	}
	fmtLifetime(&b, s)
	fmtViolations(&b, s)
	fmtRestarts(&b, s)
	fmtEvictor(&b, s)
	if s.MaxPerNode+s.MaxPerNamespace+s.MaxTotal > 0 {
		fmt.Fprintf(&b, ", limits per node %d, per namespace %d, total %d", s.MaxPerNode, s.MaxPerNamespace, s.MaxTotal)
	}
	if s.ZeroLimit > 0 {
		fmt.Fprintf(&b, ", %s limit 0", [...]string{"node", "namespace", "total"}[s.ZeroLimit-1])
	}
	b.WriteString("\n")
	for i, n := range s.Nodes {
		fmt.Fprintf(&b, "  %s: cpu %dm mem %dMi pods %d", NodeName(i), n.MilliCPU, n.MemMiB, n.MaxPods)
		if n.Zone != "" {
			fmt.Fprintf(&b, " zone=%s", n.Zone)
		}
		if n.Disk != "" {
			fmt.Fprintf(&b, " disk=%s", n.Disk)
		}
		for _, t := range n.Taints {
			fmt.Fprintf(&b, " taint %s=%s:%s", t.Key, t.Value, t.Effect)
		}
		if n.Cordoned {
			b.WriteString(" cordoned")
		}
		b.WriteString("\n")
	}
	for i, d := range s.Deps {
		fmt.Fprintf(&b, "  d%d: namespace %s, replicas %d, requests %dm %dMi, tier %s", i, d.namespace(), d.Replicas, d.MilliCPU, d.MemMiB, d.Tier)
		if d.Critical {
			b.WriteString(", critical")
		}
		if d.Evict {
			b.WriteString(", annotated evict")
		}
		if d.PreferNoEviction {
			b.WriteString(", annotated prefer-no-eviction")
		}
		if d.Guaranteed {
			b.WriteString(", Guaranteed (limits = requests)")
		}
		if d.ZoneSelector != "" {
			fmt.Fprintf(&b, ", nodeSelector zone=%s", d.ZoneSelector)
		}
		for _, t := range d.Tolerations {
			fmt.Fprintf(&b, ", tolerates %s %s %s:%s", t.Key, t.Operator, t.Value, t.Effect)
		}
		fmtAffinity(&b, i, d)
		for _, c := range d.Spread {
			fmt.Fprintf(&b, ", spread %s maxSkew %d %s honorTaints %v ignoreAffinity %v selector %v", c.Key, c.MaxSkew, c.When, c.HonorTaints, c.IgnoreAffinty,
				c.selector(i, d))
			if keys := c.matchLabelKeys(); keys != nil {
				fmt.Fprintf(&b, " matchLabelKeys %v", keys)
			}
		}
		b.WriteString("\n")
	}
	for i, p := range s.Pods {
		phase := "Pending"
		if p.Running {
			phase = "Running"
		}
		if p.Failed {
			phase = "Failed (" + p.Reason + ")"
		}
		if p.Creating {
			phase += ", ContainerCreating"
		}
		if p.NotReady {
			phase += ", not Ready"
		}
		if s.Plugin == PodLifeTime || s.Plugin == RemoveFailedPods {
			phase += fmt.Sprintf(", age %ds", p.AgeSeconds)
		}
		if p.Restarts+p.InitRestarts > 0 {
			phase += fmt.Sprintf(", restarts %d+%d init", p.Restarts, p.InitRestarts)
		}
		if p.CrashLoop {
			phase += ", CrashLoopBackOff"
		}
		if p.InitCrashLoop {
			phase += ", init CrashLoopBackOff"
		}
		if p.InitFailed {
			phase += ", init terminated Error"
		}
		if p.OOMKilled {
			phase += ", OOMKilled"
		}
		if p.Terminating {
			phase += ", terminating"
		}
		fmt.Fprintf(&b, "  %s: d%d on %s %s\n", PodName(i), p.Dep, NodeName(p.Node), phase)
	}
	for i, p := range s.PDBs {
		fmt.Fprintf(&b, "  pdb%d: namespace %s, selector %v", i, p.namespace(), p.MatchLabels)
		if p.MinAvailable != nil {
			fmt.Fprintf(&b, " minAvailable %s", fmtIntOrPercent(*p.MinAvailable))
		}
		if p.MaxUnavailable != nil {
			fmt.Fprintf(&b, " maxUnavailable %s", fmtIntOrPercent(*p.MaxUnavailable))
		}
		if p.AlwaysAllow {
			b.WriteString(" unhealthyPodEvictionPolicy AlwaysAllow")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// fmtFilter writes a plugin's namespaces argument.
func fmtFilter(b *strings.Builder, f model.PodFilter) {
	if len(f.IncludeNamespaces) > 0 {
		fmt.Fprintf(b, ", namespaces.include %v", f.IncludeNamespaces)
	}
	if len(f.ExcludeNamespaces) > 0 {
		fmt.Fprintf(b, ", namespaces.exclude %v", f.ExcludeNamespaces)
	}
}

func fmtIntOrPercent(v model.IntOrPercent) string {
	if v.Percent {
		return fmt.Sprintf("%d%%", v.Value)
	}
	return fmt.Sprint(v.Value)
}

func fmtThresholds(t model.ResourceThresholds) string {
	var parts []string
	for r := range model.NumResources {
		if v, ok := t.Get(r); ok {
			parts = append(parts, fmt.Sprintf("%s %g", r, v))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// podKey is what the model knows of pod i, whose state in the model is
// ps: its Deployment, node and phase, and the restart count and readiness
// its slot holds (ToModel). The model holds pods of equal state identical
// (model.IdenticalGroups) and takes the lowest slots of such a group
// where it chooses among them, so pods of equal key are one choice in its
// branches. A restart count is part of it: the plugin sorts and filters
// by it, so evicting a pod that restarted 5 times is not evicting its
// sibling that restarted once. What the model does not keep is not part
// of it: a count beyond model.MaxRestarts, and whether a restarted
// container waits in CrashLoopBackOff or shows its OOM kill, which the
// model decides pod by pod as a filter or budget asks.
func (s *Snapshot) podKey(i int, ps *model.PodState) string {
	p := s.Pods[i]
	return fmt.Sprintf("d%d@%s/%v/%v/%v/r%d/%d", p.Dep, NodeName(p.Node), p.Running, p.Terminating, p.Failed, ps.Restarts, ps.Readiness)
}

// Signature is a set of pods up to pods the model holds identical: the
// sorted keys of its pods.
func (m *ModelAnswer) Signature(pods []int) string {
	keys := make([]string, len(pods))
	for k, i := range pods {
		keys[k] = m.Keys[i]
	}
	slices.Sort(keys)
	return "[" + strings.Join(keys, " ") + "]"
}
