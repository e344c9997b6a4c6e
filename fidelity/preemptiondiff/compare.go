package preemptiondiff

import (
	"fmt"
	"slices"
	"strings"
)

// Comparison is the two answers to one snapshot and how they differ.
type Comparison struct {
	Model *ModelAnswer
	Real  *RealAnswer
	// Diff is "" when they agree, otherwise the first difference.
	Diff string
	// Class is the known class explaining Diff, "" when they agree or
	// no class does.
	Class string
	// Reached counts the model's branches some real run took.
	Reached int
}

// Compare asks both sides.
func Compare(r *Real, s *Snapshot) (*Comparison, error) {
	m, err := s.Model()
	if err != nil {
		return nil, err
	}
	ra, err := r.Preempt(s)
	if err != nil {
		return nil, err
	}
	c := &Comparison{Model: m, Real: ra}
	c.Diff = c.diff(s)
	if c.Diff != "" {
		c.Class = c.classify()
	}
	return c, nil
}

func (c *Comparison) diff(s *Snapshot) string {
	m, r := c.Model, c.Real
	switch {
	case m.Bound:
		return "the model stopped at a bound"
	case m.Fits != r.Fits:
		return fmt.Sprintf("fits: model %t, real %t", m.Fits, r.Fits)
	case m.Fits:
		for _, n := range m.FitNodes {
			if !slices.Contains(r.FitNodes, n) {
				return fmt.Sprintf("the model binds the pod to %s, real nodes %v", n, r.FitNodes)
			}
		}
		return ""
	}
	possible := len(r.Outcomes) > 0 && r.Outcomes[0].Node != ""
	if m.Waits {
		// Message "" where every template has the same priority, as below.
		if possible || m.Message != "" && m.Message != r.Message {
			return fmt.Sprintf("the model's pod waits (%q), real: preemption possible %t (%q)", m.Message, possible, r.Message)
		}
		return ""
	}
	if (len(m.Branches) > 0) != possible {
		return fmt.Sprintf("preemption possible: model %t (%q), real %t (%q)", len(m.Branches) > 0, m.Message, possible, r.Message)
	}
	if !possible {
		if m.Message != "" && m.Message != r.Message {
			return fmt.Sprintf("message: model %q, real %q", m.Message, r.Message)
		}
		return ""
	}
	reached := map[string]bool{}
	for _, o := range r.Outcomes {
		k := o.key(s)
		found := false
		for _, b := range m.Branches {
			if b.key(s) == k {
				found = true
			}
		}
		if !found {
			return fmt.Sprintf("real outcome %s is no model branch", o)
		}
		reached[k] = true
	}
	c.Reached = len(reached)
	return ""
}

// String renders the comparison for reports.
func (c *Comparison) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "model: fits %t %v waits %t message %q branches", c.Model.Fits, c.Model.FitNodes, c.Model.Waits, c.Model.Message)
	for _, o := range c.Model.Branches {
		fmt.Fprintf(&b, " [%s]", o)
	}
	fmt.Fprintf(&b, "\nreal:  fits %t %v message %q disruptionsAllowed %v outcomes", c.Real.Fits, c.Real.FitNodes, c.Real.Message, c.Real.Allowed)
	for _, o := range c.Real.Outcomes {
		fmt.Fprintf(&b, " [%s]", o)
	}
	b.WriteByte('\n')
	return b.String()
}
