package symmetry

import (
	"cmp"
	"slices"
	"strings"

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

// reorderableConfigs marks the configurations of u whose Indexed Job may
// also have its busy indexes reordered (package doc, "Completion
// indexes"): indexes relabelled, pod slots permuted (so the slots its new
// pods take in index order are not observed) and no ResourceQuota
// counting its pods (so no creation stops part way, leaving some pending
// indexes for later by their order).
func reorderableConfigs(u *model.Universe, podsMove bool) []bool {
	out := make([]bool, len(u.Configs))
	for i := range u.Configs {
		cfg := &u.Configs[i]
		out[i] = podsMove && relabelsIndexes(&cfg.Job) && !u.QuotaMayRefuse(cfg.PodTemplate)
	}
	return out
}

// relabelIndexes returns s with the completion indexes of c.jobs in
// canonical order: s itself when they are already, else a copy in w.
func (c *Canonicalizer) relabelIndexes(w *scratch, s *model.State) *model.State {
	t := s
	for _, d := range c.jobs {
		ds := &t.Deps[d]
		spec := &c.u.Configs[ds.Config].Job
		n := spec.Completions
		reorder := c.reorder[ds.Config]
		if !relabelsIndexes(spec) || n < 2 || ds.JobIndexes == "" && !reorder {
			// Nothing finished and the order kept: every index keeps
			// its place.
			continue
		}
		label := c.indexLabels(w, t, d, n, reorder)
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
		if strings.Count(ds.JobIndexes, "\x00") == n {
			ds.JobIndexes = ""
		}
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

// Index classes, in the order of their labels.
const (
	indexBusy = iota
	indexIdle
	indexFailed
	indexSucceeded
)

// indexLabels computes the canonical label of each of Job d's n
// indexes in s, or nil when it is the identity: the unfinished indexes
// first, then the failed, then the succeeded. The unfinished ones keep
// their order, unless reorder and no more than the parallelism is taken
// (package doc, "Completion indexes"): then the busy ones come first, by
// their status and pods, and the idle ones after them.
func (c *Canonicalizer) indexLabels(w *scratch, s *model.State, d, n int, reorder bool) []int {
	w.indexHeld = resetSlice(w.indexHeld, n)
	w.indexHash = resetSlice(w.indexHash, n)
	held, hash := w.indexHeld, w.indexHash
	ds := &s.Deps[d]
	rof := c.u.Configs[ds.Config].Job.ReplaceOnlyFailed
	owner := uint8(d + 1)
	// taken counts what holds a place of the parallelism, or will take
	// one at the next sync before some busy index: active pods,
	// terminating ones where they are replaced only once gone, and
	// (below) pending busy indexes and idle indexes below a busy one.
	taken := 0
	if reorder {
		c.nodeContexts(w, s)
	}
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Owner != owner || p.Ordinal == 0 || int(p.Ordinal) > n {
			continue
		}
		k := p.Ordinal - 1
		held[k] = true
		if p.Active() || p.Phase == model.Terminating && rof {
			taken++
		}
		if reorder {
			// A multiset of the pods' contents: a sum of their hashes.
			hash[k] += mix64(podHash(p) ^ w.nodeContext[podNode(p, len(s.Nodes))])
		}
	}
	if reorder {
		model.CountIndexesInto(c.u, s, d, &w.indexCounts)
	}
	class := w.indexClass[:0]
	// lastBusy is the highest busy index that is or may be pending again.
	lastBusy := -1
	for k := range n {
		st := model.JobIndex(ds, k)
		finished := st == model.IndexFailed || st == model.IndexSucceeded
		switch {
		case !held[k] && st == model.IndexFailed:
			class = append(class, indexFailed)
		case !held[k] && st == model.IndexSucceeded:
			class = append(class, indexSucceeded)
		case held[k] || st != 0:
			class = append(class, indexBusy)
			if reorder && !finished && !w.indexCounts.IsFailed(k) {
				lastBusy = k
				if w.indexCounts.IsPending(k) {
					taken++
				}
			}
		default:
			class = append(class, indexIdle)
		}
	}
	w.indexClass = class
	if reorder {
		for k := range lastBusy {
			if class[k] == indexIdle {
				taken++
			}
		}
		reorder = taken <= int(ds.Replicas)
	}
	if !reorder {
		// The unfinished indexes keep their order.
		for k, cl := range class {
			if cl == indexIdle {
				class[k] = indexBusy
			}
		}
	}
	var count [4]int
	for _, cl := range class {
		count[cl]++
	}
	next := [4]int{0, count[indexBusy], count[indexBusy] + count[indexIdle], count[indexBusy] + count[indexIdle] + count[indexFailed]}
	label := w.indexLabel[:0]
	for _, cl := range class {
		label = append(label, next[cl])
		next[cl]++
	}
	w.indexLabel = label
	if reorder && count[indexBusy] > 1 {
		// The busy indexes by content: their status, then their pods.
		busy := w.indexOrder[:0]
		for k, cl := range class {
			if cl == indexBusy {
				busy = append(busy, k)
			}
		}
		w.indexOrder = busy
		slices.SortStableFunc(busy, func(a, b int) int {
			if x, y := model.JobIndex(ds, a), model.JobIndex(ds, b); x != y {
				return cmp.Compare(x, y)
			}
			return cmp.Compare(hash[a], hash[b])
		})
		for i, k := range busy {
			label[k] = i
		}
	}
	return identityOrNil(label)
}

// identityOrNil returns label, or nil when it maps every index to itself.
func identityOrNil(label []int) []int {
	for k, l := range label {
		if l != k {
			return label
		}
	}
	return nil
}

// resetSlice returns x with n zero elements, reusing its array.
func resetSlice[T any](x []T, n int) []T {
	x = slices.Grow(x[:0], n)[:n]
	clear(x)
	return x
}

// nodeContexts hashes, for each node and for "no node" (the last
// entry), what a busy index's pod there is next to, but for indexes:
// the node's class and status and the multiset of the contents of its
// pods (bound or nominated). Busy indexes are ordered by their pods and
// these contexts, so that two of them whose pods differ only by nodes
// that node permutations exchange rarely tie; a tie keeps their order,
// which only costs merging.
func (c *Canonicalizer) nodeContexts(w *scratch, s *model.State) {
	ctx := resetSlice(w.nodeContext, len(s.Nodes)+1)
	w.nodeContext = ctx
	for n := range s.Nodes {
		ns := &s.Nodes[n]
		x := uint64(c.classOf[n])<<8 | uint64(ns.Status)
		if ns.Cordoned {
			x |= 1 << 40
		}
		if ns.MemoryPressure {
			x |= 1 << 41
		}
		if ns.Reclaiming {
			x |= 1 << 42
		}
		ctx[n] = mix64(x)
	}
	ctx[len(s.Nodes)] = mix64(1 << 50)
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Phase != model.Free {
			ctx[podNode(p, len(s.Nodes))] += podHash(p)
		}
	}
}

// podNode is the node a pod is bound or nominated to, as an index of
// nodeContext: nodes for none.
func podNode(p *model.PodState, nodes int) int {
	switch {
	case p.Node != 0:
		return int(p.Node) - 1
	case p.NominatedNode != 0:
		return int(p.NominatedNode) - 1
	}
	return nodes
}

// podHash hashes a pod's contents but for its node and its index.
func podHash(p *model.PodState) uint64 {
	h := uint64(p.Phase) | uint64(p.Owner)<<8 | uint64(p.Template)<<16 | uint64(p.Pattern)<<24 | uint64(p.Readiness)<<32 | uint64(p.Failure)<<40 | uint64(p.Restarts)<<48 | uint64(p.RS)<<56
	if p.WasRunning {
		h |= 1 << 60
	}
	if p.NominatedNode != 0 {
		h |= 1 << 61
	}
	return mix64(h ^ mix64(uint64(uint32(p.CPU))|uint64(uint32(p.Memory))<<32))
}

// mix64 is splitmix64's finaliser.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
