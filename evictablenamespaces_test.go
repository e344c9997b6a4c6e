package kivi_test

import (
	"os"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestEvictableNamespacesExclude: the lownodeutilization-large-pod-loop
// incident (a 3 GiB pod that pushes any worker above the 70 % target,
// evicted for ever) in namespace analytics: LowNodeUtilization's
// evictableNamespaces.exclude naming that namespace stops the loop, one
// naming another namespace does not.
func TestEvictableNamespacesExclude(t *testing.T) {
	dir := "examples/incidents/lownodeutilization-large-pod-loop/"
	read := func(name string) string {
		data, err := os.ReadFile(dir + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	base := strings.Replace(read("manifests.yaml"), "metadata: {name: analytics}", "metadata: {name: analytics, namespace: analytics}", 1)
	if base == read("manifests.yaml") {
		t.Fatal("the incident's Deployment is not where the test expects it")
	}
	const args = "      targetThresholds: {memory: 70}\n"
	for _, c := range []struct {
		exclude string
		want    checker.Verdict
	}{
		{"", checker.Violated},
		{"      evictableNamespaces: {exclude: [batch]}\n", checker.Violated},
		{"      evictableNamespaces: {exclude: [analytics]}\n", checker.Holds},
	} {
		m := strings.Replace(base, args, args+c.exclude, 1)
		if c.exclude != "" && m == base {
			t.Fatal("the incident's LowNodeUtilization args are not where the test expects them")
		}
		rep := verifyManifests(t, m, read("nodes.yaml"), read("intents.yaml"), false)
		if r := rep.Result("no_oscillation_eviction"); r == nil || r.Verdict != c.want {
			t.Errorf("exclude %q: no_oscillation_eviction %+v, want %v", strings.TrimSpace(c.exclude), r, c.want)
		}
	}
}
