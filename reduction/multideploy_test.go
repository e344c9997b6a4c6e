package reduction_test

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/scaling"
)

// twoDeployments returns a copy of c with a second deployment "b" like
// its first (same template, so spreading and duplicates see both
// deployments' pods; its own HPA), and every event that names the first
// deployment repeated for b. Every built-in case has one deployment; the
// reductions' rules for several owners (the kubelet queue's owner order,
// the pod rules, the footprints per deployment) need clusters with two.
func twoDeployments(c *model.Cluster) *model.Cluster {
	out := *c
	first := c.Deployments[0]
	b := first
	b.Name = "b"
	if first.HPA != nil {
		h := *first.HPA
		b.HPA = &h
	}
	out.Deployments = append(append([]model.DeploymentDecl(nil), c.Deployments...), b)
	out.Events = nil
	for _, e := range c.Events {
		out.Events = append(out.Events, e)
		if e.Deployment == first.Name {
			e.Deployment = b.Name
			out.Events = append(out.Events, e)
		}
	}
	out.Nodes = nil // scaling setups only
	out.Name = c.Name + "x2"
	return &out
}

// TwoDeploymentSetup builds a scaling setup of a built-in case with a
// second deployment (twoDeployments): nodes per type, replicas of each
// deployment. Exported for the package's external tests.
func TwoDeploymentSetup(t testing.TB, name string, nv bool, nodes []int, replicas [2]int) *compose.Problem {
	t.Helper()
	c, err := cases.Get(name, 3, nv)
	if err != nil {
		t.Fatal(err)
	}
	c2 := twoDeployments(c)
	u, s, err := scaling.Build(c2, scaling.Setup{Nodes: nodes, Replicas: replicas[:]})
	if err != nil {
		t.Fatal(err)
	}
	p, err := compose.NewProblemFrom(fmt.Sprintf("%s%v%v", c2.Name, nodes, replicas), u, s, c2.Intents, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// twoDeploymentProblems are small two-deployment setups of the cases whose
// behaviour differs with several owners: spreading with an HPA (c3),
// kernel panics (c4), RemoveDuplicates (c5), maintenance draining nodes
// (c6), a taint with a pinned pod (c7), soft spreading against the
// descheduler (c8).
func twoDeploymentProblems(t testing.TB) []porProblem {
	var out []porProblem
	for _, tc := range []struct {
		name  string
		nv    bool
		nodes []int
		reps  [2]int
	}{
		{"c3", true, []int{1, 1}, [2]int{1, 2}},
		{"c3", false, []int{2, 1}, [2]int{1, 1}},
		{"c4", false, []int{2}, [2]int{2, 1}},
		{"c5", false, []int{1, 1}, [2]int{2, 1}},
		{"c6", false, []int{2}, [2]int{1, 1}},
		{"c7", false, []int{1, 1}, [2]int{1, 1}},
		{"c8", false, []int{1, 2}, [2]int{2, 1}},
		{"c8", true, []int{1, 2}, [2]int{1, 2}},
	} {
		p := TwoDeploymentSetup(t, tc.name, tc.nv, tc.nodes, tc.reps)
		out = append(out, porProblem{p.Name + fmt.Sprintf("/nv=%v", tc.nv), p})
	}
	return out
}
