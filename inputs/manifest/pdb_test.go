package manifest

import (
	"os"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestPodDisruptionBudgets: policy/v1 budgets become the cluster's
// declarations as written; a budget that selects nothing, has neither
// minAvailable nor maxUnavailable, or has no selector is a warning; a
// budget selects the pods of its own namespace only, so one whose labels
// match a Deployment of another namespace selects nothing.
func TestPodDisruptionBudgets(t *testing.T) {
	data, err := os.ReadFile("testdata/fuzz/manifests/pdb.yaml")
	if err != nil {
		t.Fatal(err)
	}
	objs, warns, err := Decode("pdb.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		warns = append(warns, classify(o)...)
	}
	decls, err := pdbDecls(objs, &warns)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range decls {
		names = append(names, d.Name)
	}
	if got := strings.Join(names, " "); got != "web front cache neither noselector other/web" {
		t.Errorf("names: %s", got)
	}
	if d := decls[0]; d.MinAvailable != "2" || d.MaxUnavailable != "" || d.Selector.MatchLabels["app"] != "web" {
		t.Errorf("web: %+v", d)
	}
	if d := decls[1]; d.MaxUnavailable != "34%" || d.UnhealthyPodEvictionPolicy != "AlwaysAllow" ||
		len(d.Selector.MatchExpressions) != 1 || d.Selector.MatchExpressions[0].Operator != model.OpIn {
		t.Errorf("front: %+v", d)
	}
	if decls[4].Selector != nil {
		t.Errorf("noselector: %+v", decls[4])
	}
	if decls[0].Namespace != "default" || decls[5].Namespace != "other" {
		t.Errorf("namespaces: %q and %q, want default and other", decls[0].Namespace, decls[5].Namespace)
	}
	all := warningText(warns)
	for _, want := range []string{
		"document 4: spec.selector: selects no pod of a Deployment in namespace default",
		"document 5: spec: neither minAvailable nor maxUnavailable",
		"document 6: spec.selector: missing",
		"document 7: spec.selector: selects no pod of a Deployment in namespace other",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning %q in:\n%s", want, all)
		}
	}
	if strings.Contains(all, "status") || strings.Contains(all, "document 2:") {
		t.Errorf("the status or the first budget warned:\n%s", all)
	}
}
