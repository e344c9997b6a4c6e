package events

import "github.com/kivi-go/kivi/model"

// cpuLeft is a node's CPU capacity minus its current load (the pods'
// usage plus the reservation): Kivi's nodes[n].cpuLeft. It can be
// negative.
func cpuLeft(u *model.Universe, s *model.State, n int) int64 {
	return u.Nodes[n].CPU - u.UsedCPU(s, n)
}

// changeCPU is Kivi's cpuChange(q, Δ): the usage of pod p
// becomes cpu+delta clamped to [0, its node's capacity], its owner is
// queued for the HPA, and the change is traced. Kivi clamps at 64, the
// capacity of every node in its cases.
func changeCPU(tx *model.Tx, s *model.State, p int, delta int64) {
	u := tx.U
	pod := &s.Pods[p]
	n := pod.NodeOf()
	usage := min(max(int64(pod.CPU)+delta, 0), u.Nodes[n].CPU)
	pod.CPU = int32(usage)
	if pod.Owner != 0 && u.HasHPA {
		s.EnqueueHPA(u, int(pod.Owner)-1)
	}
	if tx.Tracing() {
		tx.Log(WorkloadComponent, "CPU usage of pod %s changed by %+d to %d; node %s has %d CPU left",
			s.PodRef(p), delta, usage, u.Nodes[n].Name, cpuLeft(u, s, n))
	}
}
