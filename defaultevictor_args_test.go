package kivi_test

import (
	"os"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestDefaultEvictorConstraints: the DefaultEvictor's labelSelector,
// namespaceLabelSelector, minReplicas, minPodAge, the PodsWithoutPDB
// protection and the descheduler's pod annotations decide whether the
// incident descheduler-evicts-all-replicas happens (RemoveDuplicates
// evicting two of web's three replicas at once): it does when they admit
// web's pods, and not when they refuse them.
func TestDefaultEvictorConstraints(t *testing.T) {
	read := func(name string) string {
		data, err := os.ReadFile("examples/incidents/descheduler-evicts-all-replicas/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	manifests, nodes, intents := read("manifests.yaml"), read("nodes.yaml"), read("intents.yaml")
	const plugins, labels = "  plugins:\n", "    metadata: {labels: {app: web}}\n"
	if !strings.Contains(manifests, plugins) || !strings.Contains(manifests, labels) {
		t.Fatal("the incident's manifests changed")
	}
	const namespace = "apiVersion: v1\nkind: Namespace\nmetadata: {name: default, labels: {env: prod}}\n---\n"
	for _, c := range []struct {
		name, args, annotations, extra string
		want                           checker.Verdict
	}{
		{name: "no args", want: checker.Violated},
		{name: "labelSelector selecting web", args: `{labelSelector: {matchLabels: {app: web}}}`, want: checker.Violated},
		{name: "labelSelector selecting another app", args: `{labelSelector: {matchLabels: {app: api}}}`, want: checker.Holds},
		{name: "namespaceLabelSelector of web's namespace", args: `{namespaceLabelSelector: {matchLabels: {env: prod}}}`, extra: namespace, want: checker.Violated},
		{name: "namespaceLabelSelector of another", args: `{namespaceLabelSelector: {matchLabels: {env: test}}}`, extra: namespace, want: checker.Holds},
		{name: "minReplicas 3", args: `{minReplicas: 3}`, want: checker.Violated},
		{name: "minReplicas 4", args: `{minReplicas: 4}`, want: checker.Holds},
		{name: "minPodAge", args: `{minPodAge: 10m}`, want: checker.Violated},
		{name: "ignorePodsWithoutPDB", args: `{ignorePodsWithoutPDB: true}`, want: checker.Holds},
		{name: "PodsWithoutPDB", args: `{podProtections: {extraEnabled: [PodsWithoutPDB]}}`, want: checker.Holds},
		{name: "prefer-no-eviction, Preferred", args: `{noEvictionPolicy: Preferred}`, annotations: `{descheduler.alpha.kubernetes.io/prefer-no-eviction: ""}`, want: checker.Violated},
		{name: "prefer-no-eviction, Mandatory", args: `{noEvictionPolicy: Mandatory}`, annotations: `{descheduler.alpha.kubernetes.io/prefer-no-eviction: ""}`, want: checker.Holds},
		{name: "evict annotation under ignorePodsWithoutPDB", args: `{ignorePodsWithoutPDB: true}`, annotations: `{descheduler.alpha.kubernetes.io/evict: "true"}`, want: checker.Violated},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := manifests
			if c.args != "" {
				m = strings.Replace(m, plugins, "  pluginConfig: [{name: DefaultEvictor, args: "+c.args+"}]\n"+plugins, 1)
			}
			if c.annotations != "" {
				m = strings.Replace(m, labels, "    metadata: {labels: {app: web}, annotations: "+c.annotations+"}\n", 1)
			}
			rep := verifyManifests(t, c.extra+m, nodes, intents, false)
			if r := rep.Result("replica_num_always_meet_exp"); r == nil || r.Verdict != c.want {
				t.Errorf("replica_num_always_meet_exp %+v, want %v", r, c.want)
			}
		})
	}
}
