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
// reason of its rejection ("" admitted) and the running pods the kubelet
// preempted to admit it, indices into c.Pods, for every choice the
// model's kubelet makes among pods its preemption leaves tied (Preempted
// the first, Alternatives all of them when there are several).
// manifest.LoadStream reads the case's YAML; the state has the running
// pods on the node (Running, or Terminating), the node's MemoryPressure
// condition, and the new pod bound there, Pending, in the kubelet's
// queue; one step of the kubelet (controllers/kubelet) starts or rejects
// it, and the reason is read from its trace line. A rejection's reason
// must not depend on the choices.
func ModelAdmission(c *Case, plant Plant) (Result, error) {
	u, s, p, err := modelState(c, plant)
	if err != nil {
		return Result{}, err
	}
	var res Result
	tx := model.NewTx(u)
	tx.Begin(nil, true)
	for run := 0; ; run++ {
		next := s.Clone()
		kubelet.New().Step(tx, next)
		r, err := modelResult(s, next, p, tx)
		if err != nil {
			return Result{}, err
		}
		if run == 0 {
			res = r
		} else if r.Reason != res.Reason {
			return Result{}, fmt.Errorf("model: the reason depends on the kubelet's choices: %q and %q", res.Reason, r.Reason)
		}
		res.Alternatives = append(res.Alternatives, r.Preempted)
		if !tx.Advance() {
			break
		}
		tx.Restart(true)
	}
	if len(res.Alternatives) == 1 {
		res.Alternatives = nil
	}
	return res, nil
}

// modelState is the case as the model's universe and state, and the new
// pod's slot.
func modelState(c *Case, plant Plant) (*model.Universe, *model.State, int, error) {
	r, u, s, err := podspec.BuildCase(c.YAML())
	if err != nil {
		return nil, nil, 0, err
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
			return nil, nil, 0, fmt.Errorf("model: no template for %s", workloadName(i))
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
	return u, s, p, nil
}

// modelResult reads one run of the kubelet's step from s to next: the
// new pod p's reason from the trace, and the running pods it preempted
// (Failed, or removed if they were Terminating).
func modelResult(s, next *model.State, p int, tx *model.Tx) (Result, error) {
	if next.Failed != model.NoFailure {
		return Result{}, fmt.Errorf("model: kubelet: failure %v", next.Failed)
	}
	var res Result
	for i := range p {
		if next.Pods[i].Phase != s.Pods[i].Phase {
			res.Preempted = append(res.Preempted, i)
		}
	}
	switch next.Pods[p].Phase {
	case model.Running:
		return res, nil
	case model.Failed:
		for _, l := range tx.Lines {
			if _, rest, ok := strings.Cut(l.Message, rejectedAt); ok {
				res.Reason, _, _ = strings.Cut(rest, rejectedFailed)
				return res, nil
			}
		}
		return Result{}, fmt.Errorf("model: the pod failed without a rejection line: %v", tx.Lines)
	}
	return Result{}, fmt.Errorf("model: the kubelet left the pod %v: %v", next.Pods[p].Phase, tx.Lines)
}
