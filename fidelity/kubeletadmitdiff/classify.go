package kubeletadmitdiff

import (
	"github.com/kivi-go/kivi/fidelity/classify"
)

// Classes of outcome.
const (
	Unexplained = "unexplained"
	// DaemonPreemption: to admit a critical pod the kubelet preempts the
	// DaemonSet's pod it runs (CriticalPodAdmissionHandler), or counts it
	// among the pods whose preemption frees enough; the model's DaemonSet
	// is a node reservation, which its kubelet never preempts.
	DaemonPreemption = "critical pod preemption of a DaemonSet's pod"
)

// Classes are the known divergences, written up in docs/divergences.md
// ("Kubelet admission against the kubelet v1.36").
var Classes = []classify.Class[*Case]{
	{Name: DaemonPreemption, Applies: func(c *Case) bool {
		return c.Specs[c.New].Critical && c.Daemon != nil && !c.NoDaemonPreemption
	}, Fix: func(c *Case) *Case {
		d := c.Clone()
		d.NoDaemonPreemption = true
		return d
	}},
}

// Verdict is the comparison of one case.
type Verdict = classify.Verdict[Result]

// Check compares the model with the real kubelet on c (the model
// planted with plant, upstream's pods built through pipe) and names a
// disagreement's class.
func Check(k *Kubelet, c *Case, plant Plant, pipe Pipeline) (Verdict, error) {
	model := func(d *Case) (Result, error) { return ModelAdmission(d, plant) }
	upstream := func(d *Case) (Result, error) { return k.Admission(d, pipe) }
	return classify.Compare(Classes, c, model, upstream, func(m, u Result) bool { return agree(c, m, u) }, Unexplained)
}
