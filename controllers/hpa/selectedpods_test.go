package hpa

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// canaryCluster: web (2 replicas, an HPA at 100 % CPU, 2..10) and a
// canary (1 replica) whose pods web's selector selects too, as a stable
// Deployment selecting app=web does a canary labelled app=web,track=canary.
// Every pod requests 1 CPU; web's use it, the canary's uses canaryCPU.
func canaryCluster(t *testing.T, counted bool, canaryCPU int64) (*model.Universe, *model.State) {
	t.Helper()
	b := build.New()
	b.AddNodes(3, build.Node().CPU(8000).Mem(8192))
	web := b.AddDeployment("web", b.AddTemplate(build.Template("web").Requests(1000, 128)), 2)
	canary := b.AddDeployment("canary", b.AddTemplate(build.Template("canary").Requests(1000, 128)), 1)
	b.WithHPA(web, b.AddHPA(2, 10, 100))
	if counted {
		b.U.HPAs[0].CountsPodsOf = []int{canary}
	}
	b.RunPodCPU(web, 0, 1000).RunPodCPU(web, 1, 1000).RunPodCPU(canary, 2, canaryCPU)
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	return u, s
}

// TestHPACountsSelectedPods: the HPA of web lists the canary's pod with
// its own (upstream's replica calculator lists the pods of the target's
// selector): utilisation (1000+1000+3000)/3000 = 167 % of the 100 %
// target over 3 ready pods proposes ⌈5/3·3⌉ = 5 replicas, which the
// scale-up limit of an HPA without behavior (max(2·2, 4)) takes to 4;
// web's pods alone are at their target, within the tolerance, and keep 2. The pod counts
// list the canary's pod, status.replicas does not.
func TestHPACountsSelectedPods(t *testing.T) {
	for _, tc := range []struct {
		counted        bool
		proposal, want int
	}{{true, 5, 4}, {false, 0, 2}} {
		u, s := canaryCluster(t, tc.counted, 3000)
		spec := &u.HPAs[0]
		if got := Recommend(u, s, 0, spec, 2, nil); !got.OK || got.Desired != tc.want || tc.proposal > 0 && got.Proposal != tc.proposal {
			t.Errorf("canary counted %v: recommendation %+v, want a proposal of %d, %d replicas", tc.counted, got, tc.proposal, tc.want)
		}
		c := countPods(spec, s, 0, true)
		if wantListed := 2 + map[bool]int{true: 1}[tc.counted]; c.listed != wantListed || c.ready != wantListed || c.status != 2 {
			t.Errorf("canary counted %v: pod counts %+v, want %d listed and ready, status 2", tc.counted, c, wantListed)
		}
	}
}

// TestHPAQueuedForSelectedPods: a change of the canary's pods queues
// web's HPA too, since web's HPA lists them; a change of web's pods
// queues web alone.
func TestHPAQueuedForSelectedPods(t *testing.T) {
	u, s := canaryCluster(t, true, 1000)
	s.Queues[model.HPAQueue] = nil
	s.EnqueueHPA(u, 1)
	if got := s.Queues[model.HPAQueue]; !slices.Equal(got, []uint16{1, 0}) {
		t.Errorf("after the canary's pods changed, HPA queue %v, want [1 0]", got)
	}
	s.Queues[model.HPAQueue] = nil
	s.EnqueueHPA(u, 0)
	if got := s.Queues[model.HPAQueue]; !slices.Equal(got, []uint16{0}) {
		t.Errorf("after web's pods changed, HPA queue %v, want [0]", got)
	}
}
