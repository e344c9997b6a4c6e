package model

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Build returns the Universe and initial State of the cluster's original
// topology (its Nodes groups with their initial pods).
func (c *Cluster) Build() (*Universe, *State, error) {
	var layout []nodeSpec
	types := indexNames(c.NodeTypes, nodeTypeName)
	for gi, g := range c.Nodes {
		t := types.of(g.Type)
		if t < 0 {
			return nil, nil, fmt.Errorf("nodes[%d].type %q: no such node type (accepted: %s): %w", gi, g.Type, namesOf(c.NodeTypes, nodeTypeName), ErrInvalid)
		}
		count := g.Count
		if count == 0 {
			count = 1
		}
		if count < 0 {
			return nil, nil, fmt.Errorf("nodes[%d].count %d: must be positive: %w", gi, g.Count, ErrInvalid)
		}
		if len(g.Names) != 0 && len(g.Names) != count {
			return nil, nil, fmt.Errorf("nodes[%d].names: %d names for %d nodes: %w", gi, len(g.Names), count, ErrInvalid)
		}
		status := Ready
		switch g.Status {
		case "", "Ready":
		case "NotReady":
			status = NotReady
		case "Unhealthy":
			status = Unhealthy
		default:
			return nil, nil, fmt.Errorf("nodes[%d].status %q (accepted: Ready, NotReady, Unhealthy): %w", gi, g.Status, ErrInvalid)
		}
		condition := openCondition
		switch g.ReadyCondition {
		case "":
		case "False", "Unknown":
			if status != NotReady {
				return nil, nil, fmt.Errorf("nodes[%d].readyCondition %q: the node is %s (accepted: a readyCondition only with status NotReady): %w", gi, g.ReadyCondition, status, ErrInvalid)
			}
			condition = conditionFalse
			if g.ReadyCondition == "Unknown" {
				condition = conditionUnknown
			}
		default:
			return nil, nil, fmt.Errorf("nodes[%d].readyCondition %q (accepted: False, Unknown, or empty for either): %w", gi, g.ReadyCondition, ErrInvalid)
		}
		for i := 0; i < count; i++ {
			ns := nodeSpec{typ: t, status: status, pods: g.Pods, group: gi, condition: condition}
			if len(g.Names) > 0 {
				ns.name = g.Names[i]
			}
			layout = append(layout, ns)
		}
	}
	replicas := make([]int, len(c.Deployments))
	for i, d := range c.Deployments {
		replicas[i] = d.Replicas
	}
	return c.build(layout, replicas, true, nil, nil)
}

// BuildSetup returns the Universe and initial State of one setup of the
// scaling search: counts[t] nodes of type t, deployment d asking for
// replicas[d] pods, starting from an empty cluster (no initial pods).
func (c *Cluster) BuildSetup(counts, replicas []int) (*Universe, *State, error) {
	if len(counts) != len(c.NodeTypes) || len(replicas) != len(c.Deployments) {
		return nil, nil, fmt.Errorf("setup: %d node counts for %d types, %d replica counts for %d deployments: %w",
			len(counts), len(c.NodeTypes), len(replicas), len(c.Deployments), ErrInvalid)
	}
	var layout []nodeSpec
	for t, n := range counts {
		for i := 0; i < n; i++ {
			layout = append(layout, nodeSpec{typ: t, status: Ready, group: -1})
		}
	}
	aliases, missing := c.setupAliases(layout)
	return c.build(layout, replicas, false, aliases, missing)
}

// NodeRank locates a written node: its type and its 0-based rank among
// the written nodes of that type (a scaling setup's node of the same
// type and rank stands for it).
func (c *Cluster) NodeRank(name string) (typ string, rank int, ok bool) {
	ranks := map[string]int{}
	pos := 0
	for _, g := range c.Nodes {
		for i := range max(g.Count, 1) {
			pos++
			n := strconv.Itoa(pos)
			if i < len(g.Names) {
				n = g.Names[i]
			}
			if n == name {
				return g.Type, ranks[g.Type], true
			}
			ranks[g.Type]++
		}
	}
	return "", 0, false
}

// setupAliases lets events name the written topology's nodes in a
// scaling setup, whose nodes are numbered: a written node stands for the
// setup node of the same type and rank within that type (the second
// node of type big is the setup's second node of type big).
func (c *Cluster) setupAliases(layout []nodeSpec) (aliases nameIndex, missing map[string]string) {
	aliases, missing = nameIndex{}, map[string]string{}
	types := indexNames(c.NodeTypes, nodeTypeName)
	var ofType [][]int // setup node positions by type
	for i, ns := range layout {
		for len(ofType) <= ns.typ {
			ofType = append(ofType, nil)
		}
		ofType[ns.typ] = append(ofType[ns.typ], i)
	}
	rank := map[int]int{}
	pos := 0
	for _, g := range c.Nodes {
		t := types.of(g.Type)
		for i := range max(g.Count, 1) {
			pos++
			if t < 0 {
				continue
			}
			name := strconv.Itoa(pos)
			if i < len(g.Names) {
				name = g.Names[i]
			}
			k := rank[t]
			rank[t]++
			if _, seen := aliases[name]; seen {
				continue
			}
			if t < len(ofType) && k < len(ofType[t]) {
				aliases[name] = ofType[t][k]
			} else if _, seen := missing[name]; !seen {
				have := 0
				if t < len(ofType) {
					have = len(ofType[t])
				}
				missing[name] = fmt.Sprintf("node %q is node %d of type %s in the written topology, and this setup has %d node(s) of that type", name, k+1, g.Type, have)
			}
		}
	}
	return aliases, missing
}

type nodeSpec struct {
	typ    int
	name   string
	status NodeStatus
	pods   []InitialPod
	group  int
	// condition is the NotReady node's Ready condition
	// (NodeGroup.ReadyCondition).
	condition readyCondition
}

// readyCondition is the Ready condition of a node that is not Ready in the
// input: open (the zero value: not given), False or Unknown.
type readyCondition uint8

const (
	openCondition readyCondition = iota
	conditionFalse
	conditionUnknown
)

// taintKey is the index into NodeDownTaints of the condition's taints:
// not-ready for False, unreachable for Unknown.
func (c readyCondition) taintKey() int { return int(c) - 1 }

// nameIndex maps names to positions. Build makes one per table, once:
// a scan per lookup is quadratic in the number of deployments, which
// made large inputs take minutes.
type nameIndex map[string]int

// indexNames indexes xs by name; the first of equal names wins, as a
// scan from the front would find it.
func indexNames[T any](xs []T, name func(T) string) nameIndex {
	m := make(nameIndex, len(xs))
	for i := len(xs) - 1; i >= 0; i-- {
		m[name(xs[i])] = i
	}
	return m
}

// of returns the position of the element named want, or -1.
func (m nameIndex) of(want string) int {
	if i, ok := m[want]; ok {
		return i
	}
	return -1
}

// namesOf lists the elements' names for "accepted: …" messages, the
// first ten of them on large inputs.
func namesOf[T any](xs []T, name func(T) string) string {
	const shown = 10
	out := make([]string, 0, min(len(xs), shown+1))
	for i, x := range xs {
		if i == shown {
			out = append(out, fmt.Sprintf("… (%d in all)", len(xs)))
			break
		}
		out = append(out, name(x))
	}
	return strings.Join(out, ", ")
}

func nodeTypeName(t NodeType) string                         { return t.Name }
func templateName(t TemplateDecl) string                     { return t.Name }
func deploymentName(d DeploymentDecl) string                 { return d.Name }
func deploymentTemplateName(d DeploymentTemplateDecl) string { return d.Name }

func (c *Cluster) templateNames() string   { return namesOf(c.Templates, templateName) }
func (c *Cluster) deploymentNames() string { return namesOf(c.Deployments, deploymentName) }

// lookup resolves the names events and initial pods use.
type lookup struct {
	deployments, templates, deploymentTemplates nameIndex
	// nodes maps node names to positions; aliases (scaling setups only)
	// maps the written topology's node names to the setup node of the
	// same type and rank; nodeNames are the names in node order.
	nodes, aliases nameIndex
	nodeNames      []string
	// missing (scaling setups only) explains a written node the setup
	// lacks: its type has fewer nodes there.
	missing map[string]string
}

func (c *Cluster) build(layout []nodeSpec, replicas []int, withPods bool, aliases nameIndex, missing map[string]string) (*Universe, *State, error) {
	if err := validateDescheduler(c.Descheduler); err != nil {
		return nil, nil, err
	}
	if err := validateResourceQuotas(c.ResourceQuotas); err != nil {
		return nil, nil, err
	}
	u := &Universe{Descheduler: c.Descheduler, ResourceQuotas: c.ResourceQuotas}
	for _, ns := range c.Namespaces {
		if u.Namespaces == nil {
			u.Namespaces = map[string]map[string]string{}
		}
		u.Namespaces[ns.Name] = ns.Labels
	}
	if c.LowestIndexTieBreak {
		u.Options.TieBreak = LowestIndex
	}
	u.Options.KiviHostnameAlias = c.KiviHostnameAlias
	u.Options.KiviLifecycle = c.KiviLifecycle
	u.Scheduler = c.Scheduler
	u.Kubelet = c.Kubelet
	u.Assumptions = c.Assumptions
	var requests []map[string]int64
	for _, td := range c.Templates {
		requests = append(requests, td.Scalar)
	}
	u.ScalarResources = ScalarResourceNames(requests)
	nodeIndex := map[string]int{}
	for i, ns := range layout {
		t := c.NodeTypes[ns.typ]
		name := ns.name
		if name == "" {
			name = strconv.Itoa(i + 1)
		}
		if _, dup := nodeIndex[name]; dup {
			return nil, nil, fmt.Errorf("nodes: two nodes are named %q: %w", name, ErrInvalid)
		}
		nodeIndex[name] = i
		if ns.status != Ready {
			u.NodesDownAtStart = true
		}
		labels := map[string]string{}
		for k, v := range t.Labels {
			labels[k] = v
		}
		u.Nodes = append(u.Nodes, Node{Name: name, Type: ns.typ, CPU: t.CPU, Memory: t.Memory,
			ReservedCPU: t.ReservedCPU, ReservedMemory: t.ReservedMemory, MaxPods: t.MaxPods, MemoryCapacity: t.MemoryCapacity,
			Scalar: ScalarVector(u.ScalarResources, t.Scalar), ReservedScalar: ScalarVector(u.ScalarResources, t.ReservedScalar),
			ScalarListed: ScalarListed(u.ScalarResources, t.Scalar),
			Labels:       labels, Taints: append([]Taint(nil), t.Taints...),
			ReservedHostPorts: append([]HostPort(nil), t.ReservedHostPorts...)})
	}
	look := lookup{
		deployments:         indexNames(c.Deployments, deploymentName),
		templates:           indexNames(c.Templates, templateName),
		deploymentTemplates: indexNames(c.DeploymentTemplates, deploymentTemplateName),
		nodes:               nodeIndex,
		aliases:             aliases,
		missing:             missing,
	}
	for _, n := range u.Nodes {
		look.nodeNames = append(look.nodeNames, n.Name)
	}
	for i, td := range c.Templates {
		pt, err := td.compile(nodeIndex)
		if err != nil {
			return nil, nil, fmt.Errorf("templates[%d] (%s): %w", i, td.Name, err)
		}
		pt.Scalar = ScalarVector(u.ScalarResources, td.Scalar)
		u.Templates = append(u.Templates, pt)
	}
	hpaOf := func(h *HPADecl, reps int) (int, error) {
		if h == nil {
			return 0, nil
		}
		// The HPA factor derives bounds for scaling-search setups only;
		// the original topology keeps the HPA as written.
		spec, err := h.compile(reps, !withPods)
		if err != nil {
			return 0, err
		}
		for i, name := range h.SelectorSharedWith {
			d := look.deployments.of(name)
			if d < 0 {
				return 0, fmt.Errorf("selectorSharedWith[%d] %q: no such workload (accepted: %s): %w", i, name, c.deploymentNames(), ErrInvalid)
			}
			spec.AmbiguousWhenPodsOf = append(spec.AmbiguousWhenPodsOf, d)
		}
		for i, name := range h.SelectsPodsOf {
			d := look.deployments.of(name)
			if d < 0 {
				return 0, fmt.Errorf("selectsPodsOf[%d] %q: no such workload (accepted: %s): %w", i, name, c.deploymentNames(), ErrInvalid)
			}
			spec.CountsPodsOf = append(spec.CountsPodsOf, d)
		}
		u.HPAs = append(u.HPAs, spec)
		return len(u.HPAs), nil
	}
	type depInit struct {
		active   bool
		replicas int
		config   int
		hpa      int
		// rolledOut is the template of a paused Deployment's ReplicaSet
		// when it is not its config's (DeploymentDecl.RolledOutTemplate);
		// -1 otherwise.
		rolledOut int
		// old is the template of the older ReplicaSet of a Deployment in
		// the middle of a rollout (DeploymentDecl.OldReplicaSet), -1
		// without one; oldReplicas its spec.replicas, newReplicas the
		// current one's.
		old, oldReplicas, newReplicas int
	}
	var deps []depInit
	slots := 0
	// needs[d] is the most pods deployment d's spec can ask for without
	// commands: its replicas or its HPA's maximum.
	var needs []int
	for i, d := range c.Deployments {
		t := look.templates.of(d.Template)
		if t < 0 {
			return nil, nil, fmt.Errorf("deployments[%d] (%s).template %q: no such template (accepted: %s): %w", i, d.Name, d.Template, c.templateNames(), ErrInvalid)
		}
		kind, err := ParseWorkloadKind(d.Kind)
		if err != nil {
			return nil, nil, fmt.Errorf("deployments[%d] (%s): %w", i, d.Name, err)
		}
		var cfg DeploymentConfig
		if kind == KindJob {
			if err = checkJobDecl(&d); err == nil {
				cfg, err = jobConfig(t, d.Job)
			}
		} else if d.Job != nil {
			err = fmt.Errorf("job: only a workload of kind Job takes it (accepted: kind Job): %w", ErrInvalid)
		} else {
			cfg, err = workloadConfig(kind, t, d.statefulSetDecl())
		}
		if err != nil {
			return nil, nil, fmt.Errorf("deployments[%d] (%s): %w", i, d.Name, err)
		}
		u.Configs = append(u.Configs, cfg)
		if replicas[i] < 0 {
			return nil, nil, fmt.Errorf("deployments[%d] (%s).replicas %d: must not be negative: %w", i, d.Name, replicas[i], ErrInvalid)
		}
		h, err := hpaOf(d.HPA, replicas[i])
		if err != nil {
			return nil, nil, fmt.Errorf("deployments[%d] (%s).hpa: %w", i, d.Name, err)
		}
		if h > 0 && !withPods && d.MaxPodsPerNode > 0 {
			// Kivi's setups cap the HPA maximum at what the nodes can
			// hold: max = min(factor·replicas, maxPodsPerNode·nodes).
			hp := &u.HPAs[h-1]
			hp.Max = max(min(hp.Max, d.MaxPodsPerNode*len(layout)), hp.Min)
		}
		if err := checkPausedDecl(&d, kind); err != nil {
			return nil, nil, fmt.Errorf("deployments[%d] (%s): %w", i, d.Name, err)
		}
		rolledOut := -1
		if d.RolledOutTemplate != "" {
			if rolledOut = look.templates.of(d.RolledOutTemplate); rolledOut < 0 {
				return nil, nil, fmt.Errorf("deployments[%d] (%s).rolledOutTemplate %q: no such template (accepted: %s): %w", i, d.Name, d.RolledOutTemplate, c.templateNames(), ErrInvalid)
			}
		}
		old, oldReplicas, newReplicas, err := oldReplicaSetDecl(c, &d, kind, replicas[i], look)
		if err != nil {
			return nil, nil, fmt.Errorf("deployments[%d] (%s).%w", i, d.Name, err)
		}
		u.Deployments = append(u.Deployments, Deployment{Name: d.Name, Kind: kind, ReplicasUnset: d.ReplicasUnset, Paused: d.Paused})
		active := d.Created == nil || *d.Created
		deps = append(deps, depInit{active: active, replicas: replicas[i], config: len(u.Configs) - 1, hpa: h, rolledOut: rolledOut,
			old: old, oldReplicas: oldReplicas, newReplicas: newReplicas})
		need := replicas[i]
		if kind == KindJob {
			need = jobNeeds(&d, need)
		}
		if h > 0 {
			need = max(need, u.HPAs[h-1].Max)
		}
		if d.CronJob != nil && d.CronJob.ConcurrencyPolicy == "Replace" {
			// A replaced run's pods terminate next to the new run's.
			need *= 2
		}
		needs = append(needs, need)
	}
	if err := u.compileCronJobs(c.Deployments); err != nil {
		return nil, nil, err
	}
	for i, dt := range c.DeploymentTemplates {
		t := look.templates.of(dt.Template)
		if t < 0 {
			return nil, nil, fmt.Errorf("deploymentTemplates[%d] (%s).template %q: no such template (accepted: %s): %w", i, dt.Name, dt.Template, c.templateNames(), ErrInvalid)
		}
		kind, err := ParseWorkloadKind(dt.Kind)
		if err == nil && kind == KindJob {
			err = fmt.Errorf("kind Job: kubectl apply and create of a Job manifest are not modelled (accepted: Deployment, StatefulSet; a Job of the cluster's manifests created later is a createTargetDeployment): %w", ErrInvalid)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("deploymentTemplates[%d] (%s): %w", i, dt.Name, err)
		}
		cfg, err := workloadConfig(kind, t, dt.statefulSetDecl())
		if err != nil {
			return nil, nil, fmt.Errorf("deploymentTemplates[%d] (%s): %w", i, dt.Name, err)
		}
		u.Configs = append(u.Configs, cfg)
		reps := 1
		if dt.Replicas != nil {
			reps = *dt.Replicas
		}
		hpa := -1
		if dt.HPA != nil {
			h, err := hpaOf(dt.HPA, reps)
			if err != nil {
				return nil, nil, fmt.Errorf("deploymentTemplates[%d] (%s).hpa: %w", i, dt.Name, err)
			}
			hpa = h
			reps = max(reps, u.HPAs[h-1].Max)
		}
		target := dt.Deployment
		if target == "" {
			target = dt.Name
		}
		// The universe's template carries the Deployment's name: that is
		// what apply and create act on, whatever the template is called.
		if d := look.deployments.of(target); d >= 0 && u.Deployments[d].Kind != kind {
			return nil, nil, fmt.Errorf("deploymentTemplates[%d] (%s): a %s manifest for %s %s (accepted: a manifest of the workload's own kind): %w", i, dt.Name, kind, u.Deployments[d].Kind, target, ErrInvalid)
		}
		if dt.Paused != nil && kind != KindDeployment {
			return nil, nil, fmt.Errorf("deploymentTemplates[%d] (%s).paused: set for a %s (accepted: only a Deployment is paused): %w", i, dt.Name, kind, ErrInvalid)
		}
		u.DeploymentTemplates = append(u.DeploymentTemplates, DeploymentTemplate{Name: target, Replicas: dt.Replicas, Config: len(u.Configs) - 1, Paused: dt.Paused, HPA: hpa, Kind: kind})
		// Room for the manifest's pods next to the running ones during a
		// rollout.
		slots += reps
	}
	// configsOf lists, by deployment name, the configurations a
	// deployment may have (rolloutRestart copies them).
	configsOf := map[string][]int{}
	for i, d := range c.Deployments {
		configsOf[d.Name] = append(configsOf[d.Name], deps[i].config)
	}
	for i := range u.DeploymentTemplates {
		dt := &u.DeploymentTemplates[i]
		configsOf[dt.Name] = append(configsOf[dt.Name], dt.Config)
	}
	var decls []TemplateDecl // every template's declaration, restart copies included
	for i, e := range c.Events {
		ev, err := c.compileEvent(e, look)
		if err != nil {
			return nil, nil, fmt.Errorf("events[%d] (%s): %w", i, e.Kind, err)
		}
		if ev.Kind == RolloutRestart {
			if decls == nil {
				decls = slices.Clone(c.Templates)
			}
			configs := configsOf[e.Deployment]
			if err := u.addRestartCopies(&ev, &configs, &decls, look); err != nil {
				return nil, nil, fmt.Errorf("events[%d] (%s): %w", i, e.Kind, err)
			}
			configsOf[e.Deployment] = configs
		}
		u.Events = append(u.Events, ev)
	}
	// An undo may return to any template the deployment had, restart
	// copies included: its configurations are made once all are known.
	for i, e := range c.Events {
		if u.Events[i].Kind == RolloutUndo {
			configs := configsOf[e.Deployment]
			if err := u.addUndoConfigs(&u.Events[i], &configs); err != nil {
				return nil, nil, fmt.Errorf("events[%d] (%s): %w", i, e.Kind, err)
			}
			configsOf[e.Deployment] = configs
		}
	}
	pdbs, err := c.compilePDBDecls()
	if err != nil {
		return nil, nil, err
	}
	u.PDBs = pdbs
	slots += commandSlots(u, replicas, needs)
	slots = replacementSlots(u, slots)
	initial := 0
	if withPods {
		for _, ns := range layout {
			for _, p := range ns.pods {
				initial += max(p.Count, 1)
			}
		}
	}
	u.PodSlots = max(slots, initial)
	if c.PodSlots > 0 && withPods {
		if c.PodSlots < initial {
			return nil, nil, fmt.Errorf("podSlots %d: fewer than the %d initial pods: %w", c.PodSlots, initial, ErrInvalid)
		}
		u.PodSlots = c.PodSlots
	}
	if u.PodSlots == 0 {
		u.PodSlots = 1
	}
	if err := u.Compile(); err != nil {
		return nil, nil, err
	}
	s := NewState(u, 0)
	for d, di := range deps {
		ds := &s.Deps[d]
		ds.Active = di.active
		ds.Replicas = int16(di.replicas)
		ds.Config = uint8(di.config)
		ds.HPA = uint8(di.hpa)
		u.SetLastApplied(s, d, u.Deployments[d].ReplicasUnset)
		ds.RS[0] = ReplicaSetState{Template: uint8(u.Configs[di.config].PodTemplate + 1), Replicas: int16(di.replicas)}
		if di.old >= 0 {
			ds.RS[0].Replicas = int16(di.newReplicas)
			ds.RS[1] = ReplicaSetState{Template: uint8(di.old + 1), Replicas: int16(di.oldReplicas)}
		}
		if u.IsStatefulSet(d) || u.IsJob(d) {
			ds.RS[0].Replicas = 0 // a revision or a Job's template, not a ReplicaSet
		}
		u.SetLastAppliedPaused(s, d, c.Deployments[d].Paused || c.Deployments[d].PausedSet)
		if dd := &c.Deployments[d]; dd.Paused {
			u.SetPaused(s, d, true)
			switch {
			case !dd.RolledOut:
				// Upstream creates no ReplicaSet for a paused Deployment.
				ds.RS[0] = ReplicaSetState{}
			case di.rolledOut >= 0:
				// Its template changed while it was paused: the resume
				// rolls it out.
				ds.RS[0].Template = uint8(di.rolledOut + 1)
			}
		}
		if jd := c.Deployments[d].Job; u.IsJob(d) && jd != nil && jd.Status != nil {
			if err := applyJobStatus(ds, &u.Configs[di.config].Job, jd.Status); err != nil {
				return nil, nil, fmt.Errorf("deployments[%d] (%s).job.%w", d, u.Deployments[d].Name, err)
			}
		}
	}
	for n, ns := range layout {
		s.Nodes[n].Status = ns.status
		// The node's condition is known: the node lifecycle controller
		// taints it with that key (the NoSchedule taint at once, the
		// NoExecute one when it handles the node, as the zone states let
		// it), never with the other. A dump that lists the NoExecute
		// taint already says which it is (queueNodesNotReady).
		if ns.condition != openCondition && !u.Options.KiviLifecycle && !hasNodeDownTaint(u.Nodes[n].Taints) {
			s.Nodes[n].Status = ns.status.WithHeldNodeDownTaint(ns.condition.taintKey())
		}
	}
	if withPods {
		slot := 0
		ordinals := make([]int, len(deps))
		taken := map[[2]int]bool{} // StatefulSet, ordinal
		for n, ns := range layout {
			for pi, p := range ns.pods {
				d := look.deployments.of(p.Deployment)
				if d < 0 {
					return nil, nil, fmt.Errorf("nodes[%d].pods[%d].deployment %q: no such deployment (accepted: %s): %w", ns.group, pi, p.Deployment, c.deploymentNames(), ErrInvalid)
				}
				if p.Ordinal != nil && !u.IsStatefulSet(d) && !u.IsJob(d) || p.Ordinal != nil && p.Count > 1 {
					return nil, nil, fmt.Errorf("nodes[%d].pods[%d].ordinal: set for %s (accepted: only on one pod of a StatefulSet or an Indexed Job): %w", ns.group, pi, p.Deployment, ErrInvalid)
				}
				if p.Name != "" && p.Count > 1 {
					return nil, nil, fmt.Errorf("nodes[%d].pods[%d].name: %q for %d pods (accepted: a name for one pod): %w", ns.group, pi, p.Name, p.Count, ErrInvalid)
				}
				if s.Deps[d].RS[0].Template == 0 && !u.IsStatefulSet(d) && !u.IsJob(d) {
					return nil, nil, fmt.Errorf("nodes[%d].pods[%d].deployment %q: a paused Deployment that has no ReplicaSet has no pods (accepted: rolledOut: true on the Deployment, whose ReplicaSet then exists): %w", ns.group, pi, p.Deployment, ErrInvalid)
				}
				if p.OldReplicaSet && deps[d].old < 0 {
					return nil, nil, fmt.Errorf("nodes[%d].pods[%d].oldReplicaSet: set for a pod of %s, which has no oldReplicaSet (accepted: only for a Deployment in the middle of a rollout): %w", ns.group, pi, p.Deployment, ErrInvalid)
				}
				tmpl, rs := u.Configs[deps[d].config].PodTemplate, uint8(0)
				switch {
				case deps[d].rolledOut >= 0:
					tmpl = deps[d].rolledOut
				case p.OldReplicaSet:
					tmpl, rs = deps[d].old, 1
				}
				t := &u.Templates[tmpl]
				for k := 0; k < max(p.Count, 1); k++ {
					ps := PodState{Phase: Running, Node: uint16(n + 1), Owner: uint8(d + 1), RS: rs, Template: uint8(tmpl)}
					ps.CPU, ps.Memory = t.StartUsage()
					if u.IsStatefulSet(d) {
						// A StatefulSet's running pods hold its ordinals
						// from the start: the one given, else the next in
						// the order listed.
						o := u.Configs[deps[d].config].StatefulSet.OrdinalsStart + ordinals[d]
						if p.Ordinal != nil {
							o = *p.Ordinal
						} else {
							ordinals[d]++
						}
						if o < 0 || o > MaxOrdinal {
							return nil, nil, fmt.Errorf("nodes[%d].pods[%d]: StatefulSet %s pod of ordinal %d (accepted: 0 to %d in the model): %w", ns.group, pi, p.Deployment, o, MaxOrdinal, ErrInvalid)
						}
						if taken[[2]int{d, o}] {
							return nil, nil, fmt.Errorf("nodes[%d].pods[%d]: a second StatefulSet %s pod of ordinal %d (accepted: one pod per ordinal): %w", ns.group, pi, p.Deployment, o, ErrInvalid)
						}
						taken[[2]int{d, o}] = true
						ps.Ordinal = uint8(o + 1)
					}
					if u.IsJob(d) {
						o, err := initialJobPodIndex(&s.Deps[d], &u.Configs[deps[d].config].Job, &p)
						if err != nil {
							return nil, nil, fmt.Errorf("nodes[%d].pods[%d]: %w", ns.group, pi, err)
						}
						ps.Ordinal = o
					}
					if len(t.Pattern) > 0 {
						ps.CPU, ps.Pattern = int32(t.Pattern[0].CPU), 1
					}
					for _, use := range []struct {
						field string
						v     *int64
						to    *int32
					}{{"cpu", p.CPU, &ps.CPU}, {"memory", p.Memory, &ps.Memory}} {
						if use.v == nil {
							continue
						}
						if *use.v < 0 || *use.v > math.MaxInt32 {
							return nil, nil, fmt.Errorf("nodes[%d].pods[%d].%s: usage %d (accepted: 0 to %d in the model's units): %w", ns.group, pi, use.field, *use.v, math.MaxInt32, ErrInvalid)
						}
						*use.to = int32(*use.v)
					}
					field := fmt.Sprintf("nodes[%d].pods[%d]", ns.group, pi)
					if p.Restarts < 0 || p.InitRestarts < 0 {
						return nil, nil, fmt.Errorf("%s: restarts %d, initRestarts %d (accepted: 0 or more): %w", field, p.Restarts, p.InitRestarts, ErrInvalid)
					}
					r, err := u.InitialRestarts(&p, field)
					if err != nil {
						return nil, nil, err
					}
					ps.Restarts = r
					s.Pods[slot] = ps
					if p.Name != "" {
						if u.InitialPodNames == nil {
							u.InitialPodNames = make([]string, len(s.Pods))
						}
						u.InitialPodNames[slot] = p.Name
					}
					slot++
				}
			}
		}
		queueDeploymentsOutOfSync(u, s)
		queueInitialTaintEvictions(u, s)
	}
	queueNodesNotReady(u, s)
	return u, s, nil
}

// commandSlots sizes the pod slots of the deployments from everything
// that can create their pods: the spec replicas or HPA maximum (needs),
// raised by every kubectl scale that may reach the deployment, plus the
// rollout surge when kubectl apply can start a rollout. A run that still
// needs more reaches the pod-slot bound and ends Unknown.
func commandSlots(u *Universe, replicas, needs []int) int {
	grow := make([]int, len(needs))
	target := make([]int, len(needs)) // the largest scale target
	rollouts := false
	for _, e := range u.Events {
		switch e.Kind {
		case ScaleDeployment:
			delta := e.MaxDelta
			if delta == 0 {
				delta = defaultScaleDelta
			}
			for d := e.Deployment; d < min(e.MaxDeployment, len(grow)); d++ {
				if e.Targeted {
					target[d] = max(target[d], e.Target)
				} else {
					grow[d] += delta
				}
			}
		case ApplyDeployment, RolloutRestart, RolloutUndo:
			rollouts = true
		}
	}
	total := 0
	for d, need := range needs {
		peak := max(need, replicas[d]+grow[d], target[d]+grow[d])
		if cfg := u.Configs[d]; rollouts && cfg.Strategy != Recreate {
			surge := cfg.MaxSurge.Value
			if cfg.MaxSurge.Percent {
				surge = (peak*surge + 99) / 100
			}
			peak += surge
		}
		total += peak
	}
	return total
}

func deploymentConfig(template int, strategy, surge, unavailable string) (DeploymentConfig, error) {
	cfg := DeploymentConfig{PodTemplate: template, MaxSurge: IntOrPercent{Value: 25, Percent: true}, MaxUnavailable: IntOrPercent{Value: 25, Percent: true}}
	switch strategy {
	case "", "RollingUpdate":
	case "Recreate":
		cfg.Strategy = Recreate
	default:
		return cfg, fmt.Errorf("strategy %q (accepted: RollingUpdate, Recreate): %w", strategy, ErrInvalid)
	}
	var err error
	if surge != "" {
		if cfg.MaxSurge, err = ParseIntOrPercent(surge); err != nil {
			return cfg, fmt.Errorf("maxSurge: %w", err)
		}
	}
	if unavailable != "" {
		if cfg.MaxUnavailable, err = ParseIntOrPercent(unavailable); err != nil {
			return cfg, fmt.Errorf("maxUnavailable: %w", err)
		}
	}
	return cfg, nil
}

// ParseIntOrPercent parses "3" or "25%".
func ParseIntOrPercent(s string) (IntOrPercent, error) {
	t := strings.TrimSpace(s)
	pct := strings.HasSuffix(t, "%")
	n, err := strconv.Atoi(strings.TrimSuffix(t, "%"))
	if err != nil || n < 0 {
		return IntOrPercent{}, fmt.Errorf("%q (accepted: a non-negative integer or percentage like \"25%%\"): %w", s, ErrInvalid)
	}
	return IntOrPercent{Value: n, Percent: pct}, nil
}

func (td TemplateDecl) compile(nodeIndex map[string]int) (PodTemplate, error) {
	pt := PodTemplate{Name: td.Name, Labels: td.Labels, Namespace: td.Namespace, CPU: td.CPU, Memory: td.Memory,
		NodeSelector: td.NodeSelector, Required: td.Required, Preferred: td.Preferred,
		Tolerations: td.Tolerations, Pattern: td.Pattern, Critical: td.Critical, LocalStorage: td.LocalStorage, OS: td.OS, PVC: td.PVC,
		DeschedulerEvict: td.DeschedulerEvict, PreferNoEviction: td.PreferNoEviction,
		NonZeroCPU: td.NonZeroCPU, NonZeroMemory: td.NonZeroMemory,
		LimitCPU: td.LimitCPU, LimitMemory: td.LimitMemory, QuotaMissing: td.QuotaMissing,
		MissingMetricRequest: td.MissingMetricRequest, ReservedOnly: td.ReservedOnly, Overhead: td.Overhead, Guaranteed: td.Guaranteed, PodLevel: td.PodLevel,
		PriorityClassName: td.PriorityClassName, ActiveDeadline: td.ActiveDeadline,
		ProbesReadiness: td.ReadinessProbe, MinReadySeconds: td.MinReadySeconds,
		Priority: td.Priority, PreemptionPolicy: td.PreemptionPolicy,
		HostPorts: append([]HostPort(nil), td.HostPorts...)}
	if err := checkPreemptionPolicy(td.PreemptionPolicy); err != nil {
		return pt, err
	}
	td.compilePodAffinity(&pt)
	if pt.Labels == nil {
		pt.Labels = map[string]string{}
	}
	if td.NodeName != "" {
		n, ok := nodeIndex[td.NodeName]
		if !ok {
			return pt, fmt.Errorf("nodeName %q: no such node: %w", td.NodeName, ErrInvalid)
		}
		pt.NodeName = n + 1
	}
	for j, sd := range td.Spread {
		c := SpreadConstraint{MaxSkew: sd.MaxSkew, MinDomains: sd.MinDomains, TopologyKey: sd.TopologyKey,
			Selector: sd.LabelSelector, MatchLabelKeys: sd.MatchLabelKeys}
		anyway, err := spreadOption(j, "whenUnsatisfiable", sd.WhenUnsatisfiable, "DoNotSchedule", "ScheduleAnyway")
		if err != nil {
			return pt, err
		}
		if anyway {
			c.When = ScheduleAnyway
		}
		ignoreAffinity, err := spreadOption(j, "nodeAffinityPolicy", sd.NodeAffinityPolicy, "Honor", "Ignore")
		if err != nil {
			return pt, err
		}
		c.HonorNodeAffinity = !ignoreAffinity
		if c.HonorNodeTaints, err = spreadOption(j, "nodeTaintsPolicy", sd.NodeTaintsPolicy, "Ignore", "Honor"); err != nil {
			return pt, err
		}
		if c.Selector == nil {
			c.Selector = &Selector{MatchLabels: pt.Labels}
		}
		pt.Spread = append(pt.Spread, c)
	}
	return pt, nil
}

func (h *HPADecl) compile(replicas int, setup bool) (HPA, error) {
	spec := HPA{Min: h.Min, Max: h.Max, TolerancePercent: h.TolerancePercent,
		ScaleDownStabilizationSyncs: h.ScaleDownStabilizationSyncs}
	if h.Behavior != nil {
		if h.ScaleDownStabilizationSyncs != 0 {
			return spec, fmt.Errorf("scaleDownStabilizationSyncs and behavior both given (accepted: one of them; behavior.scaleDown.stabilizationWindowSeconds is the window in seconds): %w", ErrInvalid)
		}
		b, err := h.Behavior.Compile()
		if err != nil {
			return spec, err
		}
		spec.Behavior = b
	}
	if setup && h.Factor > 0 {
		spec.Min = max(replicas, 1)
		spec.Max = max(h.Factor*replicas, spec.Min)
	}
	if spec.Min == 0 {
		spec.Min = 1
	}
	if len(h.SharedTarget) > 0 {
		return h.compileAmbiguous(spec)
	}
	for j, m := range h.Metrics {
		mt, err := compileMetric(j, m)
		if err != nil {
			return spec, err
		}
		spec.Metrics = append(spec.Metrics, mt)
	}
	if len(spec.Metrics) == 0 {
		spec.Metrics = []Metric{{Resource: CPU, Target: Utilization, Value: 80}}
	}
	return spec, nil
}

func (c *Cluster) compileEvent(e EventDecl, look lookup) (Event, error) {
	ev := Event{Parallel: e.Parallel, MaxDelta: e.MaxDelta, DeltaUnit: e.DeltaUnit, MaxDeployment: e.MaxDeployment}
	kinds := map[string]EventKind{}
	for k, n := range eventNames {
		kinds[n] = k
	}
	k, ok := kinds[e.Kind]
	if !ok {
		return ev, fmt.Errorf("kind %q (accepted: eventCpuChange, eventMemoryChange, kernelPanic, maintenance, nodeFailure, createTargetDeployment, applyDeployment, createDeployment, scaleDeployment, drain, rolloutRestart, rolloutUndo, rolloutPause, rolloutResume, deleteNode): %w", e.Kind, ErrInvalid)
	}
	ev.Kind = k
	switch e.When {
	case "", "main":
	case "first":
		ev.Slot = First
	case "afterStable":
		ev.Slot = AfterStable
	default:
		return ev, fmt.Errorf("when %q (accepted: main, first, afterStable): %w", e.When, ErrInvalid)
	}
	if e.Replicas != nil && k != ScaleDeployment {
		return ev, fmt.Errorf("replicas: only scaleDeployment takes a target: %w", ErrInvalid)
	}
	if k != Maintenance && e.Order != "" {
		return ev, fmt.Errorf("order: only maintenance takes it: %w", ErrInvalid)
	}
	if k != Drain && (len(e.Nodes) > 0 || e.TimeoutRetries != 0 || e.DisableEviction || e.Force || e.Uncordon) {
		return ev, fmt.Errorf("nodes, timeoutRetries, disableEviction, force, uncordon: only drain takes them: %w", ErrInvalid)
	}
	if err := nodeLossDecl(&ev, e); err != nil {
		return ev, err
	}
	if k != ApplyDeployment && e.SelfHeal {
		return ev, fmt.Errorf("selfHeal: only applyDeployment takes it (a GitOps controller applying a file again): %w", ErrInvalid)
	}
	ev.SelfHeal = e.SelfHeal
	if k != DeleteNode && e.Drain {
		return ev, fmt.Errorf("drain: only deleteNode takes it (accepted: the drain event for a drain alone): %w", ErrInvalid)
	}
	switch k {
	case CPUChange, CreateTargetDeployment, RolloutRestart, RolloutUndo, RolloutPause, RolloutResume, MemoryChange:
		if k == MemoryChange {
			if err := memoryChangeDecl(&ev, e); err != nil {
				return ev, err
			}
		}
		d := look.deployments.of(e.Deployment)
		if d < 0 {
			return ev, fmt.Errorf("deployment %q: no such deployment (accepted: %s): %w", e.Deployment, c.deploymentNames(), ErrInvalid)
		}
		ev.Deployment = d
	case NodeFailure, DeleteNode:
		if k == DeleteNode && e.Node == "" {
			return ev, fmt.Errorf("node: required (accepted: node: NAME, the node deleted): %w", ErrInvalid)
		}
		n, err := look.node(e.Node)
		if err != nil {
			return ev, err
		}
		ev.Node = n
		ev.DrainFirst = e.Drain
	case ApplyDeployment, CreateDeployment:
		found := look.deploymentTemplates.of(e.Template)
		if found < 0 {
			return ev, fmt.Errorf("template %q: no such deployment template (accepted: %s): %w", e.Template, namesOf(c.DeploymentTemplates, deploymentTemplateName), ErrInvalid)
		}
		ev.Template = found
	case Maintenance:
		if ev.Parallel == 0 {
			ev.Parallel = 1
		}
		o, err := parseMaintenanceOrder(e.Order)
		if err != nil {
			return ev, err
		}
		ev.Order = o
	case Drain:
		if err := compileDrainDecl(&ev, e, look); err != nil {
			return ev, err
		}
	case ScaleDeployment:
		if ev.MaxDeployment == 0 {
			ev.MaxDeployment = len(c.Deployments)
		}
		// A named deployment narrows the choice to [d, d+1).
		if e.Deployment != "" {
			d := look.deployments.of(e.Deployment)
			if d < 0 {
				return ev, fmt.Errorf("deployment %q: no such deployment (accepted: %s): %w", e.Deployment, c.deploymentNames(), ErrInvalid)
			}
			if e.MaxDeployment != 0 {
				return ev, fmt.Errorf("deployment and maxDeployment: give one (accepted: deployment: NAME, or maxDeployment: N for the first N): %w", ErrInvalid)
			}
			ev.Deployment, ev.MaxDeployment = d, d+1
		}
		if e.Replicas != nil {
			if e.MaxDelta != 0 {
				return ev, fmt.Errorf("replicas and maxDelta: give one (accepted: replicas: N, a target, or maxDelta: N, every change up to N): %w", ErrInvalid)
			}
			if *e.Replicas < 0 || *e.Replicas > math.MaxInt16 {
				return ev, fmt.Errorf("replicas %d (accepted: 0..%d): %w", *e.Replicas, math.MaxInt16, ErrInvalid)
			}
			ev.Targeted, ev.Target = true, *e.Replicas
		}
	}
	return ev, nil
}

// node resolves an event's node: its name, then (scaling setups) the
// written node of that name, then Kivi's 1-based position.
func (l lookup) node(name string) (int, error) {
	if n, ok := l.nodes[name]; ok {
		return n, nil
	}
	if n, ok := l.aliases[name]; ok {
		return n, nil
	}
	if why, ok := l.missing[name]; ok {
		return 0, fmt.Errorf("%s: %w", why, ErrInvalid)
	}
	if p, err := strconv.Atoi(name); err == nil && p >= 1 && p <= len(l.nodeNames) {
		return p - 1, nil
	}
	shown := l.nodeNames
	if len(shown) > 10 {
		shown = append(shown[:10:10], fmt.Sprintf("… (%d in all)", len(l.nodeNames)))
	}
	return 0, fmt.Errorf("node %q: no such node (accepted: a node name, %s, or a 1-based position 1..%d): %w", name, strings.Join(shown, ", "), len(l.nodeNames), ErrInvalid)
}

// spreadOption reads a two-valued field of topologySpreadConstraints[j]:
// empty or def is false, other is true, anything else an error naming the
// field and both values.
func spreadOption(j int, field, value, def, other string) (bool, error) {
	switch value {
	case "", def:
		return false, nil
	case other:
		return true, nil
	}
	accepted := []string{def, other}
	slices.Sort(accepted)
	return false, fmt.Errorf("topologySpreadConstraints[%d].%s %q (accepted: %s): %w", j, field, value, strings.Join(accepted, ", "), ErrInvalid)
}

// compileAmbiguous compiles the HPAs of one workload that has several
// (HPA.Ambiguous), spec being the first one's bounds.
func (h *HPADecl) compileAmbiguous(spec HPA) (HPA, error) {
	first := HPABounds{Name: h.Name, Min: spec.Min, Max: spec.Max}
	out := HPA{Name: h.Name, Min: first.Min, Max: first.Max, TolerancePercent: spec.TolerancePercent,
		Ambiguous: []HPABounds{first}}
	names := h.Name
	for i, o := range h.SharedTarget {
		b := HPABounds{Name: o.Name, Min: max(o.Min, 1), Max: o.Max}
		if b.Max < b.Min {
			return out, fmt.Errorf("sharedTarget[%d] (%s): need 1 <= minReplicas <= maxReplicas (min %d, max %d): %w", i, o.Name, b.Min, b.Max, ErrInvalid)
		}
		out.Ambiguous = append(out.Ambiguous, b)
		out.Min, out.Max = min(out.Min, b.Min), max(out.Max, b.Max)
		names += ", " + o.Name
	}
	out.Metrics = []Metric{{Kind: InvalidMetric, Name: "AmbiguousSelector: the workload's pods are controlled by multiple HPAs (" + names + ")"}}
	return out, nil
}
