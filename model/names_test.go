package model

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// namedCluster has two node types (big: a1, a2; small: s1) and two
// deployments, and events that name them.
func namedCluster(events ...EventDecl) *Cluster {
	return &Cluster{
		Name:      "named",
		NodeTypes: []NodeType{{Name: "big", CPU: 4000, Memory: 4000}, {Name: "small", CPU: 2000, Memory: 2000}},
		Nodes:     []NodeGroup{{Type: "big", Count: 2, Names: []string{"a1", "a2"}}, {Type: "small", Names: []string{"s1"}}},
		Templates: []TemplateDecl{{Name: "t", CPU: 100, Memory: 100}},
		Deployments: []DeploymentDecl{
			{Name: "web", Template: "t", Replicas: 1},
			{Name: "api", Template: "t", Replicas: 1},
		},
		Events: events,
	}
}

func TestEventsByName(t *testing.T) {
	seven := 7
	c := namedCluster(
		EventDecl{Kind: "nodeFailure", Node: "a2"},
		EventDecl{Kind: "nodeFailure", Node: "3"}, // Kivi's 1-based position: s1
		EventDecl{Kind: "scaleDeployment", Deployment: "api", Replicas: &seven},
		EventDecl{Kind: "scaleDeployment"},
	)
	u, _, err := c.Build()
	if err != nil {
		t.Fatal(err)
	}
	if e := u.Events[0]; e.Node != 1 {
		t.Errorf("nodeFailure a2: node %d, want 1", e.Node)
	}
	if e := u.Events[1]; e.Node != 2 {
		t.Errorf("nodeFailure 3: node %d, want 2 (s1)", e.Node)
	}
	if e := u.Events[2]; e.Deployment != 1 || e.MaxDeployment != 2 || !e.Targeted || e.Target != 7 {
		t.Errorf("scaleDeployment api to 7: %+v", e)
	}
	if e := u.Events[3]; e.Deployment != 0 || e.MaxDeployment != 2 || e.Targeted || e.MaxDelta != defaultScaleDelta {
		t.Errorf("scaleDeployment of any: %+v", e)
	}
	// api may reach 7 replicas (plus web's 1 + 3 and api's +3 of the
	// range scale): the pod slots must hold them.
	if u.PodSlots < 7+3+1+3 {
		t.Errorf("pod slots %d, want room for api's target 7 plus the ranged scale", u.PodSlots)
	}
}

// TestEventNodesInSetups: in a scaling setup, a written node's name
// stands for the setup node of the same type and rank.
func TestEventNodesInSetups(t *testing.T) {
	c := namedCluster(EventDecl{Kind: "nodeFailure", Node: "a2"}, EventDecl{Kind: "nodeFailure", Node: "s1"})
	u, _, err := c.BuildSetup([]int{3, 2}, []int{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if u.Events[0].Node != 1 || u.Events[1].Node != 3 {
		t.Errorf("a2 → %d (want 1, the second big node), s1 → %d (want 3, the first small node)", u.Events[0].Node, u.Events[1].Node)
	}
	_, _, err = c.BuildSetup([]int{1, 1}, []int{1, 1})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `node "a2" is node 2 of type big in the written topology, and this setup has 1 node(s) of that type`) {
		t.Errorf("setup without a2: %v", err)
	}
}

func TestEventNameErrors(t *testing.T) {
	seven := 7
	for _, tc := range []struct {
		e    EventDecl
		want string
	}{
		{EventDecl{Kind: "nodeFailure", Node: "b9"}, `node "b9": no such node (accepted: a node name, a1, a2, s1, or a 1-based position 1..3)`},
		{EventDecl{Kind: "scaleDeployment", Deployment: "db"}, `deployment "db": no such deployment (accepted: web, api)`},
		{EventDecl{Kind: "scaleDeployment", Replicas: &seven, MaxDelta: 2}, "replicas and maxDelta: give one"},
		{EventDecl{Kind: "nodeFailure", Node: "a1", Replicas: &seven}, "only scaleDeployment takes a target"},
	} {
		_, _, err := namedCluster(tc.e).Build()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want %q", tc.e, err, tc.want)
		}
	}
}

// TestLookupsOnManyDeployments: names are indexed once per build, so a
// cluster of thousands of deployments builds (to the model bound) as
// quickly as a small one, and the first of equal names wins as before.
func TestLookupsOnManyDeployments(t *testing.T) {
	c := namedCluster()
	for i := range 20000 {
		c.Deployments = append(c.Deployments, DeploymentDecl{Name: "d" + itoa(i), Template: "t", Replicas: 1})
	}
	_, _, err := c.Build()
	if !errors.Is(err, ErrModelBound) {
		t.Fatalf("20 002 deployments: %v, want the model bound", err)
	}
	idx := indexNames([]string{"x", "y", "x"}, func(s string) string { return s })
	if idx.of("x") != 0 || idx.of("y") != 1 || idx.of("z") != -1 {
		t.Errorf("indexNames: %v", idx)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
