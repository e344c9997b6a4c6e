package hpadiff

import (
	"testing"

	"pgregory.net/rapid"
)

// TestReservedOnly: a regular init container and a pod overhead raise
// the scheduler's request but not what kube-controller-manager's replica
// calculator divides by (calculateRequests: the containers and sidecars
// only). Adding them to the pods of a generated case changes neither
// side's answer, the calculation's nor the evaluation's: the model reads
// model.PodTemplate.MetricRequest, not the scheduler's request.
func TestReservedOnly(t *testing.T) {
	withChecks(t, max(*cases/10, 100))
	changed := 0
	rapid.Check(t, func(rt *rapid.T) {
		c := GenCase().Draw(rt, "case")
		x := *c
		x.Pods = append([]Pod(nil), c.Pods...)
		for i := range x.Pods {
			x.Pods[i].Init = rapid.SampledFrom([]int64{0, 0, 0, 300, 2000}).Draw(rt, "init")
			x.Pods[i].Overhead = rapid.SampledFrom([]int64{0, 0, 0, 100, 250}).Draw(rt, "overhead")
			if x.Pods[i].Init > x.Pods[i].Request || x.Pods[i].Overhead > 0 {
				changed++
			}
		}
		r0, _ := RealCalc(c)
		r1, _ := RealCalc(&x)
		if r0 != r1 {
			rt.Fatalf("upstream's calculation changed: %+v to %+v\n%s", r0, r1, &x)
		}
		if m0, m1 := ModelCalc(c), ModelCalc(&x); m0 != m1 {
			rt.Fatalf("the model's calculation changed: %+v to %+v\n%s", m0, m1, &x)
		}
		if e0, e1 := RealEval(c), RealEval(&x); e0 != e1 {
			rt.Fatalf("upstream's evaluation changed: %d to %d\n%s", e0, e1, &x)
		}
		if e0, e1 := ModelEval(c), ModelEval(&x); e0 != e1 {
			rt.Fatalf("the model's evaluation changed: %d to %d\n%s", e0, e1, &x)
		}
	})
	t.Logf("%d pods with a scheduler's request above their containers'", changed)
}
