package model

import "fmt"

// Phase is the lifecycle phase of a pod slot.
type Phase uint8

const (
	// Free: the slot holds no pod.
	Free Phase = iota
	// Pending: created by its controller, not yet started by a kubelet
	// (unbound, or bound and waiting for the kubelet). An unschedulable pod
	// stays Pending.
	Pending
	// Running: started by the kubelet; the only phase whose pods can be
	// Ready (PodState.Readiness, readiness.go).
	Running
	// Terminating: deletion requested, the kubelet has not removed it yet.
	Terminating
	// Failed: rejected by the kubelet's admission (Kubernetes' phase
	// Failed). It holds no resources and is not active; only the pod
	// garbage collector removes it. Encodings keep a phase in two bits:
	// Failed is written as 0, which no other non-Free pod uses.
	Failed
)

func (p Phase) String() string {
	switch p {
	case Free:
		return "Free"
	case Pending:
		return "Pending"
	case Running:
		return "Running"
	case Terminating:
		return "Terminating"
	case Failed:
		return "Failed"
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// NodeStatus is the health of a node as the control plane sees it.
type NodeStatus uint8

const (
	// NotReady: down (maintenance, failure).
	NotReady NodeStatus = iota
	// Ready: the only schedulable status.
	Ready
	// Unhealthy: crashed by a kernel panic; treated as not Ready.
	Unhealthy
	// NodeDeleted: the Node object is gone (a deleteNode event,
	// nodedeletion.go). It is the fourth value of the two health bits,
	// and a deleted node carries no other bit: no taint, no cordon, no
	// pressure.
	NodeDeleted
)

func (s NodeStatus) String() string {
	if i, ok := s.NodeDownTaint(); ok {
		return s.Health().String() + ", tainted " + NodeDownTaints[i]
	}
	if s.TaintIsQueued() {
		if i, ok := s.NodeDownCondition(); ok {
			return s.Health().String() + ", tainted " + NodeDownTaints[i] + ":NoSchedule, its NoExecute taint held back"
		}
		return s.Health().String() + ", its taint held back"
	}
	switch s {
	case NotReady:
		return "NotReady"
	case Ready:
		return "Ready"
	case Unhealthy:
		return "Unhealthy"
	case NodeDeleted:
		return "Deleted"
	}
	return fmt.Sprintf("NodeStatus(%d)", uint8(s))
}

// Queue names one controller work queue.
type Queue uint8

const (
	SchedulerQueue Queue = iota
	KubeletQueue
	DeploymentQueue
	HPAQueue
	NodeControllerQueue
	TaintManagerQueue
	// NumQueues is the number of queues in a State.
	NumQueues
)

var queueNames = [NumQueues]string{"scheduler", "kubelet", "deployment", "hpa", "nodecontroller", "taintmanager"}

func (q Queue) String() string {
	if q < NumQueues {
		return queueNames[q]
	}
	return fmt.Sprintf("Queue(%d)", uint8(q))
}
