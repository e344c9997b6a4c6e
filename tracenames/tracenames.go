// Package tracenames names the pods of a trace and puts the names in the
// trace's lines.
//
// The model keeps pods in storage slots and reuses a slot for a new pod,
// so a slot number does not name a pod: "pod 3" may be deleted and a
// different "pod 3" added a step later. A step function sees only the
// current state and logs a model.PodRef; a Namer follows the pods through
// the states of one trace, gives each pod incarnation a name once,
// "<deployment>-<n>" ("pod-<n>" for a bare pod, n counting the pods of the
// deployment in the order they appear, never reused within the trace;
// "<statefulset>-<ordinal>" for a StatefulSet's pod, as Kubernetes names it;
// a running cluster's pod of the initial state keeps its own name, Start),
// and resolves the references of every step's lines to those names.
package tracenames

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/kivi-go/kivi/model"
)

// Namer follows the pods of one trace from state to state. Feed it the
// states in order: Advance (or Step) for the initial state, then for the
// state after each step.
type Namer struct {
	u *model.Universe
	// pods, names and evicted are the current state's slots, the name of
	// the pod in each slot ("" when free) and whether it was evicted;
	// prevPods and prevNames the previous state's.
	pods, prevPods   []model.PodState
	names, prevNames []string
	evicted          []bool
	count            map[string]int // pods named so far, per prefix
}

// New returns a Namer for a trace of u.
func New(u *model.Universe) *Namer {
	return &Namer{u: u, count: map[string]int{}}
}

// SameIncarnation reports whether slot contents b can be the pod a a step
// later. Pods never change owner, template or ReplicaSet, never move once
// bound, and never go back from Running to Pending or from Terminating to
// anything but Free; the deployment controller may fill a slot that the
// kubelet freed in the same step, so a slot that is occupied in both
// states may still hold a new pod.
func SameIncarnation(a, b model.PodState) bool {
	switch {
	case a.Phase == model.Free || b.Phase == model.Free:
		return false
	case a.Owner != b.Owner || a.RS != b.RS || a.Template != b.Template || a.Ordinal != b.Ordinal:
		return false
	case a.Node != 0 && a.Node != b.Node:
		return false
	case a.Phase == model.Running && b.Phase == model.Pending:
		return false
	case a.Phase == model.Terminating && b.Phase != model.Terminating:
		return false
	case a.Phase == model.Failed && b.Phase != model.Failed:
		return false
	}
	return true
}

// Advance names the pods of s, the state after the next step of the
// trace (or its initial state). evicting says that pods becoming
// Terminating in this step were evicted: the step is not their own
// deployment controller's scale-down or rollout.
func (nm *Namer) Advance(s *model.State, evicting bool) { nm.advance(s, evicting, false) }

// Start names the pods of a run's initial state: those the input names
// (a running cluster's pods, model.InitialPod.Name) keep their names.
func (nm *Namer) Start(s *model.State) { nm.advance(s, false, true) }

func (nm *Namer) advance(s *model.State, evicting, initial bool) {
	nm.prevPods = append(nm.prevPods[:0], nm.pods...)
	nm.prevNames = append(nm.prevNames[:0], nm.names...)
	names := make([]string, len(s.Pods))
	evicted := make([]bool, len(s.Pods))
	for i, p := range s.Pods {
		if p.Phase == model.Free {
			continue
		}
		if i < len(nm.pods) && SameIncarnation(nm.pods[i], p) {
			names[i] = nm.names[i]
			evicted[i] = nm.evicted[i]
			if p.Phase == model.Terminating && nm.pods[i].Phase != model.Terminating {
				evicted[i] = evicting
			}
			continue
		}
		// A pod that is Terminating when first seen (in the initial
		// state) was not evicted by anything the trace shows.
		if initial && i < len(nm.u.InitialPodNames) && nm.u.InitialPodNames[i] != "" {
			names[i] = nm.u.InitialPodNames[i]
			continue
		}
		names[i] = nm.fresh(p)
	}
	nm.pods = append(nm.pods[:0], s.Pods...)
	nm.names, nm.evicted = names, evicted
}

// fresh names a pod seen for the first time.
func (nm *Namer) fresh(p model.PodState) string {
	if name := nm.u.StatefulPodName(&p); name != "" {
		// A StatefulSet pod's name is its identity: each incarnation of
		// an ordinal has the same name, as in Kubernetes.
		return name
	}
	prefix := "pod"
	if p.Owner != 0 && int(p.Owner) <= len(nm.u.Deployments) {
		prefix = nm.u.Deployments[p.Owner-1].Name
		if p.Ordinal != 0 {
			// An Indexed Job's pod: `<job>-<index>-<n>`, as upstream's
			// `<job>-<index>-<random suffix>`.
			prefix += "-" + strconv.Itoa(p.IndexOf())
		}
	}
	for {
		nm.count[prefix]++
		name := fmt.Sprintf("%s-%d", prefix, nm.count[prefix])
		// A running cluster's pod keeps its own name, which a new pod
		// must not take.
		if !slices.Contains(nm.u.InitialPodNames, name) {
			return name
		}
	}
}

// Name is the name of the pod in slot i of the current state, "" when
// the slot is free.
func (nm *Namer) Name(i int) string {
	if i < 0 || i >= len(nm.names) {
		return ""
	}
	return nm.names[i]
}

// Evicted reports whether the pod in slot i of the current state is
// Terminating because something other than its own deployment
// controller deleted it.
func (nm *Namer) Evicted(i int) bool { return i >= 0 && i < len(nm.evicted) && nm.evicted[i] }

// Step advances to s, the state after a step, and returns the step's
// lines with their pods named.
func (nm *Namer) Step(s *model.State, evicting bool, lines []model.Line) []model.Line {
	nm.Advance(s, evicting)
	return nm.Resolve(lines)
}

// Resolve names the pods of lines of the step that led to the current
// state. A reference is to the pod as it was when the line was logged:
// the pod in its slot after the step if that can be the same pod (a pod
// created or changed by the step), else the pod in the slot before the
// step (a pod the step removed, or replaced by a new one).
func (nm *Namer) Resolve(lines []model.Line) []model.Line {
	out := make([]model.Line, len(lines))
	for i, l := range lines {
		out[i] = l.Resolve(nm.name)
	}
	return out
}

func (nm *Namer) name(r model.PodRef) string {
	i := r.Slot
	after := i < len(nm.pods) && nm.names[i] != ""
	before := i < len(nm.prevPods) && nm.prevNames[i] != ""
	switch {
	case after && SameIncarnation(r.Pod, nm.pods[i]):
		return nm.names[i]
	case before && SameIncarnation(nm.prevPods[i], r.Pod):
		return nm.prevNames[i]
	case before && r.Pod.Phase == model.Free:
		// Logged after the step freed the slot.
		return nm.prevNames[i]
	case after:
		return nm.names[i]
	case before:
		return nm.prevNames[i]
	}
	// A pod that came and went within the step: no state shows it.
	return nm.fresh(r.Pod)
}
