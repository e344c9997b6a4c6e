package deschedulerdiff

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// Unexplained names a disagreement no known class removes.
const Unexplained = "unexplained"

// Class is a known cause of disagreement: whether it can apply to a
// snapshot, and the snapshot with the cause removed (on both sides).
type Class struct {
	Name    string
	Applies func(*Snapshot) bool
	Without func(*Snapshot) *Snapshot
	// Consistent, when set, is what the disagreement must still share
	// with the model for the class to explain it: the part of the answer
	// the cause cannot change.
	Consistent func(*Snapshot, *Result) bool
}

// explains reports whether k explains the disagreement res of s whose
// counterfactual agrees.
func (k Class) explains(s *Snapshot, res *Result) bool {
	return k.Consistent == nil || k.Consistent(s, res)
}

// clone copies a snapshot deeply enough for a counterfactual to change
// its deps, pods and budgets.
func (s *Snapshot) clone() *Snapshot {
	c := *s
	c.Deps = slices.Clone(s.Deps)
	c.Pods = slices.Clone(s.Pods)
	c.PDBs = slices.Clone(s.PDBs)
	return &c
}

// Classes are the known causes, written up in docs/divergences.md
// ("Descheduler against sigs.k8s.io/descheduler v0.36").
var Classes = []Class{{
	// useDeviationThresholds: the thresholds are the nodes' average
	// utilisation minus and plus the arguments. Upstream sums the
	// percentages in map order, the model in node index order; when a
	// node's utilisation lies exactly on a threshold, the last bit of the
	// float64 sum decides its class; when a node's capacity capped at
	// the target threshold lies on an integer, it decides the capped
	// capacity (truncated). Counterfactual: every argument raised by
	// 10⁻⁶ % on both sides, so that no utilisation lies on a threshold.
	Name:    "float64 sum order of the deviation average",
	Applies: deviationTie,
	Without: func(s *Snapshot) *Snapshot {
		c := s.clone()
		a := *s.Profile.LowNodeUtilization
		for _, t := range []*model.ResourceThresholds{&a.Thresholds, &a.TargetThresholds} {
			for r := range model.NumResources {
				if v, ok := t.Get(r); ok {
					t.Set(r, v+1e-6)
				}
			}
		}
		c.Profile.LowNodeUtilization = &a
		return c
	},
}}

// perNamespace counts pods by namespace.
func (s *Snapshot) perNamespace(pods []int) map[string]int {
	out := map[string]int{}
	for _, i := range pods {
		out[s.Deps[s.Pods[i].Dep].namespace()]++
	}
	return out
}

// Verdict is the judgement of one snapshot.
type Verdict struct {
	// Class is "" for agreement, a Class name (several joined with "+"),
	// or Unexplained.
	Class  string
	Result *Result
}

// Judge compares s and names the cause of a disagreement: the first
// applicable class whose counterfactual agrees and which the
// disagreement is consistent with, else all applicable classes
// together, else Unexplained.
func Judge(ctx context.Context, d *Disruption, s *Snapshot, orders []Order) (Verdict, error) {
	res, err := Compare(ctx, d, s, orders)
	if err != nil || res.Detail == "" {
		return Verdict{Result: res}, err
	}
	var applicable []Class
	for _, k := range Classes {
		if k.Applies(s) {
			applicable = append(applicable, k)
		}
	}
	for _, k := range applicable {
		r, err := Compare(ctx, d, k.Without(s), orders)
		if err != nil {
			return Verdict{}, err
		}
		if r.Detail == "" && k.explains(s, res) {
			return Verdict{Class: k.Name, Result: res}, nil
		}
	}
	if len(applicable) > 1 {
		c := s
		var names []string
		consistent := true
		for _, k := range applicable {
			c = k.Without(c)
			names = append(names, k.Name)
			consistent = consistent && k.explains(s, res)
		}
		r, err := Compare(ctx, d, c, orders)
		if err != nil {
			return Verdict{}, err
		}
		if r.Detail == "" && consistent {
			return Verdict{Class: strings.Join(names, "+"), Result: res}, nil
		}
	}
	return Verdict{Class: Unexplained, Result: res}, nil
}

// deviationTie reports whether LowNodeUtilization with
// useDeviationThresholds has a node whose utilisation is within 10⁻⁹ %
// of a threshold, or whose capacity at the target threshold is within
// 10⁻⁹ of an integer.
func deviationTie(s *Snapshot) bool {
	if s.Plugin != LowNodeUtilization || !s.Profile.LowNodeUtilization.UseDeviationThresholds {
		return false
	}
	a := s.Profile.LowNodeUtilization
	pcts := make([][model.NumResources]float64, len(s.Nodes))
	for i, n := range s.Nodes {
		var used [model.NumResources]int64
		for _, p := range s.Pods {
			if p.Node == i {
				d := s.Deps[p.Dep]
				used[model.ResourceCPU] += d.MilliCPU
				used[model.ResourceMemory] += d.MemMiB
				used[model.ResourcePods]++
			}
		}
		capacity := [model.NumResources]int64{n.MilliCPU, n.MemMiB, int64(n.MaxPods)}
		for r := range model.NumResources {
			pcts[i][r] = float64(used[r]) / float64(capacity[r]) * 100
		}
	}
	for r := range model.NumResources {
		lo, ok := a.Thresholds.Get(r)
		if !ok {
			continue
		}
		hi, _ := a.TargetThresholds.Get(r)
		avg := 0.0
		for i := range pcts {
			avg += pcts[i][r]
		}
		avg /= float64(len(pcts))
		for i, n := range s.Nodes {
			for _, th := range []float64{avg - lo, avg + hi} {
				if math.Abs(pcts[i][r]-th) < 1e-9 {
					return true
				}
			}
			// capNodeCapacitiesToThreshold truncates the target's share
			// of the capacity: on an integer, the last bit decides it.
			capacity := [model.NumResources]int64{n.MilliCPU, n.MemMiB, int64(n.MaxPods)}[r]
			if v := (avg + hi) * 0.01 * float64(capacity); math.Abs(v-math.Round(v)) < 1e-9 {
				return true
			}
		}
	}
	return false
}
