package scheduler

import "math"

// balancedAllocationScore is NodeResourcesBalancedAllocation
// (noderesources/balanced_allocation.go, v1.36), over cpu and memory by
// default, or the resources of the profile's
// NodeResourcesBalancedAllocationArgs (balancedResources). It prefers nodes where the pod leaves the cpu and memory
// fractions in use closer together, scoring the change the pod makes
// rather than the balance after it: with b(x) the balance score of usage x
// (see balance), the raw score is 50 + (50 + b(after) − b(before))/2,
// in 50..100. Unlike LeastAllocated it reads the requests as written (the
// plugin sets useRequested), so a missing request counts as 0 on both
// sides, as the model always counts it. There is no NormalizeScore.
type balancedAllocationScore struct{}

func (balancedAllocationScore) Name() string  { return "NodeResourcesBalancedAllocation" }
func (balancedAllocationScore) Weight() int64 { return 1 }

// PreScore skips a pod that requests neither cpu nor memory: upstream
// skips best-effort pods so that they do not all pile onto the one
// best-balanced node (kubernetes#129138). Every node then gets 0.
func (balancedAllocationScore) PreScore(c *cycle) bool {
	if c.plan.balanced != nil {
		return c.requestsAny(c.plan.balanced)
	}
	return c.t.CPU != 0 || c.t.Memory != 0
}

func (balancedAllocationScore) Score(c *cycle, n int) int64 {
	if c.plan.balanced != nil {
		return c.balancedResources(n)
	}
	node, used := &c.u.Nodes[n], &c.requested[n]
	return balancedChange(used.CPU, used.Memory, c.t.CPU, c.t.Memory, node.CPU, node.Memory)
}

// scoreAll is Score for every feasible node into raw.
func (balancedAllocationScore) scoreAll(c *cycle, raw []int64) {
	if c.plan.balanced != nil {
		for j, n := range c.feasible {
			raw[j] = c.balancedResources(n)
		}
		return
	}
	nodes, requested, cpu, mem := c.u.Nodes, c.requested, c.t.CPU, c.t.Memory
	for j, n := range c.feasible {
		node, used := &nodes[n], &requested[n]
		raw[j] = balancedChange(used.CPU, used.Memory, cpu, mem, node.CPU, node.Memory)
	}
}

func (balancedAllocationScore) Normalize(*cycle, []int64) {}

// balancedChange scores how the pod's requests (podCPU, podMem) change
// the balance of a node using usedCPU and usedMem of allocCPU and
// allocMem. Both balance scores lie in 50..100, so the difference is
// shifted and halved back into 50..100: 75 when the balance does not
// change. The division truncates, as upstream's integer arithmetic does;
// its operand is never negative.
func balancedChange(usedCPU, usedMem, podCPU, podMem, allocCPU, allocMem int64) int64 {
	after := balance(usedCPU+podCPU, usedMem+podMem, allocCPU, allocMem)
	before := balance(usedCPU, usedMem, allocCPU, allocMem)
	return maxNodeScore/2 + (maxNodeScore/2+after-before)/2
}

// balance is (1 − σ)·100, truncated, where σ is the standard deviation of
// the fractions of allocatable cpu and memory in use, each capped at 1.
// For two values σ is half their distance. A resource the node has none
// of is left out, and one fraction alone deviates from nothing (σ = 0).
// The floating-point steps are upstream's (fraction as a float64
// quotient, half the difference, then the product with 100), so the
// truncation lands on the same integer.
func balance(cpu, mem, allocCPU, allocMem int64) int64 {
	if allocCPU == 0 || allocMem == 0 {
		return maxNodeScore
	}
	fc := min(float64(cpu)/float64(allocCPU), 1)
	fm := min(float64(mem)/float64(allocMem), 1)
	sigma := math.Abs((fc - fm) / 2)
	return int64((1 - sigma) * maxNodeScore)
}

// requestsAny reports whether the pod requests some of resources
// (isBestEffortPod's complement, over the requests as written).
func (c *cycle) requestsAny(resources []fitResource) bool {
	for _, r := range resources {
		if c.podRequest(r) != 0 {
			return true
		}
	}
	return false
}

// podRequest is the pod's request of resource r as written (0 for a
// resource no pod of the universe requests).
func (c *cycle) podRequest(r fitResource) int64 {
	switch r.kind {
	case fitCPU:
		return c.t.CPU
	case fitMemory:
		return c.t.Memory
	case fitScalar:
		return c.u.TemplateScalar(int(c.p.Template), r.scalar)
	}
	return 0
}

// maxBalanced is how many resources balancedResources scores without
// allocating.
const maxBalanced = 8

// balancedResources is balancedChange over the profile's resources
// (calculateNodeAllocatableRequest and balancedResourceScorer): a
// resource the node has none of, or a scalar resource the pod does not
// request, is left out, before and after alike.
func (c *cycle) balancedResources(n int) int64 {
	var bufWith, bufWithout [maxBalanced]float64
	with, without := bufWith[:0], bufWithout[:0]
	node, used, K := &c.u.Nodes[n], &c.requested[n], len(c.u.ScalarResources)
	for _, r := range c.plan.balanced {
		pod := c.podRequest(r)
		var alloc, inUse int64
		switch r.kind {
		case fitCPU:
			alloc, inUse = node.CPU, used.CPU
		case fitMemory:
			alloc, inUse = node.Memory, used.Memory
		case fitScalar:
			if pod == 0 && r.skipUnrequested {
				continue
			}
			alloc, inUse = c.u.NodeScalar(n, r.scalar), c.scalarUsed[n*K+r.scalar]
		}
		if alloc == 0 {
			continue
		}
		with = append(with, min(float64(inUse+pod)/float64(alloc), 1))
		without = append(without, min(float64(inUse)/float64(alloc), 1))
	}
	return maxNodeScore/2 + (maxNodeScore/2+balanceOf(with)-balanceOf(without))/2
}

// balanceOf is balancedResourceScore: (1 − σ)·100, truncated, σ the
// standard deviation of the fractions, computed as upstream computes it
// (half the distance for two, the root of the mean square deviation for
// more, 0 for fewer).
func balanceOf(fractions []float64) int64 {
	std := 0.0
	switch k := len(fractions); {
	case k == 2:
		std = math.Abs((fractions[0] - fractions[1]) / 2)
	case k > 2:
		total := 0.0
		for _, f := range fractions {
			total += f
		}
		mean := total / float64(k)
		sum := 0.0
		for _, f := range fractions {
			sum = sum + (f-mean)*(f-mean)
		}
		std = math.Sqrt(sum / float64(k))
	}
	return int64((1 - std) * maxNodeScore)
}
