package cases

import "github.com/kivi-go/kivi/model"

func c2Info() Info {
	return Info{ID: "c2", KiviID: "h2", Title: "re-applied manifest without replicas undercuts the HPA minimum", Expect: "replica_num_always_meet_min",
		Scenario: []string{
			"An HPA keeps at least N pods; once the cluster is stable the user re-applies the manifest,",
			"which has no replicas field, so spec drops to 1 and pods are deleted below the HPA minimum.",
		},
		NoViolation: "no intent (only pod_always_schedulable is checked)",
		generate:    c2}
}

// c2 is Kivi's case definitions "C2 (h2)": N = s nodes labelled zone 1, each running one
// pod that requests 8 CPU but uses 16; HPA 50 % with bounds N..N+2; the
// manifest (no replicas) is applied after the cluster is stable.
func c2(s int, noViolation bool) *model.Cluster {
	n := s
	slots := n + 3
	d := kiviDeploymentName(n, slots)
	c := &model.Cluster{PodSlots: slots}
	t := node64("zone-1", 0, s)
	t.Labels = map[string]string{"zone": "1"}
	usage := int64(16)
	addNodes(c, t, n, model.InitialPod{Deployment: d, CPU: &usage, Memory: &usage})
	c.Templates = []model.TemplateDecl{{Name: appTemplateName, Labels: appLabels(), CPU: 8, Memory: 8}}
	dep := deployment(d, n, s, defaultPerNode)
	dep.HPA = cpuHPA(50, n, n+2)
	c.Deployments = []model.DeploymentDecl{dep}
	c.DeploymentTemplates = []model.DeploymentTemplateDecl{{Name: d, Template: appTemplateName}}
	c.Events = []model.EventDecl{{Kind: "applyDeployment", When: "afterStable", Template: d}}
	if !noViolation {
		c.Intents = []model.IntentDecl{{Name: "replica_num_always_meet_min", Params: didOne()}}
	}
	return c
}
