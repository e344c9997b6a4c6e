package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestHostnameAliasOnlyForKiviInputs: nodes read from Kubernetes manifests
// carry kubernetes.io/hostname and not Kivi's `hostname` alias, as real
// nodes do, so a spread constraint on `hostname` names a label of no node
// (a warning: kube-scheduler then fails every node for it);
// Kivi's configuration and log directories keep the alias (Kivi's C3
// spreads by `hostname`).
func TestHostnameAliasOnlyForKiviInputs(t *testing.T) {
	nodes, err := os.ReadFile(filepath.Join("testdata", "c3", "nodes.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	app, err := os.ReadFile(filepath.Join("testdata", "c3", "app.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	load := func(app []byte) (*Result, error) {
		return LoadStream([]File{{Name: "app.yaml", Data: app}}, &File{Name: "nodes.yaml", Data: nodes}, nil, Options{})
	}
	r, err := load(app)
	if err != nil {
		t.Fatal(err)
	}
	if r.Cluster.KiviHostnameAlias {
		t.Error("a manifest stream turned the hostname alias on")
	}
	u, _, err := r.Cluster.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range u.Nodes {
		if _, ok := n.Labels[model.KiviHostnameKey]; ok || n.Labels[model.HostnameKey] == "" {
			t.Errorf("node %s from manifests: labels %v, want kubernetes.io/hostname and no %q", n.Name, n.Labels, model.KiviHostnameKey)
		}
	}
	aliased := strings.ReplaceAll(string(app), "topologyKey: kubernetes.io/hostname", "topologyKey: hostname")
	if aliased == string(app) {
		t.Fatal("testdata/c3/app.yaml no longer spreads by kubernetes.io/hostname")
	}
	ar, err := load([]byte(aliased))
	if err != nil {
		t.Fatal(err)
	}
	if w := warningText(ar.Warnings); !strings.Contains(w, `"hostname" is a label of no node`) {
		t.Errorf("a manifest spreading by Kivi's alias: warnings %q, want \"hostname\" is a label of no node", w)
	}

	needExamples(t)
	for _, tc := range []struct {
		dir  string
		load func(string) (*Result, error)
	}{
		{"c3/configs", func(d string) (*Result, error) { return LoadKiviDir(os.DirFS(examplesDir), d, Options{}) }},
		{"c3/logs", func(d string) (*Result, error) { return LoadLogs(os.DirFS(examplesDir), d, Options{}) }},
	} {
		r, err := tc.load(tc.dir)
		if err != nil {
			t.Fatalf("%s: %v", tc.dir, err)
		}
		u, _, err := r.Cluster.Build()
		if err != nil {
			t.Fatalf("%s: %v", tc.dir, err)
		}
		for _, n := range u.Nodes {
			if n.Labels[model.KiviHostnameKey] != n.Labels[model.HostnameKey] {
				t.Errorf("%s: node %s: labels %v, want Kivi's alias", tc.dir, n.Name, n.Labels)
			}
		}
	}
}
