package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
)

// zoneOutage is a cluster whose node a, running web's one pod (40 CPU,
// which fits no other node), fails: nodeFailure, under Kubernetes'
// lifecycle. With small, a second node of 16 CPU in zone b stays Ready.
func zoneOutage(small bool) *model.Cluster {
	c := &model.Cluster{Name: "zone-outage",
		NodeTypes: []model.NodeType{
			{Name: "big", CPU: 64, Memory: 64, Labels: map[string]string{model.ZoneKey: "a"}},
			{Name: "small", CPU: 16, Memory: 64, Labels: map[string]string{model.ZoneKey: "b"}}},
		Nodes:       []model.NodeGroup{{Type: "big", Names: []string{"a"}, Pods: []model.InitialPod{{Deployment: "web"}}}},
		Templates:   []model.TemplateDecl{{Name: "app", CPU: 40, Memory: 1}},
		Deployments: []model.DeploymentDecl{{Name: "web", Template: "app", Replicas: 1}},
		Events:      []model.EventDecl{{Kind: "nodeFailure", Node: "a"}},
	}
	if small {
		c.Nodes = append(c.Nodes, model.NodeGroup{Type: "small", Names: []string{"b"}})
	}
	return c
}

// TestZoneOutageHoldsPodsBack: when node a fails and its zone is the only
// one, every zone is in FullDisruption: the node lifecycle controller
// taints nothing, web's pod stays bound to a until it is back, and no
// replacement waits for a node (pod_always_schedulable holds). With a
// Ready node in a second zone, zone a's full disruption is tainted as
// usual: the pod is evicted after its 300 s toleration and its
// replacement fits nowhere (violated, through the taint).
func TestZoneOutageHoldsPodsBack(t *testing.T) {
	if r := verify(t, zoneOutage(false)).Result("pod_always_schedulable"); r == nil || r.Verdict != checker.Holds {
		t.Fatalf("one zone: pod_always_schedulable %+v, want holds", r)
	}
	r := verify(t, zoneOutage(true)).Result("pod_always_schedulable")
	if r == nil || r.Verdict != checker.Violated || r.Trace == nil {
		t.Fatalf("two zones: pod_always_schedulable %+v, want violated with a trace", r)
	}
	if lines := strings.Join(r.Trace.Lines(), "\n"); !strings.Contains(lines, "tainted node.kubernetes.io/unreachable:NoExecute") {
		t.Errorf("the counterexample does not taint node a:\n%s", lines)
	}
}
