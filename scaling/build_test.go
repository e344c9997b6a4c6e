package scaling

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/model"
)

// handC3 is Kivi's case definitions C3 scaling template written by hand: zone-1 and
// zone-2 node types 0..3, one HPA deployment (factor 2) 0..24, ≤ 7 pods
// per node, the CPU-change event kept.
func handC3() *model.Cluster {
	// Kivi's C3, with Kivi's lifecycle: the pod slots are Kivi's scaling search.
	return &model.Cluster{Name: "hand-c3", KiviLifecycle: true,
		NodeTypes: []model.NodeType{
			{Name: "zone-1", CPU: 64, Memory: 64, Labels: map[string]string{"zone": "1"}, Max: 3},
			{Name: "zone-2", CPU: 64, Memory: 64, Labels: map[string]string{"zone": "2"}, Max: 3},
		},
		Templates: []model.TemplateDecl{{Name: "app", Labels: map[string]string{"name": "app"}, CPU: 8, Memory: 8}},
		Deployments: []model.DeploymentDecl{{Name: "web", Template: "app", Replicas: 5,
			HPA:         &model.HPADecl{Min: 5, Max: 6, Factor: 2, Metrics: []model.MetricDecl{{Resource: "cpu", Target: 91}}},
			MaxReplicas: 24, MaxPodsPerNode: 7}},
		Events: []model.EventDecl{{Kind: "eventCpuChange", When: "afterStable", Deployment: "web"}},
	}
}

// TestBuild checks materialisation against Kivi's scaling search: nodes of each
// type in order, the deployment not created with replicas = the setup's
// count, a first-slot createTargetDeployment after the cluster's events,
// HPA min k, max min(2k, 7N), and pod slots max(k, HPA max).
func TestBuild(t *testing.T) {
	c := handC3()
	for _, tc := range []struct {
		setup                   Setup
		hpaMin, hpaMax, podSlot int
	}{
		{Setup{Nodes: []int{1, 2}, Replicas: []int{3}}, 3, 6, 6},     // C3's failing setup: HPA 3..6, 6 slots
		{Setup{Nodes: []int{1, 0}, Replicas: []int{4}}, 4, 7, 7},     // 2k = 8 capped at 7·1
		{Setup{Nodes: []int{0, 2}, Replicas: []int{12}}, 12, 14, 14}, // 24 capped at 14
	} {
		u, s, err := Build(c, tc.setup)
		if err != nil {
			t.Fatalf("%s: %v", tc.setup, err)
		}
		var types []string
		for _, n := range u.Nodes {
			types = append(types, fmt.Sprintf("%d:%s", n.Type, n.Labels["zone"]))
		}
		wantTypes := strings.TrimSpace(strings.Repeat("0:1 ", tc.setup.Nodes[0]) + strings.Repeat("1:2 ", tc.setup.Nodes[1]))
		if got := strings.Join(types, " "); got != wantTypes {
			t.Errorf("%s: nodes %s, want %s", tc.setup, got, wantTypes)
		}
		if h := u.HPAs[0]; h.Min != tc.hpaMin || h.Max != tc.hpaMax {
			t.Errorf("%s: HPA %d..%d, want %d..%d", tc.setup, h.Min, h.Max, tc.hpaMin, tc.hpaMax)
		}
		if u.PodSlots != tc.podSlot {
			t.Errorf("%s: %d pod slots, want %d", tc.setup, u.PodSlots, tc.podSlot)
		}
		if d := s.Deps[0]; d.Active || int(d.Replicas) != tc.setup.Replicas[0] {
			t.Errorf("%s: deployment active %v replicas %d", tc.setup, d.Active, d.Replicas)
		}
		if len(u.Events) != 2 || u.Events[0].Kind != model.CPUChange || u.Events[1].Kind != model.CreateTargetDeployment || u.Events[1].Slot != model.First {
			t.Errorf("%s: events %+v", tc.setup, u.Events)
		}
	}
	if c.Deployments[0].Created != nil || len(c.Events) != 1 || c.Deployments[0].HPA.Factor != 2 {
		t.Error("Build modified the cluster")
	}
	if _, _, err := Build(c, Setup{Nodes: []int{1}, Replicas: []int{1}}); err == nil {
		t.Error("a setup of the wrong shape was accepted")
	}
}

// TestBuiltinCases: the built-in cases' bounds (inputs/cases) reproduce
// Kivi's number of verified setups up to the first failure (Kivi's scaling search:
// C1 3, C2 2, C3 58, C4 5, C5 2, C6 2, C7 2, C8 70) at the default scale.
func TestBuiltinCases(t *testing.T) {
	for _, tc := range []struct {
		name     string
		failing  string
		position int
	}{
		{"c1", "{node type 0: 1, deployment type 0: 3}", 3},
		{"c2", "{node type 0: 1, deployment type 0: 2}", 2},
		{"c3", "{node type 0: 1, node type 1: 2, deployment type 0: 3}", 58},
		{"c4", "{node type 0: 2, deployment type 0: 5}", 5},
		{"c5", "{node type 0: 1, node type 1: 1, deployment type 0: 2}", 2},
		{"c6", "{node type 0: 2, deployment type 0: 2}", 2},
		{"c7", "{node type 0: 1, node type 1: 0, deployment type 0: 1}", 2},
		{"c8", "{node type 0: 1, node type 1: 2, deployment type 0: 6}", 70},
	} {
		c, err := cases.Get(tc.name, cases.DefaultScale, false)
		if err != nil {
			t.Fatal(err)
		}
		setups, err := Setups(c, EnumerateOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := indexOf(setups, tc.failing) + 1; got != tc.position {
			t.Errorf("%s: %s is setup %d of %d, Kivi verified %d", tc.name, tc.failing, got, len(setups), tc.position)
		}
		if _, _, err := Build(c, setups[tc.position-1]); err != nil {
			t.Errorf("%s: build %s: %v", tc.name, tc.failing, err)
		}
	}
}
