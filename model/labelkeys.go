package model

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// matchLabelKeys and mismatchLabelKeys (Kubernetes v1.36). A topology
// spread constraint's matchLabelKeys and an inter-pod affinity term's
// matchLabelKeys and mismatchLabelKeys name labels of the pod that
// declares them; the API server merges them into the labelSelector when it
// creates the pod (pkg/registry/core/pod/strategy.go: `key In (value)` for
// matchLabelKeys, `key NotIn (value)` for mismatchLabelKeys, the value
// being the pod's own; a key the pod does not carry adds nothing), and
// kube-scheduler's PodTopologySpread merges a spread constraint's keys the
// same way once more (common.go, filterTopologySpreadConstraints), which
// selects the same pods. The descheduler's
// RemovePodsViolatingTopologySpreadConstraint merges them as the scheduler
// does (v0.36, newTopologySpreadConstraint) and reads the affinity terms
// as the API server stored them.
//
// A pod carries exactly its template's labels, plus pod-template-hash when
// a ReplicaSet owns it, so the merge is static but for that key: Compile
// folds every other key into the selector (MatchesTemplate), and
// pod-template-hash becomes a RevisionMatch checked against the pods
// themselves. The Deployment controller sets pod-template-hash per
// ReplicaSet revision; the model has one ReplicaSet per owner and template,
// so two pods carry the same value exactly when both have an owner, the
// same owner and the same template (OfSameRevision). A bare pod carries no
// pod-template-hash: its own keys naming it are ignored, and another pod's
// `NotIn` term matches it.

// PodTemplateHashKey is the label the Deployment controller puts on every
// pod of a ReplicaSet, with a value per revision.
const PodTemplateHashKey = "pod-template-hash"

// RevisionMatch is what a merged pod-template-hash requirement asks of the
// pods a selector matches, beyond the selector itself.
type RevisionMatch uint8

const (
	// AnyRevision: no requirement (the key is not named).
	AnyRevision RevisionMatch = iota
	// SameRevision: pod-template-hash In (the declaring pod's), from
	// matchLabelKeys.
	SameRevision
	// OtherRevision: pod-template-hash NotIn (the declaring pod's), from
	// mismatchLabelKeys.
	OtherRevision
)

// OfSameRevision reports whether pods a and b carry the same
// pod-template-hash: both owned, by the same deployment, of the same
// template.
func OfSameRevision(a, b *PodState) bool {
	return a.Owner != 0 && a.Owner == b.Owner && a.Template == b.Template
}

// Admits reports whether the requirement a pod decl merged into its
// selector holds for pod other.
func (r RevisionMatch) Admits(decl, other *PodState) bool {
	if r == AnyRevision {
		return true
	}
	return r.AdmitsKind(decl.Owner != 0, OfSameRevision(decl, other))
}

// AdmitsKind is Admits for a declaring pod that is owned or not (a bare
// pod has no pod-template-hash, so the key adds nothing) and another pod
// that is of its revision or not.
func (r RevisionMatch) AdmitsKind(declOwned, sameRevision bool) bool {
	switch {
	case r == AnyRevision || !declOwned:
		return true
	case r == SameRevision:
		return sameRevision
	}
	return !sameRevision
}

// Matches reports whether the term, declared by pod decl, matches pod
// other: its merged selector matches other's labels.
func (k *PodAffinityTerm) Matches(decl, other *PodState) bool {
	return k.MatchesTemplate[other.Template] && k.Revision.Admits(decl, other)
}

// Matches reports whether the constraint's merged selector, for pod decl
// of the declaring template, matches pod other's labels (an empty
// selector matches every pod; see CountsNone for what the scheduler counts).
func (c *SpreadConstraint) Matches(decl, other *PodState) bool {
	return c.MatchesTemplate[other.Template] && c.Revision.Admits(decl, other)
}

// CountsNone reports whether the constraint's merged selector is empty for
// a declaring pod that is owned or not: kube-scheduler then counts no
// existing pod (countPodsMatchSelector). A merged pod-template-hash makes
// an owned pod's selector non-empty.
func (c *SpreadConstraint) CountsNone(declOwned bool) bool {
	return c.SelectorEmpty && !(declOwned && c.Revision == SameRevision)
}

// HasRevisionMatch reports whether some template's spread constraint or
// inter-pod affinity term names pod-template-hash in matchLabelKeys or
// mismatchLabelKeys: only then does matching depend on pods' owners.
func (u *Universe) HasRevisionMatch() bool { return u.revisionMatch }

// labelKeys is what Compile makes of one selector's matchLabelKeys and
// mismatchLabelKeys for a template with the given labels.
type labelKeys struct {
	sel      *Selector
	revision RevisionMatch
}

// labelNameRE is a qualified name's name part (at most 63 characters,
// alphanumeric at both ends, '-', '_' or '.' between).
var labelNameRE = regexp.MustCompile(`^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$`)

// labelPrefixRE is a DNS subdomain (lower case, at most 253 characters).
var labelPrefixRE = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)

// ValidLabelKey reports whether k is a valid label key
// (k8s.io/apimachinery's IsQualifiedName): an optional DNS-subdomain
// prefix and '/', then a name of at most 63 characters.
func ValidLabelKey(k string) bool {
	prefix, name, hasPrefix := strings.Cut(k, "/")
	if !hasPrefix {
		name = k
	} else if prefix == "" || len(prefix) > 253 || !labelPrefixRE.MatchString(prefix) {
		return false
	}
	return len(name) <= 63 && labelNameRE.MatchString(name)
}

// LabelKeysError is a matchLabelKeys or mismatchLabelKeys the API server
// rejects: Field is relative to the constraint or term
// ("matchLabelKeys[0]"). It wraps ErrInvalid.
type LabelKeysError struct {
	Field, Msg string
}

func (e *LabelKeysError) Error() string { return e.Field + ": " + e.Msg + ": " + ErrInvalid.Error() }

func (e *LabelKeysError) Unwrap() error { return ErrInvalid }

// CheckLabelKeys validates a selector's matchLabelKeys and
// mismatchLabelKeys as the API server validates a pod after merging them
// (ValidateMatchLabelKeysAndMismatchLabelKeys, v1.36), for a pod carrying
// labels (pod-template-hash included when owned). The fields are named
// relative to the constraint or term; a nil sel is a missing
// labelSelector. The error is a *LabelKeysError.
func CheckLabelKeys(sel *Selector, match, mismatch []string, labels map[string]string, owned bool) error {
	if len(match)+len(mismatch) == 0 {
		return nil
	}
	for _, g := range []struct {
		field string
		keys  []string
	}{{"matchLabelKeys", match}, {"mismatchLabelKeys", mismatch}} {
		if len(g.keys) == 0 {
			continue
		}
		if sel == nil {
			return &LabelKeysError{g.field, "must not be specified when labelSelector is not set"}
		}
		for i, k := range g.keys {
			if !ValidLabelKey(k) {
				return &LabelKeysError{fmt.Sprintf("%s[%d]", g.field, i), fmt.Sprintf("%q is not a valid label key (accepted: an optional DNS subdomain and '/', then at most 63 characters, alphanumeric at both ends, '-', '_' or '.' between)", k)}
			}
		}
	}
	for i, k := range match {
		if slices.Contains(mismatch, k) {
			return &LabelKeysError{fmt.Sprintf("matchLabelKeys[%d]", i), fmt.Sprintf("%q exists in both matchLabelKeys and mismatchLabelKeys", k)}
		}
	}
	// The merge appends one `In` expression per matchLabelKeys entry the
	// pod carries; the API server then rejects an expression on a
	// matchLabelKeys key that the selector already has.
	carries := func(k string) bool {
		_, ok := labels[k]
		return ok || owned && k == PodTemplateHashKey
	}
	for i, k := range match {
		n, exprs := 0, 0
		if _, ok := sel.MatchLabels[k]; ok {
			n++
		}
		for _, r := range sel.MatchExpressions {
			if r.Key == k {
				n, exprs = n+1, exprs+1
			}
		}
		if carries(k) {
			m := 0
			for _, x := range match {
				if x == k {
					m++
				}
			}
			n, exprs = n+m, exprs+m
		}
		if n >= 2 && exprs >= 1 {
			return &LabelKeysError{fmt.Sprintf("matchLabelKeys[%d]", i), fmt.Sprintf("%q exists in both matchLabelKeys and labelSelector (the API server rejects the pods)", k)}
		}
	}
	return nil
}

// mergeLabelKeys returns sel with the requirements the API server merges
// from match and mismatch for a pod of a template with the given labels:
// every key but pod-template-hash becomes a requirement when the template
// carries it, pod-template-hash the RevisionMatch. sel itself is not
// modified.
func mergeLabelKeys(sel *Selector, match, mismatch []string, labels map[string]string) labelKeys {
	out := labelKeys{sel: sel}
	if sel == nil || len(match)+len(mismatch) == 0 {
		return out
	}
	merged := &Selector{MatchLabels: maps.Clone(sel.MatchLabels), MatchExpressions: slices.Clone(sel.MatchExpressions)}
	for _, g := range []struct {
		keys     []string
		op       Operator
		revision RevisionMatch
	}{{match, OpIn, SameRevision}, {mismatch, OpNotIn, OtherRevision}} {
		for _, k := range g.keys {
			if k == PodTemplateHashKey {
				out.revision = g.revision
				continue
			}
			if v, ok := labels[k]; ok {
				merged.MatchExpressions = append(merged.MatchExpressions, Requirement{Key: k, Operator: g.op, Values: []string{v}})
			}
		}
	}
	out.sel = merged
	return out
}
