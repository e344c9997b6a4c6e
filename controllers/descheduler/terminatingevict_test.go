package descheduler

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestTerminatingPodWithEvictAnnotation: DefaultEvictor.Filter admits a
// pod with the descheduler.alpha.kubernetes.io/evict annotation before it
// checks that the pod is terminating (sigs.k8s.io/descheduler v0.36,
// defaultevictor.go), so upstream's plugins list such a pod, evict it
// (the Eviction API accepts a pod being deleted, deleting nothing) and
// count it; the topology plugin skips terminating pods when it counts a
// domain's pods. Each row is a cluster where that decides what a cycle
// evicts, with and without the annotation.
func TestTerminatingPodWithEvictAnnotation(t *testing.T) {
	for _, tc := range []struct {
		name string
		// build lays out the cluster; pod slot 0 is terminating.
		build func(b *build.Builder, tmpl *build.TemplateBuilder)
		// What the cycle's branches evict with the annotation and
		// without it (printed pod numbers, one list per outcome).
		annotated, plain []string
	}{{
		// Upstream's RemoveDuplicates finds pod 1 (terminating) and pod 2
		// duplicates on n1 and evicts one of them, in listing order:
		// pod 1's eviction changes nothing, pod 2's evicts it. Without
		// the annotation pod 2 is alone.
		name: "RemoveDuplicates counts it as a duplicate",
		build: func(b *build.Builder, tmpl *build.TemplateBuilder) {
			b.AddNodes(2, build.Node())
			d := b.AddDeployment("web", b.AddTemplate(tmpl), 2)
			b.RunPod(d, 0).RunPod(d, 0)
			b.U.Descheduler = policy(dupProfile(false))
		},
		annotated: []string{"[2]", "[]"}, plain: []string{"[]"},
	}, {
		// Three pods of one ReplicaSet on n1, one terminating: with the
		// annotation three duplicates, at most ⌈3/2⌉ = 2 per node, so
		// one goes (the terminating one, or one of the others); without
		// it, pods 2 and 3 are two on n1, at most ⌈2/2⌉ = 1 per node.
		name: "RemoveDuplicates takes it as one of the pods that go",
		build: func(b *build.Builder, tmpl *build.TemplateBuilder) {
			b.AddNodes(2, build.Node())
			d := b.AddDeployment("web", b.AddTemplate(tmpl), 3)
			b.RunPod(d, 0).RunPod(d, 0).RunPod(d, 0)
			b.U.Descheduler = policy(dupProfile(false))
		},
		annotated: []string{"[2]", "[]"}, plain: []string{"[2]"},
	}, {
		// Zone a holds pods 1 (terminating), 2 and 3, zone b pod 4: the
		// plugin counts 2 against 1 either way (skew 1, balanced).
		name: "topology spread does not count it",
		build: func(b *build.Builder, tmpl *build.TemplateBuilder) {
			b.AddNodes(1, build.Node().Label("zone", "a"))
			b.AddNodes(1, build.Node().Label("zone", "b"))
			d := b.AddDeployment("web", b.AddTemplate(tmpl.Spread(1, "zone", model.DoNotSchedule)), 4)
			b.RunPod(d, 0).RunPod(d, 0).RunPod(d, 0).RunPod(d, 1)
			b.U.Descheduler = policy(tscProfile(false))
		},
		annotated: []string{"[]"}, plain: []string{"[]"},
	}, {
		// PodLifeTime for Running pods, one eviction per node: in the
		// age order where the terminating pod (Running before) comes
		// first it takes n1's one eviction, and pod 2 stays.
		name: "PodLifeTime evicts it against the node limit",
		build: func(b *build.Builder, tmpl *build.TemplateBuilder) {
			b.AddNodes(2, build.Node())
			d := b.AddDeployment("web", b.AddTemplate(tmpl), 2)
			b.RunPod(d, 0).RunPod(d, 0)
			b.U.Descheduler = &model.Descheduler{MaxPerNode: 1, Profiles: []model.DeschedulerProfile{{Name: "age",
				Deschedule: model.DescheduleConfig{Enabled: []model.DeschedulePlugin{model.PodLifeTime},
					PodLifeTime: model.PodLifeTimeArgs{States: []string{"Running"}}}}}}
		},
		annotated: []string{"[2]", "[]"}, plain: []string{"[2]"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, annotated := range []bool{true, false} {
				b := build.New()
				tmpl := build.Template("app").Requests(4, 4).Label("app", "web")
				tc.build(b, tmpl)
				for i := range b.U.Templates {
					b.U.Templates[i].DeschedulerEvict = annotated
				}
				u, s := b.MustBuild()
				s.Pods[0].Phase, s.Pods[0].WasRunning = model.Terminating, true
				s.DeschedulerPending = true
				want := tc.plain
				if annotated {
					want = tc.annotated
				}
				got := outcomeList(t, u, s)
				if !slices.Equal(got, want) {
					t.Errorf("annotated %v: branches evict %v, want %v\n%s", annotated, got, want, Explain(u, s))
				}
			}
		})
	}
}

// TestTerminatingPodFilter: the Filter on a terminating pod, as the
// plugins call it (cycle.filter) and as the lifetime plugins do
// (filterAnyPhase): refused, unless it carries the evict annotation.
func TestTerminatingPodFilter(t *testing.T) {
	for _, annotated := range []bool{true, false} {
		tc := evictorCase{owner: "rs", tmpl: func(t *model.PodTemplate) { t.DeschedulerEvict = annotated }}
		u, s := tc.build()
		s.Pods[0].Phase = model.Terminating
		c := newCycle(u, s, nil, nil)
		p := &u.Descheduler.Profiles[0]
		if got := c.filter(p, 0); got != annotated {
			t.Errorf("annotated %v: filter %v", annotated, got)
		}
		if got := c.filterAnyPhase(p, 0); got != annotated {
			t.Errorf("annotated %v: filterAnyPhase %v", annotated, got)
		}
	}
}
