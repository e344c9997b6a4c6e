package cases

import (
	"strconv"

	"github.com/kivi-go/kivi/model"
)

// Scaling-search bounds of the built-in cases (Kivi's scaling search, Kivi's
// "free" tables): deployments range over 0..8s replicas; at most 7 pods
// per node (4 for C4 and C6); HPA bounds become spec..2·spec.
const (
	replicasPerScale = 8
	defaultPerNode   = 7
	hpaFactor        = 2
)

// kiviDeploymentName is the name Kivi's generator gives a case's only
// deployment: its running id, which comes after every node and pod slot.
func kiviDeploymentName(nodes, podSlots int) string { return strconv.Itoa(nodes + podSlots + 1) }

// appTemplateName names the single pod template of every case (Kivi's
// podTemplateId 1).
const appTemplateName = "app"

// appLabels are the labels of every case's pods ({name: app}).
func appLabels() map[string]string { return map[string]string{"name": "app"} }

// appSelector selects the case's pods, as Kivi's spread constraints do.
func appSelector() *model.Selector { return &model.Selector{MatchLabels: appLabels()} }

// node64 is Kivi's 64-CPU, 64-memory node; the scaling search may use
// min..max of them.
func node64(name string, min, max int) model.NodeType {
	return model.NodeType{Name: name, CPU: 64, Memory: 64, Min: min, Max: max}
}

// addNodes appends count nodes of type t (running pods) to c, declaring
// the type on its first appearance, as Kivi's template generator derives
// types from the nodes. A count of 0 adds nothing.
func addNodes(c *model.Cluster, t model.NodeType, count int, pods ...model.InitialPod) {
	if count <= 0 {
		return
	}
	known := false
	for _, x := range c.NodeTypes {
		known = known || x.Name == t.Name
	}
	if !known {
		c.NodeTypes = append(c.NodeTypes, t)
	}
	c.Nodes = append(c.Nodes, model.NodeGroup{Type: t.Name, Count: count, Pods: pods})
}

// running is n Running pods of deployment d on each node of a group.
func running(d string, n int) model.InitialPod {
	p := model.InitialPod{Deployment: d}
	if n > 1 {
		p.Count = n
	}
	return p
}

// deployment is a deployment of the app template with the scaling-search
// bounds 0..8s replicas and at most perNode pods per node.
func deployment(name string, replicas, s, perNode int) model.DeploymentDecl {
	return model.DeploymentDecl{Name: name, Template: appTemplateName, Replicas: replicas,
		MaxReplicas: replicasPerScale * s, MaxPodsPerNode: perNode}
}

// notCreated marks a deployment that createTargetDeployment brings to
// life (Kivi's status 0).
func notCreated() *bool { f := false; return &f }

// cpuHPA is Kivi's HPA(target T, min a, max b): one CPU utilisation
// metric.
func cpuHPA(target int64, min, max int) *model.HPADecl {
	return &model.HPADecl{Min: min, Max: max, Factor: hpaFactor,
		Metrics: []model.MetricDecl{{Resource: "cpu", Type: "Utilization", Target: target}}}
}

// createTarget is Kivi's userCommand createTargetDeployment(1) in the
// main slot.
func createTarget(d string) model.EventDecl {
	return model.EventDecl{Kind: "createTargetDeployment", Deployment: d}
}

// didOne are the parameters of a deployment intent on deployment 1.
func didOne() map[string]any { return map[string]any{"did": 1} }

func ceilDiv(a, b int) int { return (a + b - 1) / b }
