// Package classify names why a differential comparison disagrees: each
// known divergence between a model and the real code is a Class, with
// the counterfactual that removes it, and Classify finds the classes
// that explain a disagreement. The comparison packages (hpadiff,
// admissiondiff) share it.
package classify

import "strings"

// Class is a known cause of disagreement between the model and upstream.
// Applies says whether the cause is present in a case; Fix is the
// counterfactual that removes it on both sides without touching anything
// else the comparison reads.
type Class[C any] struct {
	Name    string
	Applies func(C) bool
	Fix     func(C) C
}

// Classify names the classes that explain why same(c) is false: the first
// single present class whose counterfactual makes same true, else all
// present classes together ("a+b"), else "" (unexplained).
func Classify[C any](classes []Class[C], c C, same func(C) bool) string {
	var present []Class[C]
	for _, k := range classes {
		if k.Applies(c) {
			present = append(present, k)
		}
	}
	for _, k := range present {
		if same(k.Fix(c)) {
			return k.Name
		}
	}
	if len(present) < 2 {
		return ""
	}
	d := c
	var names []string
	for _, k := range present {
		d = k.Fix(d)
		names = append(names, k.Name)
	}
	if same(d) {
		return strings.Join(names, "+")
	}
	return ""
}
