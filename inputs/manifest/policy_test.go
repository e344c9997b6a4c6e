package manifest

import (
	"os"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestDeschedulerPolicy: profiles, plugin args and limits of
// descheduler/v1alpha2 (pkg/api/v1alpha2/types.go); unmodelled plugins and
// args are warnings.
func TestDeschedulerPolicy(t *testing.T) {
	data, err := os.ReadFile("testdata/fuzz/manifests/policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	objs, _, err := Decode("policy.yaml", data)
	if err != nil || len(objs) != 1 {
		t.Fatal(objs, err)
	}
	var warns []Warning
	ds, err := deschedulerDecl(objs[0], &warns)
	if err != nil {
		t.Fatal(err)
	}
	want := model.DeschedulerProfile{Name: "p", Balance: []model.BalancePlugin{model.RemoveDuplicates, model.RemovePodsViolatingTopologySpreadConstraint},
		Constraints: model.AllConstraints, TopologyBalanceNodeFit: false, EvictSystemCriticalPods: true, NodeFit: true}
	got := ds.Profiles[0]
	if ds.MaxPerNode != 5 || got.Name != want.Name || len(got.Balance) != 2 || got.Constraints != want.Constraints ||
		got.TopologyBalanceNodeFit || !got.EvictSystemCriticalPods || !got.NodeFit {
		t.Errorf("got %+v, %+v", ds, got)
	}
	var text []string
	for _, w := range warns {
		text = append(text, w.String())
	}
	all := strings.Join(text, "\n")
	if !strings.Contains(all, "LowNodeUtilization is not modelled") || !strings.Contains(all, "args.priorityThreshold") {
		t.Errorf("warnings:\n%s", all)
	}
}
