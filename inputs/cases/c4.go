package cases

import "github.com/kivi-go/kivi/model"

func c4Info() Info {
	return Info{ID: "c4", KiviID: "s4", Title: "kernel panic from overpacked nodes", Expect: "no_kernel_panic",
		Scenario: []string{
			"Pods request 21 CPU: three on a 64-CPU node leave 1 (≤ 2 %), the node panics and its pods",
			"are recreated; when it recovers the scheduler packs it again, until it panics three times.",
		},
		NoViolation: "pods request 8 CPU and 8 memory instead of 21",
		generate:    c4}
}

// c4 is Kivi's case definitions "C4 (s4)": N = s empty nodes (the scaling search uses
// 2..s), a deployment of 2N+1 pods requesting 21 created by a command, a
// kernel-panic watcher on every node.
func c4(s int, noViolation bool) *model.Cluster {
	n := s
	slots := 2*n + 2
	d := kiviDeploymentName(n, slots)
	c := &model.Cluster{PodSlots: slots}
	addNodes(c, node64("node", 2, s), n)
	req := int64(21)
	if noViolation {
		req = 8
	}
	c.Templates = []model.TemplateDecl{{Name: appTemplateName, Labels: appLabels(), CPU: req, Memory: req}}
	dep := deployment(d, 2*n+1, s, 4)
	dep.Created = notCreated()
	c.Deployments = []model.DeploymentDecl{dep}
	// Kivi starts its events before its user commands.
	c.Events = []model.EventDecl{{Kind: "kernelPanic"}, createTarget(d)}
	c.Intents = []model.IntentDecl{{Name: "no_kernel_panic"}}
	return c
}
