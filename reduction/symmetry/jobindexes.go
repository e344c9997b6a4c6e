package symmetry

import (
	"github.com/kivi-go/kivi/model"
)

// relabelledJobs lists the Jobs of u whose completion indexes may be
// relabelled (those Indexed, relabelsIndexes), and the decisions that
// kept indexes in place.
func relabelledJobs(u *model.Universe, facts []model.SymmetryFact) (jobs []int, decisions []Decision) {
	indexed, byValue := false, false
	for i := range u.Configs {
		spec := &u.Configs[i].Job
		indexed = indexed || spec.Indexed
		byValue = byValue || spec.Indexed && !relabelsIndexes(spec)
	}
	if !indexed {
		return nil, nil
	}
	for _, f := range facts {
		if f.JobIndexesByValue {
			return nil, append(decisions, decision(f))
		}
	}
	if byValue {
		decisions = append(decisions, Decision{Rule: "SucceededIndexes", Reason: "an Indexed Job's successPolicy names succeededIndexes: that Job's completion indexes keep their values"})
	}
	for d := range u.Deployments {
		if u.IsJob(d) {
			jobs = append(jobs, d)
		}
	}
	return jobs, decisions
}

// relabelsIndexes reports whether an Indexed Job of this spec reads its
// indexes only by their order and count: no successPolicy rule names
// succeededIndexes.
func relabelsIndexes(spec *model.JobSpec) bool {
	for _, r := range spec.SuccessRules[:spec.SuccessRuleCount] {
		if r.HasIndexes {
			return false
		}
	}
	return spec.Indexed
}

// relabelIndexes returns s with the completion indexes of c.jobs in
// canonical order: s itself when they are already, else a copy in w.
func (c *Canonicalizer) relabelIndexes(w *scratch, s *model.State) *model.State {
	t := s
	for _, d := range c.jobs {
		ds := &t.Deps[d]
		spec := &c.u.Configs[ds.Config].Job
		n := spec.Completions
		if !relabelsIndexes(spec) || ds.JobIndexes == "" || n < 2 {
			// Nothing finished: every index keeps its place.
			continue
		}
		label := w.indexLabels(t, d, n)
		if label == nil {
			continue
		}
		if t == s {
			s.CopyTo(&w.relabelled)
			t = &w.relabelled
			ds = &t.Deps[d]
		}
		b := make([]byte, n)
		for k := range n {
			b[label[k]] = model.JobIndex(ds, k)
		}
		ds.JobIndexes = string(b)
		owner := uint8(d + 1)
		for i := range t.Pods {
			p := &t.Pods[i]
			if p.Owner == owner && p.Ordinal != 0 && int(p.Ordinal) <= n {
				p.Ordinal = uint8(label[p.Ordinal-1] + 1)
			}
		}
	}
	return t
}

// indexLabels computes the canonical label of each of Job d's n
// indexes in s (unfinished first in their order, then the failed, then
// the succeeded), or nil when it is the identity.
func (w *scratch) indexLabels(s *model.State, d, n int) []int {
	held := w.indexHeld[:0]
	for range n {
		held = append(held, false)
	}
	w.indexHeld = held
	owner := uint8(d + 1)
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Owner == owner && p.Ordinal != 0 && int(p.Ordinal) <= n {
			held[p.Ordinal-1] = true
		}
	}
	ds := &s.Deps[d]
	// rank: 0 unfinished, 1 failed, 2 succeeded.
	rank := func(k int) int {
		if held[k] {
			return 0
		}
		switch model.JobIndex(ds, k) {
		case model.IndexFailed:
			return 1
		case model.IndexSucceeded:
			return 2
		}
		return 0
	}
	var count [3]int
	identity, last := true, 0
	for k := range n {
		r := rank(k)
		count[r]++
		if r < last {
			identity = false
		}
		last = r
	}
	if identity {
		return nil
	}
	next := [3]int{0, count[0], count[0] + count[1]}
	label := w.indexLabel[:0]
	for k := range n {
		r := rank(k)
		label = append(label, next[r])
		next[r]++
	}
	w.indexLabel = label
	return label
}
