package manifest

import (
	"io/fs"
	"os"
	"testing"

	"github.com/kivi-go/kivi/inputs/casefile"
)

// examplesDir is Kivi's example directory next to the repository
// (../shared/kivi-examples from the repository root).
const examplesDir = "../../../shared/kivi-examples"

func needExamples(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(examplesDir); err != nil {
		t.Skipf("Kivi's examples are not here (%s): %v", examplesDir, err)
	}
}

// TestKiviDirsC3 reads Kivi's C3 example both ways (its config directory
// and its log directory) and checks what the clusters hold: three nodes,
// the one deployment with its HPA, and pod_always_schedulable, and that
// each marshals to a case file that parses back.
func TestKiviDirsC3(t *testing.T) {
	needExamples(t)
	for _, tc := range []struct {
		dir, deployment string
		load            func(fsys fs.FS, dir string, opts Options) (*Result, error)
	}{
		{"c3/configs", "php-apache", LoadKiviDir},
		{"c3/logs", "h1-app", LoadLogs},
	} {
		r, err := tc.load(os.DirFS(examplesDir), tc.dir, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.dir, err)
		}
		for _, w := range r.Warnings {
			t.Logf("%s: %s", tc.dir, w)
		}
		c := r.Cluster
		nodes := 0
		for _, g := range c.Nodes {
			nodes += max(g.Count, 1)
		}
		if nodes != 3 || len(c.Deployments) != 1 || c.Deployments[0].Name != tc.deployment || c.Deployments[0].HPA == nil {
			t.Errorf("%s: %d nodes, deployments %+v", tc.dir, nodes, c.Deployments)
		}
		if len(c.Intents) == 0 || c.Intents[0].Name != "pod_always_schedulable" {
			t.Errorf("%s: intents %+v", tc.dir, c.Intents)
		}
		out, err := casefile.Marshal(c)
		if err != nil {
			t.Fatalf("%s: %v", tc.dir, err)
		}
		if _, err := casefile.Parse(tc.dir+".yaml", out); err != nil {
			t.Errorf("%s: the marshalled case does not parse: %v\n%s", tc.dir, err, out)
		}
	}
}
