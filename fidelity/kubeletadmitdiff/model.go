package kubeletadmitdiff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/controllers/kubelet"
	"github.com/kivi-go/kivi/fidelity/podspec"
	"github.com/kivi-go/kivi/model"
)

// Plant changes the model's universe or state before the kubelet's step:
// the planted bugs of TestPlantedBugs. Nil plants nothing.
type Plant func(u *model.Universe, s *model.State)

// rejectedLine is the kubelet's trace line of a rejection, around the
// reason.
const (
	rejectedAt     = " at admission: "
	rejectedFailed = "; the pod is Failed"
)

// ModelAdmission is the model's answer for the case's new pod: the
// reason of its rejection, "" when admitted. manifest.LoadStream reads
// the case's YAML; the state has the running pods on the node (Running,
// or Terminating), the node's MemoryPressure condition, and the new pod
// bound there, Pending, in the kubelet's queue; one step of the kubelet
// (controllers/kubelet) starts or rejects it, and the reason is read from
// its trace line.
func ModelAdmission(c *Case, plant Plant) (string, error) {
	r, u, s, err := podspec.BuildCase(c.YAML())
	if err != nil {
		return "", err
	}
	tmpl := make([]int, len(c.Specs))
	for i := range c.Specs {
		tmpl[i] = -1
		for _, d := range r.Cluster.Deployments {
			if d.Name != workloadName(i) {
				continue
			}
			for k, t := range u.Templates {
				if t.Name == d.Template {
					tmpl[i] = k
				}
			}
		}
		if tmpl[i] < 0 {
			return "", fmt.Errorf("model: no template for %s", workloadName(i))
		}
	}
	owner := func(spec int) uint8 {
		return uint8(slices.IndexFunc(u.Deployments, func(d model.Deployment) bool { return d.Name == workloadName(spec) }) + 1)
	}
	s.Pods = nil
	for q := range s.Queues {
		s.Queues[q] = nil
	}
	for _, p := range c.Pods {
		ps := model.PodState{Template: uint8(tmpl[p.Spec]), Node: 1, Owner: owner(p.Spec), Phase: model.Running, WasRunning: true}
		if p.Terminating {
			ps.Phase = model.Terminating
		}
		s.Pods = append(s.Pods, ps)
	}
	p := len(s.Pods)
	s.Pods = append(s.Pods, model.PodState{Template: uint8(tmpl[c.New]), Node: 1, Owner: owner(c.New), Phase: model.Pending})
	s.Enqueue(model.KubeletQueue, p)
	if c.Node.MemoryPressure {
		model.SetMemoryPressure(u, s, 0, true)
	}
	if plant != nil {
		plant(u, s)
	}
	tx := model.NewTx(u)
	tx.Begin(nil, true)
	kubelet.New().Step(tx, s)
	if s.Failed != model.NoFailure {
		return "", fmt.Errorf("model: kubelet: failure %v", s.Failed)
	}
	switch s.Pods[p].Phase {
	case model.Running:
		return "", nil
	case model.Failed:
		for _, l := range tx.Lines {
			if _, rest, ok := strings.Cut(l.Message, rejectedAt); ok {
				reason, _, _ := strings.Cut(rest, rejectedFailed)
				return reason, nil
			}
		}
		return "", fmt.Errorf("model: the pod failed without a rejection line: %v", tx.Lines)
	}
	return "", fmt.Errorf("model: the kubelet left the pod %v: %v", s.Pods[p].Phase, tx.Lines)
}
