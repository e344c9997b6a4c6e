package cases

import "github.com/kivi-go/kivi/model"

func c6Info() Info {
	return Info{ID: "c6", KiviID: "s6", Title: "rolling node maintenance drains a deployment", Expect: "replica_num_always_meet_exp",
		Scenario: []string{
			"Nodes are maintained one at a time once the cluster is stable; a drained node's pod is",
			"rescheduled onto the node drained next, so the deployment loses more than one replica.",
		},
		NoViolation: "expReplicas 0, which can never be undercut",
		generate:    c6}
}

// c6 is Kivi's case definitions "C6 (s6)": N = s nodes each running one pod, soft
// spreading by hostname, maintenance of one node at a time after the
// cluster is stable, and "at least spec−1 replicas" as the intent. Kivi
// crashes on this case as shipped (maintenance's {p: 1} parameter); this
// is the intended configuration, maintenance(1) after stable.
func c6(s int, noViolation bool) *model.Cluster {
	n := s
	slots := n + 5
	d := kiviDeploymentName(n, slots)
	c := &model.Cluster{PodSlots: slots}
	addNodes(c, node64("node", 2, s), n, running(d, 1))
	c.Templates = []model.TemplateDecl{{Name: appTemplateName, Labels: appLabels(), CPU: 8, Memory: 8,
		Spread: []model.SpreadDecl{{MaxSkew: 1, TopologyKey: "hostname", WhenUnsatisfiable: "ScheduleAnyway", LabelSelector: appSelector()}}}}
	c.Deployments = []model.DeploymentDecl{deployment(d, n, s, 4)}
	c.Events = []model.EventDecl{{Kind: "maintenance", When: "afterStable", Parallel: 1}}
	exp := "d[did].specReplicas-1"
	if noViolation {
		exp = "0"
	}
	c.Intents = []model.IntentDecl{{Name: "replica_num_always_meet_exp", Params: map[string]any{"did": 1, "expReplicas": exp}}}
	return c
}
