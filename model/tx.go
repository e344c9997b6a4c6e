package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Line is one trace line of a step: "[Component] Message".
//
// A step function sees only the current state, where a pod is a storage
// slot that a later pod may reuse, so it cannot name pods: it logs a
// PodRef, which Log turns into a placeholder in Message and keeps in
// Pods. The trace renderer, which follows pods through the states of a
// trace, puts the pod's name in its place (Resolve; package tracenames).
type Line struct {
	Component string
	Message   string
	// Pods are the pods the placeholders of Message refer to, in the
	// order of the placeholders' indexes.
	Pods []PodRef
}

// String renders the line, with pods named by their slot ("pod#3") when
// the line was not resolved: only for debugging, as the slot is no name.
func (l Line) String() string {
	l = l.Resolve(func(r PodRef) string { return "pod#" + strconv.Itoa(r.Slot+1) })
	return "[" + l.Component + "] " + l.Message
}

// PodRef refers to a pod in a trace line: its slot and the pod as it was
// when the line was logged, so that the renderer can tell the pod that
// left a slot from the one that took it in the same step.
type PodRef struct {
	Slot int
	Pod  PodState
}

// PodRef returns a reference to the pod in slot p of s, for tx.Log.
func (s *State) PodRef(p int) PodRef { return PodRef{Slot: p, Pod: s.Pods[p]} }

// podPlaceholder is what Log writes for the k-th pod of a line, whatever
// the verb. Pod names are "<deployment>-<n>" and Kubernetes names have no
// braces, so the placeholder cannot be mistaken for text.
type podPlaceholder int

const placeholderPrefix = "{pod:"

func (k podPlaceholder) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "%s%d}", placeholderPrefix, int(k))
}

// Resolve returns the line with every pod placeholder replaced by
// name(ref) and no references left.
func (l Line) Resolve(name func(PodRef) string) Line {
	if len(l.Pods) == 0 {
		return l
	}
	var b strings.Builder
	msg := l.Message
	for {
		i := strings.Index(msg, placeholderPrefix)
		if i < 0 {
			break
		}
		j := strings.IndexByte(msg[i:], '}')
		k, err := strconv.Atoi(msg[i+len(placeholderPrefix) : i+max(j, 0)])
		if j < 0 || err != nil || k < 0 || k >= len(l.Pods) {
			b.WriteString(msg[:i+len(placeholderPrefix)])
			msg = msg[i+len(placeholderPrefix):]
			continue
		}
		b.WriteString(msg[:i])
		b.WriteString(name(l.Pods[k]))
		msg = msg[i+j+1:]
	}
	b.WriteString(msg)
	return Line{Component: l.Component, Message: b.String()}
}

// Tx is the context of one transition. Controllers and events write
// straight-line code and call Choose where the model branches; the System
// enumerates every sequence of choices by re-running the step (stateless
// re-execution), so a step function never needs to know how many
// successors it has.
//
// A Tx also collects the step's trace lines (only when tracing, so that the
// search allocates nothing for text) and its action marks.
type Tx struct {
	U *Universe
	// script holds the choices to replay, radix the number of options seen
	// at each choice point of the current run, pos the next choice point.
	script []int
	radix  []int
	pos    int
	// Marks are the actions this step performed that intents may watch
	// (Mark), each once.
	Marks []Mark
	// Lines is non-nil only when tracing.
	Lines   []Line
	tracing bool
	// orbits and orbitsOf serve the choices up to symmetry
	// (nodeorbits.go): baseLabels are orbitsOf's orbit labels (computed
	// on first use, valid while orbitsKnown), labels the current run's
	// copy, refined by its choices (fresh while labelsFresh), and
	// nextLabel the next unused label.
	orbits      NodeOrbits
	orbitsOf    *State
	baseLabels  []int
	labels      []int
	orbitsKnown bool
	labelsFresh bool
	nextLabel   int
	distinct    []int
	// nodeSet is ChooseNodeSet's result.
	nodeSet []int
	// labelSeen[l] == labelGen: label l was met in the current
	// ChooseNodeIndex call.
	labelSeen []uint32
	labelGen  uint32
	// Recall and Remember: point counts the run's Recall calls; memo is
	// what was remembered at the memoPoint-th call of an earlier run of
	// the step, made at choice point memoPos after the choices
	// memoPrefix, if remembered is set.
	point, memoPoint int
	memo             []int
	memoPos          int
	memoPrefix       []int
	remembered       bool
	// before is the state as the run's first removal of a Job's pod found
	// it (beforeJobPodRemovals), valid while beforeSet and for the state
	// beforeOf only.
	before    State
	beforeOf  *State
	beforeSet bool
}

// NewTx returns a transition context for u.
func NewTx(u *Universe) *Tx { return &Tx{U: u} }

// Begin prepares a run that replays the given choice script (nil for the
// first run) and enables tracing when trace is true. It starts a new
// step: what was remembered is forgotten.
func (tx *Tx) Begin(script []int, trace bool) {
	tx.script = append(tx.script[:0], script...)
	tx.remembered = false
	tx.Restart(trace)
}

// Restart prepares the next run of the same step after Advance, keeping
// the advanced choice script. The run must start from the same state as
// the step's earlier runs (a fresh copy of it): Recall relies on that.
func (tx *Tx) Restart(trace bool) {
	tx.radix = tx.radix[:0]
	tx.pos = 0
	tx.point = 0
	tx.Marks = tx.Marks[:0]
	tx.labelsFresh = false
	tx.beforeSet = false
	tx.tracing = trace
	if trace {
		tx.Lines = tx.Lines[:0]
		if tx.Lines == nil {
			tx.Lines = []Line{}
		}
	} else {
		tx.Lines = nil
	}
}

// Choose returns a choice in [0, n). During enumeration the first run takes
// 0 everywhere; Advance moves to the next combination.
func (tx *Tx) Choose(n int) int {
	if n <= 1 {
		return 0
	}
	c := 0
	if tx.pos < len(tx.script) {
		c = tx.script[tx.pos]
	} else {
		tx.script = append(tx.script, 0)
	}
	tx.radix = append(tx.radix, n)
	tx.pos++
	return c
}

// Recall and Remember let a step compute a costly result once for all
// its runs. The System re-runs a step once per combination of choices,
// every run from the same state; a step is a deterministic function of
// its state and its choices, so a run reaches its k-th Recall in the same
// state as every earlier run that made the same choices before that
// point. The scheduler thus scores the nodes once, not once per tied node.
//
// Recall marks a point of the run and returns what Remember kept at the
// same point of an earlier run of the current step (the same Recall
// count, after the same choices); ok is false when nothing applies, and
// the caller computes the result and passes it to Remember. xs is valid
// until the next Remember. Only the latest result is kept.
func (tx *Tx) Recall() (xs []int, ok bool) {
	tx.point++
	if !tx.remembered || tx.memoPoint != tx.point || tx.memoPos != tx.pos {
		return nil, false
	}
	for i, c := range tx.memoPrefix {
		if tx.script[i] != c {
			return nil, false
		}
	}
	return tx.memo, true
}

// Remember keeps xs as the result at the point of the last Recall, for
// the later runs of the current step (Begin forgets it).
func (tx *Tx) Remember(xs []int) {
	tx.memo = append(tx.memo[:0], xs...)
	tx.memoPoint, tx.memoPos = tx.point, tx.pos
	tx.memoPrefix = append(tx.memoPrefix[:0], tx.script[:tx.pos]...)
	tx.remembered = true
}

// Choices returns the choices of the last run (valid until Begin).
func (tx *Tx) Choices() []int { return tx.script[:tx.pos] }

// Advance computes the next choice script after a run, in depth-first
// order (the last choice varies fastest). It returns false when every
// combination has been produced.
func (tx *Tx) Advance() bool {
	for i := tx.pos - 1; i >= 0; i-- {
		if tx.script[i]+1 < tx.radix[i] {
			tx.script[i]++
			tx.script = tx.script[:i+1]
			return true
		}
	}
	return false
}

// Tracing reports whether trace lines are collected. Call sites test it
// before formatting, so that the search does not pay for text.
func (tx *Tx) Tracing() bool { return tx.tracing }

// Log adds a trace line (only when tracing). Deployments and nodes are
// logged by name (Universe.Deployments[d].Name, Universe.Nodes[n].Name),
// pods as a PodRef (State.PodRef), with any verb.
func (tx *Tx) Log(component, format string, args ...any) {
	if !tx.tracing {
		return
	}
	var pods []PodRef
	for i, a := range args {
		r, ok := a.(PodRef)
		if !ok {
			continue
		}
		if pods == nil {
			// A copy: the caller's slice is not ours to change.
			args = append([]any(nil), args...)
		}
		args[i] = podPlaceholder(len(pods))
		pods = append(pods, r)
	}
	tx.Lines = append(tx.Lines, Line{Component: component, Message: fmt.Sprintf(format, args...), Pods: pods})
}

// Mark records an action this step performed (once however often).
func (tx *Tx) Mark(m Mark) {
	if !slices.Contains(tx.Marks, m) {
		tx.Marks = append(tx.Marks, m)
	}
}

// Mark is an action on a workload that a step performed and an intent
// may watch: a loop of the state graph that repeats some marks forever is
// what the cycle intents look for (no_oscillation_eviction: evictions
// and starts of one workload's pods), and some monitors count them.
// Marks are exact: each names its kind and its workload.
type Mark struct {
	Kind MarkKind
	// Deployment is the workload (deployment index).
	Deployment int
}

// MarkKind is what a Mark records.
type MarkKind uint8

const (
	// Evicted: a controller or kubectl evicted a pod of the workload
	// (descheduler, taint manager, node controller, kubelet eviction or
	// preemption, kubectl drain): the pod was set Terminating by someone
	// other than its own workload controller.
	Evicted MarkKind = iota
	// Started: the kubelet started a pod of the workload.
	Started
	// Deleted: the kubelet removed a Terminating pod of the workload
	// (any cause; Kivi's eviction-cycle counter counts these).
	Deleted
	// Rejected: the kubelet rejected a pod of the workload at admission
	// (it went Failed without starting).
	Rejected
	// ScaledUp and ScaledDown: the workload's spec replicas rose or fell
	// (an HPA, kubectl scale or apply); the composition marks them for
	// the workloads an intent watches.
	ScaledUp
	ScaledDown
)

var markKindNames = [...]string{"evicted", "started", "deleted", "rejected", "scaled up", "scaled down"}

func (k MarkKind) String() string {
	if int(k) < len(markKindNames) {
		return markKindNames[k]
	}
	return fmt.Sprintf("mark kind %d", k)
}

// MarkEvicted is the mark of an eviction of a pod of deployment d.
func MarkEvicted(d int) Mark { return Mark{Evicted, d} }

// MarkStarted is the mark of a pod of deployment d being started.
func MarkStarted(d int) Mark { return Mark{Started, d} }

// MarkDeleted is the mark of a pod of deployment d being removed.
func MarkDeleted(d int) Mark { return Mark{Deleted, d} }

// MarkRejected is the mark of a pod of deployment d rejected at admission.
func MarkRejected(d int) Mark { return Mark{Rejected, d} }

// MarkScaledUp and MarkScaledDown are the marks of deployment d's spec
// replicas rising and falling.
func MarkScaledUp(d int) Mark   { return Mark{ScaledUp, d} }
func MarkScaledDown(d int) Mark { return Mark{ScaledDown, d} }

// HasMark reports whether marks holds m.
func HasMark(marks []Mark, m Mark) bool { return slices.Contains(marks, m) }

// Process is one actor of the model: a controller, an event or the init
// process. Enabled is its guard; Step performs one transition on s (a copy
// the caller owns), branching through tx.Choose. Both must be pure and
// deterministic functions of (universe, state, choices).
type Process interface {
	Name() string
	Enabled(u *Universe, s *State) bool
	Step(tx *Tx, s *State)
}

// WorkerLocal is implemented by processes that keep scratch memory
// between steps (buffers, remembered decisions): ForWorker returns the
// process one goroutine of the engine steps alone, so that the scratch
// needs no lock. Steps of the returned process must be those of the
// original. A process without it must be safe to step from several
// goroutines at once (pure processes are).
type WorkerLocal interface {
	ForWorker() Process
}

// EndChecker is implemented by processes that can be stuck at a location
// that is not a valid end (Kivi's invalid end states): ValidEnd reports
// whether the process may rest in s when nothing else can move.
type EndChecker interface {
	ValidEnd(u *Universe, s *State) bool
}

// StuckExplainer is implemented by EndCheckers that can say, for a state
// where ValidEnd is false, what they wait for.
type StuckExplainer interface {
	StuckReason(u *Universe, s *State) string
}

// beforeJobPodRemovals returns s as it was when this run of the step
// first removed a Job's pod (a copy taken then):
// a step that removes several pods of one Job (the kubelet's drain, a
// node's return, the pod garbage collector) decides each pod's failure
// against the Job as it was before the step, as one sync of the Job
// controller that finds them all gone decides them, so that the order in
// which the step walks the pods, their slot order, which the symmetry
// reduction permutes, decides nothing.
func (tx *Tx) beforeJobPodRemovals(s *State) *State {
	if !tx.beforeSet || tx.beforeOf != s {
		s.CopyTo(&tx.before)
		tx.beforeSet, tx.beforeOf = true, s
	}
	return &tx.before
}
