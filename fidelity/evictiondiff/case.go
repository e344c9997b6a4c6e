package evictiondiff

import (
	"fmt"
	"strings"
)

// Pod is one running pod of the node: a single container.
type Pod struct {
	// Request and Limit are the container's memory request and limit in
	// MiB (0: none; a limit without a request is its request, as the API
	// server defaults it).
	Request, Limit int64
	Priority       int32
	// Usage is the pod's working set in MiB.
	Usage int64
}

// Case is one node and its kubelet.
type Case struct {
	// Capacity and Reserved are the node's memory capacity and the
	// kube-reserved plus system-reserved memory in MiB; the daemons use
	// exactly what they reserve.
	Capacity, Reserved int64
	// Hard, Soft and MinimumReclaim are memory.available's statements of
	// evictionHard, evictionSoft and evictionMinimumReclaim ("": none);
	// Grace is evictionSoftGracePeriod's.
	Hard, Soft, Grace, MinimumReclaim string
	Pods                              []Pod
}

// PodName names pod i.
func PodName(i int) string { return fmt.Sprintf("p%d", i) }

func (c *Case) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "node: capacity %dMi, reserved %dMi; evictionHard %q, evictionSoft %q for %q, evictionMinimumReclaim %q\n",
		c.Capacity, c.Reserved, c.Hard, c.Soft, c.Grace, c.MinimumReclaim)
	for i, p := range c.Pods {
		fmt.Fprintf(&b, "  %s: request %dMi, limit %dMi, priority %d, usage %dMi\n", PodName(i), p.Request, p.Limit, p.Priority, p.Usage)
	}
	return b.String()
}

// Result is what one side did: the pods evicted, in order, and whether
// the node ever had the MemoryPressure condition.
type Result struct {
	Evicted   []int
	Condition bool
}

func (r Result) String() string {
	var names []string
	for _, p := range r.Evicted {
		names = append(names, PodName(p))
	}
	return fmt.Sprintf("evicted [%s], condition %v", strings.Join(names, " "), r.Condition)
}
