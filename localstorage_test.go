package kivi_test

import (
	"os"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestDeschedulerProtectsLocalStorage: the descheduler's DefaultEvictor
// does not evict a pod with an emptyDir or hostPath volume unless its
// evictLocalStoragePods is set (descheduler v0.36,
// PodsWithLocalStorage), nor, with ignorePvcPods, a pod with a
// PersistentVolumeClaim (PodsWithPVC). RemoveDuplicates' eviction loop of
// the incident removeduplicates-no-room is there with no volume or a
// ConfigMap volume, with evictLocalStoragePods and with a claim alone,
// and gone with an emptyDir, a hostPath, or a claim under ignorePvcPods.
func TestDeschedulerProtectsLocalStorage(t *testing.T) {
	read := func(name string) string {
		data, err := os.ReadFile("examples/incidents/removeduplicates-no-room/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	manifests, nodes, intents := read("manifests.yaml"), read("nodes.yaml"), read("intents.yaml")
	const containers = "      containers:\n"
	if !strings.Contains(manifests, containers) || !strings.Contains(manifests, "  plugins:\n") {
		t.Fatal("the incident's manifests changed")
	}
	for _, c := range []struct {
		volumes, args string
		want          checker.Verdict
	}{
		{"", "", checker.Violated},
		{"      volumes: [{name: cfg, configMap: {name: api}}]\n", "", checker.Violated},
		{"      volumes: [{name: tmp, emptyDir: {}}]\n", "", checker.Holds},
		{"      volumes: [{name: sock, hostPath: {path: /run/sock}}]\n", "", checker.Holds},
		{"      volumes: [{name: tmp, emptyDir: {medium: Memory}}]\n", "  pluginConfig: [{name: DefaultEvictor, args: {evictLocalStoragePods: true}}]\n", checker.Violated},
		{"      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]\n", "", checker.Violated},
		{"      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]\n", "  pluginConfig: [{name: DefaultEvictor, args: {ignorePvcPods: true}}]\n", checker.Holds},
		{"      volumes: [{name: cfg, configMap: {name: api}}]\n", "  pluginConfig: [{name: DefaultEvictor, args: {ignorePvcPods: true}}]\n", checker.Violated},
	} {
		m := strings.Replace(manifests, containers, c.volumes+containers, 1)
		m = strings.Replace(m, "  plugins:\n", c.args+"  plugins:\n", 1)
		rep := verifyManifests(t, m, nodes, intents, false)
		if r := rep.Result("no_oscillation_eviction"); r == nil || r.Verdict != c.want {
			t.Errorf("volumes %q, args %q: no_oscillation_eviction %+v, want %v", c.volumes, c.args, r, c.want)
		}
	}
}
