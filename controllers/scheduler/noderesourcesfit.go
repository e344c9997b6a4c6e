package scheduler

import "github.com/kivi-go/kivi/model"

// nodeResourcesFitFilter rejects nodes whose free allocatable resources
// (allocatable minus the requests of the pods bound to them) cannot hold
// the pod's requests, or whose pod count is at its maximum
// (noderesources/fit.go, fitsRequest). Kivi compares against the current
// usage instead of the requests.
type nodeResourcesFitFilter struct{}

func (nodeResourcesFitFilter) Name() string { return "NodeResourcesFit" }

const (
	reasonTooManyPods     = "Too many pods"
	reasonInsufficientCPU = "Insufficient cpu"
	reasonInsufficientMem = "Insufficient memory"
)

// Filter reports every insufficient resource in upstream's order (pods,
// cpu, memory, then the scalar resources: ephemeral-storage, huge pages
// and extended resources, model.Universe.ScalarResources), one reason
// each, as fitsRequest lists them in one status. An insufficient resource
// is Unschedulable (preemption could free it) unless the pod requests
// more of some resource than the node has allocatable at all: the status
// is then UnschedulableAndUnresolvable (fitsRequest's Unresolvable).
func (nodeResourcesFitFilter) Filter(c *cycle, n int) Status {
	node, used := &c.u.Nodes[n], &c.requested[n]
	code := Unschedulable
	if c.t.CPU > node.CPU || c.t.Memory > node.Memory {
		code = UnschedulableAndUnresolvable
	}
	var short fitShort
	if used.Pods+1 > node.MaxPods {
		short |= shortPods
	}
	if cpu := c.t.CPU; cpu > 0 && cpu > node.CPU-used.CPU {
		short |= shortCPU
	}
	if mem := c.t.Memory; mem > 0 && mem > node.Memory-used.Memory {
		short |= shortMemory
	}
	reason := short.reason()
	if c.t.Scalar != nil {
		K := len(c.u.ScalarResources)
		scalarUsed := c.scalarUsed[n*K : (n+1)*K]
		k, unresolvable := c.u.InsufficientScalar(int(c.p.Template), n, scalarUsed)
		if unresolvable {
			code = UnschedulableAndUnresolvable
		}
		// Built only where a scalar resource is short: it allocates.
		for ; k >= 0; k = c.u.NextInsufficientScalar(int(c.p.Template), n, scalarUsed, k) {
			reason = joinReasons(reason, c.plan.insufficient[k])
		}
	}
	if reason == "" {
		return Status{}
	}
	return reject(code, reason)
}

// fitShort is the set of NodeResourcesFit's own resources a node lacks.
type fitShort uint8

const (
	shortPods fitShort = 1 << iota
	shortCPU
	shortMemory
)

// reason is the status reason of s: its reasons in upstream's order,
// joined by reasonSep; constants, so that a rejection allocates nothing.
func (s fitShort) reason() string {
	switch s {
	case shortPods:
		return reasonTooManyPods
	case shortCPU:
		return reasonInsufficientCPU
	case shortMemory:
		return reasonInsufficientMem
	case shortPods | shortCPU:
		return reasonTooManyPods + reasonSep + reasonInsufficientCPU
	case shortPods | shortMemory:
		return reasonTooManyPods + reasonSep + reasonInsufficientMem
	case shortCPU | shortMemory:
		return reasonInsufficientCPU + reasonSep + reasonInsufficientMem
	case shortPods | shortCPU | shortMemory:
		return reasonTooManyPods + reasonSep + reasonInsufficientCPU + reasonSep + reasonInsufficientMem
	}
	return ""
}

// leastAllocatedScore is NodeResourcesFit's default scoring strategy,
// LeastAllocated with cpu and memory weighted 1 each
// (noderesources/least_allocated.go): per resource
// (allocatable − requested_after) · 100 / allocatable, where
// requested_after includes the pod, 0 when over capacity; then the integer
// mean. Raw scores are already 0..100, so there is no normalisation. The
// requests are the non-zero ones (cycle.scored, nonzero.go): a request a
// manifest leaves out counts as upstream's default.
type leastAllocatedScore struct{}

func (leastAllocatedScore) Name() string           { return "NodeResourcesFit" }
func (leastAllocatedScore) Weight() int64          { return 1 }
func (leastAllocatedScore) PreScore(c *cycle) bool { return true }

func (leastAllocatedScore) Score(c *cycle, n int) int64 {
	if !c.plan.fit.standard {
		return c.fitScore(n)
	}
	node, used := &c.u.Nodes[n], &c.scored()[n]
	cpu, mem := scoredRequests(c.t)
	return (leastRequested(used.CPU+cpu, node.CPU) + leastRequested(used.Memory+mem, node.Memory)) / 2
}

// scoreAll is Score for every feasible node into raw.
func (leastAllocatedScore) scoreAll(c *cycle, raw []int64) {
	nodes, requested := c.u.Nodes, c.scored()
	cpu, mem := scoredRequests(c.t)
	for j, n := range c.feasible {
		node, used := &nodes[n], &requested[n]
		raw[j] = (leastRequested(used.CPU+cpu, node.CPU) + leastRequested(used.Memory+mem, node.Memory)) / 2
	}
}

func (leastAllocatedScore) Normalize(*cycle, []int64) {}

// leastRequested is upstream's leastRequestedScore.
func leastRequested(requested, capacity int64) int64 {
	if capacity == 0 || requested > capacity {
		return 0
	}
	return (capacity - requested) * maxNodeScore / capacity
}

// countScalar fills cycle.scalarUsed: the reservation and the scalar
// requests of the pods countPods counts, per node.
func (c *cycle) countScalar() {
	u, K := c.u, len(c.u.ScalarResources)
	c.scalarUsed = append(c.scalarUsed[:0], c.plan.reservedScalar...)
	for i := range c.s.Pods {
		if q := &c.s.Pods[i]; model.InSchedulerCache(q) {
			n := int(q.Node) - 1
			u.AddScalar(c.scalarUsed[n*K:(n+1)*K], int(q.Template))
		}
	}
}
