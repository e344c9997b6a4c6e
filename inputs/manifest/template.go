package manifest

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"

	"github.com/kivi-go/kivi/model"
)

// nodeLabels are the label sets of every node the cluster can have; the
// template converter checks topology keys against them and resolves
// node-affinity Gt/Lt over their values.
type nodeLabels struct {
	sets []map[string]string
	// kiviAlias: the nodes get Kivi's `hostname` alias
	// (model.Cluster.KiviHostnameAlias), only in Kivi's own inputs.
	kiviAlias bool
}

// has reports whether some node carries key (model.Compile adds
// kubernetes.io/hostname to every node, and the alias when the input has
// it).
func (nl nodeLabels) has(key string) bool {
	if key == model.HostnameKey || key == model.KiviHostnameKey && nl.kiviAlias {
		return true
	}
	for _, l := range nl.sets {
		if _, ok := l[key]; ok {
			return true
		}
	}
	return false
}

// values returns the sorted distinct values of key on the nodes.
func (nl nodeLabels) values(key string) []string {
	set := map[string]bool{}
	for _, l := range nl.sets {
		if v, ok := l[key]; ok {
			set[v] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// neverKey is the label key of the selector that matches no pod, the
// model's spelling of a nil labelSelector in a spread constraint
// (Kubernetes counts no pod for it, the model's nil means "the template's
// labels").
const neverKey = "kivi.io/no-selector"

var matchesNothing = &model.Selector{MatchExpressions: []model.Requirement{
	{Key: neverKey, Operator: model.OpExists}, {Key: neverKey, Operator: model.OpDoesNotExist}}}

// templateConv converts one pod spec; path is the pod template's path in
// the object ("spec.template").
type templateConv struct {
	o     Object
	path  string
	nodes nodeLabels
	warns *[]Warning
	// classes resolves priorityClassName; nil for an admitted pod.
	classes *priorityClassTable
	// limits are the LimitRanges of the pods' namespace (limitrange.go);
	// none for an admitted pod.
	limits []containerLimits
}

func (tc templateConv) errorf(field, format string, args ...any) error {
	return tc.o.at().errorf(tc.o.path(join(tc.path, field)), format, args...)
}

func (tc templateConv) warn(field, format string, args ...any) {
	*tc.warns = append(*tc.warns, tc.o.at().warning(tc.o.path(join(tc.path, field)), format, args...))
}

// convert builds the model's template named name.
func (tc templateConv) convert(name string, meta ObjectMeta, spec PodSpec) (model.TemplateDecl, error) {
	td := model.TemplateDecl{Name: name, Labels: meta.Labels, Namespace: tc.namespace(meta), NodeName: spec.NodeName, NodeSelector: spec.NodeSelector}
	req, err := tc.requests(spec)
	if err != nil {
		return td, err
	}
	td.CPU, td.Memory, td.Scalar, td.ReservedOnly, td.Overhead, td.PodLevel = req.cpu, req.mem, req.scalar, req.reservedOnly, req.overhead, req.podLevel
	td.LocalStorage = hasLocalStorage(spec.Volumes)
	if spec.OS != nil {
		// The API server's validation (validateOS).
		switch spec.OS.Name {
		case "linux", "windows":
			td.OS = spec.OS.Name
		case "":
			return td, tc.errorf("spec.os.name", "missing (accepted: linux or windows)")
		default:
			return td, tc.errorf("spec.os.name", "%q (accepted: linux or windows)", spec.OS.Name)
		}
	}
	_, td.DeschedulerEvict = meta.Annotations[deschedulerEvictAnnotation]
	_, td.PreferNoEviction = meta.Annotations[preferNoEvictionAnnotation]
	for i, v := range spec.Volumes {
		if sourceGiven(v.PersistentVolumeClaim) {
			td.PVC = true
			// An admitted pod's (--logs, path "") fields are not warned
			// about, as fields.go leaves a Pod's quiet.
			if tc.path == "" {
				continue
			}
			tc.warn(index("spec.volumes", i)+".persistentVolumeClaim", "ignored: %s", noVolumes)
		}
	}
	if err := tc.readiness(spec, &td); err != nil {
		return td, err
	}
	if err := tc.priority(&td, spec); err != nil {
		return td, err
	}
	if spec.SchedulerName != "" && spec.SchedulerName != "default-scheduler" {
		tc.warn("spec.schedulerName", "ignored: pods of scheduler %q are placed by the model's default scheduler", spec.SchedulerName)
	}
	for i, t := range spec.Tolerations {
		mt, err := tc.toleration(index("spec.tolerations", i), t)
		if err != nil {
			return td, err
		}
		td.Tolerations = append(td.Tolerations, mt)
	}
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil {
		na := a.NodeAffinity
		base := "spec.affinity.nodeAffinity"
		if na.Required != nil {
			rp := base + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"
			if len(na.Required.NodeSelectorTerms) == 0 {
				return td, tc.errorf(rp, "empty (accepted: at least one term; Kubernetes requires one)")
			}
			for i, term := range na.Required.NodeSelectorTerms {
				sel, err := tc.nodeTerm(index(rp, i), term)
				if err != nil {
					return td, err
				}
				td.Required = append(td.Required, sel)
			}
		}
		for i, p := range na.Preferred {
			pp := index(base+".preferredDuringSchedulingIgnoredDuringExecution", i)
			if p.Weight < 1 || p.Weight > 100 {
				return td, tc.errorf(pp+".weight", "%d (accepted: 1..100)", p.Weight)
			}
			sel, err := tc.nodeTerm(pp+".preference", p.Preference)
			if err != nil {
				return td, err
			}
			td.Preferred = append(td.Preferred, model.PreferredTerm{Weight: int(p.Weight), Term: sel})
		}
	}
	if a := spec.Affinity; a != nil {
		if td.PodAffinity, err = tc.podAffinity("spec.affinity.podAffinity", meta, a.PodAffinity); err != nil {
			return td, err
		}
		if td.PodAntiAffinity, err = tc.podAffinity("spec.affinity.podAntiAffinity", meta, a.PodAntiAffinity); err != nil {
			return td, err
		}
	}
	if err := tc.checkLabelValues(meta, spec); err != nil {
		return td, err
	}
	if !tc.nodes.kiviAlias {
		td.NonZeroCPU, td.NonZeroMemory = tc.nonZeroRequests(spec)
		tc.podLevelNonZero(spec, &td)
	}
	tc.quotaUsage(spec, &td)
	td.Guaranteed = tc.guaranteed(spec, &td)
	if td.ActiveDeadline, err = tc.activeDeadline(spec); err != nil {
		return td, err
	}
	tc.metricRequests(spec, &td)
	if td.HostPorts, err = tc.hostPorts(spec); err != nil {
		return td, err
	}
	for i, c := range spec.TopologySpreadConstraints {
		sd, err := tc.spread(index("spec.topologySpreadConstraints", i), meta, c)
		if err != nil {
			return td, err
		}
		td.Spread = append(td.Spread, sd)
	}
	return td, nil
}

// requests is the pod's effective request per resource, Kubernetes'
// resource.PodRequests over the containers' requests as the API server
// defaults them from their limits (requestsOf): the containers' sum
// (plus sidecar init containers), at least the largest regular init
// container with the sidecars declared before it, plus the pod overhead.
func (tc templateConv) requests(spec PodSpec) (podRequests, error) {
	if len(spec.Containers) == 0 {
		return podRequests{}, tc.errorf("spec.containers", "empty (accepted: at least one container)")
	}
	if err := tc.templateWithinLimits(spec); err != nil {
		return podRequests{}, err
	}
	// read reads the requests rl, each named by field(name).
	read := func(rl map[string]QuantityText, field func(name string) string) (podRequests, error) {
		var r podRequests
		for _, name := range slices.Sorted(maps.Keys(rl)) {
			p := field(name)
			switch classifyResource(name) {
			case notScalar:
				kind, out := cpuRequest, &r.cpu
				if name == "memory" {
					kind, out = memoryRequest, &r.mem
				}
				v, err := parseResource(tc.o.at(), tc.o.path(join(tc.path, p)), rl[name], kind)
				if err != nil {
					return r, err
				}
				*out = v
			case bytesScalar, countScalar:
				v, err := parseScalar(tc.o.at(), tc.o.path(join(tc.path, p)), name, rl[name], false)
				if err != nil {
					return r, err
				}
				r.add(podRequests{scalar: map[string]int64{name: v}})
			default:
				tc.warn(p, "ignored: resource %q is not modelled (modelled: %s)", name, acceptedResources)
			}
		}
		return r, nil
	}
	// sidecars is the sidecars started so far: a regular init container
	// runs alongside them, and so does a sidecar with those before it.
	var sum, initMax, sidecars podRequests
	// requested: some container requests cpu, memory (podLevelRequests).
	var requested [2]bool
	note := func(rl map[string]QuantityText) {
		_, cpu := rl["cpu"]
		_, mem := rl["memory"]
		requested[0], requested[1] = requested[0] || cpu, requested[1] || mem
	}
	for i, c := range spec.Containers {
		tc.warnFractionalBytes(index("spec.containers", i), c)
		rl, err := tc.admitted(index("spec.containers", i), c)
		if err != nil {
			return podRequests{}, err
		}
		note(rl)
		r, err := read(rl, requestField(index("spec.containers", i), c))
		if err != nil {
			return podRequests{}, err
		}
		sum.add(r)
	}
	for i, c := range spec.InitContainers {
		tc.warnFractionalBytes(index("spec.initContainers", i), c)
		rl, err := tc.admitted(index("spec.initContainers", i), c)
		if err != nil {
			return podRequests{}, err
		}
		note(rl)
		r, err := read(rl, requestField(index("spec.initContainers", i), c))
		if err != nil {
			return podRequests{}, err
		}
		if c.RestartPolicy == "Always" { // a sidecar runs alongside the containers
			sum.add(r)
			sidecars.add(r)
			r = sidecars
		} else {
			r.add(sidecars)
		}
		initMax.atLeast(r)
	}
	over, err := read(spec.Overhead, func(name string) string { return "spec.overhead." + name })
	if err != nil {
		return podRequests{}, err
	}
	total := sum
	total.atLeast(initMax)
	if err := tc.podLevelRequests(spec, &total, requested); err != nil {
		return podRequests{}, err
	}
	total.add(over)
	total.overhead = [2]int64{over.cpu, over.mem}
	if !podLevelSet(spec) {
		// The HPA reads the running containers' requests (metricrequest.go).
		total.reservedOnly = [2]int64{total.cpu - sum.cpu, total.mem - sum.mem}
	}
	if total.cpu > maxModelValue || total.mem > maxModelValue {
		return podRequests{}, tc.errorf("spec.containers", "the pod's summed requests (cpu %dm, memory %dMi) are too large for the model (accepted: at most %d each)", total.cpu, total.mem, maxModelValue)
	}
	for _, name := range slices.Sorted(maps.Keys(total.scalar)) {
		if total.scalar[name] > maxModelValue {
			return podRequests{}, tc.errorf("spec.containers", "the pod's summed %s requests (%s) are too large for the model (accepted: at most %d)", name, scalarText(map[string]int64{name: total.scalar[name]}), maxModelValue)
		}
		if total.scalar[name] == 0 {
			delete(total.scalar, name)
		}
	}
	return total, nil
}

// requestsOf returns c's requests as the API server defaults a pod's
// containers (SetDefaults_Pod): a resource with a limit and no request
// requests its limit.
func requestsOf(c Container) map[string]QuantityText {
	return withDefaults(c.Resources.Requests, c.Resources.Limits)
}

// requestField names the field a request of container c (at path)
// comes from: its request, or the limit it was defaulted from (a
// LimitRange's default is named as the request it becomes).
func requestField(path string, c Container) func(name string) string {
	return func(name string) string {
		if _, ok := c.Resources.Limits[name]; ok {
			if _, ok := c.Resources.Requests[name]; !ok {
				return path + ".resources.limits." + name
			}
		}
		return path + ".resources.requests." + name
	}
}

// admitted returns container c's requests as the API server admits the
// pod: defaulted from its limits, then from the namespace's LimitRanges;
// a container a LimitRange rejects, or whose request ends above its
// limit, is an input error (the ReplicaSet controller could never create
// the pod).
func (tc templateConv) admitted(path string, c Container) (map[string]QuantityText, error) {
	if err := tc.checkNotOvercommitted(path, c); err != nil {
		return nil, err
	}
	if len(tc.limits) > 0 {
		// A malformed quantity is reported as such, not as a bound.
		for _, f := range []struct {
			field string
			m     map[string]QuantityText
		}{{"requests", c.Resources.Requests}, {"limits", c.Resources.Limits}} {
			for _, name := range modelledResources {
				if q, ok := f.m[name]; ok {
					kind := cpuRequest
					if name == "memory" {
						kind = memoryRequest
					}
					if _, err := parseResource(tc.o.at(), tc.o.path(join(tc.path, path+".resources."+f.field+"."+name)), q, kind); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	requests, limits, lr, why := admit(tc.limits, c)
	if err := tc.requestAboveLimit(path, requests, limits, false); err != nil {
		return nil, err
	}
	if lr != nil {
		return nil, tc.errorf(path+".resources", "the LimitRange %s rejects the pod: %s (accepted: requests and limits within the namespace's LimitRanges)", limitRangeName(lr), why)
	}
	return requests, nil
}

var effects = []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}

func (tc templateConv) toleration(path string, t Toleration) (model.Toleration, error) {
	mt := model.Toleration{Key: t.Key, Operator: t.Operator, Value: t.Value, Effect: model.TaintEffect(t.Effect)}
	switch t.Operator {
	case "", "Equal":
		mt.Operator = "Equal"
		if t.Key == "" {
			return mt, tc.errorf(path+".operator", "an empty key needs operator Exists (accepted: Exists with no key, or a key with Equal/Exists)")
		}
	case "Exists":
		if t.Value != "" {
			return mt, tc.errorf(path+".value", "%q must be empty when operator is Exists", t.Value)
		}
	default:
		return mt, tc.errorf(path+".operator", "%q (accepted: Equal, Exists)", t.Operator)
	}
	if t.Effect != "" && !slices.Contains(effects, t.Effect) {
		return mt, tc.errorf(path+".effect", "%q (accepted: NoSchedule, PreferNoSchedule, NoExecute or empty for all)", t.Effect)
	}
	if t.TolerationSeconds != nil {
		if t.Effect != "NoExecute" {
			return mt, tc.errorf(path+".tolerationSeconds", "set with effect %q (accepted: only with effect NoExecute)", t.Effect)
		}
		sec := *t.TolerationSeconds
		mt.TolerationSeconds = &sec
	}
	return mt, nil
}

// nodeTerm converts a node selector term. Gt and Lt compare integers;
// the model's selectors have no order, so they become In over the values
// the nodes actually carry, which selects the same nodes.
//
// A term without expressions or fields is the API server's to take: it
// matches no node (a required one) or adds nothing (a preferred one),
// which the model's empty selector does too (model/compile.go). A key
// that is not a label key is refused, as the API server refuses it.
// matchFields read the node's name (model.NodeNameField), ANDed with the
// expressions as kube-scheduler's nodeaffinity does.
func (tc templateConv) nodeTerm(path string, term NodeSelectorTerm) (model.Selector, error) {
	var sel model.Selector
	for i, r := range term.MatchFields {
		req, err := nodeField(tc.errorf, index(path+".matchFields", i), r)
		if err != nil {
			return sel, err
		}
		sel.MatchExpressions = append(sel.MatchExpressions, req)
	}
	for i, r := range term.MatchExpressions {
		p := index(path+".matchExpressions", i)
		if !model.ValidLabelKey(r.Key) {
			return sel, tc.errorf(p+".key", "%q (accepted: a label key, a qualified name with an optional DNS prefix)", r.Key)
		}
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				return sel, tc.errorf(p+".values", "empty (accepted: at least one value for operator %s)", r.Operator)
			}
			sel.MatchExpressions = append(sel.MatchExpressions, model.Requirement{Key: r.Key, Operator: model.Operator(r.Operator), Values: r.Values})
		case "Exists", "DoesNotExist":
			if len(r.Values) != 0 {
				return sel, tc.errorf(p+".values", "must be empty for operator %s", r.Operator)
			}
			sel.MatchExpressions = append(sel.MatchExpressions, model.Requirement{Key: r.Key, Operator: model.Operator(r.Operator)})
		case "Gt", "Lt":
			if len(r.Values) != 1 {
				return sel, tc.errorf(p+".values", "needs exactly one integer for operator %s", r.Operator)
			}
			bound, err := strconv.ParseInt(r.Values[0], 10, 64)
			if err != nil {
				return sel, tc.errorf(p+".values[0]", "%q is not an integer (operator %s compares integers)", r.Values[0], r.Operator)
			}
			sel.MatchExpressions = append(sel.MatchExpressions, model.Requirement{Key: r.Key, Operator: model.OpIn, Values: orderedValues(tc.nodes, r.Key, r.Operator, bound)})
		default:
			return sel, tc.errorf(p+".operator", "%q (accepted: In, NotIn, Exists, DoesNotExist, Gt, Lt)", r.Operator)
		}
	}
	return sel, nil
}

// nodeField converts one matchFields requirement of a node selector term
// as the API server validates it (ValidateNodeFieldSelectorRequirement):
// the key metadata.name, a node's only selectable field, operator In or
// NotIn, and exactly one value, a node name.
func nodeField(errorf func(string, string, ...any) error, path string, r LabelSelectorRequirement) (model.Requirement, error) {
	if r.Key != "metadata.name" {
		return model.Requirement{}, errorf(path+".key", "%q is not a valid field selector key (accepted: metadata.name, a node's only selectable field)", r.Key)
	}
	if r.Operator != "In" && r.Operator != "NotIn" {
		return model.Requirement{}, errorf(path+".operator", "%q is not a valid selector operator for a field (accepted: In, NotIn)", r.Operator)
	}
	if len(r.Values) != 1 {
		return model.Requirement{}, errorf(path+".values", "%v (accepted: exactly one node name when operator is In or NotIn)", r.Values)
	}
	if !model.DNSSubdomain(r.Values[0]) {
		return model.Requirement{}, errorf(path+".values[0]", "%q is not a node name (accepted: a DNS subdomain: lower-case letters, digits, '-' and '.', at most 253 characters)", r.Values[0])
	}
	return model.Requirement{Key: model.NodeNameField, Operator: model.Operator(r.Operator), Values: r.Values}, nil
}

// noKeyEffect is what a spread constraint whose topologyKey no node has
// does, as kube-scheduler's PodTopologySpread reads it: its Filter fails
// a node without the key, its Score ignores every node without one of the
// soft constraints' keys.
var noKeyEffect = map[string]string{
	"DoNotSchedule":  "kube-scheduler fails every node for it (missing required label): the pods stay Pending",
	"ScheduleAnyway": "kube-scheduler ignores every node in its spread scoring, so none of the pods' soft spread constraints apply",
}

func (tc templateConv) spread(path string, meta ObjectMeta, c TopologySpreadConstraint) (model.SpreadDecl, error) {
	sd := model.SpreadDecl{MaxSkew: int(c.MaxSkew), TopologyKey: c.TopologyKey, WhenUnsatisfiable: c.WhenUnsatisfiable}
	if c.MaxSkew <= 0 {
		return sd, tc.errorf(path+".maxSkew", "%d (accepted: an integer > 0)", c.MaxSkew)
	}
	if c.TopologyKey == "" {
		return sd, tc.errorf(path+".topologyKey", "required (accepted: a node label key such as topology.kubernetes.io/zone)")
	}
	switch c.WhenUnsatisfiable {
	case "DoNotSchedule", "ScheduleAnyway":
		if !tc.nodes.has(c.TopologyKey) {
			tc.warn(path+".topologyKey", "%q is a label of no node (node label keys: %s): %s", c.TopologyKey, tc.nodeKeys(), noKeyEffect[c.WhenUnsatisfiable])
		}
	case "":
		return sd, tc.errorf(path+".whenUnsatisfiable", "required (accepted: DoNotSchedule, ScheduleAnyway)")
	default:
		return sd, tc.errorf(path+".whenUnsatisfiable", "%q (accepted: DoNotSchedule, ScheduleAnyway)", c.WhenUnsatisfiable)
	}
	if c.MinDomains != nil {
		if *c.MinDomains <= 0 {
			return sd, tc.errorf(path+".minDomains", "%d (accepted: an integer > 0)", *c.MinDomains)
		}
		if c.WhenUnsatisfiable != "DoNotSchedule" {
			return sd, tc.errorf(path+".minDomains", "only allowed with whenUnsatisfiable DoNotSchedule")
		}
		sd.MinDomains = int(*c.MinDomains)
	}
	for _, pol := range []struct {
		field string
		v     *string
		out   *string
	}{{"nodeAffinityPolicy", c.NodeAffinityPolicy, &sd.NodeAffinityPolicy}, {"nodeTaintsPolicy", c.NodeTaintsPolicy, &sd.NodeTaintsPolicy}} {
		if pol.v == nil {
			continue
		}
		if *pol.v != "Honor" && *pol.v != "Ignore" {
			return sd, tc.errorf(path+"."+pol.field, "%q (accepted: Honor, Ignore)", *pol.v)
		}
		*pol.out = *pol.v
	}
	if c.LabelSelector == nil {
		if err := tc.labelKeys(path, nil, c.MatchLabelKeys, nil, meta); err != nil {
			return sd, err
		}
		sd.LabelSelector = matchesNothing
		tc.warn(path+".labelSelector", "missing: Kubernetes then counts no pod, so this constraint never restricts placement")
		return sd, nil
	}
	sel, err := tc.labelSelector(path+".labelSelector", c.LabelSelector)
	if err != nil {
		return sd, err
	}
	if err := tc.labelKeys(path, &sel, c.MatchLabelKeys, nil, meta); err != nil {
		return sd, err
	}
	sd.LabelSelector = &sel
	sd.MatchLabelKeys = c.MatchLabelKeys
	return sd, nil
}

func (tc templateConv) nodeKeys() string {
	set := map[string]bool{model.HostnameKey: true}
	if tc.nodes.kiviAlias {
		set[model.KiviHostnameKey] = true
	}
	for _, l := range tc.nodes.sets {
		for k := range l {
			set[k] = true
		}
	}
	keys := slices.Collect(maps.Keys(set))
	sort.Strings(keys)
	return fmt.Sprint(keys)
}

func (tc templateConv) labelSelector(path string, ls *LabelSelector) (model.Selector, error) {
	return convertSelector(func(field, format string, args ...any) error {
		return tc.errorf(join(path, field), format, args...)
	}, ls)
}

// convertSelector converts a metav1.LabelSelector.
func convertSelector(errorf func(field, format string, args ...any) error, ls *LabelSelector) (model.Selector, error) {
	sel := model.Selector{MatchLabels: ls.MatchLabels}
	for i, r := range ls.MatchExpressions {
		p := index("matchExpressions", i)
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				return sel, errorf(p+".values", "empty (accepted: at least one value for operator %s)", r.Operator)
			}
		case "Exists", "DoesNotExist":
			if len(r.Values) != 0 {
				return sel, errorf(p+".values", "must be empty for operator %s", r.Operator)
			}
		default:
			return sel, errorf(p+".operator", "%q (accepted: In, NotIn, Exists, DoesNotExist)", r.Operator)
		}
		sel.MatchExpressions = append(sel.MatchExpressions, model.Requirement{Key: r.Key, Operator: model.Operator(r.Operator), Values: r.Values})
	}
	return sel, nil
}

// sourceGiven says whether a volume source is given: present and not
// null.
func sourceGiven(m json.RawMessage) bool { return len(m) > 0 && string(m) != "null" }

// hasLocalStorage says whether a pod has local storage as the
// descheduler's DefaultEvictor sees it (IsPodWithLocalStorage): a volume
// with an emptyDir or a hostPath source.
func hasLocalStorage(volumes []Volume) bool {
	for _, v := range volumes {
		if sourceGiven(v.EmptyDir) || sourceGiven(v.HostPath) {
			return true
		}
	}
	return false
}
