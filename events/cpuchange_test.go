package events

import (
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestCPUChangeUnreadUsage: where nothing reads the pods' CPU usage the
// body of eventCpuChange ends the event without choosing a pod or an
// amount and leaves every usage as it was; where the usage is read, it
// branches (a pod's usage rises in each branch).
func TestCPUChangeUnreadUsage(t *testing.T) {
	c := &model.Cluster{
		NodeTypes:   []model.NodeType{{Name: "n", CPU: 4000, Memory: 4096}},
		Nodes:       []model.NodeGroup{{Type: "n", Count: 1, Pods: []model.InitialPod{{Deployment: "web", Count: 2}}}},
		Templates:   []model.TemplateDecl{{Name: "web", CPU: 100}},
		Deployments: []model.DeploymentDecl{{Name: "web", Template: "web", Replicas: 2}},
		Events:      []model.EventDecl{{Kind: "eventCpuChange", Deployment: "web", When: "afterStable"}},
	}
	for _, read := range []bool{false, true} {
		u, s0, err := c.Build()
		if err != nil {
			t.Fatal(err)
		}
		if u.ReadsCPUUsage {
			t.Fatal("ReadsCPUUsage without an HPA or a kernelPanic event")
		}
		u.ReadsCPUUsage = read
		s0.Init = model.InitStable
		for d := range s0.Deps {
			s0.Deps[d].Active = true
		}
		s0.Queues[model.DeploymentQueue] = nil
		vars(u, s0, 0)[0] = riseBody
		ev := ForEvent(u, 0)
		if !ev.Enabled(u, s0) {
			t.Fatal("the body is not enabled")
		}
		branches := 0
		tx := model.NewTx(u)
		tx.Begin(nil, false)
		for more := true; more; more = tx.Advance() {
			s := s0.Clone()
			tx.Restart(false)
			ev.Step(tx, s)
			branches++
			if got := vars(u, s, 0)[0]; got != riseDone {
				t.Errorf("read %v: event at %d after the body, want done", read, got)
			}
			rose := s.Pods[0].CPU != s0.Pods[0].CPU || s.Pods[1].CPU != s0.Pods[1].CPU
			if rose != read {
				t.Errorf("read %v: a pod's usage rose: %v", read, rose)
			}
		}
		if want := map[bool]int{false: 1, true: 6}[read]; branches != want {
			t.Errorf("read %v: %d branches, want %d", read, branches, want)
		}
	}
}
