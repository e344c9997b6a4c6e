package model

import (
	"fmt"
	"slices"
)

// Compile validates the Universe, applies defaults, interns labels and
// precomputes the static scheduler relations (NodeFit) and the event
// memory layout. It must be called once, before any State is built;
// errors name the object and field at fault and wrap ErrInvalid.
func (u *Universe) Compile() error {
	if u.compiled {
		return nil
	}
	if len(u.Nodes) == 0 {
		return fmt.Errorf("nodes: at least one node is needed: %w", ErrInvalid)
	}
	for _, c := range []struct {
		what string
		n    int
	}{{"nodes", len(u.Nodes)}, {"pod slots", u.PodSlots}, {"deployments", len(u.Deployments)}, {"pod templates", len(u.Templates)}} {
		if e := (&SizeError{What: c.what, Need: c.n}); c.n > e.Max() {
			return e
		}
	}
	if err := u.checkScalar(); err != nil {
		return err
	}
	u.wideNodes = len(u.Nodes) > MaxObjects
	u.wideRefs = u.PodSlots > MaxObjects || u.wideNodes
	u.podRuns = u.PodSlots > MaxObjects
	in := &u.Labels
	u.Hostname = in.Key(HostnameKey)
	// Nodes first, so that node label keys and values get the lowest ids.
	for i := range u.Nodes {
		n := &u.Nodes[i]
		if n.Name == "" {
			n.Name = fmt.Sprint(i + 1)
		}
		if n.CPU <= 0 || n.Memory <= 0 {
			return fmt.Errorf("node %q: cpu and memory capacity must be positive (cpu %d, memory %d): %w", n.Name, n.CPU, n.Memory, ErrInvalid)
		}
		if n.MaxPods == 0 {
			n.MaxPods = DefaultMaxPods
		}
		labels := map[string]string{}
		for k, v := range n.Labels {
			labels[k] = v
		}
		if _, ok := labels[HostnameKey]; !ok {
			labels[HostnameKey] = n.Name
		}
		if _, ok := labels[KiviHostnameKey]; !ok && u.Options.KiviHostnameAlias {
			labels[KiviHostnameKey] = labels[HostnameKey]
		}
		n.Labels = labels
		n.LabelSet = in.Compile(WithNodeName(n.Name, labels))
		for j, t := range n.Taints {
			switch t.Effect {
			case NoSchedule, PreferNoSchedule, NoExecute:
			default:
				return fmt.Errorf("node %q: taints[%d].effect %q (accepted: NoSchedule, PreferNoSchedule, NoExecute): %w", n.Name, j, t.Effect, ErrInvalid)
			}
			u.HasTaints = true
		}
	}
	u.compileMemoryEviction()
	for i := range u.Templates {
		t := &u.Templates[i]
		t.LabelSet = in.Compile(t.Labels)
		if t.CPU < 0 || t.Memory < 0 {
			return fmt.Errorf("pod template %q: negative request: %w", t.Name, ErrInvalid)
		}
		if t.NodeName < 0 || t.NodeName > len(u.Nodes) {
			return fmt.Errorf("pod template %q: nodeName refers to node %d of %d: %w", t.Name, t.NodeName, len(u.Nodes), ErrInvalid)
		}
		if len(t.Pattern) > 0 {
			u.HasPatterns = true
		}
		if t.MinReadySeconds < 0 {
			return fmt.Errorf("pod template %q: minReadySeconds %d (accepted: 0 or more): %w", t.Name, t.MinReadySeconds, ErrInvalid)
		}
		if t.DelaysReadiness() {
			u.readiness = true
		}
	}
	for i := range u.Templates {
		t := &u.Templates[i]
		for j := range t.Spread {
			c := &t.Spread[j]
			if c.MaxSkew <= 0 {
				return fmt.Errorf("pod template %q: topologySpreadConstraints[%d].maxSkew must be positive: %w", t.Name, j, ErrInvalid)
			}
			if c.MinDomains == 0 {
				c.MinDomains = 1
			}
			if c.TopologyKey == "" {
				return fmt.Errorf("pod template %q: topologySpreadConstraints[%d].topologyKey is empty: %w", t.Name, j, ErrInvalid)
			}
			c.Key = in.Key(c.TopologyKey)
			if err := CheckLabelKeys(c.Selector, c.MatchLabelKeys, nil, t.Labels, true); err != nil {
				return fmt.Errorf("pod template %q: topologySpreadConstraints[%d].%w", t.Name, j, err)
			}
			merged := mergeLabelKeys(c.Selector, c.MatchLabelKeys, nil, t.Labels)
			c.Revision = merged.revision
			u.revisionMatch = u.revisionMatch || c.Revision != AnyRevision
			sel, err := in.compileSelector(merged.sel)
			if err != nil {
				return fmt.Errorf("pod template %q: topologySpreadConstraints[%d].labelSelector: %w", t.Name, j, err)
			}
			c.SelectorEmpty = sel.Empty()
			c.MatchesTemplate = make([]bool, len(u.Templates))
			for k := range u.Templates {
				// Kubernetes counts no existing pod for an empty selector
				// (countPodsMatchSelector); self-match still applies. The
				// scheduler plugin handles that through SelectorEmpty.
				// The incoming pod's namespace only (namespace.go).
				c.MatchesTemplate[k] = u.Templates[k].Namespace == t.Namespace && sel.Matches(in.Compile(u.Templates[k].Labels))
			}
		}
	}
	if err := u.compileHostPorts(); err != nil {
		return err
	}
	added, err := u.compileAddedAffinity()
	if err != nil {
		return err
	}
	// Template labels may have interned keys after some LabelSets were
	// built; LabelSet.Get copes with short sets, so nothing to redo.
	for i := range u.Templates {
		t := &u.Templates[i]
		fit, err := u.compileFit(t, added)
		if err != nil {
			return fmt.Errorf("pod template %q: %w", t.Name, err)
		}
		t.Fit = fit
		t.NodeDownTolerance = nodeDownTolerances(u.admittedTolerations(t))
		t.ToleratesOutOfService = toleratesOutOfService(u.admittedTolerations(t))
		t.ToleratesUnschedulable = toleratesUnschedulable(t.Tolerations)
		if err := u.compilePodAffinity(t); err != nil {
			return fmt.Errorf("pod template %q: %w", t.Name, err)
		}
	}
	u.NodeDownKeyMatters = !u.Options.KiviLifecycle && u.nodeDownTaintsDiffer()
	if err := u.compilePDBs(); err != nil {
		return err
	}
	u.compileDisruptionZones()
	if err := u.compileDeschedulePlugins(); err != nil {
		return err
	}
	for i, c := range u.Configs {
		if c.PodTemplate < 0 || c.PodTemplate >= len(u.Templates) {
			return fmt.Errorf("deployment config %d: pod template %d does not exist: %w", i, c.PodTemplate, ErrInvalid)
		}
	}
	for i, h := range u.HPAs {
		if h.Min < 1 || h.Max < h.Min {
			return fmt.Errorf("hpa %d: need 1 <= minReplicas <= maxReplicas (min %d, max %d): %w", i, h.Min, h.Max, ErrInvalid)
		}
		if len(h.Metrics) == 0 {
			return fmt.Errorf("hpa %d: no metric: %w", i, ErrInvalid)
		}
		for j, b := range h.Ambiguous {
			if b.Min < 1 || b.Max < b.Min || b.Min < h.Min || b.Max > h.Max {
				return fmt.Errorf("hpa %d: ambiguous[%d] (%s): need %d <= minReplicas <= maxReplicas <= %d (min %d, max %d): %w", i, j, b.Name, max(h.Min, 1), h.Max, b.Min, b.Max, ErrInvalid)
			}
		}
		if len(h.Ambiguous) > 0 && (h.Behavior != nil || h.ScaleDownStabilizationSyncs != 0) {
			return fmt.Errorf("hpa %d: an HPA of a workload with several has no window and no behavior (the bounds path reads neither): %w", i, ErrInvalid)
		}
		for j, m := range h.Metrics {
			if m.Value <= 0 && m.Kind != InvalidMetric {
				return fmt.Errorf("hpa %d: metrics[%d] target must be positive: %w", i, j, ErrInvalid)
			}
		}
		if h.ScaleDownStabilizationSyncs < 0 || h.ScaleDownStabilizationSyncs > MaxStabilizationSyncs {
			return fmt.Errorf("hpa %d: scaleDownStabilizationSyncs %d (accepted: 0..%d HPA sync periods, 0 = off): %w", i, h.ScaleDownStabilizationSyncs, MaxStabilizationSyncs, ErrInvalid)
		}
		if h.TolerancePercent == 0 {
			u.HPAs[i].TolerancePercent = DefaultTolerance
		}
		if err := checkHPABehavior(h.Behavior, h.ScaleDownStabilizationSyncs); err != nil {
			return fmt.Errorf("hpa %d: %w", i, err)
		}
		u.HasHPA = true
		u.HPAsCountOtherPods = u.HPAsCountOtherPods || len(h.CountsPodsOf) > 0
	}
	for i, d := range u.DeploymentTemplates {
		if d.Config < 0 || d.Config >= len(u.Configs) {
			return fmt.Errorf("deployment template %q: config %d does not exist: %w", d.Name, d.Config, ErrInvalid)
		}
		if d.HPA > len(u.HPAs) || d.HPA < -1 {
			return fmt.Errorf("deployment template %q: hpa %d does not exist: %w", d.Name, d.HPA, ErrInvalid)
		}
		_ = i
	}
	u.ReadsCPUUsage = u.readsCPUUsage()
	off := 0
	for i := range u.Events {
		e := &u.Events[i]
		switch e.Kind {
		case CPUChange:
			e.VarLen = 1
			if e.MaxDelta == 0 {
				e.MaxDelta = 6
			}
			if e.DeltaUnit == 0 {
				e.DeltaUnit = 1
			}
			if e.MaxDelta < 0 || e.DeltaUnit < 0 {
				return fmt.Errorf("events[%d] (%s): maxDelta %d and deltaUnit %d must not be negative: %w", i, e.Kind, e.MaxDelta, e.DeltaUnit, ErrInvalid)
			}
			if e.Deployment < 0 || e.Deployment >= len(u.Deployments) {
				return fmt.Errorf("events[%d] (%s): deployment %d does not exist: %w", i, e.Kind, e.Deployment, ErrInvalid)
			}
		case KernelPanic:
			e.VarLen = 2 * len(u.Nodes)
		case Maintenance:
			e.VarLen = u.MaintenanceIndexWidthOf(e) + len(u.Nodes)
			if e.Parallel < 1 {
				return fmt.Errorf("events[%d] (%s): parallel must be at least 1: %w", i, e.Kind, ErrInvalid)
			}
			if e.Order > AnyOrder {
				return fmt.Errorf("events[%d] (%s): order %v (accepted: written, any): %w", i, e.Kind, e.Order, ErrInvalid)
			}
		case NodeFailure:
			e.VarLen = nodeFailureVarLen(e)
			if e.Node < 0 || e.Node >= len(u.Nodes) {
				return fmt.Errorf("events[%d] (%s): node %d does not exist: %w", i, e.Kind, e.Node, ErrInvalid)
			}
		case CreateTargetDeployment, RolloutRestart, RolloutUndo, RolloutPause, RolloutResume:
			e.VarLen = 1
			if e.Deployment < 0 || e.Deployment >= len(u.Deployments) {
				return fmt.Errorf("events[%d] (%s): deployment %d does not exist: %w", i, e.Kind, e.Deployment, ErrInvalid)
			}
			if (e.Kind == RolloutPause || e.Kind == RolloutResume) && u.Deployments[e.Deployment].Kind != KindDeployment {
				return fmt.Errorf("events[%d] (%s): %s is a %s, which kubectl does not pause or resume (accepted: a Deployment): %w", i, e.Kind, u.Deployments[e.Deployment].Name, u.Deployments[e.Deployment].Kind, ErrInvalid)
			}
		case ApplyDeployment, CreateDeployment:
			e.VarLen = 1
			if e.Template < 0 || e.Template >= len(u.DeploymentTemplates) {
				return fmt.Errorf("events[%d] (%s): deployment template %d does not exist: %w", i, e.Kind, e.Template, ErrInvalid)
			}
		case ScaleDeployment:
			e.VarLen = 1
			if e.MaxDelta == 0 {
				e.MaxDelta = defaultScaleDelta
			}
			if e.MaxDeployment < 1 || e.MaxDeployment > len(u.Deployments) {
				return fmt.Errorf("events[%d] (%s): maxDeployment %d out of 1..%d: %w", i, e.Kind, e.MaxDeployment, len(u.Deployments), ErrInvalid)
			}
			if e.Deployment < 0 || e.Deployment >= e.MaxDeployment {
				return fmt.Errorf("events[%d] (%s): deployment %d out of 0..%d: %w", i, e.Kind, e.Deployment, e.MaxDeployment-1, ErrInvalid)
			}
		case Drain:
			if err := compileDrain(u, i, e); err != nil {
				return err
			}
		case MemoryChange:
			if err := compileMemoryChange(u, i, e); err != nil {
				return err
			}
		case DeleteNode:
			if err := compileDeleteNode(u, i, e); err != nil {
				return err
			}
		default:
			return fmt.Errorf("events[%d]: unknown kind %d: %w", i, e.Kind, ErrInvalid)
		}
		e.VarOffset = off
		off += e.VarLen
	}
	u.NumEventVars = off
	if err := u.compileNodeLoss(); err != nil {
		return err
	}
	if err := u.compileNodeDeletion(); err != nil {
		return err
	}
	u.HasStatefulSets, u.HasJobs = false, false
	for i := range u.Deployments {
		u.HasStatefulSets = u.HasStatefulSets || u.Deployments[i].Kind == KindStatefulSet
		u.HasJobs = u.HasJobs || u.Deployments[i].Kind == KindJob
	}
	if err := checkJobEvents(u); err != nil {
		return err
	}
	if err := checkCronJobEvents(u); err != nil {
		return err
	}
	u.windowSlots = windowSlots(u)
	u.lastApplied = tracksLastApplied(u)
	u.pausable = pausable(u)
	u.indexedJobs = indexedJobs(u)
	u.hpaBehavior = hasHPABehavior(u)
	u.templateRequests = templateRequests(u)
	u.podHeads = newPodHeads(u)
	u.compiled = true
	return nil
}

// compileFit computes the static relation between template t and every
// node: nodeName, nodeSelector + required affinity, taints, preferred
// affinity weights, and what the profile's added affinity makes of it.
func (u *Universe) compileFit(t *PodTemplate, added compiledAdded) ([]NodeFit, error) {
	in := &u.Labels
	nodeSel, err := in.compileSelector(&Selector{MatchLabels: t.NodeSelector})
	if err != nil {
		return nil, fmt.Errorf("nodeSelector: %w", err)
	}
	var required []CompiledSelector
	for i := range t.Required {
		c, err := in.compileSelector(&t.Required[i])
		if err != nil {
			return nil, fmt.Errorf("affinity.required[%d]: %w", i, err)
		}
		required = append(required, c)
	}
	var preferred []CompiledSelector
	for i := range t.Preferred {
		if t.Preferred[i].Weight < 1 || t.Preferred[i].Weight > 100 {
			return nil, fmt.Errorf("affinity.preferred[%d].weight %d (accepted 1..100): %w", i, t.Preferred[i].Weight, ErrInvalid)
		}
		c, err := in.compileSelector(&t.Preferred[i].Term)
		if err != nil {
			return nil, fmt.Errorf("affinity.preferred[%d]: %w", i, err)
		}
		preferred = append(preferred, c)
	}
	tols := u.admittedTolerations(t)
	fit := make([]NodeFit, len(u.Nodes))
	for n := range u.Nodes {
		node := &u.Nodes[n]
		f := &fit[n]
		f.NodeName = t.NodeName == 0 || t.NodeName == n+1
		f.HostPortsReserved = PortsConflict(t.HostPorts, node.ReservedHostPorts)
		f.OSLabelMismatch = osLabelMismatch(u, t, n)
		f.OSFieldMismatch = osFieldMismatch(u, t, n)
		f.Affinity = nodeSel.Matches(node.LabelSet)
		if f.Affinity && len(required) > 0 {
			// An empty required term matches no node (the API's rule, and
			// upstream's nodeaffinity skips it); an empty preferred term
			// is a no-op, below.
			any := false
			for i, r := range required {
				// A term with a key or value of invalid syntax fails to
				// parse upstream and matches no node (labelvalues.go).
				if !r.Empty() && nodeTermParses(&t.Required[i]) && r.Matches(node.LabelSet) {
					any = true
					break
				}
			}
			f.Affinity = any
		}
		for i, p := range preferred {
			if p.Empty() {
				continue
			}
			if !nodeTermParses(&t.Preferred[i].Term) {
				t.PreferredInvalid = true
				continue
			}
			if p.Matches(node.LabelSet) {
				f.Preferred += t.Preferred[i].Weight
			}
		}
		added.fit(f, node.LabelSet)
		for _, taint := range node.Taints {
			tolerated := false
			for _, tol := range tols {
				if tol.Tolerates(taint) {
					tolerated = true
					break
				}
			}
			if tolerated {
				continue
			}
			switch taint.Effect {
			case NoSchedule:
				f.NoSchedule = true
			case NoExecute:
				f.NoExecute = true
			case PreferNoSchedule:
				f.PreferNoSchedule++
			}
		}
		compileNoExecute(f, node.Taints, tols, u.Options.KiviLifecycle)
	}
	return fit, nil
}

// compiledAdded is the scheduler profile's addedAffinity over interned
// labels.
type compiledAdded struct {
	a         *AddedAffinity
	terms     []CompiledSelector
	preferred []CompiledSelector
}

// compileAddedAffinity compiles the profile's addedAffinity, refusing what
// kube-scheduler's ValidateNodeAffinityArgs refuses and weights the model
// does not take.
func (u *Universe) compileAddedAffinity() (compiledAdded, error) {
	a := u.Scheduler.Profile.AddedAffinity
	c := compiledAdded{a: a}
	if a == nil {
		return c, nil
	}
	in := &u.Labels
	for i := range a.Terms {
		if a.Terms[i].Empty() {
			return c, fmt.Errorf("scheduler profile addedAffinity.required[%d]: an empty term (accepted: at least one requirement): %w", i, ErrInvalid)
		}
		s, err := in.compileSelector(&a.Terms[i])
		if err != nil {
			return c, fmt.Errorf("scheduler profile addedAffinity.required[%d]: %w", i, err)
		}
		c.terms = append(c.terms, s)
	}
	for i := range a.Preferred {
		p := &a.Preferred[i]
		if p.Weight < 1 || p.Term.Empty() {
			return c, fmt.Errorf("scheduler profile addedAffinity.preferred[%d]: weight %d (accepted: 1 or more) or an empty term: %w", i, p.Weight, ErrInvalid)
		}
		s, err := in.compileSelector(&p.Term)
		if err != nil {
			return c, fmt.Errorf("scheduler profile addedAffinity.preferred[%d]: %w", i, err)
		}
		c.preferred = append(c.preferred, s)
	}
	return c, nil
}

// fit records on f what the added affinity makes of a node with labels ls.
func (c compiledAdded) fit(f *NodeFit, ls LabelSet) {
	if c.a == nil {
		return
	}
	if c.a.Required {
		f.AddedAffinityRejects = !slices.ContainsFunc(c.terms, func(s CompiledSelector) bool { return s.Matches(ls) })
	}
	for i, p := range c.preferred {
		if p.Matches(ls) {
			f.AddedPreferred += c.a.Preferred[i].Weight
		}
	}
}

// Compiled reports whether Compile succeeded.
func (u *Universe) Compiled() bool { return u.compiled }

// defaultScaleDelta is scaleDeployment's largest change when the event
// does not say (Kivi's 3).
const defaultScaleDelta = 3
