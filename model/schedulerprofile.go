package model

import (
	"maps"
	"slices"
)

// SchedulerProfile is what the default-scheduler profile of the input's
// KubeSchedulerConfiguration changes in how kube-scheduler scores nodes
// and defaults spread constraints (pkg/scheduler/apis/config/v1 and the
// plugins' arguments, v1.36): NodeResourcesFit's scoring strategy, the
// weights of the score plugins the model has, PodTopologySpread's default
// constraints and InterPodAffinity's hardPodAffinityWeight. The zero value
// is kube-scheduler's default profile.
type SchedulerProfile struct {
	// Scoring is NodeResourcesFit's scoringStrategy.
	Scoring ScoringStrategy
	// Weights are the score plugins' weights after the profile's plugins
	// are merged with the defaults; nil means the defaults.
	Weights *ScoreWeights
	// ListDefaulting: PodTopologySpread's defaultingType is List, so a
	// pod with an owner and no constraints of its own gets
	// DefaultConstraints (possibly none) instead of the system defaults.
	ListDefaulting     bool
	DefaultConstraints []DefaultSpreadConstraint
	// HardPodAffinityWeight is InterPodAffinityArgs' weight of an existing
	// pod's required affinity terms in the incoming pod's score; nil
	// means the default, 1.
	HardPodAffinityWeight *int64
	// SpreadFilterOff and InterPodAffinityFilterOff: the profile disables
	// PodTopologySpread's or InterPodAffinity's Filter (in the filter set,
	// or in the MultiPoint set without enabling it at filter), so the
	// scheduler places a pod whatever its DoNotSchedule constraints or the
	// required inter-pod terms say; their scores still run if enabled.
	// Nothing else in the cluster checks them (the kubelet's admission
	// does not).
	SpreadFilterOff, InterPodAffinityFilterOff bool
	// BalancedResources are NodeResourcesBalancedAllocationArgs'
	// resources by name (their weights must be 1); nil means cpu and
	// memory.
	BalancedResources []string
	// AddedAffinity is NodeAffinityArgs' addedAffinity; nil means none.
	AddedAffinity *AddedAffinity
}

// AddedAffinity is the node affinity NodeAffinityArgs' addedAffinity adds
// to every pod the profile schedules, as nodeaffinity.New parses it
// (v1.36): its NodeAffinity Filter rejects a node the required selector
// does not match ("node(s) didn't match scheduler-enforced node
// affinity", before the pod's own affinity is checked) and its Score adds
// the weights of the matching preferred terms to the pod's. Nothing else
// reads it: the kubelet's admission, the descheduler, the DaemonSet
// controller and PodTopologySpread's nodeAffinityPolicy read the pod's
// own affinity.
type AddedAffinity struct {
	// Required: requiredDuringSchedulingIgnoredDuringExecution is set, so
	// a node passes only when one of Terms (ORed) matches it; with no
	// term no node passes. Empty terms, which match no node, are left out.
	Required bool
	Terms    []Selector
	// Preferred are the preferred terms with a non-zero weight and a
	// non-empty preference (the others score nothing).
	Preferred []PreferredTerm
}

// Keys returns the node label keys the added affinity reads, sorted.
func (a *AddedAffinity) Keys() []string {
	if a == nil {
		return nil
	}
	set := map[string]bool{}
	add := func(s *Selector) {
		for k := range s.MatchLabels {
			set[k] = true
		}
		for _, r := range s.MatchExpressions {
			set[r.Key] = true
		}
	}
	for i := range a.Terms {
		add(&a.Terms[i])
	}
	for i := range a.Preferred {
		add(&a.Preferred[i].Term)
	}
	return slices.Sorted(maps.Keys(set))
}

// Admits reports whether the required selector matches a node with the
// given labels (true without one).
func (a *AddedAffinity) Admits(labels map[string]string) bool {
	if a == nil || !a.Required {
		return true
	}
	return slices.ContainsFunc(a.Terms, func(t Selector) bool { return t.MatchesLabels(labels) })
}

// ScoringStrategyType is NodeResourcesFit's scoring strategy type.
type ScoringStrategyType uint8

const (
	LeastAllocated ScoringStrategyType = iota
	MostAllocated
	RequestedToCapacityRatio
)

func (t ScoringStrategyType) String() string {
	switch t {
	case MostAllocated:
		return "MostAllocated"
	case RequestedToCapacityRatio:
		return "RequestedToCapacityRatio"
	}
	return "LeastAllocated"
}

// ScoringStrategy is NodeResourcesFitArgs' scoringStrategy.
type ScoringStrategy struct {
	Type ScoringStrategyType
	// Resources are the scored resources with their weights (1 to 100);
	// nil means cpu and memory, weighted 1 each.
	Resources []ResourceWeight
	// Shape is RequestedToCapacityRatio's utilization→score function:
	// utilization strictly increasing in 0..100, scores in 0..10.
	Shape []ShapePoint
}

// ResourceWeight is one scored resource.
type ResourceWeight struct {
	Name   string
	Weight int64
}

// ShapePoint is one point of RequestedToCapacityRatio's shape.
type ShapePoint struct {
	Utilization, Score int64
}

// ScoreWeights are the weights of the score plugins the model has; 0
// means the plugin does not score (the profile disables it).
type ScoreWeights struct {
	TaintToleration, NodeAffinity, NodeResourcesFit, PodTopologySpread, InterPodAffinity,
	NodeResourcesBalancedAllocation int64
}

// DefaultScoreWeights are kube-scheduler's default profile's weights
// (pkg/scheduler/apis/config/v1/default_plugins.go, v1.36).
var DefaultScoreWeights = ScoreWeights{TaintToleration: 3, NodeAffinity: 2, NodeResourcesFit: 1,
	PodTopologySpread: 2, InterPodAffinity: 2, NodeResourcesBalancedAllocation: 1}

// DefaultSpreadConstraint is one of PodTopologySpreadArgs'
// defaultConstraints; its selector is derived from the pod's owner, as
// the system defaults' is.
type DefaultSpreadConstraint struct {
	Key     string
	MaxSkew int
	When    WhenUnsatisfiable
}

// ScoreWeights returns the profile's score plugin weights.
func (p *SchedulerProfile) ScoreWeights() ScoreWeights {
	if p.Weights == nil {
		return DefaultScoreWeights
	}
	return *p.Weights
}

// HardPodAffinity returns the profile's hardPodAffinityWeight.
func (p *SchedulerProfile) HardPodAffinity() int64 {
	if p.HardPodAffinityWeight == nil {
		return 1
	}
	return *p.HardPodAffinityWeight
}

// DefaultScoring reports whether NodeResourcesFit scores with its default
// strategy: LeastAllocated over cpu and memory weighted alike.
func (s *ScoringStrategy) DefaultScoring() bool {
	if s.Type != LeastAllocated {
		return false
	}
	r := s.Resources
	return r == nil || len(r) == 2 && r[0].Name == "cpu" && r[1].Name == "memory" && r[0].Weight == r[1].Weight
}
