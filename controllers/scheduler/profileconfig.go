package scheduler

import (
	"math"
	"slices"

	"github.com/kivi-go/kivi/model"
)

// The default-scheduler profile of the input's KubeSchedulerConfiguration
// (model.SchedulerProfile) changes the score plugins' weights (0: the
// plugin does not run), NodeResourcesFit's scoring strategy
// (noderesources/least_allocated.go, most_allocated.go,
// requested_to_capacity_ratio.go, resource_allocation.go, v1.36), the
// spread constraints a pod without its own gets, and InterPodAffinity's
// hardPodAffinityWeight, and which of the PodTopologySpread and
// InterPodAffinity filters run. All are static: the plan resolves them once per
// universe, so the decision memo, which is per universe, needs no more
// key.

// fitResource is one scored resource of NodeResourcesFit's strategy,
// resolved against the universe.
type fitResource struct {
	weight int64
	// kind: fitCPU, fitMemory, or fitScalar (scalar resource scalar of
	// the universe); fitAbsent: no pod of the universe requests the
	// resource, so upstream leaves it out of every node's score.
	kind   uint8
	scalar int
	// skipUnrequested: a pod that does not request the resource leaves it
	// out (schedutil.IsScalarResourceName: extended resources and huge
	// pages, not ephemeral-storage).
	skipUnrequested bool
}

const (
	fitCPU uint8 = iota
	fitMemory
	fitScalar
	fitAbsent
)

// fitScoring is the plan's NodeResourcesFit score configuration.
type fitScoring struct {
	// standard: LeastAllocated over cpu and memory weighted alike, the
	// default, scored by leastAllocatedScore's own loop.
	standard  bool
	strategy  model.ScoringStrategyType
	resources []fitResource
	// shape is RequestedToCapacityRatio's shape with scores scaled to
	// 0..maxNodeScore.
	shape []model.ShapePoint
}

// resolveProfile fills the plan's weights and NodeResourcesFit scoring
// from u's profile.
func (pl *plan) resolveProfile(u *model.Universe) {
	prof := &u.Scheduler.Profile
	w := prof.ScoreWeights()
	pl.weights = [numScores]int64{w.TaintToleration, w.NodeAffinity, w.NodeResourcesFit, w.PodTopologySpread,
		w.InterPodAffinity, w.NodeResourcesBalancedAllocation}
	pl.spreadFilterOff, pl.interPodFilterOff = prof.SpreadFilterOff, prof.InterPodAffinityFilterOff
	s := &prof.Scoring
	pl.fit = fitScoring{standard: s.DefaultScoring(), strategy: s.Type}
	resources := s.Resources
	if resources == nil {
		resources = []model.ResourceWeight{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}}
	}
	for _, r := range resources {
		pl.fit.resources = append(pl.fit.resources, resolveResource(u, r.Name, r.Weight))
	}
	pl.balanced = nil
	if b := prof.BalancedResources; b != nil && !slices.Equal(b, []string{"cpu", "memory"}) {
		for _, name := range b {
			pl.balanced = append(pl.balanced, resolveResource(u, name, 1))
		}
	}
	for _, p := range s.Shape {
		pl.fit.shape = append(pl.fit.shape, model.ShapePoint{Utilization: p.Utilization, Score: p.Score * (maxNodeScore / maxCustomPriorityScore)})
	}
}

// resolveResource resolves a scored resource by name against u.
func resolveResource(u *model.Universe, name string, weight int64) fitResource {
	fr := fitResource{weight: weight, kind: fitAbsent}
	switch name {
	case "cpu":
		fr.kind = fitCPU
	case "memory":
		fr.kind = fitMemory
	default:
		for k, n := range u.ScalarResources {
			if n == name {
				fr.kind, fr.scalar = fitScalar, k
			}
		}
		fr.skipUnrequested = name != "ephemeral-storage"
	}
	return fr
}

// maxCustomPriorityScore is the top of a shape's scores
// (config.MaxCustomPriorityScore).
const maxCustomPriorityScore = 10

// fitScore is NodeResourcesFit's score of feasible node n under the
// profile's strategy: per resource the strategy's score, weighted, then
// the integer mean (RequestedToCapacityRatio: rounded, and only over the
// resources scoring above 0). Cpu and memory are the non-zero requests
// (nonzero.go), scalar resources the requests as written.
func (c *cycle) fitScore(n int) int64 {
	f, node, used := &c.plan.fit, &c.u.Nodes[n], &c.scored()[n]
	cpu, mem := scoredRequests(c.t)
	K := len(c.u.ScalarResources)
	var score, weights int64
	for _, r := range f.resources {
		var req, alloc int64
		switch r.kind {
		case fitCPU:
			req, alloc = used.CPU+cpu, node.CPU
		case fitMemory:
			req, alloc = used.Memory+mem, node.Memory
		case fitScalar:
			pod := c.u.TemplateScalar(int(c.p.Template), r.scalar)
			if pod == 0 && r.skipUnrequested {
				continue
			}
			req, alloc = c.scalarUsed[n*K+r.scalar]+pod, c.u.NodeScalar(n, r.scalar)
		default:
			continue
		}
		if alloc == 0 {
			continue
		}
		var s int64
		switch f.strategy {
		case model.MostAllocated:
			s = min(req, alloc) * maxNodeScore / alloc
		case model.RequestedToCapacityRatio:
			s = f.shapeAt(maxNodeScore)
			if req <= alloc {
				s = f.shapeAt(req * maxNodeScore / alloc)
			}
			if s <= 0 {
				continue
			}
		default:
			s = leastRequested(req, alloc)
		}
		score += s * r.weight
		weights += r.weight
	}
	if weights == 0 {
		return 0
	}
	if f.strategy == model.RequestedToCapacityRatio {
		return int64(math.Round(float64(score) / float64(weights)))
	}
	return score / weights
}

// shapeAt is the broken linear function through the shape's points
// (helper.BuildBrokenLinearFunction): flat before the first point and
// after the last, the integer interpolation between.
func (f *fitScoring) shapeAt(p int64) int64 {
	sh := f.shape
	for i := range sh {
		if p <= sh[i].Utilization {
			if i == 0 {
				return sh[0].Score
			}
			return sh[i-1].Score + (sh[i].Score-sh[i-1].Score)*(p-sh[i-1].Utilization)/(sh[i].Utilization-sh[i-1].Utilization)
		}
	}
	return sh[len(sh)-1].Score
}

// profileDefaults returns the spread constraints the profile gives an
// owned pod of template t without constraints of its own, the number of
// DoNotSchedule ones (first), and whether they are the system defaults
// (which do not require nodes to carry every key).
func profileDefaults(u *model.Universe, t *model.PodTemplate) ([]constraint, int, bool) {
	prof := &u.Scheduler.Profile
	if !prof.ListDefaulting {
		return []constraint{
			systemDefault(u, t, model.HostnameKey, defaultHostnameSkew),
			systemDefault(u, t, zoneKey, defaultZoneSkew),
		}, 0, true
	}
	var ks []constraint
	for _, when := range [...]model.WhenUnsatisfiable{model.DoNotSchedule, model.ScheduleAnyway} {
		for _, d := range prof.DefaultConstraints {
			if d.When == when {
				ks = append(ks, systemDefault(u, t, d.Key, d.MaxSkew))
			}
		}
	}
	hard := 0
	for _, d := range prof.DefaultConstraints {
		if d.When == model.DoNotSchedule {
			hard++
		}
	}
	return ks, hard, false
}
