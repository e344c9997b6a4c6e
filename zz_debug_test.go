package kivi_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/model"
)

func TestZZRepr(t *testing.T) {
	c := &model.Cluster{Name: "random",
		NodeTypes: []model.NodeType{
			{Name: "a", CPU: 2, Memory: 64, Labels: map[string]string{"zone": "a"}},
			{Name: "b", CPU: 2, Memory: 64, Labels: map[string]string{"zone": "b"}},
		},
		Nodes:       []model.NodeGroup{{Type: "a", Count: 1}, {Type: "b", Count: 1}},
		Templates:   []model.TemplateDecl{{Name: "app", Labels: map[string]string{"app": "x"}, CPU: 1, Memory: 1}},
		Deployments: []model.DeploymentDecl{{Name: "app", Template: "app", Replicas: 1, Created: &notCreated}},
		Events:      []model.EventDecl{{Kind: "createTargetDeployment", When: "first", Deployment: "app"}},
	}
	c.Deployments[0].HPA = &model.HPADecl{Min: 1, Max: 2, Metrics: []model.MetricDecl{{Resource: "cpu", Target: 50}}}
	c.Events = append(c.Events, model.EventDecl{Kind: "eventCpuChange", Deployment: "app", MaxDelta: 1, When: "afterStable"})
	c.Events = append(c.Events, model.EventDecl{Kind: "scaleDeployment", MaxDelta: 1, When: "afterStable"})
	c.Events = append(c.Events, model.EventDecl{Kind: "maintenance", When: "afterStable"})
	u, s, err := c.Build()
	if err != nil {
		t.Fatal(err)
	}
	p, err := compose.NewProblemFrom(c.Name, u, s, c.Intents, compose.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sys := p.System
	cn := sys.Symmetry
	key := func(s *model.State) string { return string(cn.AppendCanonical(nil, s)) }
	keys := func(s *model.State) []string {
		var out []string
		sys.Next(s, func(_ checker.Step, x *model.State) { out = append(out, key(x)) })
		slices.Sort(out)
		return slices.Compact(out)
	}
	seen := map[string]bool{}
	var queue []*model.State
	sys.Initial(func(s *model.State) { seen[key(s)] = true; queue = append(queue, s.Clone()) })
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if a, b := keys(s), keys(cn.Canonical(s)); !slices.Equal(a, b) {
			fmt.Printf("state:\n%s\ncanonical:\n%s\n", model.Describe(u, s), model.Describe(u, cn.Canonical(s)))
			for _, x := range []*model.State{s, cn.Canonical(s)} {
				sys.Next(x, func(st checker.Step, y *model.State) {
					_, lines, _ := sys.Replay(x, st)
					fmt.Println(sys.ActorName(st), lines, "\n", model.Describe(u, cn.Canonical(y)))
				})
				fmt.Println("=========")
			}
			return
		}
		sys.Next(s, func(_ checker.Step, x *model.State) {
			if k := key(x); !seen[k] {
				seen[k] = true
				queue = append(queue, x.Clone())
			}
		})
	}
	fmt.Println("all", len(seen))
}
