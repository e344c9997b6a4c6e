package model

import (
	"fmt"
	"slices"
	"strconv"
)

// The descheduler's node-utilisation plugins (LowNodeUtilization,
// HighNodeUtilization) and their arguments, as the descheduler's
// nodeutilization package declares and validates them.

// ResourceThresholds are utilisation percentages per resource, each in
// 0..100; nil leaves the resource out. Upstream's map takes any resource
// name; the model has cpu, memory and pods.
type ResourceThresholds struct {
	CPU, Memory, Pods *float64
}

// Resource names a resource of ResourceThresholds.
type Resource uint8

const (
	ResourceCPU Resource = iota
	ResourceMemory
	ResourcePods
	NumResources
)

func (r Resource) String() string {
	switch r {
	case ResourceCPU:
		return "cpu"
	case ResourceMemory:
		return "memory"
	case ResourcePods:
		return "pods"
	}
	return fmt.Sprintf("Resource(%d)", uint8(r))
}

// Get returns the threshold of r and whether it is set.
func (t ResourceThresholds) Get(r Resource) (float64, bool) {
	var p *float64
	switch r {
	case ResourceCPU:
		p = t.CPU
	case ResourceMemory:
		p = t.Memory
	case ResourcePods:
		p = t.Pods
	}
	if p == nil {
		return 0, false
	}
	return *p, true
}

// Set sets the threshold of r.
func (t *ResourceThresholds) Set(r Resource, v float64) {
	switch r {
	case ResourceCPU:
		t.CPU = &v
	case ResourceMemory:
		t.Memory = &v
	case ResourcePods:
		t.Pods = &v
	}
}

// Len is the number of resources set.
func (t ResourceThresholds) Len() int {
	n := 0
	for r := range NumResources {
		if _, ok := t.Get(r); ok {
			n++
		}
	}
	return n
}

// LowNodeUtilizationArgs are LowNodeUtilization's arguments. Thresholds
// mark a node underutilised (every resource at or below), TargetThresholds
// overutilised (some resource above); with UseDeviationThresholds both
// are deviations from the average utilisation of the cycle's nodes.
type LowNodeUtilizationArgs struct {
	Thresholds, TargetThresholds ResourceThresholds
	UseDeviationThresholds       bool
	// NumberOfNodes: the plugin acts only when more nodes than this are
	// underutilised.
	NumberOfNodes int
	// EvictionLimitNode is evictionLimits.node: at most this many
	// evictions per node and cycle by this plugin; nil is no limit, 0
	// evicts nothing (upstream checks the count before every pod).
	EvictionLimitNode *int
	// ExcludedNamespaces is evictableNamespaces.exclude: the plugin evicts
	// no pod of these namespaces (their pods still count in the nodes'
	// utilisation).
	ExcludedNamespaces []string
}

// NodeLimit returns evictionLimits.node and whether it is set.
func (a *LowNodeUtilizationArgs) NodeLimit() (int, bool) {
	if a.EvictionLimitNode == nil {
		return 0, false
	}
	return *a.EvictionLimitNode, true
}

// HighNodeUtilizationArgs are HighNodeUtilization's arguments: Thresholds
// mark a node underutilised (every resource at or below); its pods are
// evicted so that the scheduler packs them onto the other nodes.
type HighNodeUtilizationArgs struct {
	Thresholds    ResourceThresholds
	NumberOfNodes int
	// OnlyThresholdingResources is evictionModes [OnlyThresholdingResources]:
	// only pods requesting one of the thresholds' resources are evicted.
	OnlyThresholdingResources bool
	// ExcludedNamespaces: LowNodeUtilizationArgs'.
	ExcludedNamespaces []string
}

// InExcludedNamespace reports whether pods of template t are in one of
// the namespaces a node-utilisation plugin may not evict from.
func (u *Universe) InExcludedNamespace(excluded []string, t int) bool {
	return len(excluded) > 0 && slices.Contains(excluded, u.Templates[t].Namespace)
}

// MaxNumberOfNodes bounds numberOfNodes as the readers check it (a
// larger value only means "never act" in a model of at most MaxObjects
// nodes).
const MaxNumberOfNodes = 1 << 20

// ArgError is an invalid plugin argument: Field is the path below the
// plugin's args (thresholds.cpu, numberOfNodes, ...), Msg says what is
// wrong and what is accepted. The readers prefix their own path.
type ArgError struct {
	Field, Msg string
}

func (e *ArgError) Error() string { return e.Field + ": " + e.Msg }

// percentOK is upstream's validateThresholds for one value.
func percentOK(v float64) bool { return v >= 0 && v <= 100 }

func fmtPercent(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// validateThresholds is validateThresholds upstream: at least one
// resource, each in [0, 100].
func validateThresholds(field string, t ResourceThresholds) *ArgError {
	if t.Len() == 0 {
		return &ArgError{field, "no resource threshold is configured (accepted: at least one of cpu, memory, pods, each a percentage 0..100)"}
	}
	for r := range NumResources {
		if v, ok := t.Get(r); ok && !percentOK(v) {
			return &ArgError{field + "." + r.String(), fmt.Sprintf("%s is not in the range [0, 100] (accepted: a percentage 0..100)", fmtPercent(v))}
		}
	}
	return nil
}

// Validate is ValidateLowNodeUtilizationArgs: both thresholds valid, the
// same resources in both, and unless UseDeviationThresholds no threshold
// above its target; numberOfNodes and evictionLimits.node not negative.
func (a *LowNodeUtilizationArgs) Validate() *ArgError {
	if err := validateThresholds("thresholds", a.Thresholds); err != nil {
		return err
	}
	if err := validateThresholds("targetThresholds", a.TargetThresholds); err != nil {
		return err
	}
	for r := range NumResources {
		v, ok := a.Thresholds.Get(r)
		tv, tok := a.TargetThresholds.Get(r)
		if ok != tok {
			return &ArgError{"targetThresholds", fmt.Sprintf("thresholds and targetThresholds configured different resources (thresholds: %s; targetThresholds: %s; accepted: the same resources in both)",
				a.Thresholds.names(), a.TargetThresholds.names())}
		}
		if ok && v > tv && !a.UseDeviationThresholds {
			return &ArgError{"thresholds." + r.String(), fmt.Sprintf("%s is greater than targetThresholds' %s (accepted: at most the target, unless useDeviationThresholds)", fmtPercent(v), fmtPercent(tv))}
		}
	}
	if a.NumberOfNodes < 0 || a.NumberOfNodes > MaxNumberOfNodes {
		return &ArgError{"numberOfNodes", fmt.Sprintf("%d (accepted: 0..%d)", a.NumberOfNodes, MaxNumberOfNodes)}
	}
	if a.EvictionLimitNode != nil && (*a.EvictionLimitNode < 0 || *a.EvictionLimitNode > MaxNumberOfNodes) {
		return &ArgError{"evictionLimits.node", fmt.Sprintf("%d (accepted: 0..%d)", *a.EvictionLimitNode, MaxNumberOfNodes)}
	}
	return nil
}

// Validate is ValidateHighNodeUtilizationArgs: valid thresholds and a
// numberOfNodes that is not negative.
func (a *HighNodeUtilizationArgs) Validate() *ArgError {
	if err := validateThresholds("thresholds", a.Thresholds); err != nil {
		return err
	}
	if a.NumberOfNodes < 0 || a.NumberOfNodes > MaxNumberOfNodes {
		return &ArgError{"numberOfNodes", fmt.Sprintf("%d (accepted: 0..%d)", a.NumberOfNodes, MaxNumberOfNodes)}
	}
	return nil
}

func (t ResourceThresholds) names() string {
	s := ""
	for r := range NumResources {
		if _, ok := t.Get(r); ok {
			if s != "" {
				s += ", "
			}
			s += r.String()
		}
	}
	if s == "" {
		return "none"
	}
	return s
}

// validateDescheduler checks the node-utilisation plugins of every
// profile: an enabled plugin needs its arguments, and they must pass the
// descheduler's validation. The error names the field below
// `descheduler`.
func validateDescheduler(d *Descheduler) error {
	if d == nil {
		return nil
	}
	for i := range d.Profiles {
		p := &d.Profiles[i]
		path := fmt.Sprintf("descheduler.profiles[%d]", i)
		for _, b := range p.Balance {
			switch {
			case b == LowNodeUtilization && p.LowNodeUtilization == nil:
				return fmt.Errorf("%s.lowNodeUtilization: missing; LowNodeUtilization is enabled (accepted: thresholds and targetThresholds): %w", path, ErrInvalid)
			case b == HighNodeUtilization && p.HighNodeUtilization == nil:
				return fmt.Errorf("%s.highNodeUtilization: missing; HighNodeUtilization is enabled (accepted: thresholds): %w", path, ErrInvalid)
			}
		}
		if a := p.LowNodeUtilization; a != nil {
			if err := a.Validate(); err != nil {
				return fmt.Errorf("%s.lowNodeUtilization.%s: %s: %w", path, err.Field, err.Msg, ErrInvalid)
			}
		}
		if a := p.HighNodeUtilization; a != nil {
			if err := a.Validate(); err != nil {
				return fmt.Errorf("%s.highNodeUtilization.%s: %s: %w", path, err.Field, err.Msg, ErrInvalid)
			}
		}
		if err := p.Evictor.validate(path); err != nil {
			return err
		}
	}
	return nil
}

// IdenticalGroups partitions pods (slots) into groups of pods no step can
// tell apart (ties.go), each group in ascending slot order, groups in
// the order of their first member in pods. A controller that branches
// over sets of tied pods itself counts only how many of each group go.
func IdenticalGroups(s *State, pods []int) [][]int { return identicalGroups(s, pods) }

// AdmittedTolerationCount is the number of tolerations template t's pods
// carry as the API server admits them (admittedTolerations).
func (u *Universe) AdmittedTolerationCount(t int) int {
	return len(u.admittedTolerations(&u.Templates[t]))
}
