package events

import "github.com/kivi-go/kivi/model"

// waitForDelete is a retry interval passing while the drain of the
// event's k-th node waits for pods terminating there and the cluster is
// quiet (nodeEnabled), so that nothing but an event can make them go: a
// node that is not Ready keeps them Terminating until it is Ready again
// (model.KeepsTerminatingPod). kubectl drain bounds that wait (its
// waitForDelete) by the same --timeout as its eviction retries (one
// context for both), so the interval counts against TimeoutRetries with
// the refused retries, and the drain fails when they are used up: the
// node stays cordoned, as kubectl leaves it.
func (d Drain) waitForDelete(tx *model.Tx, s *model.State, k int) {
	u := tx.U
	e := &u.Events[d.event]
	mem := vars(u, s, d.event)
	name := u.Nodes[e.Nodes[k]].Name
	_, p := d.evictionState(u, s, k)
	mem[2+2*k]++
	if int(mem[2+2*k]) >= e.Drain.TimeoutRetries {
		mem[1+2*k] = drainFailed
		if tx.Tracing() {
			if e.Drain.DisableEviction {
				tx.Log(KubectlComponent, "kubectl drain %s: error: pod %s is still terminating: context deadline exceeded (global timeout reached after %d retries)",
					name, s.PodRef(p), mem[2+2*k])
			} else {
				tx.Log(KubectlComponent, "kubectl drain %s: error when waiting for pod \"%s\" to terminate: context deadline exceeded (global timeout reached after %d retries)",
					name, s.PodRef(p), mem[2+2*k])
			}
		}
		return
	}
	if tx.Tracing() {
		tx.Log(KubectlComponent, "kubectl drain %s: pod %s is still terminating (%s pass)", name, s.PodRef(p), DrainRetryDelay)
	}
}
