package model

import (
	"fmt"
	"strings"
)

// DeschedulePlugin names a descheduler plugin of the deschedule extension
// point: it looks at pods one by one, node by node, and evicts those that
// break a rule of their own (controllers/descheduler).
type DeschedulePlugin uint8

const (
	// RemovePodsViolatingNodeTaints evicts pods that do not tolerate a
	// NoSchedule (optionally PreferNoSchedule) taint of their node.
	RemovePodsViolatingNodeTaints DeschedulePlugin = iota + 1
	// RemovePodsViolatingNodeAffinity evicts pods whose node fails their
	// required node affinity, or that would score better elsewhere by
	// their preferred node affinity (NodeAffinityType).
	RemovePodsViolatingNodeAffinity
	// RemovePodsViolatingInterPodAntiAffinity evicts pods whose required
	// pod anti-affinity matches another pod in their topology domain.
	RemovePodsViolatingInterPodAntiAffinity
	// RemoveFailedPods evicts pods in phase Failed (FailedPodsArgs).
	RemoveFailedPods
	// PodLifeTime evicts pods older than a maximum age, or in given
	// states (PodLifeTimeArgs).
	PodLifeTime
	// RemovePodsHavingTooManyRestarts evicts pods whose containers
	// restarted at least a threshold of times (TooManyRestartsArgs).
	RemovePodsHavingTooManyRestarts
)

// DeschedulePlugins lists every deschedule plugin the model implements,
// in the order readers name them.
func DeschedulePlugins() []DeschedulePlugin {
	return []DeschedulePlugin{RemovePodsViolatingNodeTaints, RemovePodsViolatingNodeAffinity, RemovePodsViolatingInterPodAntiAffinity,
		RemoveFailedPods, PodLifeTime, RemovePodsHavingTooManyRestarts}
}

func (p DeschedulePlugin) String() string {
	switch p {
	case RemovePodsViolatingNodeTaints:
		return "RemovePodsViolatingNodeTaints"
	case RemovePodsViolatingNodeAffinity:
		return "RemovePodsViolatingNodeAffinity"
	case RemovePodsViolatingInterPodAntiAffinity:
		return "RemovePodsViolatingInterPodAntiAffinity"
	case RemoveFailedPods:
		return "RemoveFailedPods"
	case PodLifeTime:
		return "PodLifeTime"
	case RemovePodsHavingTooManyRestarts:
		return "RemovePodsHavingTooManyRestarts"
	}
	return fmt.Sprintf("DeschedulePlugin(%d)", uint8(p))
}

// NodeAffinityType is one value of RemovePodsViolatingNodeAffinity's
// nodeAffinityType argument.
type NodeAffinityType uint8

const (
	// RequiredDuringSchedulingIgnoredDuringExecution: evict a pod whose
	// node fails its nodeSelector or required node affinity.
	RequiredDuringSchedulingIgnoredDuringExecution NodeAffinityType = iota + 1
	// PreferredDuringSchedulingIgnoredDuringExecution: evict a pod when
	// some cycle node matches more weight of its preferred node-affinity
	// terms than its own.
	PreferredDuringSchedulingIgnoredDuringExecution
)

// NodeAffinityTypes lists the accepted nodeAffinityType values.
func NodeAffinityTypes() []NodeAffinityType {
	return []NodeAffinityType{RequiredDuringSchedulingIgnoredDuringExecution, PreferredDuringSchedulingIgnoredDuringExecution}
}

func (t NodeAffinityType) String() string {
	switch t {
	case RequiredDuringSchedulingIgnoredDuringExecution:
		return "requiredDuringSchedulingIgnoredDuringExecution"
	case PreferredDuringSchedulingIgnoredDuringExecution:
		return "preferredDuringSchedulingIgnoredDuringExecution"
	}
	return fmt.Sprintf("NodeAffinityType(%d)", uint8(t))
}

// NodeTaintsArgs are RemovePodsViolatingNodeTaints' arguments. A taint is
// named by its key or by key=value; a name matches a taint when it equals
// its key, or its key=value when the taint has a value.
type NodeTaintsArgs struct {
	// IncludePreferNoSchedule makes PreferNoSchedule taints count too.
	IncludePreferNoSchedule bool
	// ExcludedTaints never count.
	ExcludedTaints []string
	// IncludedTaints, when not empty, are the only taints that count.
	IncludedTaints []string
}

// Counts reports whether the plugin judges taint t with these args
// (upstream's taintFilterFnc).
func (a *NodeTaintsArgs) Counts(t Taint) bool {
	if t.Effect != NoSchedule && (t.Effect != PreferNoSchedule || !a.IncludePreferNoSchedule) {
		return false
	}
	if taintNamed(a.ExcludedTaints, t) {
		return false
	}
	return len(a.IncludedTaints) == 0 || taintNamed(a.IncludedTaints, t)
}

func taintNamed(names []string, t Taint) bool {
	for _, n := range names {
		if n == t.Key || t.Value != "" && n == t.Key+"="+t.Value {
			return true
		}
	}
	return false
}

// DescheduleConfig is a profile's deschedule extension point, the
// enabled plugins in order, and their arguments.
type DescheduleConfig struct {
	Enabled []DeschedulePlugin
	// NodeTaints are RemovePodsViolatingNodeTaints' args.
	NodeTaints NodeTaintsArgs
	// NodeAffinityType is RemovePodsViolatingNodeAffinity's
	// nodeAffinityType: the passes it makes, in order; required when the
	// plugin is enabled.
	NodeAffinityType []NodeAffinityType
	// FailedPods are RemoveFailedPods' args, PodLifeTime PodLifeTime's
	// (deschedulelifetime.go).
	FailedPods  FailedPodsArgs
	PodLifeTime PodLifeTimeArgs
	// TooManyRestarts are RemovePodsHavingTooManyRestarts' args
	// (toomanyrestarts.go).
	TooManyRestarts TooManyRestartsArgs
	// The plugins' own pod filters (podfilter.go), one per plugin.
	NodeTaintsFilter, NodeAffinityFilter, InterPodAntiAffinityFilter PodFilter
	FailedPodsFilter, PodLifeTimeFilter, TooManyRestartsFilter       PodFilter
}

// Filter returns plugin p's own pod filter.
func (c *DescheduleConfig) Filter(p DeschedulePlugin) *PodFilter {
	switch p {
	case RemovePodsViolatingNodeTaints:
		return &c.NodeTaintsFilter
	case RemovePodsViolatingNodeAffinity:
		return &c.NodeAffinityFilter
	case RemoveFailedPods:
		return &c.FailedPodsFilter
	case PodLifeTime:
		return &c.PodLifeTimeFilter
	case RemovePodsHavingTooManyRestarts:
		return &c.TooManyRestartsFilter
	}
	return &c.InterPodAntiAffinityFilter
}

// Has reports whether plugin p is enabled.
func (c *DescheduleConfig) Has(p DeschedulePlugin) bool {
	for _, q := range c.Enabled {
		if q == p {
			return true
		}
	}
	return false
}

// compileDeschedulePlugins checks every profile's deschedule plugins and
// their args as the descheduler validates them when it starts.
func (u *Universe) compileDeschedulePlugins() error {
	if u.Descheduler == nil {
		return nil
	}
	for i := range u.Descheduler.Profiles {
		p := &u.Descheduler.Profiles[i]
		c := &p.Deschedule
		field := fmt.Sprintf("descheduler.profiles[%d].deschedule", i)
		for j, pl := range c.Enabled {
			if pl < RemovePodsViolatingNodeTaints || pl > RemovePodsHavingTooManyRestarts {
				return fmt.Errorf("%s.enabled[%d]: %s (accepted: %s): %w", field, j, pl, joinNames(DeschedulePlugins()), ErrInvalid)
			}
		}
		for j, t := range c.NodeAffinityType {
			if t != RequiredDuringSchedulingIgnoredDuringExecution && t != PreferredDuringSchedulingIgnoredDuringExecution {
				return fmt.Errorf("%s.nodeAffinityType[%d]: %s (accepted: %s): %w", field, j, t, joinNames(NodeAffinityTypes()), ErrInvalid)
			}
		}
		if c.Has(RemovePodsViolatingNodeAffinity) && len(c.NodeAffinityType) == 0 {
			return fmt.Errorf("%s.nodeAffinityType: empty, and %s needs it (accepted: a list of %s): %w",
				field, RemovePodsViolatingNodeAffinity, joinNames(NodeAffinityTypes()), ErrInvalid)
		}
		if len(c.NodeTaints.ExcludedTaints) > 0 && len(c.NodeTaints.IncludedTaints) > 0 {
			return fmt.Errorf("%s.nodeTaints: includedTaints and excludedTaints are both set (accepted: one of them): %w", field, ErrInvalid)
		}
		if err := c.PodLifeTime.check(field+".podLifeTime", c.Has(PodLifeTime)); err != nil {
			return err
		}
		if err := c.TooManyRestarts.check(field+".tooManyRestarts", c.Has(RemovePodsHavingTooManyRestarts)); err != nil {
			return err
		}
	}
	return nil
}

func joinNames[T fmt.Stringer](xs []T) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = x.String()
	}
	return strings.Join(parts, ", ")
}
