package cases

import "github.com/kivi-go/kivi/model"

func c5Info() Info {
	return Info{ID: "c5", KiviID: "s1", Title: "descheduler RemoveDuplicates eviction loop", Expect: "no_oscillation_eviction",
		Scenario: []string{
			"RemoveDuplicates evicts a duplicate pod from a node, but the other nodes are nearly full,",
			"so the scheduler puts the pod back on the same node and it is evicted again, forever.",
		},
		NoViolation: "the small nodes have room for more pods (no foreign load)",
		generate:    c5}
}

// c5 is Kivi's case definitions "C5 (s1)": t1 = ⌈3s/5⌉ nodes with one pod and 4 CPU
// left, t2 = ⌈s/5⌉ nodes with three pods, t3 = max(0, s−t1−t2) nodes
// with four pods, 3 spare pod slots, a RemoveDuplicates descheduler.
func c5(s int, noViolation bool) *model.Cluster {
	t1 := ceilDiv(3*s, 5)
	t2 := ceilDiv(s, 5)
	t3 := max(0, s-t1-t2)
	pods := t1 + 3*t2 + 4*t3
	slots := pods + 3
	d := kiviDeploymentName(t1+t2+t3, slots)
	c := &model.Cluster{PodSlots: slots}
	// Kivi's small node has cpuLeft 4 with one 8-CPU pod: a 64-CPU node
	// with 52 taken by load the model does not track. The scaling
	// template's bounds are 1..s for each type.
	small := node64("small", 1, s)
	small.ReservedCPU, small.ReservedMemory = 52, 52
	big := node64("big", 1, s)
	if noViolation {
		small = big // cpuLeft 56 with one pod: an ordinary empty node
	}
	addNodes(c, small, t1, running(d, 1))
	addNodes(c, big, t2, running(d, 3))
	addNodes(c, big, t3, running(d, 4))
	c.Templates = []model.TemplateDecl{{Name: appTemplateName, Labels: appLabels(), CPU: 8, Memory: 8}}
	c.Deployments = []model.DeploymentDecl{deployment(d, pods, s, defaultPerNode)}
	c.Descheduler = &model.Descheduler{Profiles: []model.DeschedulerProfile{{
		Name: "default", Balance: []model.BalancePlugin{model.RemoveDuplicates}}}}
	c.Intents = []model.IntentDecl{{Name: "no_oscillation_eviction", Params: didOne()}}
	return c
}
