package model

import (
	"fmt"
	"strings"
)

// Describe renders s deterministically, one object per line. The CLI uses
// it for verbose traces and golden tests compare against it.
func Describe(u *Universe, s *State) string {
	var b strings.Builder
	scalar, k := u.ScalarRequestedOnNodes(s, nil), len(u.ScalarResources)
	for n := range s.Nodes {
		if s.Nodes[n].Deleted() {
			// No Node object: nothing to show but that it is gone.
			fmt.Fprintf(&b, "node %s: %s\n", u.Nodes[n].Name, s.Nodes[n].Status)
			continue
		}
		req := u.Requested(s, n)
		status := s.Nodes[n].Status.String()
		if s.Nodes[n].Cordoned {
			status += ",SchedulingDisabled" // as kubectl get nodes shows a cordoned node
		}
		if s.Nodes[n].MemoryPressure {
			status += ",MemoryPressure"
		}
		if u.OutOfServiceByEvent(s, n) {
			status += ", tainted " + TaintNodeOutOfService
		}
		fmt.Fprintf(&b, "node %s: %s cpu %d/%d mem %d/%d pods %d", u.Nodes[n].Name, status,
			req.CPU, u.Nodes[n].CPU, req.Memory, u.Nodes[n].Memory, req.Pods)
		for i, name := range u.ScalarResources {
			fmt.Fprintf(&b, " %s %d/%d", name, scalar[n*k+i], u.NodeScalar(n, i))
		}
		if used := u.UsedCPU(s, n); used != req.CPU {
			fmt.Fprintf(&b, " used-cpu %d", used)
		}
		if u.HasMemoryChange() {
			fmt.Fprintf(&b, " used-mem %d", u.MemoryUsage(s, n))
		}
		b.WriteByte('\n')
	}
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Phase == Free {
			continue
		}
		fmt.Fprintf(&b, "pod %d: %s", i+1, p.Phase)
		if p.Phase == Running && p.Readiness != PodAvailable {
			// As kubectl's READY column would differ: not Ready, or
			// Ready for less than minReadySeconds.
			fmt.Fprintf(&b, " (%s)", readinessWords(p.Readiness))
		}
		if p.Phase == Terminating && p.WasRunning {
			b.WriteString(" (was running)")
		}
		if p.Node != 0 {
			fmt.Fprintf(&b, " on %s", u.Nodes[p.Node-1].Name)
		}
		if p.NominatedNode != 0 {
			fmt.Fprintf(&b, " nominated to %s", u.Nodes[p.NominatedNode-1].Name)
		}
		if u.StatefulSetPod(p) {
			fmt.Fprintf(&b, " statefulset %s pod %s revision %d", u.Deployments[p.Owner-1].Name, u.StatefulPodName(p), p.RS)
		} else if p.Owner != 0 && u.IsJob(int(p.Owner)-1) {
			fmt.Fprintf(&b, " job %s", u.Deployments[p.Owner-1].Name)
			if p.Ordinal != 0 {
				fmt.Fprintf(&b, " index %d", p.IndexOf())
			}
		} else if p.Owner != 0 {
			fmt.Fprintf(&b, " deployment %s rs %d", u.Deployments[p.Owner-1].Name, p.RS)
		}
		fmt.Fprintf(&b, " cpu %d", p.CPU)
		if _, mem := u.Templates[p.Template].StartUsage(); p.Memory != mem && u.HasMemoryChange() {
			fmt.Fprintf(&b, " mem %d", p.Memory)
		}
		if p.Pattern != 0 && len(u.Templates[p.Template].Pattern) > 0 {
			fmt.Fprintf(&b, " pattern %d", p.Pattern)
		}
		switch {
		case p.Restarts == 0:
		case u.RestartCap() == 1:
			b.WriteString(" restarted")
		case p.Restarts == MaxRestarts:
			fmt.Fprintf(&b, " restarts %d+", p.Restarts)
		default:
			fmt.Fprintf(&b, " restarts %d", p.Restarts)
		}
		b.WriteByte('\n')
	}
	for d := range s.Deps {
		ds := &s.Deps[d]
		if !ds.Active {
			fmt.Fprintf(&b, "%s %s: inactive\n", u.KindWord(d, false), u.Deployments[d].Name)
			continue
		}
		c := Counts(s, d)
		spec := "spec"
		if u.IsJob(d) {
			spec = "parallelism"
		}
		fmt.Fprintf(&b, "%s %s: %s %d running %d pending %d terminating %d", u.KindWord(d, false), u.Deployments[d].Name,
			spec, ds.Replicas, c.Running, c.Pending, c.Terminating)
		if c.Available != c.Running {
			// Only when readiness separates them (readiness.go).
			fmt.Fprintf(&b, " ready %d available %d", c.Ready, c.Available)
		}
		if u.IsJob(d) {
			describeJob(&b, u, s, d)
		}
		if u.IsStatefulSet(d) {
			describeRevisions(&b, ds)
		}
		if ds.QuotaRefused != 0 {
			fmt.Fprintf(&b, " quota-refused %s", u.Templates[ds.QuotaRefused-1].Name)
		}
		if u.IsPaused(s, d) {
			b.WriteString(" paused")
		}
		if ds.RS[0].Replicas > 0 && ds.RS[1].Replicas > 0 {
			// Mid-rollout, a scaling event the controller has not seen yet.
			if a := ds.Annotations(u); a.Desired != max(0, int(ds.Replicas)) {
				fmt.Fprintf(&b, " desired-replicas %d", a.Desired)
			}
		}
		if ds.HPA != 0 {
			h := u.HPAs[ds.HPA-1]
			if len(h.Ambiguous) > 0 {
				b.WriteString(" hpas")
				for i, x := range h.Ambiguous {
					if i > 0 {
						b.WriteByte(',')
					}
					fmt.Fprintf(&b, " %s %d..%d", x.Name, x.Min, x.Max)
				}
			} else {
				fmt.Fprintf(&b, " hpa %d..%d", h.Min, h.Max)
			}
			if w := h.ScaleDownStabilizationSyncs; w > 0 {
				describeWindow(&b, ds, w)
			}
			if h.Behavior != nil {
				describeBehaviorMemory(&b, ds)
			}
		}
		b.WriteByte('\n')
	}
	for q := Queue(0); q < NumQueues; q++ {
		if len(s.Queues[q]) > 0 {
			fmt.Fprintf(&b, "queue %s: %v\n", q, s.Queues[q])
		}
	}
	if s.Atomic == AtomicScheduler {
		b.WriteString("atomic: scheduler draining\n")
	}
	if s.DeschedulerPending {
		b.WriteString("descheduler: pending\n")
	}
	if s.Failed != NoFailure {
		if s.Failed == FailBound {
			fmt.Fprintf(&b, "failed: %s (%s)\n", s.Failed, Bound(s.FailedArg))
		} else {
			fmt.Fprintf(&b, "failed: %s (%d)\n", s.Failed, s.FailedArg)
		}
	}
	return b.String()
}

// describeWindow renders an HPA's stabilisation memory: the highest
// recommendations of the current and the w previous sync periods (newest
// first; 0 = none that still matters), and whether the last
// recommendation was held back.
func describeWindow(b *strings.Builder, ds *DeploymentState, w int) {
	if !ds.HPASeen {
		b.WriteString(" window unseen")
		return
	}
	b.WriteString(" window [")
	for k, r := range ds.HPAWindow[:w+1] {
		if k > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprint(b, r)
	}
	b.WriteByte(']')
	if ds.HPAHeld {
		b.WriteString(" held")
	}
}

// describeBehaviorMemory renders the memory of an HPA with behavior
// (HPAMemory.Describe), and whether the last outcome was held back.
func describeBehaviorMemory(b *strings.Builder, ds *DeploymentState) {
	var m HPAMemory
	if err := DecodeHPAMemory(ds.HPAMemory, &m); err != nil {
		b.WriteString(" memory invalid")
		return
	}
	b.WriteString(m.Describe())
	if ds.HPAHeld {
		b.WriteString(" held")
	}
}
