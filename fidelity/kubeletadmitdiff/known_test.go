package kubeletadmitdiff

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// TestKnownClasses pins a minimal example of every class: the model and
// upstream disagree, and the class's counterfactual names it.
func TestKnownClasses(t *testing.T) {
	k := newKubelet(t)
	for _, tc := range []struct {
		name string
		c    Case
	}{
		// A critical pod that lacks the cpu the DaemonSet's pod holds: the
		// kubelet preempts that pod and admits the critical pod; the
		// model's reservation stays, and it rejects the pod.
		{DaemonPreemption, Case{Node: Node{CPU: "1", Memory: "1Gi", Storage: "1Gi", Pods: 2, Dongles: -1},
			Specs: []Spec{{Containers: []Container{{Requests: Resources{"cpu": "900m"}}}, Critical: true}}, New: 0,
			Daemon: &Spec{Containers: []Container{{Requests: Resources{"cpu": "250m", "memory": "64Mi"}}}, Tolerations: []Toleration{{Operator: "Exists"}}}}},
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

// TestCriticalPreemption pins cases of the kubelet's preemption for a
// critical pod that the model must answer as upstream does: the pods
// preempted (indices into Case.Pods) or the rejection.
func TestCriticalPreemption(t *testing.T) {
	k := newKubelet(t)
	node := Node{CPU: "1", Memory: "1Gi", Storage: "1Gi", Pods: 3, Dongles: -1}
	burstable := Spec{Containers: []Container{{Requests: Resources{"cpu": "300m", "memory": "256Mi"}}}}
	guaranteed := Spec{Containers: []Container{{Requests: Resources{"cpu": "100m", "memory": "64Mi"}, Limits: Resources{"cpu": "100m", "memory": "64Mi"}}}}
	bestEffort := Spec{Containers: []Container{{}}}
	critical := func(cpu string) Spec {
		return Spec{Containers: []Container{{Requests: Resources{"cpu": cpu, "memory": "64Mi"}}}, Critical: true}
	}
	for _, tc := range []struct {
		name string
		c    Case
		want Result
	}{
		// One pod slot and 100m lacking: the Burstable pod frees both;
		// the BestEffort pod stays (it frees no cpu), the Guaranteed one
		// too (the others suffice), though it is the smaller.
		{"burstable before guaranteed", Case{Node: node, Specs: []Spec{bestEffort, burstable, guaranteed, critical("700m")},
			Pods: []Pod{{Spec: 0}, {Spec: 1}, {Spec: 2}}, New: 3}, Result{Preempted: []int{1}}},
		// 400m lacking: the Guaranteed pod must go with the Burstable one.
		{"guaranteed when needed", Case{Node: node, Specs: []Spec{bestEffort, burstable, guaranteed, critical("1")},
			Pods: []Pod{{Spec: 0}, {Spec: 1}, {Spec: 2}}, New: 3}, Result{Preempted: []int{1, 2}}},
		// Only the pod slot lacking: the BestEffort pod goes.
		{"besteffort first", Case{Node: node, Specs: []Spec{bestEffort, burstable, guaranteed, critical("100m")},
			Pods: []Pod{{Spec: 0}, {Spec: 1}, {Spec: 2}}, New: 3}, Result{Preempted: []int{0}}},
		// 200m lacking: a pod whose pod-level resources request memory
		// only frees no cpu to the handler, whatever its containers
		// request; the other pod goes, though it requests more memory.
		{"pod-level requests only", Case{Node: Node{CPU: "1", Memory: "1Gi", Storage: "1Gi", Pods: 8, Dongles: -1},
			Specs: []Spec{{Containers: []Container{{Requests: Resources{"cpu": "400m", "memory": "128Mi"}}}, PodRequests: Resources{"memory": "256Mi"}},
				{Containers: []Container{{Requests: Resources{"cpu": "300m", "memory": "512Mi"}}}}, critical("500m")},
			Pods: []Pod{{Spec: 0}, {Spec: 1}}, New: 2}, Result{Preempted: []int{1}}},
		// A critical pod is no candidate: nothing frees the cpu.
		{"critical pods stay", Case{Node: node, Specs: []Spec{critical("600m"), critical("500m")},
			Pods: []Pod{{Spec: 0}}, New: 1}, Result{Reason: "UnexpectedAdmissionError"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Check(k, &tc.c, nil, Pipeline{})
			if err != nil {
				t.Fatal(err)
			}
			if v.Class != "" || v.Upstream.Reason != tc.want.Reason || !slices.Equal(v.Upstream.Preempted, tc.want.Preempted) {
				t.Fatalf("class %q, model %s, upstream %s; want both %s", v.Class, v.Model, v.Upstream, tc.want)
			}
		})
	}
}

// TestAgree: the model's answer covers upstream's when the reasons are
// equal and upstream's preempted pods are one of the model's choices, up
// to pods of one spec and phase.
func TestAgree(t *testing.T) {
	c := &Case{Pods: []Pod{{Spec: 0}, {Spec: 0}, {Spec: 0, Terminating: true}, {Spec: 1}, {Spec: 0}}}
	for _, tc := range []struct {
		name string
		m, u Result
		want bool
	}{
		{"both admit", Result{}, Result{}, true},
		{"same reason", Result{Reason: "OutOfcpu"}, Result{Reason: "OutOfcpu"}, true},
		{"other reason", Result{Reason: "OutOfcpu"}, Result{Reason: "OutOfmemory"}, false},
		{"same pods", Result{Preempted: []int{0, 3}}, Result{Preempted: []int{0, 3}}, true},
		{"alike pods", Result{Preempted: []int{0, 3}}, Result{Preempted: []int{1, 3}}, true},
		{"a Terminating pod is not alike", Result{Preempted: []int{0}}, Result{Preempted: []int{2}}, false},
		{"another spec", Result{Preempted: []int{0}}, Result{Preempted: []int{3}}, false},
		{"one pod more", Result{Preempted: []int{0}}, Result{Preempted: []int{0, 1}}, false},
		{"alike pods, the Terminating one first", Result{Preempted: []int{0, 2}}, Result{Preempted: []int{2, 4}}, true},
		{"the DaemonSet's pod", Result{Preempted: []int{0}}, Result{Preempted: []int{5}}, false},
		{"one of the choices", Result{Preempted: []int{0}, Alternatives: [][]int{{0}, {3}}}, Result{Preempted: []int{3}}, true},
		{"none of the choices", Result{Preempted: []int{0}, Alternatives: [][]int{{0}, {2}}}, Result{Preempted: []int{3}}, false},
	} {
		if got := agree(c, tc.m, tc.u); got != tc.want {
			t.Errorf("%s: agree(%s, %s) = %v, want %v", tc.name, tc.m, tc.u, got, tc.want)
		}
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
		{name: "the new pod outranks other critical pods", plant: func(u *model.Universe, s *model.State) {
			u.Templates[s.Pods[len(s.Pods)-1].Template].Priority++
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

// TestOSLabel: a pod labelled kubernetes.io/os is rejected by the kubelet
// (PodOSSelectorNodeLabelDoesNotMatch, before every other check, so a
// critical pod preempts nothing) unless the label is the kubelet's OS,
// linux here; so is a pod whose spec.os.name is another OS
// (PodOSNotSupported, the second check); the model answers as upstream.
func TestOSLabel(t *testing.T) {
	k := newKubelet(t)
	node := Node{CPU: "1", Memory: "1Gi", Storage: "1Gi", Pods: 3, Dongles: -1}
	small := Container{Requests: Resources{"cpu": "100m", "memory": "64Mi"}}
	big := Container{Requests: Resources{"cpu": "900m", "memory": "64Mi"}}
	for _, tc := range []struct {
		name string
		c    Case
		want string
	}{
		{"linux label admitted", Case{Node: node, Specs: []Spec{{Containers: []Container{small}, OS: "linux"}}}, ""},
		{"windows label rejected", Case{Node: node, Specs: []Spec{{Containers: []Container{small}, OS: "windows"}}},
			"PodOSSelectorNodeLabelDoesNotMatch"},
		{"windows label rejected before resources, critical pod preempts nothing", Case{Node: node,
			Specs: []Spec{{Containers: []Container{big}}, {Containers: []Container{big}, OS: "windows", Critical: true}},
			Pods:  []Pod{{Spec: 0}}, New: 1}, "PodOSSelectorNodeLabelDoesNotMatch"},
		{"linux os field admitted", Case{Node: node, Specs: []Spec{{Containers: []Container{small}, OSName: "linux"}}}, ""},
		{"windows os field rejected", Case{Node: node, Specs: []Spec{{Containers: []Container{small}, OSName: "windows"}}},
			"PodOSNotSupported"},
		{"linux label, windows os field: the field rejects", Case{Node: node,
			Specs: []Spec{{Containers: []Container{small}, OS: "linux", OSName: "windows"}}}, "PodOSNotSupported"},
		{"windows label and os field: the label rejects first", Case{Node: node,
			Specs: []Spec{{Containers: []Container{small}, OS: "windows", OSName: "windows"}}}, "PodOSSelectorNodeLabelDoesNotMatch"},
		{"windows os field rejected before resources, critical pod preempts nothing", Case{Node: node,
			Specs: []Spec{{Containers: []Container{big}}, {Containers: []Container{big}, OSName: "windows", Critical: true}},
			Pods:  []Pod{{Spec: 0}}, New: 1}, "PodOSNotSupported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Check(k, &tc.c, nil, Pipeline{})
			if err != nil {
				t.Fatal(err)
			}
			if v.Class != "" || v.Upstream.Reason != tc.want {
				t.Fatalf("class %q, upstream %s, model %s; want both %q", v.Class, v.Upstream, v.Model, tc.want)
			}
		})
	}
}
