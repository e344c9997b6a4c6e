package deschedulerdiff

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/controllers/descheduler"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// ToModel builds the snapshot's universe and state: node i is model node
// i, pod i is slot i, Dep i is deployment i with template i, and a
// descheduling cycle is pending.
func (s *Snapshot) ToModel() (*model.Universe, *model.State, error) {
	b := build.New()
	// Kubernetes' objects: no `hostname` alias, Kubernetes' lifecycle
	// (the API server's default tolerations), every tie explored.
	b.U.Options.KiviHostnameAlias = false
	for i, n := range s.Nodes {
		nb := build.Node().Name(NodeName(i)).CPU(n.MilliCPU).Mem(n.MemMiB).MaxPods(n.MaxPods)
		if n.Zone != "" {
			nb.Label(ZoneKey, n.Zone)
		}
		if n.Disk != "" {
			nb.Label(DiskKey, n.Disk)
		}
		for _, t := range n.Taints {
			nb.Taint(t.Key, t.Value, t.Effect)
		}
		if n.Cordoned {
			nb.Taint(unschedulableKey, "", model.NoSchedule)
		}
		b.AddNodes(1, nb)
	}
	for i, d := range s.Deps {
		tb := build.Template(depName(i)).Namespace(d.namespace()).Requests(d.MilliCPU, d.MemMiB).Label(appLabel, depName(i)).Label(tierKey, d.Tier)
		if d.Critical {
			// system-cluster-critical, as the real pod's priority.
			tb.Priority(systemCriticalPriority)
		}
		if d.ZoneSelector != "" {
			tb.NodeSelector(ZoneKey, d.ZoneSelector)
		}
		for _, t := range d.Tolerations {
			tb.TolerationWith(t)
		}
		for _, c := range d.Spread {
			tb.SpreadWith(model.SpreadConstraint{MaxSkew: c.MaxSkew, TopologyKey: c.Key, When: c.When,
				Selector:          &model.Selector{MatchLabels: c.selector(i, d)},
				MatchLabelKeys:    c.matchLabelKeys(),
				HonorNodeAffinity: !c.IgnoreAffinty, HonorNodeTaints: c.HonorTaints})
		}
		ti := b.AddTemplate(tb)
		modelAffinity(&b.U.Templates[ti], i, d)
		b.U.Deployments[b.AddDeployment(depName(i), ti, d.Replicas)].Namespace = d.namespace()
	}
	for _, p := range s.Pods {
		if p.Running {
			b.RunPod(p.Dep, p.Node)
		} else {
			b.PendingPod(p.Dep, p.Node)
		}
	}
	for _, p := range s.PDBs {
		pol := model.IfHealthyBudget
		if p.AlwaysAllow {
			pol = model.AlwaysAllow
		}
		b.U.PDBs = append(b.U.PDBs, model.PodDisruptionBudget{Name: fmt.Sprintf("pdb%d", len(b.U.PDBs)), Namespace: p.namespace(),
			Selector: &model.Selector{MatchLabels: p.MatchLabels}, MinAvailable: p.MinAvailable, MaxUnavailable: p.MaxUnavailable,
			UnhealthyPodEvictionPolicy: pol})
	}
	s.modelEvictor(&b.U)
	prof := s.Profile
	prof.Name = "fidelity"
	b.U.Descheduler = &model.Descheduler{Profiles: []model.DeschedulerProfile{prof},
		MaxPerNode: s.MaxPerNode, MaxPerNamespace: s.MaxPerNamespace, MaxTotal: s.MaxTotal, EvictionLimitZero: s.ZeroLimit > 0}
	b.Slots = len(s.Pods) + 1
	u, st, err := b.Build(0)
	if err != nil {
		return nil, nil, err
	}
	for i, p := range s.Pods {
		if p.Terminating {
			st.Pods[i].WasRunning = p.Running
			st.Pods[i].Phase = model.Terminating
		}
		if p.Failed {
			st.Pods[i].Phase = model.Failed
		}
		if p.NotReady {
			st.Pods[i].Readiness = model.PodNotReady
		}
		// The restarts as the model keeps a placed pod's: its
		// containers', plus its init containers' where
		// includingInitContainers adds them, saturated at what a pod slot
		// holds, and none where no profile reads them.
		r, err := u.InitialRestarts(&model.InitialPod{Restarts: p.Restarts, InitRestarts: p.InitRestarts}, fmt.Sprintf("pods[%d]", i))
		if err != nil {
			return nil, nil, err
		}
		st.Pods[i].Restarts = r
	}
	st.DeschedulerPending = true
	return u, st, nil
}

// ModelAnswer is the model's cycle: every branch's evicted pods (sorted)
// and, for the node-utilisation plugins, each node's class as the
// cycle's explanation states it.
type ModelAnswer struct {
	Branches [][]int
	// Keys is what the model knows of each pod (podKey): pods of equal
	// key are one choice in its branches.
	Keys []string
	// Class maps a node name to "underutilized", "overutilized",
	// "appropriately utilized", "schedulable" or "unschedulable".
	Class map[string]string
}

// classLine is a node's line in descheduler.Explain for the
// node-utilisation plugins.
var classLine = regexp.MustCompile(`^\s+node (\S+): cpu \S+ memory \S+ pods \S+: (.+)$`)

// Model runs one descheduling cycle of the model from the snapshot's
// state, every branch enumerated with model.Tx as the System does.
func (s *Snapshot) Model() (*ModelAnswer, error) {
	u, s0, err := s.ToModel()
	if err != nil {
		return nil, err
	}
	ans := &ModelAnswer{Class: map[string]string{}}
	for i := range s.Pods {
		ans.Keys = append(ans.Keys, s.podKey(i, &s0.Pods[i]))
	}
	for _, l := range strings.Split(descheduler.Explain(u, s0), "\n") {
		if m := classLine.FindStringSubmatch(l); m != nil {
			ans.Class[m[1]] = m[2]
		}
	}
	ctl := descheduler.New()
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	for {
		st := s0.Clone()
		ctl.Step(tx, st)
		if st.Failed != model.NoFailure {
			return nil, fmt.Errorf("model failed: %d (%d)", st.Failed, st.FailedArg)
		}
		var ev []int
		for i := range s.Pods {
			// Evicted: Terminating now, or deleted at once (a Failed pod).
			if st.Pods[i].Phase == model.Terminating && !s.Pods[i].Terminating || st.Pods[i].Phase == model.Free {
				ev = append(ev, i)
			}
		}
		if !slices.ContainsFunc(ans.Branches, func(b []int) bool { return slices.Equal(b, ev) }) {
			ans.Branches = append(ans.Branches, ev)
		}
		if !tx.Advance() {
			return ans, nil
		}
		tx.Restart(false)
	}
}
