package model

// Quantities derived from the pod slots. Kivi stores them as counters
// (cpuLeft, numPod, replicas, replicasInCreation, ...) that drift under
// several of its bugs; deriving them keeps them right by construction and
// keeps them out of the state encoding.

// Resources is a CPU / memory / pod-count triple.
type Resources struct {
	CPU, Memory int64
	Pods        int
}

// Requested sums the requests of the pods bound to node n that still hold
// it (Pending-bound, Running, Terminating; not Failed), plus the node's
// reservation: what the scheduler's NodeResourcesFit sees as used.
func (u *Universe) Requested(s *State, n int) Resources {
	r := u.reserved(n)
	for i := range s.Pods {
		p := &s.Pods[i]
		if heldNode(p) != n+1 {
			continue
		}
		t := &u.Templates[p.Template]
		r.CPU += t.CPU
		r.Memory += t.Memory
		r.Pods++
	}
	return r
}

// RequestedOnNodes is Requested of every node, in one pass over the
// pods: dst (reused when large enough) holds node n's at index n.
func (u *Universe) RequestedOnNodes(s *State, dst []Resources) []Resources {
	if cap(dst) < len(u.Nodes) {
		dst = make([]Resources, len(u.Nodes))
	}
	dst = dst[:len(u.Nodes)]
	for n := range dst {
		dst[n] = u.reserved(n)
	}
	for i := range s.Pods {
		p := &s.Pods[i]
		v := heldNode(p)
		if v == 0 || v > len(dst) {
			continue
		}
		t := &u.Templates[p.Template]
		r := &dst[v-1]
		r.CPU += t.CPU
		r.Memory += t.Memory
		r.Pods++
	}
	return dst
}

// heldNode is the node value (index+1, 0 = none) whose resources pod p
// holds: its node while it is bound and neither Free nor Failed
// (Pending-bound, Running, Terminating).
func heldNode(p *PodState) int {
	if p.Phase == Free || p.Phase == Failed {
		return 0
	}
	return int(p.Node)
}

// reserved is node n's reservation: what it holds before any pod.
func (u *Universe) reserved(n int) Resources {
	node := &u.Nodes[n]
	return Resources{CPU: node.ReservedCPU, Memory: node.ReservedMemory, Pods: node.ReservedPods}
}

// Allocatable returns a node's capacity.
func (u *Universe) Allocatable(n int) Resources {
	node := &u.Nodes[n]
	return Resources{CPU: node.CPU, Memory: node.Memory, Pods: node.MaxPods}
}

// UsedCPU sums the current CPU usage of the pods on node n plus the node's
// reservation: the load that can crash it (kernel panic).
func (u *Universe) UsedCPU(s *State, n int) int64 {
	used := u.Nodes[n].ReservedCPU
	for i := range s.Pods {
		p := &s.Pods[i]
		if heldNode(p) == n+1 {
			used += int64(p.CPU)
		}
	}
	return used
}

// UsedCPUOnNodes is UsedCPU of every node, in one pass over the pods:
// dst (reused when large enough) holds node n's load at index n.
func (u *Universe) UsedCPUOnNodes(s *State, dst []int64) []int64 {
	if cap(dst) < len(u.Nodes) {
		dst = make([]int64, len(u.Nodes))
	}
	dst = dst[:len(u.Nodes)]
	for n := range dst {
		dst[n] = u.Nodes[n].ReservedCPU
	}
	for i := range s.Pods {
		if v := heldNode(&s.Pods[i]); v != 0 && v <= len(dst) {
			dst[v-1] += int64(s.Pods[i].CPU)
		}
	}
	return dst
}

// DeploymentCounts are the pods of one deployment by phase.
type DeploymentCounts struct {
	Pending, Running, Terminating int
	// Started counts Running pods plus Terminating pods that had been
	// running: Kivi's d.replicas.
	Started int
	// Ready and Available count the Running pods that are Ready and those
	// that are available (readiness.go): status.readyReplicas and
	// status.availableReplicas.
	Ready, Available int
	// ReadyStarted counts the Started pods that are Ready, or were when
	// their deletion began: the replicas that serve (readiness.go). It
	// is Started in a universe where no template delays readiness.
	ReadyStarted int
}

// Active is Pending + Running: the pods the ReplicaSet controller counts.
func (c DeploymentCounts) Active() int { return c.Pending + c.Running }

// Counts tallies the pods of deployment d (all its ReplicaSets).
func Counts(s *State, d int) DeploymentCounts { return countPods(s, d, -1) }

// RSCounts tallies the pods of ReplicaSet slot rs of deployment d.
func RSCounts(s *State, d, rs int) DeploymentCounts { return countPods(s, d, rs) }

// countPods tallies the pods of deployment d in ReplicaSet slot rs, or in
// every slot when rs is -1.
func countPods(s *State, d, rs int) DeploymentCounts {
	var c DeploymentCounts
	owner := uint8(d + 1)
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Owner != owner || rs >= 0 && int(p.RS) != rs {
			continue
		}
		switch p.Phase {
		case Pending:
			c.Pending++
		case Running:
			c.Running++
			c.Started++
			if p.Readiness != PodNotReady {
				c.Ready++
				c.ReadyStarted++
			}
			if p.Readiness == PodAvailable {
				c.Available++
			}
		case Terminating:
			c.Terminating++
			if p.WasRunning {
				c.Started++
				if p.Readiness != PodNotReady {
					c.ReadyStarted++
				}
			}
		}
	}
	return c
}

// ReadyNodes counts the Ready nodes.
func ReadyNodes(s *State) int {
	n := 0
	for i := range s.Nodes {
		if s.Nodes[i].Status == Ready {
			n++
		}
	}
	return n
}

// FreeSlot returns the lowest Free pod slot, or -1.
func FreeSlot(s *State) int {
	for i := range s.Pods {
		if s.Pods[i].Phase == Free {
			return i
		}
	}
	return -1
}

// PodTemplate returns the template of deployment d's current ReplicaSet.
func (u *Universe) PodTemplateOf(s *State, d int) *PodTemplate {
	return &u.Templates[u.Configs[s.Deps[d].Config].PodTemplate]
}
