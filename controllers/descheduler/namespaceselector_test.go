package descheduler

import (
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestAntiAffinityTermNamespacesAsDeschedulerReadsThem: the descheduler
// reads an anti-affinity term's namespaces as the term's `namespaces`,
// else the pod's own, and never reads namespaceSelector
// (GetNamespacesFromPodAffinityTerm in v0.36), both in
// RemovePodsViolatingInterPodAntiAffinity and in NodeFit. The web pod
// (namespace default) and a tier=a pod of namespace team-b share node a;
// web's term over the hostname selects tier=a.
func TestAntiAffinityTermNamespacesAsDeschedulerReadsThem(t *testing.T) {
	everyNamespace := func(k *model.PodAffinityTerm) { k.NamespaceSelector = &model.Selector{} }
	named := func(k *model.PodAffinityTerm) { k.Namespaces = []string{"team-b"} }
	cases := []struct {
		name    string
		term    func(*model.PodAffinityTerm)
		profile model.DeschedulerProfile
		taint   bool
		want    []int
	}{
		// namespaceSelector {} is not read: web conflicts with no pod.
		{"anti-affinity plugin, namespaceSelector {}", everyNamespace, antiProfile(false), false, nil},
		// namespaces [team-b] is: web conflicts with team-b's pod.
		{"anti-affinity plugin, namespaces [team-b]", named, antiProfile(false), false, []int{1}},
		// web does not tolerate a's taint; NodeFit finds b free of
		// conflicts when namespaceSelector {} is not read.
		{"NodeFit, namespaceSelector {}", everyNamespace, taintsProfile(true, model.NodeTaintsArgs{}), true, []int{1}},
		{"NodeFit, namespaces [team-b]", named, taintsProfile(true, model.NodeTaintsArgs{}), true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := build.New()
			a := build.Node().Name("a")
			if c.taint {
				a.Taint("dedicated", "infra", model.NoSchedule)
			}
			b.AddNodes(1, a)
			b.AddNodes(1, build.Node().Name("b"))
			web := b.AddTemplate(build.Template("web").Requests(4, 4).Label("app", "web").Label("tier", "a").PodAntiAffinity(model.HostnameKey, "tier", "a"))
			c.term(&b.U.Templates[web].PodAntiAffinity[0])
			db := b.AddTemplate(build.Template("db").Namespace("team-b").Requests(4, 4).Label("app", "db").Label("tier", "a").
				Toleration("dedicated", "infra", model.NoSchedule))
			b.RunPod(b.AddDeployment("web", web, 1), 0)
			d := b.AddDeployment("db", db, 2)
			b.U.Deployments[d].Namespace = "team-b"
			b.RunPod(d, 0).RunPod(d, 1)
			b.U.Descheduler = policy(c.profile)
			u, s := b.MustBuild()
			s.DeschedulerPending = true
			next, lines, _ := runCycle(t, u, s)
			if got := evictedBy(s, next); !slices.Equal(got, c.want) {
				t.Errorf("evicted %v, want %v\n%v", got, c.want, lines)
			}
		})
	}
}
