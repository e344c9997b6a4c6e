package kivi_test

import (
	"os"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestDeschedulerPluginFilters: a descheduler plugin lists, counts and
// evicts only the pods its own namespaces and labelSelector args admit,
// and RemoveDuplicates none whose owner's kind its excludeOwnerKinds
// names (as written: kinds are compared case-sensitively).
// Two incidents' eviction loops (RemoveDuplicates, the topology spread
// plugin) stop when the filter leaves their Deployment out, and go on when
// it names another namespace or label.
func TestDeschedulerPluginFilters(t *testing.T) {
	read := func(dir, name string) string {
		data, err := os.ReadFile("examples/incidents/" + dir + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	for _, c := range []struct {
		incident, anchor, args string
		want                   checker.Verdict
	}{
		{"removeduplicates-no-room", "", "", checker.Violated},
		{"removeduplicates-no-room", "namespaces: {exclude: [default]}", "", checker.Holds},
		{"removeduplicates-no-room", "namespaces: {include: [batch]}", "", checker.Holds},
		{"removeduplicates-no-room", "namespaces: {exclude: [batch]}", "", checker.Violated},
		{"removeduplicates-no-room", "excludeOwnerKinds: [ReplicaSet]", "", checker.Holds},
		{"removeduplicates-no-room", "excludeOwnerKinds: [StatefulSet]", "", checker.Violated},
		{"removeduplicates-no-room", "excludeOwnerKinds: [replicaset]", "", checker.Violated},
		{"spread-descheduler-full-node", "", "", checker.Violated},
		{"spread-descheduler-full-node", "", "      labelSelector: {matchLabels: {app: other}}\n", checker.Holds},
		{"spread-descheduler-full-node", "", "      labelSelector: {matchLabels: {app: nginx}}\n", checker.Violated},
		{"spread-descheduler-full-node", "", "      namespaces: {exclude: [default]}\n", checker.Holds},
	} {
		m := read(c.incident, "manifests.yaml")
		switch {
		case c.anchor != "":
			// RemoveDuplicates has no args in the incident: give it some.
			const at = "  plugins:\n    balance:\n      enabled: [RemoveDuplicates]"
			if !strings.Contains(m, at) {
				t.Fatalf("%s: no RemoveDuplicates to configure", c.incident)
			}
			m = strings.Replace(m, at, "  pluginConfig:\n  - name: RemoveDuplicates\n    args: {"+c.anchor+"}\n"+at, 1)
		case c.args != "":
			const at = "      topologyBalanceNodeFit: false\n"
			if !strings.Contains(m, at) {
				t.Fatalf("%s: no topology spread args to extend", c.incident)
			}
			m = strings.Replace(m, at, at+c.args, 1)
		}
		rep := verifyManifests(t, m, read(c.incident, "nodes.yaml"), read(c.incident, "intents.yaml"), false)
		if r := rep.Result("no_oscillation_eviction"); r == nil || r.Verdict != c.want {
			t.Errorf("%s %s%s: no_oscillation_eviction %+v, want %v", c.incident, c.anchor, strings.TrimSpace(c.args), r, c.want)
		}
	}
}
