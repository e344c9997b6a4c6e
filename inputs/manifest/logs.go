package manifest

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// systemNamespaces hold the cluster's own workloads: their pods are not
// modelled as deployments but still take node capacity.
var systemNamespaces = []string{"kube-system", "kube-public", "kube-node-lease", "local-path-storage"}

// LoadLogs reads Kivi's log directory of a running cluster under root
// (Kivi's inputs and CLI §c):
//
//	setup/        files recognised by name: getnode, getpod, getdeployment
//	              (`kubectl get … -o json`), toppod (`kubectl top pods`),
//	              gethpa (`kubectl get hpa`, table or -o json); topnode is
//	              not needed
//	user_input/   intents (and optionally cluster_configs, whose
//	              events_assumption adds events)
//
// Kubernetes' rules decide what is modelled: Deployments outside the
// system namespaces; their bound pods found through ownerReferences
// (Pod → ReplicaSet named <deployment>-<pod-template-hash>, whose pods
// the Deployment's selector matches); every other pod's requests become
// its node's reservation; a node no modelled pod can ever use (an
// untolerated NoSchedule/NoExecute taint, no spread domain it could
// count in) is left out, which is how the control plane goes.
func LoadLogs(fsys fs.FS, root string, opts Options) (*Result, error) {
	// Kivi's log directories are Kivi's input format: its `hostname`
	// alias exists there, as in Kivi.
	as := &assembly{opts: opts, c: &model.Cluster{Name: path.Base(root), KiviHostnameAlias: true}}
	setup := path.Join(root, "setup")
	files, err := readDir(fsys, setup, func(string) bool { return true })
	if err != nil {
		return nil, &Error{File: setup, Msg: "cannot read the log directory (accepted: DIR/setup/ with getnode, getpod, getdeployment, toppod, gethpa files): " + err.Error()}
	}
	byRole := map[string]*file{}
	for _, role := range []string{"getnode", "getpod", "getdeployment", "toppod", "gethpa"} {
		f, err := pick(setup, files, role)
		if err != nil {
			return nil, err
		}
		byRole[role] = f
	}
	for _, role := range []string{"getnode", "getpod", "getdeployment"} {
		if byRole[role] == nil {
			return nil, &Error{File: setup, Msg: fmt.Sprintf("no %s file (accepted: the output of `kubectl get %ss -o json` in a file whose name contains %q)", role, strings.TrimPrefix(role, "get"), role)}
		}
	}
	decode := func(role, kind string) ([]Object, error) {
		f := byRole[role]
		objs, warns, err := Decode(f.name, f.data)
		if err != nil {
			return nil, err
		}
		as.warns = append(as.warns, warns...)
		var out []Object
		for _, o := range objs {
			if o.Kind != kind {
				return nil, o.at().errorf(o.path("kind"), "%s in a %s file (accepted: %s objects)", o.Kind, role, kind)
			}
			out = append(out, o)
		}
		return out, nil
	}
	nodeObjs, err := decode("getnode", "Node")
	if err != nil {
		return nil, err
	}
	podObjs, err := decode("getpod", "Pod")
	if err != nil {
		return nil, err
	}
	depObjs, err := decode("getdeployment", "Deployment")
	if err != nil {
		return nil, err
	}
	var nodes []nodeIn
	for _, o := range nodeObjs {
		n, err := nodeFromObject(o)
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, n)
	}
	if len(nodes) == 0 {
		return nil, &Error{File: byRole["getnode"].name, Msg: "no Node (accepted: `kubectl get nodes -o json`)"}
	}
	// Templates are converted against every node's labels; the nodes
	// left out are decided afterwards.
	as.c.NodeTypes, as.c.Nodes = groupNodes(keepMemoryCapacity(nil, nodes))
	var modelled []Object
	for _, o := range depObjs {
		if !slices.Contains(systemNamespaces, o.Value.(*Deployment).Metadata.Namespace) {
			modelled = append(modelled, o)
		}
	}
	if byRole["gethpa"] != nil {
		hpas, err := as.hpaLog(byRole["gethpa"], modelled)
		if err != nil {
			return nil, err
		}
		modelled = append(modelled, hpas...)
	}
	names, err := as.workloads(modelled, true)
	if err != nil {
		return nil, err
	}
	if err := as.needDeployment(byRole["getdeployment"].name); err != nil {
		return nil, err
	}
	usage := map[string]tableRow{}
	if f := byRole["toppod"]; f != nil {
		t := parseTable(f.data)
		if !t.has("NAME") || !t.has("CPU(cores)") {
			return nil, &Error{File: f.name, Msg: "not a `kubectl top pods` table (accepted: columns NAME, CPU(cores), MEMORY(bytes))"}
		}
		for _, r := range t.rows {
			ns := r.cells["NAMESPACE"]
			usage[deploymentKey(ns, r.cells["NAME"])] = r
		}
	}
	if err := as.placePods(podObjs, depObjs, names, nodes, usage, byRole["toppod"]); err != nil {
		return nil, err
	}
	if err := as.logInputs(fsys, root); err != nil {
		return nil, err
	}
	return as.finish(root)
}

// placePods puts the modelled deployments' bound pods on their nodes
// (Running ones with their measured usage), turns every other pod into
// its node's reservation and drops the nodes no modelled pod can use.
func (as *assembly) placePods(podObjs, depObjs []Object, names map[string]string, nodes []nodeIn, usage map[string]tableRow, top *file) error {
	nodeIdx := map[string]int{}
	for i, n := range nodes {
		nodeIdx[n.name] = i
	}
	systemPods := make([]int, len(nodes))
	used := make([]bool, len(nodes))
	for _, o := range podObjs {
		p := o.Value.(*Pod)
		a := o.at()
		ni, onNode := nodeIdx[p.Spec.NodeName]
		if p.Spec.NodeName != "" && !onNode {
			return a.errorf(o.path("spec.nodeName"), "%q is not a node of the getnode file (nodes: %s)", p.Spec.NodeName, nodeNames(nodes))
		}
		dep, owned := ownerDeployment(p, depObjs)
		modelName, modelledDep := "", false
		if owned {
			modelName, modelledDep = names[dep]
		}
		gone := p.DeletionTimestamp() || p.Status.Phase == "Succeeded" || p.Status.Phase == "Failed"
		switch {
		case gone:
			continue
		case !onNode:
			if modelledDep {
				as.warns = append(as.warns, a.warning(o.path(""), "pod %s is not bound to a node: left out; the deployment controller recreates it in the model", p.Metadata.Name))
			}
			continue
		case modelledDep && (p.Status.Phase == "Running" || p.Status.Phase == "Pending"):
			// A bound Pending pod is its ReplicaSet's active pod, which
			// the kubelet starts on its node: the model starts it there
			// (a reservation would hold its requests while the ReplicaSet
			// controller, not counting it, created another pod).
			ip := model.InitialPod{Deployment: modelName, Name: p.Metadata.Name}
			if p.Status.Phase == "Pending" {
				as.warns = append(as.warns, a.warning(o.path(""), "pod %s is bound to node %s and not started yet: the model starts it there, using its request", p.Metadata.Name, p.Spec.NodeName))
			} else if err := as.podUsage(o, &ip, usage, top); err != nil {
				return err
			}
			nodes[ni].pods = append(nodes[ni].pods, ip)
			used[ni] = true
			continue
		}
		// A system pod, a pod of an unmodelled owner, or a modelled pod
		// in another phase: its requests hold node capacity.
		if err := as.reservePod(&nodes[ni], o); err != nil {
			return err
		}
		systemPods[ni]++
		if !slices.Contains(systemNamespaces, p.Metadata.Namespace) && !modelledDep {
			as.warns = append(as.warns, a.warning(o.path(""), "pod %s/%s has no modelled Deployment: its requests are reserved on node %s", p.Metadata.Namespace, p.Metadata.Name, p.Spec.NodeName))
		}
	}
	var kept []nodeIn
	for i, n := range nodes {
		if n.maxPods == 0 {
			n.maxPods = model.DefaultMaxPods
		}
		n.maxPods = max(n.maxPods-systemPods[i], 1)
		if n.reservedCPU >= n.cpu || n.reservedMem >= n.memory {
			as.warns = append(as.warns, Warning{File: "", Msg: fmt.Sprintf("node %s: other pods request all of its cpu or memory", n.name)})
		}
		if !used[i] && as.unusable(n) {
			// kube-scheduler still lists it (model/nodestoscore.go).
			as.c.Scheduler.OmittedNodes++
			continue
		}
		kept = append(kept, n)
	}
	as.c.NodeTypes, as.c.Nodes = groupNodes(kept)
	return nil
}

// reservePod holds a running pod's requests and host ports on its node
// n: a pod no modelled controller owns, which never moves.
func (as *assembly) reservePod(n *nodeIn, o Object) error {
	p := o.Value.(*Pod)
	tc := templateConv{o: o, warns: &as.warns}
	req, err := tc.requests(p.Spec)
	if err != nil {
		return err
	}
	ports, err := tc.hostPorts(p.Spec)
	if err != nil {
		return err
	}
	n.reservedCPU += req.cpu
	n.reservedMem += req.mem
	n.reserveScalar(req.scalar)
	n.reservedHostPorts = append(n.reservedHostPorts, ports...)
	return nil
}

// DeletionTimestamp reports whether the pod is being deleted.
func (p *Pod) DeletionTimestamp() bool { return p.Metadata.DeletionTimestamp != nil }

// ownerDeployment finds the Deployment of a pod by Kubernetes' links: the
// pod's controller is a ReplicaSet, which the Deployment controller names
// <deployment>-<pod-template-hash>, in the pod's namespace, and the
// Deployment's selector matches the pod.
func ownerDeployment(p *Pod, deps []Object) (string, bool) {
	var rs string
	for _, or := range p.Metadata.OwnerReferences {
		if or.Kind == "ReplicaSet" && (or.Controller == nil || *or.Controller) {
			rs = or.Name
		}
	}
	hash := p.Metadata.Labels["pod-template-hash"]
	if rs == "" || hash == "" {
		return "", false
	}
	for _, o := range deps {
		d := o.Value.(*Deployment)
		if d.Metadata.Namespace != p.Metadata.Namespace || rs != d.Metadata.Name+"-"+hash || d.Spec.Selector == nil {
			continue
		}
		sel, err := convertSelector(func(string, string, ...any) error { return ErrInput }, d.Spec.Selector)
		if err == nil && sel.MatchesLabels(p.Metadata.Labels) {
			return deploymentKey(d.Metadata.Namespace, d.Metadata.Name), true
		}
	}
	return "", false
}

// podUsage sets a modelled pod's usage from `kubectl top pods`.
func (as *assembly) podUsage(o Object, ip *model.InitialPod, usage map[string]tableRow, top *file) error {
	p := o.Value.(*Pod)
	r, ok := usage[deploymentKey(p.Metadata.Namespace, p.Metadata.Name)]
	if !ok {
		r, ok = usage[deploymentKey("", p.Metadata.Name)]
	}
	if !ok {
		as.warns = append(as.warns, o.at().warning(o.path(""), "no `kubectl top pods` usage for pod %s: its usage is taken to be its request", p.Metadata.Name))
		return nil
	}
	a := at{file: top.name}
	cpu, err := parseResource(a, fmt.Sprintf("line %d: CPU(cores)", r.line), QuantityText{Text: r.cells["CPU(cores)"]}, cpuRequest)
	if err != nil {
		return err
	}
	ip.CPU = &cpu
	if m, ok := r.cells["MEMORY(bytes)"]; ok && m != "" {
		mem, err := parseResource(a, fmt.Sprintf("line %d: MEMORY(bytes)", r.line), QuantityText{Text: m}, memoryRequest)
		if err != nil {
			return err
		}
		ip.Memory = &mem
	}
	return nil
}

// unusable reports whether no modelled pod can ever be placed on n or
// count n as a spread domain: every template leaves it out through an
// untolerated NoSchedule/NoExecute taint, no template names it, and no
// spread constraint that ignores taints (the default) has its topology
// key on n.
func (as *assembly) unusable(n nodeIn) bool {
	for _, t := range as.c.Templates {
		if t.NodeName == n.name || tolerated(t.Tolerations, n.taints) {
			return false
		}
		for _, sd := range t.Spread {
			if sd.NodeTaintsPolicy == "Honor" {
				continue
			}
			if sd.TopologyKey == model.HostnameKey || sd.TopologyKey == model.KiviHostnameKey {
				return false
			}
			if _, ok := n.labels[sd.TopologyKey]; ok {
				return false
			}
		}
	}
	return true
}

// tolerated reports whether every NoSchedule and NoExecute taint is
// tolerated.
func tolerated(tols []model.Toleration, taints []model.Taint) bool {
	for _, taint := range taints {
		if taint.Effect == model.PreferNoSchedule {
			continue
		}
		ok := false
		for _, t := range tols {
			ok = ok || t.Tolerates(taint)
		}
		if !ok {
			return false
		}
	}
	return true
}

// hpaLog reads the gethpa file: `kubectl get hpa -o json`, or its table
// NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE, whose targets
// "current/target" are CPU utilisation ("50%") or CPU average values.
func (as *assembly) hpaLog(f *file, deps []Object) ([]Object, error) {
	if looksLikeJSON(f.data) {
		objs, warns, err := Decode(f.name, f.data)
		if err != nil {
			return nil, err
		}
		as.warns = append(as.warns, warns...)
		for _, o := range objs {
			if o.Kind != "HorizontalPodAutoscaler" {
				return nil, o.at().errorf(o.path("kind"), "%s in a gethpa file (accepted: HorizontalPodAutoscaler objects)", o.Kind)
			}
		}
		return objs, nil
	}
	t := parseTable(f.data)
	for _, col := range []string{"NAME", "REFERENCE", "TARGETS", "MINPODS", "MAXPODS"} {
		if !t.has(col) {
			return nil, &Error{File: f.name, Msg: fmt.Sprintf("not a `kubectl get hpa` table: no %s column (accepted: NAME, REFERENCE, TARGETS, MINPODS, MAXPODS, ...)", col)}
		}
	}
	var out []Object
	for _, r := range t.rows {
		a := at{file: f.name}
		line := fmt.Sprintf("line %d", r.line)
		kind, name, ok := strings.Cut(r.cells["REFERENCE"], "/")
		if !ok || name == "" {
			return nil, a.errorf(line+": REFERENCE", "%q (accepted: Kind/name, e.g. Deployment/web)", r.cells["REFERENCE"])
		}
		h := &HPAv2{TypeMeta: TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"}}
		h.Metadata.Name = r.cells["NAME"]
		h.Metadata.Namespace = r.cells["NAMESPACE"]
		if h.Metadata.Namespace == "" {
			// The table has no namespace: take the target's.
			for _, o := range deps {
				if d, ok := o.Value.(*Deployment); ok && d.Metadata.Name == name {
					h.Metadata.Namespace = d.Metadata.Namespace
				}
			}
		}
		// The table's REFERENCE (Deployment/web) has no version: the
		// model's targets are all apps/v1.
		h.Spec.ScaleTargetRef = CrossVersionObjectReference{APIVersion: "apps/v1", Kind: kind, Name: name}
		for _, col := range []struct {
			name string
			out  **int32
		}{{"MINPODS", &h.Spec.MinReplicas}} {
			v, err := strconv.ParseInt(r.cells[col.name], 10, 32)
			if err != nil {
				return nil, a.errorf(line+": "+col.name, "%q (accepted: an integer)", r.cells[col.name])
			}
			x := int32(v)
			*col.out = &x
		}
		v, err := strconv.ParseInt(r.cells["MAXPODS"], 10, 32)
		if err != nil {
			return nil, a.errorf(line+": MAXPODS", "%q (accepted: an integer)", r.cells["MAXPODS"])
		}
		h.Spec.MaxReplicas = int32(v)
		metrics, err := tableTargets(a, line+": TARGETS", r.cells["TARGETS"])
		if err != nil {
			return nil, err
		}
		h.Spec.Metrics = metrics
		out = append(out, Object{File: f.name, Path: line, Kind: "HorizontalPodAutoscaler", APIVersion: "autoscaling/v2", Value: h})
	}
	return out, nil
}

// tableTargets parses a TARGETS cell: comma-separated "current/target"
// pairs, optionally prefixed "cpu: " or "memory: " (kubectl ≥ 1.30);
// without a prefix the metric is CPU, the only one older kubectl prints
// bare.
func tableTargets(a at, where, cell string) ([]MetricSpec, error) {
	if strings.Contains(cell, "more...") {
		return nil, a.errorf(where, "%q lists more metrics than the table shows (accepted: use `kubectl get hpa -o json`)", cell)
	}
	var out []MetricSpec
	for _, part := range strings.Split(cell, ",") {
		part = strings.TrimSpace(part)
		res := "cpu"
		if r, rest, ok := strings.Cut(part, ": "); ok {
			res, part = strings.TrimSpace(r), rest
			if strings.HasPrefix(res, "resource ") {
				res = strings.TrimSpace(strings.TrimPrefix(res, "resource "))
				res = strings.TrimSuffix(res, " on pods")
			}
		}
		_, target, ok := strings.Cut(part, "/")
		if !ok || target == "" {
			return nil, a.errorf(where, "%q (accepted: current/target such as 100%%/50%% or 250m/500m)", cell)
		}
		m := MetricSpec{Type: "Resource", Resource: &ResourceMetric{Name: res}}
		if pct, isPct := strings.CutSuffix(target, "%"); isPct {
			v, err := strconv.ParseInt(pct, 10, 32)
			if err != nil || v <= 0 {
				return nil, a.errorf(where, "target %q (accepted: a percentage > 0)", target)
			}
			x := int32(v)
			m.Resource.Target.Type, m.Resource.Target.AverageUtilization = "Utilization", &x
		} else {
			m.Resource.Target.Type = "AverageValue"
			m.Resource.Target.AverageValue = &QuantityText{Text: target}
		}
		out = append(out, m)
	}
	return out, nil
}

// logInputs reads user_input/ of a log directory: the intents, and the
// events of a cluster_configs file (its nodes are ignored: the cluster's
// own are used).
func (as *assembly) logInputs(fsys fs.FS, root string) error {
	uiDir := path.Join(root, "user_input")
	inputs, err := readDir(fsys, uiDir, func(string) bool { return true })
	if err != nil {
		return nil // no user input: the default intent only
	}
	cfg, err := pick(uiDir, inputs, "cluster_configs")
	if err != nil {
		return err
	}
	if cfg != nil {
		cc, err := parseKiviClusterConfig(cfg.name, cfg.data)
		if err != nil {
			return err
		}
		if len(cc.NodesTypes) > 0 || len(cc.DTypes) > 0 {
			as.warns = append(as.warns, Warning{File: cfg.name, Msg: "nodesTypes and dTypes are ignored in log mode: the running cluster's nodes and deployments are used"})
		}
		if err := as.addEvents(cfg.name, "events_assumption", cc.EventsAssumption); err != nil {
			return err
		}
	}
	intent, err := pick(uiDir, inputs, "intent")
	if err != nil || intent == nil {
		return err
	}
	return as.intents(intent)
}
