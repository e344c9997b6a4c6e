package kubeletadmitdiff

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// TestKnownClasses pins a minimal example of every class: the model and
// upstream disagree, and the class's counterfactual names it.
func TestKnownClasses(t *testing.T) {
	k := newKubelet(t)
	one := []Container{{Requests: Resources{"cpu": "500m", "memory": "256Mi"}}}
	for _, tc := range []struct {
		name string
		c    Case
	}{
		// A critical pod on a node full of pods: the kubelet preempts the
		// one it runs and admits the critical pod; the model rejects it.
		{CriticalPreemption, Case{Node: Node{CPU: "1", Memory: "1Gi", Storage: "1Gi", Pods: 1, Dongles: -1},
			Specs: []Spec{{Containers: one}, {Containers: one, Critical: true}}, Pods: []Pod{{Spec: 0}}, New: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Check(k, &tc.c, nil, Pipeline{})
			if err != nil {
				t.Fatal(err)
			}
			if v.Class != tc.name {
				t.Fatalf("class %q, want %q (model %s, upstream %s)", v.Class, tc.name, v.Model, v.Upstream)
			}
		})
	}
}

// TestPlantedBugs shows that the comparison has teeth: each planted bug
// in the model, or wrong pipeline on the real side, makes one of the
// first 2 000 random cases (fixed seeds) an unexplained disagreement.
func TestPlantedBugs(t *testing.T) {
	k := newKubelet(t)
	for _, b := range []struct {
		name  string
		plant Plant
		pipe  Pipeline
	}{
		{name: "terminating pods hold nothing", plant: func(_ *model.Universe, s *model.State) {
			for i := range s.Pods {
				if s.Pods[i].Phase == model.Terminating {
					s.Pods[i].Phase = model.Failed
				}
			}
		}},
		{name: "one pod more than maxPods", plant: func(u *model.Universe, _ *model.State) { u.Nodes[0].MaxPods++ }},
		{name: "NoExecute taints tolerated", plant: func(u *model.Universe, _ *model.State) {
			for i := range u.Templates {
				u.Templates[i].Fit[0].NoExecute = false
			}
		}},
		{name: "nodeSelector and affinity ignored", plant: func(u *model.Universe, _ *model.State) {
			for i := range u.Templates {
				u.Templates[i].Fit[0].Affinity = true
			}
		}},
		{name: "no MemoryPressure condition", plant: func(_ *model.Universe, s *model.State) { s.Nodes[0].MemoryPressure = false }},
		{name: "host ports free", plant: func(u *model.Universe, _ *model.State) {
			for i := range u.Templates {
				u.Templates[i].HostPorts = nil
			}
		}},
		{name: "QoS class with the overhead", plant: func(u *model.Universe, _ *model.State) {
			for i := range u.Templates {
				u.Templates[i].Overhead = [2]int64{}
			}
		}},
		{name: "a DaemonSet's pod reserves no resources", plant: func(u *model.Universe, _ *model.State) {
			n := &u.Nodes[0]
			n.ReservedCPU, n.ReservedMemory = 0, 0
			clear(n.ReservedScalar)
		}},
		{name: "upstream without SetDefaults_Pod", pipe: Pipeline{NoPodDefaults: true}},
		{name: "upstream without the overhead", pipe: Pipeline{NoOverhead: true}},
		{name: "upstream without DefaultTolerationSeconds", pipe: Pipeline{NoDefaultTolerations: true}},
		{name: "upstream without pod-level resources", pipe: Pipeline{NoPodLevel: true}},
	} {
		t.Run(b.name, func(t *testing.T) {
			const n = 2000
			for i := range n {
				c := rapid.Custom(GenCase).Example(i)
				v, err := Check(k, c, b.plant, b.pipe)
				if err != nil {
					t.Fatal(err)
				}
				if v.Class == Unexplained {
					t.Logf("caught by case %d:\n%smodel:    %s\nupstream: %s", i, c, v.Model, v.Upstream)
					return
				}
			}
			t.Fatalf("the planted bug was never caught in %d cases", n)
		})
	}
}
