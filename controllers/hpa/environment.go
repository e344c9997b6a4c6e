package hpa

import (
	"fmt"

	"github.com/kivi-go/kivi/model"
)

// When the metrics outside the model are read (unknown.go): at every
// sync of their HPA, as any other metric, which branches over their
// distinct outcomes; and, since their values change without anything
// happening in the cluster, at every sync period too. A sync period
// passes only in a quiescent state (syncPeriod), where it now also
// re-evaluates every deployment whose HPA reads such a metric. The step
// is offered only when some outcome changes the state, and the outcome
// that changes nothing is left out: it would be a loop on the state, and
// a cluster whose HPA can only confirm the count must still be able to
// stop (the end-state intents are checked where nothing moves).

// readsEnvironment reports whether deployment ds is active under an HPA
// with a metric outside the model.
func readsEnvironment(u *model.Universe, ds *model.DeploymentState) bool {
	return ds.Active && ds.HPA != 0 && u.HPAs[ds.HPA-1].HasUnknownMetric()
}

// syncEnvironments are the environments under which a sync of
// deployment d ends in distinct states, one per state, nil when d's HPA
// reads no metric outside the model. identity is the index of the one
// whose outcome is orig (−1 when none is, or orig is nil).
func syncEnvironments(tx *model.Tx, s *model.State, d int, orig *model.DeploymentState) (envs []environment, identity int) {
	ds := &s.Deps[d]
	if !readsEnvironment(tx.U, ds) {
		return nil, -1
	}
	spec := &tx.U.HPAs[ds.HPA-1]
	return distinctOutcomes(tx, s, d, environments(s, d, spec, int(ds.Replicas)), orig)
}

// distinctOutcomes keeps, of envs, the first of each group of
// environments after which a sync leaves deployment d in the same state.
// The syncs run on s and are undone.
func distinctOutcomes(tx *model.Tx, s *model.State, d int, envs []environment, orig *model.DeploymentState) (out []environment, identity int) {
	saved := s.Deps[d]
	failed, arg := s.Failed, s.FailedArg
	var results []model.DeploymentState
	identity = -1
	for _, env := range envs {
		s.Deps[d] = saved
		s.Failed, s.FailedArg = failed, arg
		sync(tx, s, d, env, false)
		res := s.Deps[d]
		if s.Failed == failed {
			dup := false
			for _, r := range results {
				if r == res {
					dup = true
					break
				}
			}
			if dup {
				continue
			}
			if orig != nil && res == *orig {
				identity = len(out)
			}
		}
		results = append(results, res)
		out = append(out, env)
	}
	s.Deps[d] = saved
	s.Failed, s.FailedArg = failed, arg
	return out, identity
}

// encodeEnvironments flattens envs for Tx.Remember.
func encodeEnvironments(dst []int, envs []environment) []int {
	dst = append(dst, len(envs))
	for _, e := range envs {
		code := (e.value + 1) * 2
		if e.failed {
			code++
		}
		dst = append(dst, code)
	}
	return dst
}

// decodeEnvironments reads one list that encodeEnvironments wrote at
// xs[0], and returns the rest of xs.
func decodeEnvironments(xs []int) ([]environment, []int) {
	n := xs[0]
	envs := make([]environment, n)
	for i := range envs {
		c := xs[1+i]
		envs[i] = environment{value: c/2 - 1, failed: c%2 == 1}
	}
	return envs, xs[1+n:]
}

// choiceEnvironment is one sync's environment for deployment d, chosen
// among the distinct outcomes (noEnvironment when d's HPA reads no
// metric outside the model). The outcomes are computed once per step
// (Tx.Recall).
func choiceEnvironment(tx *model.Tx, s *model.State, d int) environment {
	if !readsEnvironment(tx.U, &s.Deps[d]) {
		return noEnvironment
	}
	xs, ok := tx.Recall()
	if !ok {
		envs, _ := syncEnvironments(tx, s, d, nil)
		xs = encodeEnvironments(nil, envs)
		tx.Remember(xs)
	}
	envs, _ := decodeEnvironments(xs)
	if len(envs) == 0 {
		return noEnvironment
	}
	return envs[tx.Choose(len(envs))]
}

// periodEnvironments are the environments of the deployments due in one
// sync period, whose memory has just moved on (origs are their states
// before): one combination of their distinct outcomes is chosen, all but
// the one that leaves every deployment as it was unless othersMove (a
// deployment outside due changes in the period).
func periodEnvironments(tx *model.Tx, s *model.State, due []int, origs []model.DeploymentState, othersMove bool) []environment {
	out := make([]environment, len(due))
	for i := range out {
		out[i] = noEnvironment
	}
	if !model.HasUnknownHPAMetric(tx.U) {
		return out
	}
	xs, ok := tx.Recall()
	if !ok {
		for i, d := range due {
			envs, identity := syncEnvironments(tx, s, d, &origs[i])
			if envs == nil {
				envs, identity = distinctOutcomes(tx, s, d, []environment{noEnvironment}, &origs[i])
			}
			xs = append(encodeEnvironments(xs, envs), identity)
		}
		tx.Remember(xs)
	}
	lists := make([][]environment, len(due))
	identities := make([]int, len(due))
	total, still, stride := 1, 0, 1
	for i := range due {
		lists[i], xs = decodeEnvironments(xs)
		identities[i], xs = xs[0], xs[1:]
		if still >= 0 && identities[i] >= 0 {
			still += identities[i] * stride
		} else {
			still = -1
		}
		stride *= max(len(lists[i]), 1)
		total *= max(len(lists[i]), 1)
	}
	if othersMove {
		still = -1
	}
	if still >= 0 {
		total-- // the combination that changes nothing
	}
	c := tx.Choose(total)
	if still >= 0 && c >= still {
		c++
	}
	for i := range due {
		n := max(len(lists[i]), 1)
		if len(lists[i]) > 0 {
			out[i] = lists[i][c%n]
		}
		c /= n
	}
	return out
}

// environmentMoves reports whether a sync period in the quiescent state s
// (no HPA holding a count back or waiting) would change some deployment
// whose HPA reads a metric outside the model. It syncs on a copy of the
// deployments.
func environmentMoves(u *model.Universe, s *model.State) bool {
	if !model.HasUnknownHPAMetric(u) {
		return false
	}
	cp := *s
	cp.Deps = append([]model.DeploymentState(nil), s.Deps...)
	tx := model.NewTx(u)
	for d := range cp.Deps {
		ds := &cp.Deps[d]
		if !readsEnvironment(u, ds) {
			continue
		}
		orig := *ds
		if !ageMemory(u, ds) {
			return true // the step reports the broken memory
		}
		envs, identity := syncEnvironments(tx, &cp, d, &orig)
		if len(envs) > 1 || (len(envs) == 1 && identity < 0) {
			return true
		}
		cp.Deps[d] = orig
	}
	return false
}

// metricName is how the trace names a metric outside the model.
func metricName(m *model.Metric) string {
	if m.Kind == model.ContainerResourceMetric {
		return fmt.Sprintf("container resource metric %s of container %s", m.Resource, m.Name)
	}
	return fmt.Sprintf("%s metric %s", m.Kind, m.Name)
}

// countText is a recommendation as the trace prints it: limit stands for
// itself and more.
func countText(v, limit int) string {
	if v >= limit {
		return fmt.Sprintf("%d or more", limit)
	}
	return fmt.Sprint(v)
}

// ageMemory is one sync period passing for deployment ds's HPA memory (a
// window or behavior's records; nothing without either); false when the
// memory does not decode (a model invariant broken).
func ageMemory(u *model.Universe, ds *model.DeploymentState) bool {
	if b := behaviorOf(u, ds); b != nil {
		return advanceMemory(b, ds)
	}
	if win := window(u, ds); win != nil {
		Advance(win)
	}
	return true
}

// traceEnvironment says what the metrics outside the model gave at a
// sync of deployment d: the one whose recommendation is the largest, or,
// when the other metrics' is larger, that theirs decides (the outcome is
// the same for every value up to it).
func traceEnvironment(tx *model.Tx, s *model.State, d int, spec *model.HPA, env environment) {
	if !spec.HasUnknownMetric() {
		return
	}
	current := int(s.Deps[d].Replicas)
	if _, decided := EntryCase(current, Bounds{Min: spec.Min, Max: spec.Max}); decided {
		return
	}
	name := tx.U.KindWord(d, true) + " " + tx.U.Deployments[d].Name
	if env.failed {
		tx.Log(Component, "%s: a metric outside the model could not be read", name)
	}
	if env.value < 0 {
		return
	}
	known, ok := propose(tx.U, s, d, spec, current, noEnvironment)
	if ok && known > env.value {
		tx.Log(Component, "%s: the other metrics recommend %d, the metrics outside the model at most that", name, known)
		return
	}
	if m := driver(s, d, spec, current, env.value); m != nil {
		tx.Log(Component, "%s: %s, recommendation %s", name, metricName(m), countText(env.value, spec.Max))
	}
}
