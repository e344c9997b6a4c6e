package casefile

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestCaseFilesHaveKiviAlias: a case file is written for Kivi, so its
// nodes get Kivi's `hostname` label (examples/cases/c8.yaml spreads by
// it), although the key is not part of the file format.
func TestCaseFilesHaveKiviAlias(t *testing.T) {
	c, err := Load("../../examples/cases/c8.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !c.KiviHostnameAlias {
		t.Fatal("a case file read without Kivi's hostname alias")
	}
	u, _, err := c.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range u.Nodes {
		if n.Labels[model.KiviHostnameKey] != n.Name {
			t.Errorf("node %s: labels %v, want hostname=%s", n.Name, n.Labels, n.Name)
		}
	}
	out, err := Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"kiviHostnameAlias", "KiviHostnameAlias"} {
		if strings.Contains(string(out), key) {
			t.Errorf("the alias leaked into the case-file format as %s", key)
		}
	}
}
