package model

import (
	"fmt"
	"time"
)

// EvictorConstraints are the DefaultEvictor's arguments that narrow which
// pods it lets the plugins evict, beyond the protections of priority,
// storage and bare pods (descheduler v0.36, defaultevictor/constraints.go
// and PreEvictionFilter). The zero value constrains nothing.
type EvictorConstraints struct {
	// LabelSelector (Filter): only the pods whose labels it matches are
	// evicted; nil, or a selector without requirements, admits every pod.
	LabelSelector *Selector
	// NamespaceLabelSelector (PreEvictionFilter): only the pods of a
	// namespace whose labels it matches (kubernetes.io/metadata.name
	// included) are evicted; nil, or one without requirements, admits
	// every namespace.
	NamespaceLabelSelector *Selector
	// PodsWithoutPDB is the PodsWithoutPDB protection (podProtections'
	// extraEnabled, or the legacy ignorePodsWithoutPDB): a pod that no
	// PodDisruptionBudget of its namespace selects is not evicted.
	PodsWithoutPDB bool
	// MinReplicas (Filter), when above 1: a pod whose owner (its
	// ReplicaSet, StatefulSet or Job) has fewer pods than this, in any
	// phase, is not evicted.
	MinReplicas int
	// MinPodAge (Filter), a duration as Go and the descheduler write it
	// ("10m"; "" = unset): a pod younger than this is not evicted. The
	// model has no clock: a pod the kubelet has not started has no
	// status.startTime and is never old enough, whatever the duration; a
	// started pod is taken as old enough (docs/divergences.md).
	MinPodAge string
	// NoEvictionPolicy is "" or Preferred (a pod with the prefer-no-eviction
	// annotation goes last among equals, an order the model does not
	// follow), or Mandatory (such a pod is not evicted).
	NoEvictionPolicy string
}

// LabelSelectorAdmits reports whether the DefaultEvictor's labelSelector
// admits the pods of template t.
func (e *EvictorConstraints) LabelSelectorAdmits(t *PodTemplate) bool {
	return e.LabelSelector == nil || e.LabelSelector.MatchesLabels(t.Labels)
}

// NamespaceAdmits reports whether the DefaultEvictor's
// namespaceLabelSelector admits the pods of template t.
func (e *EvictorConstraints) NamespaceAdmits(u *Universe, t *PodTemplate) bool {
	return e.NamespaceLabelSelector == nil || e.NamespaceLabelSelector.MatchesLabels(u.namespaceLabels(t.Namespace))
}

// CoveredByBudget reports whether some PodDisruptionBudget selects the
// pods of template t (the descheduler's IsPodCoveredByPDB: a budget of
// the pod's namespace whose selector matches its labels).
func (u *Universe) CoveredByBudget(t int) bool {
	for i := range u.PDBs {
		if u.PDBs[i].MatchesTemplate[t] {
			return true
		}
	}
	return false
}

// validate checks the constraints as the descheduler reads its
// DefaultEvictor args; path names the profile's field.
func (e *EvictorConstraints) validate(path string) error {
	for _, f := range []struct {
		name string
		sel  *Selector
	}{{"labelSelector", e.LabelSelector}, {"namespaceLabelSelector", e.NamespaceLabelSelector}} {
		if f.sel == nil {
			continue
		}
		var in Interner
		if _, err := in.compileSelector(f.sel); err != nil {
			return fmt.Errorf("%s.evictor.%s.%w", path, f.name, err)
		}
	}
	if e.MinReplicas < 0 {
		return fmt.Errorf("%s.evictor.minReplicas: %d (accepted: a non-negative integer): %w", path, e.MinReplicas, ErrInvalid)
	}
	switch e.NoEvictionPolicy {
	case "", "Preferred", "Mandatory":
	default:
		return fmt.Errorf("%s.evictor.noEvictionPolicy: %q (accepted: Preferred, Mandatory): %w", path, e.NoEvictionPolicy, ErrInvalid)
	}
	if e.MinPodAge != "" {
		if _, err := time.ParseDuration(e.MinPodAge); err != nil {
			return fmt.Errorf("%s.evictor.minPodAge: %q (accepted: a duration such as 90s, 10m or 1h30m): %w", path, e.MinPodAge, ErrInvalid)
		}
	}
	return nil
}
