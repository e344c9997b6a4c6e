package kubeletadmitdiff

import (
	"github.com/kivi-go/kivi/fidelity/classify"
)

// Classes of outcome.
const (
	Unexplained = "unexplained"
	// CriticalPreemption: the kubelet admits a critical pod (priority
	// system-cluster-critical or above) that fails only for resources by
	// preempting pods it runs (CriticalPodAdmissionHandler), or rejects it
	// with UnexpectedAdmissionError when no set of them frees enough; the
	// model has no kubelet preemption and rejects the pod for the
	// resource.
	CriticalPreemption = "critical pod preemption at admission"
)

// Classes are the known divergences, written up in docs/divergences.md
// ("Kubelet admission against the kubelet v1.36").
var Classes = []classify.Class[*Case]{
	{Name: CriticalPreemption, Applies: func(c *Case) bool {
		return c.Specs[c.New].Critical && !c.NoCriticalPreemption
	}, Fix: func(c *Case) *Case {
		d := c.Clone()
		d.NoCriticalPreemption = true
		return d
	}},
}

// Verdict is the comparison of one case.
type Verdict = classify.Verdict[Result]

// Check compares the model with the real kubelet on c (the model
// planted with plant, upstream's pods built through pipe) and names a
// disagreement's class.
func Check(k *Kubelet, c *Case, plant Plant, pipe Pipeline) (Verdict, error) {
	model := func(d *Case) (Result, error) {
		r, err := ModelAdmission(d, plant)
		return Result{Reason: r}, err
	}
	upstream := func(d *Case) (Result, error) { return k.Admission(d, pipe) }
	return classify.Compare(Classes, c, model, upstream, func(m, u Result) bool { return m.Reason == u.Reason }, Unexplained)
}
