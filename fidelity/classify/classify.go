// Package classify names why a differential comparison disagrees: each
// known divergence between a model and the real code is a Class, with
// the counterfactual that removes it, and Classify finds the classes
// that explain a disagreement, Compare a comparison with its
// classification. The comparison packages (hpadiff, admissiondiff,
// stsdiff, jobdiff, …) share it.
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

// Verdict is the comparison of one case: the model's and upstream's
// results, and the class that explains their disagreement ("" when they
// agree).
type Verdict[R any] struct {
	Class           string
	Model, Upstream R
}

// Compare runs the model and upstream on c and, when their results
// differ (equal), names the cause with Classify, or unexplained when no
// class explains it. An error of either run stops it.
func Compare[C, R any](classes []Class[C], c C, model, upstream func(C) (R, error), equal func(a, b R) bool, unexplained string) (Verdict[R], error) {
	run := func(d C) (m, u R, err error) {
		if m, err = model(d); err != nil {
			return m, u, err
		}
		u, err = upstream(d)
		return m, u, err
	}
	m, u, err := run(c)
	if err != nil {
		return Verdict[R]{}, err
	}
	v := Verdict[R]{Model: m, Upstream: u}
	if equal(m, u) {
		return v, nil
	}
	var runErr error
	same := func(d C) bool {
		m, u, err := run(d)
		if err != nil {
			runErr = err
			return false
		}
		return equal(m, u)
	}
	v.Class = Classify(classes, c, same)
	if runErr != nil {
		return Verdict[R]{}, runErr
	}
	if v.Class == "" {
		v.Class = unexplained
	}
	return v, nil
}
