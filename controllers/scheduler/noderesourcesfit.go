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

// Filter reports the first insufficient resource in upstream's order
// (pods, cpu, memory, then the scalar resources: ephemeral-storage, huge
// pages and extended resources, model.Universe.ScalarResources); upstream lists all of them in one status. An
// insufficient resource is Unschedulable (preemption could free it)
// unless the pod requests more of some resource than the node has
// allocatable at all: the status is then UnschedulableAndUnresolvable,
// whichever resource is reported (fitsRequest's Unresolvable).
func (nodeResourcesFitFilter) Filter(c *cycle, n int) Status {
	node, used := &c.u.Nodes[n], &c.requested[n]
	code := Unschedulable
	if c.t.CPU > node.CPU || c.t.Memory > node.Memory {
		code = UnschedulableAndUnresolvable
	}
	scalar := -1
	if c.t.Scalar != nil {
		K := len(c.u.ScalarResources)
		k, unresolvable := c.u.InsufficientScalar(int(c.p.Template), n, c.scalarUsed[n*K:(n+1)*K])
		if unresolvable {
			code = UnschedulableAndUnresolvable
		}
		scalar = k
	}
	if used.Pods+1 > node.MaxPods {
		return reject(code, reasonTooManyPods)
	}
	if cpu := c.t.CPU; cpu > 0 && cpu > node.CPU-used.CPU {
		return reject(code, reasonInsufficientCPU)
	}
	if mem := c.t.Memory; mem > 0 && mem > node.Memory-used.Memory {
		return reject(code, reasonInsufficientMem)
	}
	if scalar >= 0 {
		return reject(code, c.plan.insufficient[scalar])
	}
	return Status{}
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
