package preemptiondiff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/controllers/scheduler"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// ToModel builds the snapshot's universe and state: node i is model node
// i, app a is deployment a with template a, pod i is slot i, nominee k
// (deployment "nom<k>") is the slot after the pods' k-th, with its
// nomination, the pending pod (deployment "incoming") is the last slot
// and waits in the scheduling queue; a terminating pod is deleted
// (model.State.RequestDeletion) in the state built, marked as a
// preemption's victim first (model.MarkPreempted) when it is one.
func (s *Snapshot) ToModel() (*model.Universe, *model.State, int, error) {
	b := build.New()
	// Kubernetes' objects: no `hostname` alias, Kubernetes' lifecycle,
	// every tie explored.
	b.U.Options.KiviHostnameAlias = false
	for i, n := range s.Nodes {
		nb := build.Node().Name(NodeName(i)).CPU(n.MilliCPU).Mem(n.MemMiB).MaxPods(n.MaxPods)
		if n.Zone != "" {
			nb.Label(zoneKey, n.Zone)
		}
		if n.Tainted {
			nb.Taint(taintKey, taintValue, model.NoSchedule)
		}
		b.AddNodes(1, nb)
	}
	replicas := make([]int, len(s.Apps))
	for _, p := range s.Pods {
		replicas[p.App]++
	}
	for a, app := range s.Apps {
		tb := build.Template(appName(a)).Requests(app.MilliCPU, app.MemMiB).Priority(app.Priority).
			Label(appLabel, appName(a)).Label(tierLabel, app.Tier)
		b.AddDeployment(appName(a), b.AddTemplate(tb), replicas[a])
	}
	p := &s.Pending
	tb := build.Template(incomingApp).Requests(p.MilliCPU, p.MemMiB).Priority(p.Priority).Label(appLabel, incomingApp)
	if p.Never {
		tb.PreemptNever()
	}
	if p.Tier != "" {
		tb.Label(tierLabel, p.Tier)
	}
	if p.ZoneSelector != "" {
		tb.NodeSelector(zoneKey, p.ZoneSelector)
	}
	if p.Tolerates {
		tb.TolerationWith(model.Toleration{Key: taintKey, Operator: "Equal", Value: taintValue, Effect: model.NoSchedule})
	}
	if p.Spread {
		tb.SpreadWith(model.SpreadConstraint{MaxSkew: p.MaxSkew, TopologyKey: p.SpreadKey, When: model.DoNotSchedule,
			Selector: &model.Selector{MatchLabels: map[string]string{tierLabel: p.SpreadTier}}, HonorNodeAffinity: true})
	}
	if p.AntiApp >= 0 {
		tb.PodAntiAffinity(p.AntiKey, appLabel, appName(p.AntiApp))
	}
	nominees := make([]int, len(s.Nominees))
	for k, n := range s.Nominees {
		nb := build.Template(nomineeName(k)).Requests(n.MilliCPU, n.MemMiB).Priority(n.Priority).Label(appLabel, nomineeName(k))
		if n.Tier != "" {
			nb.Label(tierLabel, n.Tier)
		}
		nominees[k] = b.AddDeployment(nomineeName(k), b.AddTemplate(nb), 1)
	}
	incoming := b.AddDeployment(incomingApp, b.AddTemplate(tb), 1)
	for _, q := range s.Pods {
		b.RunPod(q.App, q.Node)
	}
	for _, d := range nominees {
		b.PendingPod(d, -1)
	}
	b.PendingPod(incoming, -1)
	for i, d := range s.PDBs {
		sel := map[string]string{tierLabel: d.Tier}
		if d.App >= 0 {
			sel = map[string]string{appLabel: appName(d.App)}
		}
		b.U.PDBs = append(b.U.PDBs, model.PodDisruptionBudget{Name: fmt.Sprintf("pdb%d", i),
			Selector: &model.Selector{MatchLabels: sel}, MinAvailable: d.MinAvailable, MaxUnavailable: d.MaxUnavailable,
			UnhealthyPodEvictionPolicy: model.IfHealthyBudget})
	}
	b.Slots = len(s.Pods) + len(s.Nominees) + 1
	u, st, err := b.Build(0)
	if err != nil {
		return nil, nil, 0, err
	}
	for i, q := range s.Pods {
		if q.Terminating == TerminatingByPreemption {
			model.MarkPreempted(u, st, i)
		}
		if q.Terminating != NotTerminating {
			st.RequestDeletion(i)
		}
	}
	for k, n := range s.Nominees {
		st.Pods[len(s.Pods)+k].NominatedNode = uint16(n.Node + 1)
	}
	pod := len(s.Pods) + len(s.Nominees)
	st.Pods[pod].NominatedNode = uint16(s.Pending.NominatedTo)
	st.Enqueue(model.SchedulerQueue, pod)
	return u, st, pod, nil
}

// Outcome is one answer to the preemption question.
type Outcome struct {
	// Node is the node nominated, "" when the pod cannot preempt.
	Node string
	// Victims are the pods deleted (indexes into Snapshot.Pods), sorted,
	// without the pods already terminating, whose deletion is under way
	// (the model's deletion request leaves them as they are, upstream's
	// executor skips them).
	Victims []int
}

// key identifies an outcome up to identical pods: the node and the
// victims' apps (all on that node, all Running).
func (o Outcome) key(s *Snapshot) string {
	apps := make([]int, len(o.Victims))
	for i, v := range o.Victims {
		apps[i] = s.Pods[v].App
	}
	slices.Sort(apps)
	return fmt.Sprintf("%s %v", o.Node, apps)
}

func (o Outcome) String() string {
	if o.Node == "" {
		return "no preemption"
	}
	names := make([]string, len(o.Victims))
	for i, v := range o.Victims {
		names[i] = PodName(v)
	}
	return fmt.Sprintf("%s: %s", o.Node, strings.Join(names, ","))
}

// ModelAnswer is one scheduler step of the model.
type ModelAnswer struct {
	// Fits: the pod was scheduled (no preemption question).
	Fits bool
	// FitNodes are the nodes the pod was bound to, over the branches
	// (ties), sorted.
	FitNodes []string
	// Waits: the pod fits no node and waits, without preempting: for a
	// terminating pod to go, PostFilter having found no candidate
	// (Message is its FitError), or, not eligible to preempt, for the
	// victims on its nominated node (Message says so).
	Waits bool
	// Branches are the distinct outcomes of the step, up to identical
	// pods; none when the pod cannot preempt.
	Branches []Outcome
	// Message is the preemption's status message when the pod cannot
	// preempt (after "preemption: "); "" when every template has the same
	// priority, where the model's line stays as without priorities.
	Message string
	// Bound: the step stopped at a model bound.
	Bound bool
}

// Model runs one scheduler step from the snapshot's state, every branch
// enumerated with model.Tx as the System does.
func (s *Snapshot) Model() (*ModelAnswer, error) {
	u, s0, pod, err := s.ToModel()
	if err != nil {
		return nil, err
	}
	ans := &ModelAnswer{}
	sch := scheduler.New()
	tx := model.NewTx(u)
	tx.Begin(nil, true)
	seen := map[string]bool{}
	for {
		st := s0.Clone()
		sch.Step(tx, st)
		switch {
		case st.Failed == model.FailBound:
			ans.Bound = true
			return ans, nil
		case st.Pods[pod].Node != 0:
			ans.Fits = true
			if n := NodeName(int(st.Pods[pod].Node) - 1); !slices.Contains(ans.FitNodes, n) {
				ans.FitNodes = append(ans.FitNodes, n)
				slices.Sort(ans.FitNodes)
			}
			if !tx.Advance() {
				return ans, nil
			}
			tx.Restart(true)
			continue
		case st.Failed == model.FailNoFeasibleNode:
			for _, l := range tx.Lines {
				if _, msg, ok := strings.Cut(l.Message, " preemption: "); ok {
					ans.Message = msg
				}
			}
			if ans.Message == "" && u.HasPriorities() {
				return nil, fmt.Errorf("model: the pod fits no node and no preemption was tried: %v", tx.Lines)
			}
			return ans, nil
		case st.Failed != model.NoFailure:
			return nil, fmt.Errorf("model failed: %d (%d)", st.Failed, st.FailedArg)
		}
		var o Outcome
		for i := range s.Pods {
			if st.Pods[i].Phase == model.Terminating && s0.Pods[i].Phase != model.Terminating {
				o.Victims = append(o.Victims, i)
			}
		}
		nominated := st.Pods[pod].NominatedNode
		preempted := slices.ContainsFunc(tx.Lines, func(l model.Line) bool { return strings.Contains(l.Message, " It is nominated to node ") })
		if !preempted {
			// Neither bound nor failed nor preempting: the pod waits.
			ans.Waits = true
			for _, l := range tx.Lines {
				if _, msg, ok := strings.Cut(l.Message, " preemption: "); ok {
					ans.Message = msg
				}
			}
			if tx.Advance() {
				return nil, fmt.Errorf("model: a waiting pod's step branched: %v", tx.Lines)
			}
			return ans, nil
		}
		if nominated == 0 {
			return nil, fmt.Errorf("model: the pod preempted with no nomination: %v", tx.Lines)
		}
		o.Node = NodeName(int(nominated) - 1)
		if k := o.key(s); !seen[k] {
			seen[k] = true
			ans.Branches = append(ans.Branches, o)
		}
		if !tx.Advance() {
			return ans, nil
		}
		tx.Restart(true)
	}
}
