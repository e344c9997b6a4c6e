package pdbdiff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// Kind is a workload's kind.
type Kind int

const (
	Deployment Kind = iota
	StatefulSet
	Job
	// Bare: pods without an owner.
	Bare
)

func (k Kind) String() string { return [...]string{"Deployment", "StatefulSet", "Job", "bare"}[k] }

// Workload is one owner of pods.
type Workload struct {
	Kind Kind
	// Replicas is spec.replicas (a Job's parallelism); unused for Bare.
	Replicas int
	// Namespace is 0 ("default") or 1 ("other").
	Namespace int
	// Tier is the value of the pods' tier label.
	Tier string
}

// PodState is a pod's phase, readiness and deletion as a Case writes it.
type PodState int

const (
	PendingUnbound PodState = iota
	// PendingBound: bound, the kubelet has not started it.
	PendingBound
	// Ready: Running, Ready for long (available).
	Ready
	// ReadyNotAvailable: Running, Ready for less than minReadySeconds.
	ReadyNotAvailable
	// NotReady: Running, its Ready condition False.
	NotReady
	// TerminatingReady, TerminatingNotReady: Running and deleted.
	TerminatingReady
	TerminatingNotReady
	// TerminatingPending: bound, Pending and deleted.
	TerminatingPending
	// Failed: rejected by the kubelet.
	Failed
	numPodStates
)

func (p PodState) String() string {
	return [...]string{"Pending (unbound)", "Pending", "Running Ready", "Running Ready (not yet available)", "Running NotReady",
		"Terminating (was Ready)", "Terminating (was NotReady)", "Terminating (was Pending)", "Failed"}[p]
}

// Pod is one pod of a Case.
type Pod struct {
	Workload int
	// OldRevision: a Deployment's pod of its second ReplicaSet.
	OldRevision bool
	State       PodState
}

// SelectorKind is what a budget's selector picks.
type SelectorKind int

const (
	// SelectWorkload: app=<the workload's name>.
	SelectWorkload SelectorKind = iota
	// SelectTier: tier=<Tier>, pods of several workloads.
	SelectTier
	// SelectAll: an empty selector.
	SelectAll
	// SelectNone: no selector (policy/v1: no pod).
	SelectNone
)

// PDB is one budget of a Case.
type PDB struct {
	Namespace int
	Selector  SelectorKind
	// Workload or Tier, by Selector.
	Workload int
	Tier     string
	// MinAvailable and MaxUnavailable as a manifest writes them ("2",
	// "50%"); "" is unset.
	MinAvailable, MaxUnavailable string
	// Policy is spec.unhealthyPodEvictionPolicy; "" is unset.
	Policy string
}

// Case is one comparison.
type Case struct {
	Workloads []Workload
	Pods      []Pod
	PDBs      []PDB
	// Evictions are pods evicted one after another.
	Evictions []int
	// Resync: the disruption controller syncs every budget between two
	// evictions; otherwise each eviction sees the status the ones before
	// it wrote.
	Resync bool
}

// Namespaces are the namespaces by index.
var Namespaces = [2]string{"default", "other"}

func workloadName(w int) string { return fmt.Sprint("w", w) }

// PodName is the name of pod i (both sides).
func PodName(i int) string { return fmt.Sprint("p", i) }

func pdbName(b int) string { return fmt.Sprint("pdb", b) }

// matchLabels is budget b's selector (nil: none).
func (b PDB) matchLabels() map[string]string {
	switch b.Selector {
	case SelectWorkload:
		return map[string]string{"app": workloadName(b.Workload)}
	case SelectTier:
		return map[string]string{"tier": b.Tier}
	case SelectAll:
		return map[string]string{}
	}
	return nil
}

func (c *Case) String() string {
	var b strings.Builder
	for i, w := range c.Workloads {
		fmt.Fprintf(&b, "%s: %s replicas %d namespace %s tier %s\n", workloadName(i), w.Kind, w.Replicas, Namespaces[w.Namespace], w.Tier)
	}
	for i, p := range c.Pods {
		old := ""
		if p.OldRevision {
			old = " (old ReplicaSet)"
		}
		fmt.Fprintf(&b, "%s: %s of %s%s\n", PodName(i), p.State, workloadName(p.Workload), old)
	}
	for i, p := range c.PDBs {
		sel := "no selector"
		switch p.Selector {
		case SelectWorkload:
			sel = "app=" + workloadName(p.Workload)
		case SelectTier:
			sel = "tier=" + p.Tier
		case SelectAll:
			sel = "every pod"
		}
		fmt.Fprintf(&b, "%s: namespace %s %s minAvailable %q maxUnavailable %q policy %q\n", pdbName(i), Namespaces[p.Namespace], sel,
			p.MinAvailable, p.MaxUnavailable, p.Policy)
	}
	var ev []string
	for _, i := range c.Evictions {
		ev = append(ev, PodName(i))
	}
	fmt.Fprintf(&b, "evict %s (controller resyncs between evictions: %v)\n", strings.Join(ev, " "), c.Resync)
	return b.String()
}

// Status is a budget's status as both sides report it.
type Status struct {
	CurrentHealthy, DesiredHealthy, ExpectedPods, DisruptionsAllowed int
	SyncFailed                                                       bool
}

// Answer is the Eviction API's answer to one eviction.
type Answer struct {
	Outcome model.EvictionOutcome
	// Reason is the refusal's message (model.Eviction.Reason; upstream
	// the status message and the disruption-budget cause), "" when
	// allowed.
	Reason string
}

func (a Answer) String() string {
	switch a.Outcome {
	case model.EvictionAllowed:
		return "allowed"
	case model.EvictionBudgetExhausted:
		return "429 " + a.Reason
	}
	return "500 " + a.Reason
}

// Result is one side's answers.
type Result struct {
	Statuses []Status
	// Alone is each pod's eviction asked alone against Statuses.
	Alone []Answer
	// Sequence answers Case.Evictions in order.
	Sequence []Answer
}

// Equal: the same statuses and answers.
func (r Result) Equal(o Result) bool {
	return slices.Equal(r.Statuses, o.Statuses) && slices.Equal(r.Alone, o.Alone) && slices.Equal(r.Sequence, o.Sequence)
}

func (r Result) String() string {
	var b strings.Builder
	for i, s := range r.Statuses {
		fmt.Fprintf(&b, "  %s: %+v\n", pdbName(i), s)
	}
	for i, a := range r.Alone {
		fmt.Fprintf(&b, "  evict %s alone: %s\n", PodName(i), a)
	}
	for i, a := range r.Sequence {
		fmt.Fprintf(&b, "  sequence %d: %s\n", i, a)
	}
	return b.String()
}

// ToModel builds the Case's universe and state: workload i is
// deployment slot i with template i (a bare workload's slot is an unused
// Deployment of no replicas: its pods have no owner), pod i is slot i.
func (c *Case) ToModel() (*model.Universe, *model.State, error) {
	b := build.New()
	b.U.Options.KiviHostnameAlias = false
	b.AddNodes(1, build.Node().Name("n0").CPU(1000).Mem(1000).MaxPods(1000))
	for i, w := range c.Workloads {
		t := b.AddTemplate(build.Template(workloadName(i)).Namespace(Namespaces[w.Namespace]).Requests(1, 1).
			Label("app", workloadName(i)).Label("tier", w.Tier))
		var d int
		switch w.Kind {
		case StatefulSet:
			d = b.AddStatefulSet(workloadName(i), t, w.Replicas)
		case Job:
			d = b.AddJob(workloadName(i), t, w.Replicas)
		case Bare:
			d = b.AddDeployment(workloadName(i), t, 0)
		default:
			d = b.AddDeployment(workloadName(i), t, w.Replicas)
		}
		b.U.Deployments[d].Namespace = Namespaces[w.Namespace]
	}
	for _, p := range c.Pods {
		b.PendingPod(p.Workload, 0)
	}
	for i, p := range c.PDBs {
		// As model.Cluster's budget declarations compile.
		pdb := model.PodDisruptionBudget{Name: pdbName(i), Namespace: Namespaces[p.Namespace]}
		if ml := p.matchLabels(); ml != nil {
			pdb.Selector = &model.Selector{MatchLabels: ml}
		}
		for _, f := range []struct {
			v   string
			out **model.IntOrPercent
		}{{p.MinAvailable, &pdb.MinAvailable}, {p.MaxUnavailable, &pdb.MaxUnavailable}} {
			if f.v == "" {
				continue
			}
			v, err := model.ParseIntOrPercent(f.v)
			if err != nil {
				return nil, nil, err
			}
			*f.out = &v
		}
		if p.Policy == "AlwaysAllow" {
			pdb.UnhealthyPodEvictionPolicy = model.AlwaysAllow
		}
		b.U.PDBs = append(b.U.PDBs, pdb)
	}
	b.Slots = len(c.Pods) + 1
	u, s, err := b.Build(0)
	if err != nil {
		return nil, nil, err
	}
	for i, p := range c.Pods {
		ps := &s.Pods[i]
		if c.Workloads[p.Workload].Kind == Bare {
			ps.Owner = 0
		}
		if p.OldRevision {
			ps.RS = 1
			s.Deps[p.Workload].RS[1].Template = s.Deps[p.Workload].RS[0].Template
		}
		switch p.State {
		case PendingUnbound:
			ps.Node = 0
		case Ready:
			ps.Phase = model.Running
		case ReadyNotAvailable:
			ps.Phase, ps.Readiness = model.Running, model.PodReadyNotAvailable
		case NotReady:
			ps.Phase, ps.Readiness = model.Running, model.PodNotReady
		case TerminatingReady:
			ps.Phase, ps.WasRunning = model.Terminating, true
		case TerminatingNotReady:
			ps.Phase, ps.WasRunning, ps.Readiness = model.Terminating, true, model.PodNotReady
		case TerminatingPending:
			ps.Phase = model.Terminating
		case Failed:
			ps.Phase = model.Failed
		}
	}
	return u, s, nil
}

// Plant changes the model's universe or state before it answers: the
// planted bugs of TestPlantedBugs. Nil plants nothing.
type Plant func(u *model.Universe, s *model.State)

// Model is the model's answer: Universe.Disruption for every budget,
// CheckEviction for every pod alone, and the sequence, each eviction
// checked against the state the ones before it left (an allowed one
// deletes the pod as the API server does: a terminal pod at once, any
// other turns Terminating, State.RequestDeletion). The model has one
// answer whatever Case.Resync says.
func (c *Case) Model(plant Plant) (Result, error) {
	u, s, err := c.ToModel()
	if err != nil {
		return Result{}, err
	}
	if plant != nil {
		plant(u, s)
	}
	var r Result
	for b := range u.PDBs {
		st := u.Disruption(s, b)
		r.Statuses = append(r.Statuses, Status{st.CurrentHealthy, st.DesiredHealthy, st.ExpectedPods, st.DisruptionsAllowed, st.SyncFailed})
	}
	answer := func(i int) Answer {
		ev := u.CheckEviction(s, i)
		return Answer{Outcome: ev.Outcome, Reason: ev.Reason(u)}
	}
	for i := range c.Pods {
		r.Alone = append(r.Alone, answer(i))
	}
	for _, i := range c.Evictions {
		a := answer(i)
		r.Sequence = append(r.Sequence, a)
		if a.Outcome != model.EvictionAllowed {
			continue
		}
		if s.Pods[i].Phase == model.Failed {
			s.Pods[i] = model.PodState{}
		} else {
			s.RequestDeletion(i)
		}
	}
	return r, nil
}
