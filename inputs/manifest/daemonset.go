package manifest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// DaemonSets are not workloads of the model: their pods run one per
// eligible node, are never scheduled among the Deployments' pods, never
// scaled, and neither the descheduler (its DefaultEvictor), kubectl drain
// (--ignore-daemonsets) nor the node lifecycle controller (their
// tolerations) removes them. What they change is the room left on their
// nodes, so each one is read as a node reservation: its pod's requests
// (as the API server defaults them), its host ports and one pod of the
// node's pod limit, on every node the DaemonSet controller runs it on.

// DaemonSet is the part of an apps/v1 DaemonSet the model reads.
type DaemonSet struct {
	TypeMeta
	Metadata ObjectMeta `json:"metadata"`
	Spec     struct {
		Selector *LabelSelector  `json:"selector"`
		Template PodTemplateSpec `json:"template"`
	} `json:"spec"`
}

// daemonPod is a DaemonSet's pod as the reservation needs it.
type daemonPod struct {
	o        Object
	name     string
	cpu, mem int64
	td       model.TemplateDecl
}

// daemonTolerations are the tolerations the DaemonSet controller adds to
// every pod it creates (AddOrUpdateDaemonPodTolerations): not-ready and
// unreachable NoExecute, so that the node lifecycle controller leaves
// them, and the node condition taints of TaintNodesByCondition and the
// cordon, NoSchedule; network-unavailable too for a hostNetwork pod.
func daemonTolerations(hostNetwork bool) []model.Toleration {
	out := []model.Toleration{
		{Key: "node.kubernetes.io/not-ready", Operator: "Exists", Effect: model.NoExecute},
		{Key: "node.kubernetes.io/unreachable", Operator: "Exists", Effect: model.NoExecute},
		{Key: "node.kubernetes.io/disk-pressure", Operator: "Exists", Effect: model.NoSchedule},
		{Key: "node.kubernetes.io/memory-pressure", Operator: "Exists", Effect: model.NoSchedule},
		{Key: "node.kubernetes.io/pid-pressure", Operator: "Exists", Effect: model.NoSchedule},
		{Key: "node.kubernetes.io/unschedulable", Operator: "Exists", Effect: model.NoSchedule},
	}
	if hostNetwork {
		out = append(out, model.Toleration{Key: "node.kubernetes.io/network-unavailable", Operator: "Exists", Effect: model.NoSchedule})
	}
	return out
}

// daemonPods reads the DaemonSets among objs; nodes holds the nodes'
// label sets for the template reader.
func (as *assembly) daemonPods(objs []Object, nodes nodeLabels) ([]daemonPod, error) {
	var out []daemonPod
	for _, o := range objs {
		ds, ok := o.Value.(*DaemonSet)
		if !ok {
			continue
		}
		if ds.Metadata.Name == "" {
			return nil, o.at().errorf(o.path("metadata.name"), "required (accepted: the DaemonSet's name)")
		}
		if ds.Spec.Selector == nil {
			return nil, o.at().errorf(o.path("spec.selector"), "required (accepted: a label selector matching the template's labels)")
		}
		sel, err := convertSelector(func(field, format string, args ...any) error {
			return o.at().errorf(o.path(join("spec.selector", field)), format, args...)
		}, ds.Spec.Selector)
		if err != nil {
			return nil, err
		}
		if !sel.MatchesLabels(ds.Spec.Template.Metadata.Labels) {
			return nil, o.at().errorf(o.path("spec.template.metadata.labels"), "do not match spec.selector (accepted: labels the selector selects; the API server refuses the DaemonSet otherwise)")
		}
		// The pod's scheduling fields only decide where it runs; its
		// spread and inter-pod terms do not (the DaemonSet controller
		// places it on each node it targets), so they are not read.
		spec := ds.Spec.Template.Spec
		if err := checkAlwaysRestart(o, spec); err != nil {
			return nil, err
		}
		spec.TopologySpreadConstraints = nil
		if spec.Affinity != nil {
			a := *spec.Affinity
			a.PodAffinity, a.PodAntiAffinity = nil, nil
			spec.Affinity = &a
		}
		limits, err := as.limitRanges(objs)
		if err != nil {
			return nil, err
		}
		tc := templateConv{o: o, path: "spec.template", nodes: nodes, warns: &as.warns,
			limits: limits.forNamespace(namespaceOf(ds.Metadata.Namespace))}
		td, err := tc.convert(ds.Metadata.Name, ds.Spec.Template.Metadata, spec)
		if err != nil {
			return nil, err
		}
		td.Tolerations = append(td.Tolerations, daemonTolerations(spec.HostNetwork)...)
		out = append(out, daemonPod{o: o, name: ds.Metadata.Name, cpu: td.CPU, mem: td.Memory, td: td})
	}
	return out, nil
}

// runsOn reports whether the DaemonSet controller runs d's pod on a node
// with the given name (empty: unknown), labels (without the hostname
// label, which runsOn adds when the name is known) and taints, as
// NodeShouldRunDaemonPod decides for a node the pod already runs on: the
// template's nodeName, its nodeSelector and required node affinity, and
// every NoExecute taint tolerated; a NoSchedule taint only keeps a new
// pod off the node, except the not-ready and unreachable taints the node
// lifecycle controller adds to a node that stops reporting, which a
// running pod outlives.
func (d *daemonPod) runsOn(name string, labels map[string]string, kiviAlias bool, taints []model.Taint) bool {
	if d.td.NodeName != "" && d.td.NodeName != name {
		return false
	}
	labels = withHostname(name, labels, kiviAlias)
	for k, v := range d.td.NodeSelector {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	if len(d.td.Required) > 0 && !slices.ContainsFunc(d.td.Required, func(term model.Selector) bool { return term.MatchesLabels(labels) }) {
		return false
	}
	for _, t := range taints {
		switch {
		case t.Effect == model.PreferNoSchedule:
			continue
		case t.Effect == model.NoSchedule && (t.Key == "node.kubernetes.io/not-ready" || t.Key == "node.kubernetes.io/unreachable"):
			continue
		}
		if !slices.ContainsFunc(d.td.Tolerations, func(tol model.Toleration) bool { return tol.Tolerates(t) }) {
			return false
		}
	}
	return true
}

// withHostname returns labels with the name (model.NodeNameField, which
// matchFields read) of a node named name, and its hostname labels where
// it has none (nothing when the name is unknown).
func withHostname(name string, labels map[string]string, kiviAlias bool) map[string]string {
	if name == "" {
		return labels
	}
	labels = model.WithNodeName(name, labels)
	// As model.Compile: a node's own hostname label stays (it may differ
	// from its name), and the name stands in only where it has none.
	if _, ok := labels[model.HostnameKey]; !ok {
		labels[model.HostnameKey] = name
	}
	if _, ok := labels[model.KiviHostnameKey]; !ok && kiviAlias {
		labels[model.KiviHostnameKey] = labels[model.HostnameKey]
	}
	return labels
}

// profileAddedAffinity is the default-scheduler profile's addedAffinity
// among objs, nil without one or when the configuration is refused
// (schedulerDecl reports why, after the nodes are read).
func profileAddedAffinity(objs []Object, nodes nodeLabels) (*model.AddedAffinity, Object) {
	var c model.Cluster
	var warns []Warning
	if schedulerDecl(objs, &c, nodes, &warns) != nil || c.Scheduler.Profile.AddedAffinity == nil {
		return nil, Object{}
	}
	i := slices.IndexFunc(objs, func(o Object) bool { _, ok := o.Value.(*KubeSchedulerConfiguration); return ok })
	return c.Scheduler.Profile.AddedAffinity, objs[i]
}

// reserveDaemonPods reserves the pods of the DaemonSets among objs on
// the nodes they run on: requests and one pod each. A pod that does not
// fit in what the node has left stays Pending in Kubernetes and is left
// out, with a warning; so is one on a node the scheduler profile's
// addedAffinity excludes: the DaemonSet controller, which does not read
// scheduler profiles, creates it there, and kube-scheduler never binds it.
func (as *assembly) reserveDaemonPods(objs []Object, nodes []nodeIn, kiviAlias bool) error {
	sets := make([]map[string]string, len(nodes))
	for i, n := range nodes {
		sets[i] = n.labels
	}
	labels := nodeLabels{sets: sets, kiviAlias: kiviAlias}
	pods, err := as.daemonPods(objs, labels)
	if err != nil {
		return err
	}
	added, _ := profileAddedAffinity(objs, labels)
	unfit := make([][]string, len(pods))    // the nodes each DaemonSet's pod does not fit on
	excluded := make([][]string, len(pods)) // those the addedAffinity keeps it off
	for i := range nodes {
		n := &nodes[i]
		for k, d := range pods {
			if !d.runsOn(n.name, n.labels, kiviAlias, n.taints) {
				continue
			}
			if !added.Admits(withHostname(n.name, n.labels, kiviAlias)) {
				excluded[k] = append(excluded[k], n.name)
				continue
			}
			if !d.reserve(n.cpu, n.memory, n.scalar, &n.reservedCPU, &n.reservedMem, &n.reservedScalar, &n.reservedHostPorts, &n.maxPods) {
				unfit[k] = append(unfit[k], n.name)
			}
		}
	}
	as.warnUnfit(pods, unfit, "node")
	as.warnExcluded(pods, excluded, "node")
	return nil
}

// reserve holds d's pod on a node of capacity cpu, memory and scalar
// (its scalar resources) with its reservations, the host ports held and
// pod limit (0: the default), and reports whether the pod fits in what is
// left, its host ports free (else nothing changes).
func (d *daemonPod) reserve(cpu, memory int64, scalar map[string]int64, reservedCPU, reservedMem *int64, reservedScalar *map[string]int64, reservedPorts *[]model.HostPort, maxPods *int) bool {
	limit := *maxPods
	if limit == 0 {
		limit = model.DefaultMaxPods
	}
	if *reservedCPU+d.cpu > cpu || *reservedMem+d.mem > memory || limit <= 1 || model.PortsConflict(d.td.HostPorts, *reservedPorts) {
		return false
	}
	for k, v := range d.td.Scalar {
		if (*reservedScalar)[k]+v > scalar[k] {
			return false
		}
	}
	*reservedCPU += d.cpu
	*reservedMem += d.mem
	*reservedPorts = append(*reservedPorts, d.td.HostPorts...)
	for k, v := range d.td.Scalar {
		if *reservedScalar == nil {
			*reservedScalar = map[string]int64{}
		}
		(*reservedScalar)[k] += v
	}
	*maxPods = limit - 1
	return true
}

// warnUnfit warns, once per DaemonSet, about the nodes (or node types:
// what) its pod does not fit on, naming five at most.
func (as *assembly) warnUnfit(pods []daemonPod, unfit [][]string, what string) {
	for k, d := range pods {
		if len(unfit[k]) == 0 {
			continue
		}
		as.warns = append(as.warns, d.o.at().warning(d.o.path(""), "DaemonSet %s: its pod (cpu %dm, memory %dMi%s%s) does not fit in what is left on %s %s: it stays Pending there and reserves nothing", d.name, d.cpu, d.mem, scalarSuffix(d.td.Scalar), portsSuffix(d.td.HostPorts), what, fiveNames(unfit[k])))
	}
}

// warnExcluded warns, once per DaemonSet, about the nodes (or node types:
// what) the scheduler profile's addedAffinity keeps its pod off.
func (as *assembly) warnExcluded(pods []daemonPod, excluded [][]string, what string) {
	for k, d := range pods {
		if len(excluded[k]) == 0 {
			continue
		}
		as.warns = append(as.warns, d.o.at().warning(d.o.path(""), "DaemonSet %s: the DaemonSet controller creates its pod on %s %s, which the scheduler profile's NodeAffinity addedAffinity excludes: it stays Pending there and reserves nothing", d.name, what, fiveNames(excluded[k])))
	}
}

// fiveNames lists names, five at most.
func fiveNames(names []string) string {
	if len(names) > 5 {
		return strings.Join(names[:5], ", ") + fmt.Sprintf(" and %d more", len(names)-5)
	}
	return strings.Join(names, ", ")
}

// reserveDaemonPodsOnTypes is reserveDaemonPods for node types (Kivi's
// cluster_configs.json), whose nodes have no names: a DaemonSet that
// selects nodes by name or hostname is left out, with a warning.
func (as *assembly) reserveDaemonPodsOnTypes(objs []Object, types []model.NodeType, kiviAlias bool) error {
	labels := labelsOf(types, kiviAlias)
	pods, err := as.daemonPods(objs, labels)
	if err != nil {
		return err
	}
	added, cfg := profileAddedAffinity(objs, labels)
	if slices.ContainsFunc(added.Keys(), namesNodes) {
		as.warns = append(as.warns, cfg.at().warning(cfg.path("profiles"), "the default-scheduler profile's NodeAffinity addedAffinity selects nodes by hostname or name, which node types do not have: DaemonSet pods are reserved as if it admitted every node"))
		added = nil
	}
	unfit := make([][]string, len(pods))
	excluded := make([][]string, len(pods))
	for k, d := range pods {
		if d.td.NodeName != "" || selectsHostname(d.td) {
			as.warns = append(as.warns, d.o.at().warning(d.o.path(""), "DaemonSet %s selects nodes by name, which node types do not have: it reserves nothing", d.name))
			continue
		}
		for i := range types {
			t := &types[i]
			if !d.runsOn("", t.Labels, kiviAlias, t.Taints) {
				continue
			}
			if !added.Admits(t.Labels) {
				excluded[k] = append(excluded[k], t.Name)
				continue
			}
			if !d.reserve(t.CPU, t.Memory, t.Scalar, &t.ReservedCPU, &t.ReservedMemory, &t.ReservedScalar, &t.ReservedHostPorts, &t.MaxPods) {
				unfit[k] = append(unfit[k], t.Name)
			}
		}
	}
	as.warnUnfit(pods, unfit, "the nodes of type")
	as.warnExcluded(pods, excluded, "the nodes of type")
	return nil
}

// namesNodes reports whether a selector key tells nodes apart one by one:
// a hostname label or the node's name, which node types do not have.
func namesNodes(k string) bool {
	return k == model.HostnameKey || k == model.KiviHostnameKey || k == model.NodeNameField
}

// selectsHostname reports whether a template's node selection reads a
// hostname label or the node's name.
func selectsHostname(td model.TemplateDecl) bool {
	for k := range td.NodeSelector {
		if namesNodes(k) {
			return true
		}
	}
	for _, term := range td.Required {
		for k := range term.MatchLabels {
			if namesNodes(k) {
				return true
			}
		}
		for _, r := range term.MatchExpressions {
			if namesNodes(r.Key) {
				return true
			}
		}
	}
	return false
}

// warnDaemonSetSelectors warns about Deployment templates whose topology
// spread or inter-pod terms select a DaemonSet's pods in the same
// namespace: Kubernetes counts those pods, the model's reservations are
// not pods and are not counted.
func (as *assembly) warnDaemonSetSelectors(objs []Object) {
	for _, o := range objs {
		ds, ok := o.Value.(*DaemonSet)
		if !ok {
			continue
		}
		labels := ds.Spec.Template.Metadata.Labels
		for _, d := range objs {
			dep, ok := d.Value.(*Deployment)
			if !ok || namespaceOf(dep.Metadata.Namespace) != namespaceOf(ds.Metadata.Namespace) {
				continue
			}
			for _, sel := range templateSelectors(dep.Spec.Template.Spec) {
				if sel == nil {
					continue
				}
				s, err := convertSelector(func(string, string, ...any) error { return fmt.Errorf("bad selector") }, sel)
				if err == nil && s.MatchesLabels(labels) {
					as.warns = append(as.warns, d.at().warning(d.path("spec.template.spec"), "a spread constraint or pod affinity term selects the pods of DaemonSet %s, which the model holds as node reservations and does not count", ds.Metadata.Name))
					break
				}
			}
		}
	}
}

// templateSelectors lists the label selectors of a pod spec's topology
// spread constraints and inter-pod affinity terms.
func templateSelectors(spec PodSpec) []*LabelSelector {
	var out []*LabelSelector
	for _, c := range spec.TopologySpreadConstraints {
		out = append(out, c.LabelSelector)
	}
	if a := spec.Affinity; a != nil {
		for _, pa := range []*PodAffinity{a.PodAffinity, a.PodAntiAffinity} {
			if pa == nil {
				continue
			}
			for _, t := range pa.Required {
				out = append(out, t.LabelSelector)
			}
			for _, p := range pa.Preferred {
				out = append(out, p.PodAffinityTerm.LabelSelector)
			}
		}
	}
	return out
}

// scalarSuffix is ", " and the scalar requests, or "" without any.
func scalarSuffix(m map[string]int64) string {
	if len(m) == 0 {
		return ""
	}
	return ", " + scalarText(m)
}

// portsSuffix is ", host ports " and the ports, or "" without any.
func portsSuffix(ports []model.HostPort) string {
	if len(ports) == 0 {
		return ""
	}
	return fmt.Sprintf(", host ports %v", ports)
}
