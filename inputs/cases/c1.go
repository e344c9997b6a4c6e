package cases

import "github.com/kivi-go/kivi/model"

func c1Info() Info {
	return Info{ID: "c1", KiviID: "h1", Title: "HPA replica oscillation", Expect: "no_oscillation_replica_num",
		Scenario: []string{
			"Pods start at 100 % of their CPU request against a 50 % HPA target, so the HPA scales up",
			"to its maximum; then each pod's usage drops from 8 to 3 and the HPA scales back down.",
		},
		NoViolation: "no intent (only pod_always_schedulable is checked)",
		generate:    c1}
}

// c1 is Kivi's case definitions "C1 (h1) — HPA oscillation": N = s empty nodes, a
// deployment of spec max(1, ⌊N/5⌋) created by a command, HPA 50 % with
// bounds spec..2N, pods whose usage falls from 8 to 3 at time 300.
func c1(s int, noViolation bool) *model.Cluster {
	n := s
	slots := 2*n + 5
	spec := max(1, n/5)
	d := kiviDeploymentName(n, slots)
	c := &model.Cluster{PodSlots: slots}
	addNodes(c, node64("node", 0, s), n)
	c.Templates = []model.TemplateDecl{{Name: appTemplateName, Labels: appLabels(), CPU: 8, Memory: 8,
		Pattern: []model.UsagePoint{{CPU: 8, At: 0}, {CPU: 3, At: 300}}}}
	dep := deployment(d, spec, s, defaultPerNode)
	dep.Created = notCreated()
	dep.HPA = cpuHPA(50, spec, 2*n)
	c.Deployments = []model.DeploymentDecl{dep}
	c.Events = []model.EventDecl{createTarget(d)}
	if !noViolation {
		c.Intents = []model.IntentDecl{{Name: "no_oscillation_replica_num", Params: didOne()}}
	}
	return c
}
