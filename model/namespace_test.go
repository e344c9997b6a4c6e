package model_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestNamespacesScopeMatches: a spread constraint matches the templates
// of its own namespace only, a budget those of its namespace, an
// inter-pod affinity term those of its own namespace unless it names
// others (namespaces, namespaceSelector over the Namespace objects'
// labels and every namespace's name label); templates without a
// namespace all share "".
func TestNamespacesScopeMatches(t *testing.T) {
	web := map[string]string{"app": "web"}
	sel := &model.Selector{MatchLabels: web}
	term := func(namespaces []string, nsSel *model.Selector) *model.PodAffinityDecl {
		return &model.PodAffinityDecl{Required: []model.PodAffinityTermDecl{{LabelSelector: sel, TopologyKey: model.HostnameKey, Namespaces: namespaces, NamespaceSelector: nsSel}}}
	}
	c := &model.Cluster{
		NodeTypes:  []model.NodeType{{Name: "n", CPU: 8, Memory: 8}},
		Nodes:      []model.NodeGroup{{Type: "n", Count: 1}},
		Namespaces: []model.NamespaceDecl{{Name: "blue", Labels: map[string]string{"team": "shop"}}},
		Templates: []model.TemplateDecl{
			{Name: "blue", Namespace: "blue", Labels: web, Spread: []model.SpreadDecl{{MaxSkew: 1, TopologyKey: model.HostnameKey, LabelSelector: sel}},
				PodAntiAffinity: term(nil, nil)},
			{Name: "green", Namespace: "green", Labels: web, PodAntiAffinity: term([]string{"blue"}, nil)},
			{Name: "red", Namespace: "red", Labels: web, PodAntiAffinity: term(nil, &model.Selector{MatchLabels: map[string]string{"team": "shop"}})},
			{Name: "any", Namespace: "red", Labels: web, PodAntiAffinity: term(nil, &model.Selector{})},
			{Name: "byname", Namespace: "red", Labels: web, PodAntiAffinity: term([]string{"green"}, &model.Selector{MatchExpressions: []model.Requirement{{Key: model.NamespaceNameLabel, Operator: model.OpIn, Values: []string{"red"}}}})},
		},
		Deployments:          []model.DeploymentDecl{{Name: "d", Template: "blue", Replicas: 1}},
		PodDisruptionBudgets: []model.PodDisruptionBudgetDecl{{Name: "b", Namespace: "green", Selector: sel, MinAvailable: "1"}},
	}
	u, _, err := c.Build()
	if err != nil {
		t.Fatal(err)
	}
	show := func(m []bool) string {
		var out []string
		for i, ok := range m {
			if ok {
				out = append(out, u.Templates[i].Name)
			}
		}
		return strings.Join(out, " ")
	}
	for _, x := range []struct{ what, got, want string }{
		{"blue's spread constraint", show(u.Templates[0].Spread[0].MatchesTemplate), "blue"},
		{"blue's term (own namespace)", show(u.Templates[0].PodAntiAffinity[0].MatchesTemplate), "blue"},
		{"green's term (namespaces: blue)", show(u.Templates[1].PodAntiAffinity[0].MatchesTemplate), "blue"},
		{"red's term (team=shop)", show(u.Templates[2].PodAntiAffinity[0].MatchesTemplate), "blue"},
		{"any's term (every namespace)", show(u.Templates[3].PodAntiAffinity[0].MatchesTemplate), "blue green red any byname"},
		{"byname's term (green, and red by name)", show(u.Templates[4].PodAntiAffinity[0].MatchesTemplate), "green red any byname"},
		{"green's budget", show(u.PDBs[0].MatchesTemplate), "green"},
	} {
		if x.got != x.want {
			t.Errorf("%s matches %q, want %q", x.what, x.got, x.want)
		}
	}
}
