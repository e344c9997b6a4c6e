package descheduler

import (
	"errors"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestInvalidNodeAffinityTypeUpstream is the row "Invalid Affinity type,
// should not evict any pods" of sigs.k8s.io/descheduler@v0.36.0,
// pkg/framework/plugins/removepodsviolatingnodeaffinity/node_affinity_test.go,
// TestRemovePodsViolatingNodeAffinity: a nodeAffinityType other than the
// two IgnoredDuringExecution ones evicts nothing upstream, which its
// validation rejects (validation_test.go); the model rejects it when the
// universe is built, so no cycle runs. The other rows of that table are
// in deschedule_test.go (TestRemovePodsViolatingNodeAffinityUpstream) and,
// for the limits of 0, evictions_test.go.
func TestInvalidNodeAffinityTypeUpstream(t *testing.T) {
	b := build.New()
	b.AddNodes(1, upstreamNode("nodeWithoutLabels"))
	b.AddNodes(1, upstreamNode("nodeWithLabels").Label("kubernetes.io/desiredNode", "yes"))
	d := b.AddDeployment("p", b.AddTemplate(build.Template("p").Requests(100, 0)), 1)
	b.RunPod(d, 0)
	b.U.Descheduler = policy(affinityProfile(false, model.NodeAffinityType(9)))
	if _, _, err := b.Build(0); !errors.Is(err, model.ErrInvalid) {
		t.Fatalf("nodeAffinityType 9: err %v, want model.ErrInvalid", err)
	}
}

// TestNodeAffinityInformerLag: with both nodeAffinityType values, the
// required pass lists pods again, and upstream's informer may not have
// seen the preferred pass's deletions. Pod 1 breaks its preferred and
// its required affinity, pod 2 its required one; n3 takes both. The
// preferred pass evicts pod 1. Under a total limit of 2, a required pass
// that lists pod 1 as it was and visits n1 first evicts it again (the
// Eviction API answers success for a pod being deleted, and the limit
// counts it), so pod 2 stays; one that sees pod 1 terminating evicts
// pod 2. Without a limit the second eviction changes nothing, and the
// cycle does not branch on it.
func TestNodeAffinityInformerLag(t *testing.T) {
	const key, val = "disktype", "ssd"
	req, pref := model.RequiredDuringSchedulingIgnoredDuringExecution, model.PreferredDuringSchedulingIgnoredDuringExecution
	for _, tc := range []struct {
		total int
		want  []string
	}{
		{total: 2, want: []string{"[1 2]", "[1]"}},
		{total: 0, want: []string{"[1 2]"}},
	} {
		b := build.New()
		b.AddNodes(2, upstreamNode("plain"))
		b.AddNodes(1, upstreamNode("ssd").Label(key, val))
		both := b.AddDeployment("both", b.AddTemplate(build.Template("both").Requests(100, 0).Required(key, val).Preferred(10, key, val)), 1)
		required := b.AddDeployment("required", b.AddTemplate(build.Template("required").Requests(100, 0).Required(key, val)), 1)
		b.RunPod(both, 0).RunPod(required, 1)
		b.U.Descheduler = policy(affinityProfile(false, pref, req))
		b.U.Descheduler.MaxTotal = tc.total
		u, s := b.MustBuild()
		s.DeschedulerPending = true
		got := outcomeList(t, u, s)
		if !slices.Equal(got, tc.want) {
			t.Errorf("total limit %d: branches evict %v, want %v\n%s", tc.total, got, tc.want, Explain(u, s))
		}
	}
}
