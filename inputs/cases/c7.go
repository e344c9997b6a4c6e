package cases

import "github.com/kivi-go/kivi/model"

func c7Info() Info {
	return Info{ID: "c7", KiviID: "d1", Title: "NoExecute taint with a pinned nodeName, an eviction loop", Expect: "no_oscillation_eviction",
		Scenario: []string{
			"Pods are pinned to node 1 by nodeName (bypassing the scheduler) but do not tolerate its",
			"NoExecute taint: the taint manager evicts each started pod and the deployment recreates it.",
		},
		NoViolation: "node 1 has no taint",
		generate:    c7}
}

// c7 is Kivi's case definitions "C7 (d1)": node 1 tainted key1=value1:NoExecute, nodes
// 2..N untainted, a deployment pinned to node 1 and created by a command.
// Kivi asks for 5N replicas but gives the case N pod slots, so it only
// ever creates N pods (its silent bound); the case asks for the N pods
// Kivi runs, which needs no bound and keeps C7 within the model's size
// at every scale Kivi is run at. The deployment keeps Kivi's name.
func c7(s int, noViolation bool) *model.Cluster {
	n := s
	slots := n
	d := kiviDeploymentName(n, n)
	c := &model.Cluster{PodSlots: slots}
	tainted := node64("tainted", 0, s)
	tainted.Taints = []model.Taint{{Key: "key1", Value: "value1", Effect: model.NoExecute}}
	untainted := node64("untainted", 0, s)
	if noViolation {
		tainted = untainted
	}
	addNodes(c, tainted, 1)
	addNodes(c, untainted, n-1)
	c.Templates = []model.TemplateDecl{{Name: appTemplateName, Labels: appLabels(), CPU: 8, Memory: 8, NodeName: "1"}}
	dep := deployment(d, n, s, defaultPerNode)
	dep.Created = notCreated()
	c.Deployments = []model.DeploymentDecl{dep}
	c.Events = []model.EventDecl{createTarget(d)}
	c.Intents = []model.IntentDecl{{Name: "no_oscillation_eviction", Params: didOne()}}
	return c
}
