package model

// Pod readiness. A Running pod is Ready and Available unless its template
// delays it: a readinessProbe, a startupProbe or readinessGates make the
// kubelet report it Running but not Ready until a later step (the probe
// succeeds, the gate's condition is set), and its workload's
// spec.minReadySeconds keeps a Ready pod from counting as available
// (IsPodAvailable) until a further step. PodState.Readiness holds where
// a Running pod is; its zero value is Ready and Available, so a universe
// without such templates never writes it and encodes as without it.

// Readiness is a Running pod's Ready condition and availability.
type Readiness uint8

const (
	// PodAvailable: Ready for at least minReadySeconds (IsPodAvailable),
	// or Ready with minReadySeconds 0. Every pod that is neither Running
	// nor terminating after running carries it too; of a terminating pod
	// only whether it was Ready when its deletion began is kept.
	PodAvailable Readiness = iota
	// PodNotReady: Running, the Ready condition False (a probe or gate
	// has not passed yet, or the node lifecycle controller marked the pod
	// not Ready on a node that is not Ready).
	PodNotReady
	// PodReadyNotAvailable: Ready, for less than minReadySeconds.
	PodReadyNotAvailable
)

func (r Readiness) String() string {
	switch r {
	case PodAvailable:
		return "Available"
	case PodNotReady:
		return "NotReady"
	case PodReadyNotAvailable:
		return "Ready"
	}
	return "Readiness(?)"
}

// Ready is IsPodReady of a Running pod: its Ready condition is True.
func (p *PodState) Ready() bool { return p.Phase == Running && p.Readiness != PodNotReady }

// Available is IsPodAvailable: Running, Ready, and for minReadySeconds.
func (p *PodState) Available() bool { return p.Phase == Running && p.Readiness == PodAvailable }

// DelaysReadiness reports whether pods of the template do not start Ready
// and Available at once (a probe, a readiness gate or minReadySeconds).
func (t *PodTemplate) DelaysReadiness() bool { return t.ProbesReadiness || t.MinReadySeconds > 0 }

// StartReadiness is the readiness a pod of template t has when its
// kubelet starts it: not Ready while a probe or gate has to pass, Ready
// but not yet available under minReadySeconds, else available at once.
func (t *PodTemplate) StartReadiness() Readiness { return t.readinessAfter(true) }

// readinessAfter is a pod's readiness once its containers run; probing:
// a probe or gate must still pass.
func (t *PodTemplate) readinessAfter(probing bool) Readiness {
	switch {
	case probing && t.ProbesReadiness:
		return PodNotReady
	case t.MinReadySeconds > 0:
		return PodReadyNotAvailable
	}
	return PodAvailable
}

// NextReadiness is the readiness a Running pod of template t with
// readiness r reaches at its next readiness step: a NotReady pod becomes
// Ready (and Available without minReadySeconds), a Ready one Available.
func (t *PodTemplate) NextReadiness(r Readiness) Readiness {
	if r == PodNotReady {
		return t.readinessAfter(false)
	}
	return PodAvailable
}

// HasReadiness reports whether some template delays readiness: the only
// universes whose pods ever leave PodAvailable, and the only ones whose
// readiness steps and node-lifecycle marks have any work.
func (u *Universe) HasReadiness() bool { return u.readiness }

// MarkPodsNotReady is the node lifecycle controller's MarkPodsNotReady
// for node n (index): every Running pod bound to it, and every pod that
// ran there and is terminating, gets Ready False. It
// returns how many pods changed. Universes without readiness delays skip
// it (HasReadiness): the kubelet reports their pods Ready again as soon
// as the node is, which no controller of the model can observe between
// two steps, so marking them would split states for nothing.
func MarkPodsNotReady(u *Universe, s *State, n int) int {
	if !u.readiness {
		return 0
	}
	var changed owners
	marked := 0
	for i := range s.Pods {
		p := &s.Pods[i]
		if int(p.Node) == n+1 && (p.Phase == Running || p.Phase == Terminating && p.WasRunning) && p.Readiness != PodNotReady {
			p.Readiness = PodNotReady
			marked++
			changed.add(p)
		}
	}
	changed.wake(u, s)
	return marked
}

// ReportPodsReady is what the kubelet of node n reports when the node is
// Ready again: its pods without a probe or gate are Ready at once
// (Available after minReadySeconds); pods with one wait for their probe's
// next success, a readiness step.
func ReportPodsReady(u *Universe, s *State, n int) {
	if !u.readiness {
		return
	}
	var changed owners
	for i := range s.Pods {
		p := &s.Pods[i]
		if int(p.Node) == n+1 && p.Phase == Running && p.Readiness == PodNotReady && !u.Templates[p.Template].ProbesReadiness {
			p.Readiness = u.Templates[p.Template].readinessAfter(true)
			changed.add(p)
		}
	}
	changed.wake(u, s)
}

// ReadinessChanged wakes the controllers that read the readiness of pod p,
// which has just changed: its Deployment's controller while a rollout
// waits for available pods (the kubelet's start does the same), a
// StatefulSet's controller always (it waits for Running and Ready pods),
// and the HPA (an unready pod's CPU is not a sample).
func ReadinessChanged(u *Universe, s *State, p int) {
	var o owners
	o.add(&s.Pods[p])
	o.wake(u, s)
}

// owners is a set of deployments, by index, whose pods changed readiness.
type owners [4]uint64

func (o *owners) add(p *PodState) {
	if d := int(p.Owner) - 1; d >= 0 {
		o.addOwner(d)
	}
}

// addOwner adds deployment d.
func (o *owners) addOwner(d int) { o[d>>6] |= 1 << (d & 63) }

// queue queues the deployments of o for their controller and, with an
// HPA, for the HPA, in index order (an order that pod slots, which the
// symmetry reduction permutes, do not decide); it reports whether o had
// any.
func (o *owners) queue(u *Universe, s *State) bool {
	queued := false
	for d := range s.Deps {
		if o[d>>6]&(1<<(d&63)) == 0 {
			continue
		}
		queued = true
		s.Enqueue(DeploymentQueue, d)
		if u.HasHPA {
			s.EnqueueHPA(u, d)
		}
	}
	return queued
}

// wake queues the deployments of o in index order (an order that pod
// slots, which the symmetry reduction permutes, do not decide).
func (o *owners) wake(u *Universe, s *State) {
	for d := range s.Deps {
		if o[d>>6]&(1<<(d&63)) == 0 {
			continue
		}
		if u.IsStatefulSet(d) || RolloutInProgress(s, d) {
			s.Enqueue(DeploymentQueue, d)
		}
		if u.HasHPA {
			s.EnqueueHPA(u, d)
		}
	}
}

// RolloutInProgress reports whether deployment d still has an old
// ReplicaSet with replicas or pods: the deployment controller then waits
// for new pods to become available before scaling the old set down.
func RolloutInProgress(s *State, d int) bool {
	ds := &s.Deps[d]
	old := 1 - int(ds.Cur)
	if ds.RS[old].Template == 0 {
		return false
	}
	if ds.RS[old].Replicas > 0 {
		return true
	}
	owner := uint8(d + 1)
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Phase != Free && p.Owner == owner && int(p.RS) == old {
			return true
		}
	}
	return false
}

// readinessWords describes a Running pod's readiness other than
// PodAvailable, for snapshots.
func readinessWords(r Readiness) string {
	if r == PodNotReady {
		return "not Ready"
	}
	return "Ready, not yet Available"
}

// ReadinessPending reports whether pod slot i has a readiness step to
// come: a Running pod not Ready on a Ready node (its kubelet's probe or
// gate can pass; the kubelet of a node that is not Ready reports
// nothing), or Ready but not yet available (minReadySeconds can pass).
func ReadinessPending(s *State, i int) bool {
	p := &s.Pods[i]
	if p.Phase != Running {
		return false
	}
	switch p.Readiness {
	case PodReadyNotAvailable:
		return true
	case PodNotReady:
		return p.Node != 0 && s.Nodes[p.Node-1].Status.Health() == Ready
	}
	return false
}

// ReadinessStepEnabled reports whether pod slot i's readiness step may
// come in s: a probe's success and minReadySeconds take seconds (a
// probe's initial delay and period), and time passes only at quiescence
// (ControllerAndHPAQueuesEmpty), as for the HPA's sync periods and a
// drain's retries (docs/model.md): the controllers' work is instant next
// to it.
func ReadinessStepEnabled(s *State, i int) bool {
	if !ReadinessPending(s, i) {
		return false
	}
	return s.ControllerAndHPAQueuesEmpty()
}

// ChooseReadinessPod chooses the pod whose readiness step comes next among
// those whose step is enabled (ReadinessStepEnabled), pods no step can
// tell apart being one choice (the lowest slot of each; ties.go): probes
// and minReadySeconds run on every pod's own clock, so any of them may be
// next. It returns -1 when none is.
func (tx *Tx) ChooseReadinessPod(s *State) int {
	var buf [16]int
	pending := buf[:0]
	for i := range s.Pods {
		if ReadinessStepEnabled(s, i) {
			pending = append(pending, i)
		}
	}
	if len(pending) == 0 {
		return -1
	}
	groups := identicalGroups(s, pending)
	return groups[tx.Choose(len(groups))][0]
}

// AnyReadinessStep reports whether some pod's readiness step is enabled
// (ReadinessStepEnabled); never in a universe without readiness delays.
func AnyReadinessStep(u *Universe, s *State) bool {
	if !u.readiness {
		return false
	}
	for i := range s.Pods {
		if ReadinessStepEnabled(s, i) {
			return true
		}
	}
	return false
}

// AnyReadinessPending reports whether some pod has a readiness step to
// come (ReadinessPending); never in a universe without readiness delays.
func AnyReadinessPending(u *Universe, s *State) bool {
	if !u.readiness {
		return false
	}
	for i := range s.Pods {
		if ReadinessPending(s, i) {
			return true
		}
	}
	return false
}

// ReadyAtStart returns u with every template's readiness delays dropped
// (no probe, gate or minReadySeconds holds a pod back): its pods are
// Ready and Available as they start, as in a universe without them. The
// verdicts then cover only runs in which every probe passes at once,
// which a caller must state (compose's assumptions). u itself is not
// changed; a universe without delays is returned as it is.
func (u *Universe) ReadyAtStart() *Universe {
	if !u.readiness {
		return u
	}
	c := *u
	c.Templates = append([]PodTemplate(nil), u.Templates...)
	for i := range c.Templates {
		c.Templates[i].ProbesReadiness, c.Templates[i].MinReadySeconds = false, 0
	}
	c.readiness = false
	c.readyAtStart = true
	return &c
}

// ReadinessAssumed reports whether u is ReadyAtStart's: some template
// delayed readiness and the delays were dropped.
func (u *Universe) ReadinessAssumed() bool { return u.readyAtStart }
