package model_test

import (
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestKiviHostnameAlias: Compile gives every node Kivi's `hostname` label
// (its kubernetes.io/hostname value) only with Options.KiviHostnameAlias,
// which Cluster.KiviHostnameAlias sets; a node's own `hostname` label is
// kept either way, and kubernetes.io/hostname is always there. A Go-built
// universe (the zero Options) is a real cluster: no alias.
func TestKiviHostnameAlias(t *testing.T) {
	cluster := func(alias bool) *model.Cluster {
		return &model.Cluster{
			NodeTypes: []model.NodeType{
				{Name: "plain", CPU: 8, Memory: 8},
				{Name: "own", CPU: 8, Memory: 8, Labels: map[string]string{model.KiviHostnameKey: "rack-b"}},
			},
			Nodes:             []model.NodeGroup{{Type: "plain", Names: []string{"n1"}}, {Type: "own", Names: []string{"n2"}}},
			KiviHostnameAlias: alias,
		}
	}
	for _, alias := range []bool{false, true} {
		u, _, err := cluster(alias).Build()
		if err != nil {
			t.Fatal(err)
		}
		if u.Options.KiviHostnameAlias != alias {
			t.Errorf("alias %v: universe option %v", alias, u.Options.KiviHostnameAlias)
		}
		n1, n2 := u.Nodes[0].Labels, u.Nodes[1].Labels
		if got, ok := n1[model.KiviHostnameKey]; ok != alias || alias && got != "n1" {
			t.Errorf("alias %v: n1 labels %v", alias, n1)
		}
		if n1[model.HostnameKey] != "n1" || n2[model.HostnameKey] != "n2" {
			t.Errorf("alias %v: kubernetes.io/hostname missing: %v %v", alias, n1, n2)
		}
		if n2[model.KiviHostnameKey] != "rack-b" {
			t.Errorf("alias %v: n2's own hostname label lost: %v", alias, n2)
		}
	}
	u := &model.Universe{Nodes: []model.Node{{Name: "n1", CPU: 8, Memory: 8}}}
	if err := u.Compile(); err != nil {
		t.Fatal(err)
	}
	if _, ok := u.Nodes[0].Labels[model.KiviHostnameKey]; ok {
		t.Errorf("a universe built in Go got the alias: %v", u.Nodes[0].Labels)
	}
}
