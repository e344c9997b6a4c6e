package lifecyclediff

import (
	"fmt"
	"slices"

	"github.com/kivi-go/kivi/controllers/kubelet"
	"github.com/kivi-go/kivi/controllers/nodelifecycle"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// zoneLabel is the label upstream's nodetopology.GetZoneKey reads.
const zoneLabel = "topology.kubernetes.io/zone"

// ToModel builds the case's universe and state under Kubernetes'
// lifecycle: node i is node i, pod i is slot i, a bare pod (no owner) of
// its own template i. A node whose Ready condition is not True is down
// (model.NotReady) and queued for the node controller, as the event that
// took it down queues it; a bound Pending pod on a Ready node is queued
// for the kubelet, and a Running one for the taint manager, as the
// kubelet queues the pods it starts on a tainted node and the initial
// state the pods the input gives Running there (on a node whose taint
// the zones hold back, the taint manager is what judges it by the
// node's own taints). A node the operator takes out of service has its
// event (a nodeFailure that never recovers, with the out-of-service
// taint), whose taint Model sets.
func (c *Case) ToModel() (*model.Universe, *model.State, error) {
	b := build.New()
	b.U.Options.KiviHostnameAlias = false
	for i, n := range c.Nodes {
		nb := build.Node().Name(NodeName(i)).CPU(1000).Mem(1000).MaxPods(1000).Label(zoneLabel, ZoneName(n.Zone))
		if n.ExcludeDisruption {
			nb.Label(model.ExcludeDisruptionKey, "")
		}
		for _, t := range n.Taints {
			nb.Taint(t.Key, t.Value, model.TaintEffect(t.Effect))
		}
		b.AddNodes(1, nb)
	}
	for i, p := range c.Pods {
		tb := build.Template(PodName(i)).Requests(1, 1)
		for _, t := range p.Tolerations {
			tb.TolerationWith(model.Toleration{Key: t.Key, Operator: t.Operator, Value: t.Value,
				Effect: model.TaintEffect(t.Effect), TolerationSeconds: t.Seconds})
		}
		b.AddTemplate(tb)
	}
	b.Slots = len(c.Pods) + 1
	for i, n := range c.Nodes {
		if n.OutOfService {
			if n.Ready == ConditionTrue {
				return nil, nil, fmt.Errorf("node %s: the out-of-service taint is for a node that is not Ready", NodeName(i))
			}
			b.AddEvent(model.Event{Kind: model.NodeFailure, Node: i, Permanent: true, OutOfService: true})
		}
	}
	u, s, err := b.Build(0)
	if err != nil {
		return nil, nil, err
	}
	for i, n := range c.Nodes {
		if n.Ready != ConditionTrue {
			s.Nodes[i].Status = model.NotReady
			s.Enqueue(model.NodeControllerQueue, i)
		}
	}
	for i, p := range c.Pods {
		ps := model.PodState{Node: uint16(p.Node + 1), Template: uint8(i)}
		ready := c.Nodes[p.Node].Ready == ConditionTrue
		switch p.Phase {
		case Pending:
			ps.Phase = model.Pending
			if ready {
				s.Enqueue(model.KubeletQueue, i)
			}
		case Running:
			ps.Phase = model.Running
			s.Enqueue(model.TaintManagerQueue, i)
		case Terminating:
			ps.Phase, ps.WasRunning = model.Terminating, true
		case Failed:
			ps.Phase = model.Failed
		}
		s.Pods[i] = ps
	}
	return u, s, nil
}

// Plant changes the model's universe or state before it answers: the
// planted bugs of TestPlantedBugs. Nil plants nothing.
type Plant func(u *model.Universe, s *model.State)

// Model is the model's answer. The node controller's step is run for
// every combination of its choices (which taint a down node gets), and
// the run kept is the first that gives most down nodes the taint their
// condition calls for (False: not-ready, Unknown: unreachable); then the
// kubelet's step and the taint manager's, one queue item at a time, until
// nothing is queued. A pod evicted by the node controller's step is
// evicted at once; one the kubelet fails, rejected; one the taint manager
// evicts, at once or later as its compiled toleration of its node's
// NoExecute taints says (model.NodeFit: the node's own taints, with the
// not-ready or unreachable one while the node carries it, and the
// out-of-service one when the operator put it: model.SetOutOfService
// right after the node controller's step), with its seconds. A pod gone
// from a node that is not Ready was force-deleted by the pod garbage
// collector.
func (c *Case) Model(plant Plant) (Result, error) {
	u, s, err := c.ToModel()
	if err != nil {
		return Result{}, err
	}
	if plant != nil {
		plant(u, s)
	}
	tx := model.NewTx(u)
	nc := nodelifecycle.NewNodeController()
	var best *model.State
	bestScore := -1
	tx.Begin(nil, false)
	for {
		st := s.Clone()
		nc.Step(tx, st)
		if st.Failed != model.NoFailure {
			return Result{}, fmt.Errorf("node controller: failure %v", st.Failed)
		}
		score := 0
		for i, n := range c.Nodes {
			if k, ok := st.Nodes[i].Status.NodeDownCondition(); ok && model.NodeDownTaints[k] == wantDownTaint(n.Ready) {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = st, score
		}
		if !tx.Advance() {
			break
		}
		tx.Restart(false)
	}
	// The operator's out-of-service taints, once the node controller has
	// handled the nodes and before the taint manager judges their pods
	// (the interleaving upstream's run takes: one handleNodeUpdate sees
	// both taints).
	for i, n := range c.Nodes {
		if n.OutOfService {
			model.SetOutOfService(u, best, i)
		}
	}
	r := c.newResult()
	evicted := func(before *model.State, p int) bool {
		return before.Pods[p].Phase != model.Terminating && best.Pods[p].Phase == model.Terminating
	}
	for p := range c.Pods {
		if evicted(s, p) {
			r.Pods[p].Eviction = AtOnce
		}
	}
	steps := 0
	for !best.Empty(model.KubeletQueue) || !best.Empty(model.TaintManagerQueue) {
		if steps++; steps > 1000 {
			return Result{}, fmt.Errorf("the kubelet and the taint manager do not settle")
		}
		before := best.Clone()
		tx.Begin(nil, false)
		if !best.Empty(model.KubeletQueue) {
			kubelet.New().Step(tx, best)
			for p := range c.Pods {
				if before.Pods[p].Phase == model.Pending && best.Pods[p].Phase == model.Failed {
					r.Pods[p].Eviction = Rejected
				}
			}
			continue
		}
		nodelifecycle.NewTaintManager().Step(tx, best)
		for p := range c.Pods {
			if !evicted(before, p) {
				continue
			}
			n := int(best.Pods[p].Node) - 1
			fit := u.Templates[best.Pods[p].Template].Fit[n]
			t := fit.NoExecuteTaints
			if k, ok := best.Nodes[n].Status.NodeDownTaint(); ok {
				t = fit.NodeDown[k]
			}
			if u.OutOfServiceByEvent(best, n) {
				t = u.OutOfServiceEviction(best, int(best.Pods[p].Template), n)
			}
			r.Pods[p] = PodAnswer{Eviction: AtOnce}
			if t.Eviction == model.EvictedLater {
				r.Pods[p] = PodAnswer{Eviction: Later, Seconds: t.Seconds}
			}
		}
		if best.Failed != model.NoFailure {
			return Result{}, fmt.Errorf("failure %v", best.Failed)
		}
	}
	// A pod gone from a node that is not Ready: no kubelet removed it, the
	// pod garbage collector did (the model runs it in the kubelet's step).
	for p, pod := range c.Pods {
		if best.Pods[p].Phase == model.Free && c.Nodes[pod.Node].Ready != ConditionTrue {
			r.Pods[p].ForceDeleted = true
		}
	}
	for i, n := range c.Nodes {
		var a NodeAnswer
		a.NoExecute = controllerKeys(n.Taints, "NoExecute")
		a.NoSchedule = controllerKeys(n.Taints, "NoSchedule")
		if k, ok := best.Nodes[i].Status.NodeDownTaint(); ok {
			a.NoExecute = addKey(a.NoExecute, model.NodeDownTaints[k])
		}
		if k, _, ok := best.Nodes[i].Status.LifecycleTaints(); ok {
			// The NoSchedule taint of a node that is not Ready, as the
			// scheduler reads it.
			a.NoSchedule = addKey(a.NoSchedule, model.NodeDownTaints[k])
		}
		r.Nodes = append(r.Nodes, a)
	}
	return r, nil
}

// wantDownTaint is the NoExecute taint upstream gives a node of Ready
// condition c ("" for True).
func wantDownTaint(c Condition) string {
	switch c {
	case ConditionFalse:
		return notReadyKey
	case ConditionUnknown:
		return unreachableKey
	}
	return ""
}

func addKey(keys []string, k string) []string {
	if slices.Contains(keys, k) {
		return keys
	}
	keys = append(slices.Clone(keys), k)
	slices.Sort(keys)
	return keys
}
