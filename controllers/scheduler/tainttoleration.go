package scheduler

// taintTolerationFilter rejects nodes with a NoSchedule or NoExecute taint
// the pod does not tolerate (tainttoleration/taint_toleration.go,
// DoNotScheduleTaintsFilterFunc). Kivi only looks at NoSchedule.
type taintTolerationFilter struct{}

func (taintTolerationFilter) Name() string { return "TaintToleration" }

const reasonUntoleratedTaint = "node(s) had untolerated taint(s)"

func (taintTolerationFilter) Filter(c *cycle, n int) Status {
	if f := &c.fit[n]; f.NoSchedule || f.NoExecute {
		return reject(UnschedulableAndUnresolvable, reasonUntoleratedTaint)
	}
	return Status{}
}

// taintTolerationScore prefers nodes with fewer untolerated
// PreferNoSchedule taints: raw = their count, reverse-normalised. It never
// skips, so without such taints every node gets 100.
type taintTolerationScore struct{}

func (taintTolerationScore) Name() string           { return "TaintToleration" }
func (taintTolerationScore) Weight() int64          { return 3 }
func (taintTolerationScore) PreScore(c *cycle) bool { return true }
func (taintTolerationScore) Score(c *cycle, n int) int64 {
	return int64(c.fit[n].PreferNoSchedule)
}
func (taintTolerationScore) Normalize(c *cycle, scores []int64) {
	defaultNormalize(scores, true)
}
