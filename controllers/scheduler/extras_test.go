package scheduler

import (
	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// genSchedulingExtras gives a random template of genCluster the inputs
// added with InterPodAffinity and the closed fidelity classes: inter-pod
// (anti-)affinity terms, required and preferred, on the spread keys
// (hostname, zone, keys some or no node carries) with selectors on app;
// a toleration of every taint (so of the not-ready ones); non-zero
// scoring requests (a manifest's missing requests).
func genSchedulingExtras(t *rapid.T, tb *build.TemplateBuilder) {
	app := func(label string) string { return rapid.SampledFrom([]string{"x", "y"}).Draw(t, label) }
	for range rapid.IntRange(0, 3).Draw(t, "podAffinityTerms") {
		key := rapid.SampledFrom(spreadKeys).Draw(t, "podAffinityKey")
		switch rapid.IntRange(0, 3).Draw(t, "podAffinityKind") {
		case 0:
			tb.PodAffinity(key, "app", app("podAffinityApp"))
		case 1:
			tb.PodAntiAffinity(key, "app", app("podAffinityApp"))
		case 2:
			tb.PreferredPodAffinity(rapid.IntRange(1, 100).Draw(t, "podAffinityWeight"), key, "app", app("podAffinityApp"))
		default:
			tb.PreferredPodAntiAffinity(rapid.IntRange(1, 100).Draw(t, "podAffinityWeight"), key, "app", app("podAffinityApp"))
		}
	}
	if rapid.IntRange(0, 5).Draw(t, "toleratesAll") == 0 {
		tb.TolerateAll()
	}
	if rapid.IntRange(0, 3).Draw(t, "nonZero") == 0 {
		tb.NonZero(int64(rapid.IntRange(0, 10).Draw(t, "nonZeroCPU")), int64(rapid.IntRange(0, 10).Draw(t, "nonZeroMem")))
	}
	// Few ports, two addresses and every address, two protocols: pods
	// collide often, and sometimes only on one address.
	for range rapid.IntRange(0, 2).Draw(t, "hostPorts") {
		tb.HostPorts(model.HostPort{Protocol: rapid.SampledFrom([]string{"", "UDP"}).Draw(t, "protocol"),
			HostIP: rapid.SampledFrom([]string{"", "10.0.0.1", "10.0.0.2"}).Draw(t, "hostIP"),
			Port:   rapid.SampledFrom([]int32{80, 81}).Draw(t, "hostPort")})
	}
}
