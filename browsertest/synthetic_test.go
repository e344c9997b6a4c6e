package browsertest

import (
	"fmt"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/report"
)

// syntheticReport is a report with one counterexample of n steps over a
// cluster larger than the built-in cases' (3 zones of 4 nodes, 3
// deployments of 12 pods): each step schedules, starts, evicts or
// recreates a pod, or takes a node down or up, so that every step
// changes the drawing. The last quarter of the steps is the cycle.
func syntheticReport(n int) kivi.JSONReport {
	type pod struct {
		dep, node, phase string
		gen              int
		evicted          bool
	}
	deps := []string{"web", "api", "worker"}
	var nodes []report.NodeSnapshot
	for z := range 3 {
		for k := range 4 {
			name := fmt.Sprintf("node-%c%d", 'a'+z, k+1)
			nodes = append(nodes, report.NodeSnapshot{Name: name, Zone: fmt.Sprintf("zone-%c", 'a'+z), Status: "Ready", Ready: true,
				CPU: 64, Labels: map[string]string{"topology.kubernetes.io/zone": fmt.Sprintf("zone-%c", 'a'+z)}})
		}
	}
	nodes[5].Taints = []string{"dedicated=batch:NoSchedule"}
	var pods []pod
	for d, dep := range deps {
		for k := range 12 {
			pods = append(pods, pod{dep: dep, node: nodes[(d*5+k)%len(nodes)].Name, phase: "Running", gen: k + 1})
		}
	}
	gen := map[string]int{"web": 12, "api": 12, "worker": 12}
	snap := func() report.ClusterSnapshot {
		s := report.ClusterSnapshot{Nodes: append([]report.NodeSnapshot(nil), nodes...)}
		for i := range s.Nodes {
			s.Nodes[i].Taints = append([]string(nil), nodes[i].Taints...)
		}
		count := map[string]*report.DeploymentSnapshot{}
		for k, dep := range deps {
			desired := 12 + k%2
			count[dep] = &report.DeploymentSnapshot{Name: dep, Number: k + 1, Active: true, Spec: 12, HPADesired: &desired}
		}
		for _, p := range pods {
			s.Pods = append(s.Pods, report.PodSnapshot{Name: fmt.Sprintf("%s-%d", p.dep, p.gen), Deployment: p.dep, Phase: p.phase,
				Node: p.node, CPU: 8, CPURequest: 8, Evicted: p.evicted})
			c := count[p.dep]
			switch p.phase {
			case "Running":
				c.Ready++
				c.CPU += 8
			case "Pending":
				c.Pending++
			case "Terminating":
				c.Terminating++
			}
		}
		for _, dep := range deps {
			s.Deployments = append(s.Deployments, *count[dep])
		}
		return s
	}
	tr := &report.JSONTrace{Initial: snap(), LoopStart: n - n/4}
	line := 0
	for i := range n {
		p := &pods[(i*7)%len(pods)]
		var actor, msg string
		switch {
		case i%10 == 9:
			nd := &nodes[(i/10)%len(nodes)]
			nd.Ready = !nd.Ready
			nd.Status = map[bool]string{true: "Ready", false: "NotReady"}[nd.Ready]
			actor, msg = "nodeFailure", "Node "+nd.Name+" is now "+nd.Status
		case p.phase == "Running":
			p.phase, p.evicted = "Terminating", true
			actor, msg = "Descheduler", fmt.Sprintf("Pod %s-%d pending for deletion", p.dep, p.gen)
		case p.phase == "Terminating":
			gen[p.dep]++
			*p = pod{dep: p.dep, phase: "Pending", gen: gen[p.dep]}
			actor, msg = "Deployment", fmt.Sprintf("Adding a new pod %s-%d", p.dep, p.gen)
		case p.node == "":
			p.node = nodes[(i*5)%len(nodes)].Name
			actor, msg = "Scheduler", fmt.Sprintf("Pod %s-%d is scheduled on node %s", p.dep, p.gen, p.node)
		default:
			p.phase = "Running"
			actor, msg = "Kubelet", fmt.Sprintf("Created pod %s-%d on node %s", p.dep, p.gen, p.node)
		}
		tr.Steps = append(tr.Steps, report.JSONTraceStep{Actor: actor, Cluster: snap(),
			Lines: []report.JSONStep{{Step: line, Component: actor, Message: msg}}})
		line++
	}
	return kivi.JSONReport{SchemaVersion: report.SchemaVersion, Mode: kivi.ModeTopology, Name: "synthetic", Verdict: "violated", Warnings: []kivi.JSONWarning{},
		Intents: []report.JSONIntent{{Name: "no_oscillation_eviction", Verdict: "violated",
			Explanation: "a synthetic 200-step lasso", Trace: tr}}}
}
