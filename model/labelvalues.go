package model

import "regexp"

// Label values have a syntax (k8s.io/apimachinery's
// validation.IsValidLabelValue): at most 63 characters, empty or
// alphanumeric at both ends, with '-', '_' and '.' between. The API server
// rejects an object that carries or selects an invalid value, so the
// manifest reader refuses them; a universe built otherwise (a case file,
// Go code) may still hold one, and kube-scheduler treats it as follows,
// which Compile reproduces for node affinity:
//   - a required node-affinity term with an invalid value, or a key that
//     is not a label key (labels.NewRequirement validates both), fails to
//     parse and matches no node (the other terms still may: terms are
//     ORed);
//   - a preferred term with an invalid value or key makes NodeAffinity's
//     PreScore fail, so a cycle that scores (two or more feasible nodes)
//     ends in an error and places the pod nowhere
//     (PodTemplate.PreferredInvalid).
//
// A nodeSelector is compared as strings upstream as well
// (labels.SelectorFromSet does not validate), and node labels are never
// parsed, so both keep any value.

// maxLabelValue is the longest valid label value.
const maxLabelValue = 63

var labelValueRE = regexp.MustCompile(`^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$`)

// ValidLabelValue reports whether v is a valid label value.
func ValidLabelValue(v string) bool {
	return len(v) <= maxLabelValue && labelValueRE.MatchString(v)
}

// nodeTermParses reports whether kube-scheduler's nodeaffinity parses
// node selector term s: every key a valid label key and every value a
// valid label value, but for a requirement on the node's name
// (NodeNameField), a field selector term whose one value is a node name
// (the reader checks it as the API server does).
func nodeTermParses(s *Selector) bool {
	for k, v := range s.MatchLabels {
		if !ValidLabelKey(k) || !ValidLabelValue(v) {
			return false
		}
	}
	for _, r := range s.MatchExpressions {
		if r.Key == NodeNameField {
			continue
		}
		if !ValidLabelKey(r.Key) {
			return false
		}
		for _, v := range r.Values {
			if !ValidLabelValue(v) {
				return false
			}
		}
	}
	return true
}

// validValues reports whether every value a selector compares with is a
// valid label value (matchLabels values and In/NotIn values).
func validValues(s *Selector) bool {
	for _, v := range s.MatchLabels {
		if !ValidLabelValue(v) {
			return false
		}
	}
	for _, r := range s.MatchExpressions {
		for _, v := range r.Values {
			if !ValidLabelValue(v) {
				return false
			}
		}
	}
	return true
}
