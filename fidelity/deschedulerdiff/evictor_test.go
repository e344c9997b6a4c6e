package deschedulerdiff

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestEvictorFeaturesDecide runs, for each DefaultEvictor feature, a
// snapshot where it decides the evictions upstream (the real runs evict
// otherwise without it) and checks that the model agrees with and
// without it.
func TestEvictorFeaturesDecide(t *testing.T) {
	ctx := t.Context()
	d := NewDisruption(ctx)
	node := Node{MilliCPU: 1000, MemMiB: 1024, MaxPods: 110}
	// Three duplicates of d0 on n1: RemoveDuplicates evicts two.
	base := func(running bool, edit func(*Snapshot)) *Snapshot {
		s := &Snapshot{Plugin: RemoveDuplicates, Nodes: []Node{node, node}, Deps: []Dep{{Tier: "a", Replicas: 3}},
			Pods:    []Pod{{Dep: 0, Node: 0, Running: running}, {Dep: 0, Node: 0, Running: running}, {Dep: 0, Node: 0, Running: running}},
			Profile: model.DeschedulerProfile{Balance: []model.BalancePlugin{model.RemoveDuplicates}}}
		edit(s)
		return s
	}
	cases := []struct {
		feature string
		s       *Snapshot
	}{
		{"labelSelector", base(true, func(s *Snapshot) {
			s.Profile.Evictor.LabelSelector = &model.Selector{MatchExpressions: []model.Requirement{{Key: tierKey, Operator: model.OpNotIn, Values: []string{"a"}}}}
		})},
		{"namespaceLabelSelector", base(true, func(s *Snapshot) {
			s.NamespaceLabels = map[string]map[string]string{Namespace: {envKey: "dev"}}
			s.Profile.Evictor.NamespaceLabelSelector = &model.Selector{MatchLabels: map[string]string{envKey: "prod"}}
		})},
		{"namespaceLabelSelector", base(true, func(s *Snapshot) {
			s.Profile.Evictor.NamespaceLabelSelector = &model.Selector{MatchExpressions: []model.Requirement{
				{Key: model.NamespaceNameLabel, Operator: model.OpNotIn, Values: []string{Namespace}}}}
		})},
		{"minReplicas", base(true, func(s *Snapshot) { s.Profile.Evictor.MinReplicas = 4 })},
		{"PodsWithoutPDB", base(true, func(s *Snapshot) { s.Profile.Evictor.PodsWithoutPDB = true })},
		{"PodsWithoutPDB", base(true, func(s *Snapshot) {
			s.Profile.Evictor.PodsWithoutPDB, s.ExtraEnabled = true, true
			// A budget of another Dep's pods covers none of d0's.
			s.PDBs = []PDB{{MatchLabels: map[string]string{appLabel: "d1"}, MaxUnavailable: &model.IntOrPercent{Value: 1}}}
		})},
		{"minPodAge", base(false, func(s *Snapshot) { s.Profile.Evictor.MinPodAge = "10m" })},
		{"noEvictionPolicy Mandatory", base(true, func(s *Snapshot) {
			s.Profile.Evictor.NoEvictionPolicy = "Mandatory"
			s.Deps[0].PreferNoEviction = true
		})},
		{"evict annotation", base(true, func(s *Snapshot) {
			s.Deps[0].Critical, s.Deps[0].Evict = true, true
		})},
		{"evict annotation", base(true, func(s *Snapshot) {
			s.Deps[0].Evict = true
			s.Profile.Evictor = model.EvictorConstraints{LabelSelector: &model.Selector{MatchLabels: map[string]string{tierKey: "b"}},
				MinReplicas: 4, PodsWithoutPDB: true, NoEvictionPolicy: "Mandatory"}
			s.Deps[0].PreferNoEviction = true
		})},
	}
	for _, c := range cases {
		t.Run(c.feature, func(t *testing.T) {
			without := c.s.withoutFeature(c.feature)
			if without == nil {
				t.Fatalf("the snapshot does not use %s", c.feature)
			}
			var evicted [2][][]int
			for k, s := range []*Snapshot{c.s, without} {
				v, err := Judge(ctx, d, s, Orders(rand.New(rand.NewPCG(1, 2)), s, 4))
				if err != nil {
					t.Fatal(err)
				}
				if v.Class != "" {
					t.Fatalf("class %q: %s\n%s", v.Class, v.Result.Detail, s)
				}
				for _, r := range v.Result.Real {
					evicted[k] = append(evicted[k], r.Evicted)
				}
			}
			if slices.EqualFunc(evicted[0], evicted[1], slices.Equal) {
				t.Errorf("%s does not decide: real evictions %v with it and without\n%s", c.feature, evicted[0], c.s)
			}
		})
	}
}
