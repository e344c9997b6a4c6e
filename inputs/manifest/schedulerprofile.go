package manifest

import (
	"encoding/json"
	"math"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// The default-scheduler profile's plugins and plugin arguments, read as
// kube-scheduler v1.36 reads them (pkg/scheduler/apis/config/v1:
// defaulting and mergePlugins; framework/runtime: the MultiPoint
// expansion and score weights; validation_pluginargs.go): the profile's
// plugin sets are merged with the default ones (enabled entries add or
// re-weight a plugin, disabled ones remove it, "*" removes every default
// of that extension point), and the result decides the weights of the
// score plugins the model has (model.SchedulerProfile). What else a
// profile changes is warned about.

// SchedulerPlugins are a profile's plugin sets per extension point.
type SchedulerPlugins struct {
	PreEnqueue SchedulerPluginSet `json:"preEnqueue"`
	QueueSort  SchedulerPluginSet `json:"queueSort"`
	PreFilter  SchedulerPluginSet `json:"preFilter"`
	Filter     SchedulerPluginSet `json:"filter"`
	PostFilter SchedulerPluginSet `json:"postFilter"`
	PreScore   SchedulerPluginSet `json:"preScore"`
	Score      SchedulerPluginSet `json:"score"`
	Reserve    SchedulerPluginSet `json:"reserve"`
	Permit     SchedulerPluginSet `json:"permit"`
	PreBind    SchedulerPluginSet `json:"preBind"`
	Bind       SchedulerPluginSet `json:"bind"`
	PostBind   SchedulerPluginSet `json:"postBind"`
	MultiPoint SchedulerPluginSet `json:"multiPoint"`
}

// SchedulerPluginSet is one extension point's enabled and disabled
// plugins.
type SchedulerPluginSet struct {
	Enabled  []SchedulerPlugin `json:"enabled"`
	Disabled []SchedulerPlugin `json:"disabled"`
}

// SchedulerPlugin is a plugin and its score weight (0 or unset: 1).
type SchedulerPlugin struct {
	Name   string `json:"name"`
	Weight *int32 `json:"weight"`
}

// SchedulerPluginConfig is one plugin's arguments.
type SchedulerPluginConfig struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// NodeResourcesFitArgs are NodeResourcesFit's arguments the model reads.
type NodeResourcesFitArgs struct {
	TypeMeta
	ScoringStrategy *struct {
		Type      string `json:"type"`
		Resources []struct {
			Name   string `json:"name"`
			Weight int64  `json:"weight"`
		} `json:"resources"`
		RequestedToCapacityRatio *struct {
			Shape []struct {
				Utilization int32 `json:"utilization"`
				Score       int32 `json:"score"`
			} `json:"shape"`
		} `json:"requestedToCapacityRatio"`
	} `json:"scoringStrategy"`
}

// PodTopologySpreadArgs are PodTopologySpread's arguments the model reads.
type PodTopologySpreadArgs struct {
	TypeMeta
	DefaultConstraints []struct {
		MaxSkew           int32           `json:"maxSkew"`
		TopologyKey       string          `json:"topologyKey"`
		WhenUnsatisfiable string          `json:"whenUnsatisfiable"`
		LabelSelector     json.RawMessage `json:"labelSelector"`
	} `json:"defaultConstraints"`
	DefaultingType string `json:"defaultingType"`
}

// NodeResourcesBalancedAllocationArgs are NodeResourcesBalancedAllocation's
// arguments.
type NodeResourcesBalancedAllocationArgs struct {
	TypeMeta
	Resources []struct {
		Name   string `json:"name"`
		Weight int64  `json:"weight"`
	} `json:"resources"`
}

// InterPodAffinityArgs are InterPodAffinity's arguments the model reads.
type InterPodAffinityArgs struct {
	TypeMeta
	HardPodAffinityWeight *int32 `json:"hardPodAffinityWeight"`
}

// Plugin names, as kube-scheduler's registry spells them.
const (
	pluginTaintToleration   = "TaintToleration"
	pluginNodeAffinity      = "NodeAffinity"
	pluginNodeResourcesFit  = "NodeResourcesFit"
	pluginPodTopologySpread = "PodTopologySpread"
	pluginInterPodAffinity  = "InterPodAffinity"
	pluginBalanced          = "NodeResourcesBalancedAllocation"
	pluginNodeUnschedulable = "NodeUnschedulable"
	pluginNodeName          = "NodeName"
	pluginNodePorts         = "NodePorts"
)

// defaultMultiPoint is the default profile's MultiPoint set in order
// (default_plugins.go, v1.36, the feature-gated plugins of the default
// gates included), with the score weights.
var defaultMultiPoint = []struct {
	name   string
	weight int32
}{
	{"SchedulingGates", 0}, {"PrioritySort", 0}, {pluginNodeUnschedulable, 0}, {pluginNodeName, 0},
	{pluginTaintToleration, 3}, {pluginNodeAffinity, 2}, {pluginNodePorts, 0}, {pluginNodeResourcesFit, 1},
	{"VolumeRestrictions", 0}, {"NodeVolumeLimits", 0}, {"VolumeBinding", 0}, {"VolumeZone", 0},
	{pluginPodTopologySpread, 2}, {pluginInterPodAffinity, 2}, {"DynamicResources", 2}, {"DefaultPreemption", 0},
	{pluginBalanced, 1}, {"ImageLocality", 1}, {"DefaultBinder", 0}, {"NodeDeclaredFeatures", 0},
}

// inTreePlugins are kube-scheduler's in-tree plugins besides the
// defaults: a profile may enable them, the model does not run them.
var inTreePlugins = []string{"GangScheduling", "TopologyPlacementGenerator", "PodGroupPodsCount"}

// modelledScores are the score plugins the model has, in the order of
// model.ScoreWeights; modelledFilters its filter plugins.
var (
	modelledScores  = []string{pluginTaintToleration, pluginNodeAffinity, pluginNodeResourcesFit, pluginPodTopologySpread, pluginInterPodAffinity, pluginBalanced}
	modelledFilters = []string{pluginNodeUnschedulable, pluginNodeName, pluginTaintToleration, pluginNodeAffinity, pluginNodePorts, pluginNodeResourcesFit, pluginPodTopologySpread, pluginInterPodAffinity}
)

// scoresNeedingPreScore are the modelled score plugins whose Score fails
// without their PreScore's cycle state (v1.36: getPreScoreState's error
// is the Score's); NodeAffinity's, NodeResourcesFit's and
// NodeResourcesBalancedAllocation's compute it again.
var scoresNeedingPreScore = []string{pluginTaintToleration, pluginPodTopologySpread, pluginInterPodAffinity}

// knownPlugin reports whether name is an in-tree plugin.
func knownPlugin(name string) bool {
	for _, d := range defaultMultiPoint {
		if d.name == name {
			return true
		}
	}
	return slices.Contains(inTreePlugins, name)
}

func knownPluginNames() string {
	var names []string
	for _, d := range defaultMultiPoint {
		names = append(names, d.name)
	}
	return strings.Join(append(names, inTreePlugins...), ", ")
}

// profileDecl reads the default-scheduler profile's plugins and plugin
// arguments; nodes are the nodes' label sets, which addedAffinity's Gt and
// Lt are resolved over.
func profileDecl(o Object, path string, prof *KubeSchedulerProfile, nodes nodeLabels, warns *[]Warning) (model.SchedulerProfile, error) {
	var sp model.SchedulerProfile
	a := o.at()
	if prof.Plugins != nil {
		w, err := pluginWeights(o, join(path, "plugins"), prof.Plugins, &sp, warns)
		if err != nil {
			return sp, err
		}
		if w != model.DefaultScoreWeights {
			sp.Weights = &w
		}
	}
	seen := map[string]bool{}
	for i := range prof.PluginConfig {
		pc := &prof.PluginConfig[i]
		p := index(join(path, "pluginConfig"), i)
		if seen[pc.Name] {
			return sp, a.errorf(join(p, "name"), "%q has a second pluginConfig entry (accepted: one per plugin)", pc.Name)
		}
		seen[pc.Name] = true
		args := pc.Args
		if len(args) == 0 || string(args) == "null" {
			args = json.RawMessage("{}")
		}
		ap := join(p, "args")
		var err error
		switch pc.Name {
		case pluginNodeResourcesFit:
			var fa NodeResourcesFitArgs
			if err = decodePluginArgs(o, ap, args, &fa, warns, "ignoredResources", "ignoredResourceGroups"); err == nil {
				sp.Scoring, err = scoringDecl(o, join(ap, "scoringStrategy"), &fa, warns)
			}
		case pluginPodTopologySpread:
			var pa PodTopologySpreadArgs
			if err = decodePluginArgs(o, ap, args, &pa, warns); err == nil {
				err = spreadDefaultsDecl(o, ap, &pa, &sp)
			}
		case pluginInterPodAffinity:
			var ia InterPodAffinityArgs
			if err = decodePluginArgs(o, ap, args, &ia, warns, "ignorePreferredTermsOfExistingPods"); err == nil && ia.HardPodAffinityWeight != nil {
				w := *ia.HardPodAffinityWeight
				if w < 0 || w > 100 {
					return sp, a.errorf(join(ap, "hardPodAffinityWeight"), "%d (accepted: 0 to 100)", w)
				}
				v := int64(w)
				sp.HardPodAffinityWeight = &v
			}
		case pluginBalanced:
			var ba NodeResourcesBalancedAllocationArgs
			if err = decodePluginArgs(o, ap, args, &ba, warns); err == nil {
				sp.BalancedResources, err = balancedResourcesDecl(o, join(ap, "resources"), &ba, warns)
			}
		case pluginNodeAffinity:
			var na SchedulerNodeAffinityArgs
			if err = decodePluginArgs(o, ap, args, &na, warns); err == nil {
				sp.AddedAffinity, err = addedAffinityDecl(a, ap, &na, nodes)
			}
		default:
			if !knownPlugin(pc.Name) {
				*warns = append(*warns, a.warning(join(p, "name"), "ignored: %q is not an in-tree plugin, so it is not modelled (in-tree: %s)", pc.Name, knownPluginNames()))
			} else if string(args) != "{}" {
				*warns = append(*warns, a.warning(ap, "ignored: the model does not read %s's arguments (it reads NodeResourcesFit's scoringStrategy, NodeResourcesBalancedAllocation's resources, PodTopologySpread's defaultConstraints and defaultingType, InterPodAffinity's hardPodAffinityWeight, NodeAffinity's addedAffinity)", pc.Name))
			}
		}
		if err != nil {
			return sp, err
		}
	}
	return sp, nil
}

// decodePluginArgs decodes a plugin's arguments into v: apiVersion and kind are
// accepted, the fields named in ignored and any other unknown field are
// warned about.
func decodePluginArgs(o Object, path string, js json.RawMessage, v any, warns *[]Warning, ignored ...string) error {
	unknown, err := strictDecode(o.at(), path, js, v)
	if err != nil {
		return err
	}
	for _, f := range unknown {
		root, _, _ := strings.Cut(f, ".")
		if slices.Contains(ignored, root) {
			*warns = append(*warns, o.at().warning(prefixPath(path, f), "ignored: not modelled"))
			continue
		}
		*warns = append(*warns, o.at().warning(prefixPath(path, f), "ignored: the model does not read this argument"))
	}
	return nil
}

// scoringDecl validates NodeResourcesFit's scoringStrategy as
// ValidateNodeResourcesFitArgs does, after v1's defaulting (no strategy:
// LeastAllocated over cpu and memory; no resources: those two; weight 0:
// 1).
func scoringDecl(o Object, path string, fa *NodeResourcesFitArgs, warns *[]Warning) (model.ScoringStrategy, error) {
	var s model.ScoringStrategy
	ss := fa.ScoringStrategy
	if ss == nil {
		return s, nil
	}
	a := o.at()
	switch ss.Type {
	case "LeastAllocated":
	case "MostAllocated":
		s.Type = model.MostAllocated
	case "RequestedToCapacityRatio":
		s.Type = model.RequestedToCapacityRatio
	default:
		return s, a.errorf(join(path, "type"), "%q (accepted: LeastAllocated, MostAllocated, RequestedToCapacityRatio)", ss.Type)
	}
	for i, r := range ss.Resources {
		rp := index(join(path, "resources"), i)
		w := r.Weight
		if w == 0 {
			w = 1
		}
		if w < 0 || w > 100 {
			return s, a.errorf(join(rp, "weight"), "%d (accepted: 1 to 100; 0 means 1)", r.Weight)
		}
		if r.Name == "ephemeral-storage" {
			*warns = append(*warns, a.warning(join(rp, "name"), "ephemeral-storage is scored only when some pod of the input requests it: otherwise the model does not know the nodes' allocatable ephemeral storage and leaves it out, where kube-scheduler scores every node's as unused"))
		}
		s.Resources = append(s.Resources, model.ResourceWeight{Name: r.Name, Weight: w})
	}
	rp := join(path, "requestedToCapacityRatio")
	if s.Type != model.RequestedToCapacityRatio {
		if ss.RequestedToCapacityRatio != nil {
			return s, a.errorf(rp, "set with type %s (accepted: only with type RequestedToCapacityRatio)", ss.Type)
		}
		return s, nil
	}
	if ss.RequestedToCapacityRatio == nil || len(ss.RequestedToCapacityRatio.Shape) == 0 {
		return s, a.errorf(join(rp, "shape"), "missing (accepted: 1 or more points {utilization: 0 to 100, score: 0 to 10}, utilization increasing)")
	}
	for i, p := range ss.RequestedToCapacityRatio.Shape {
		pp := index(join(rp, "shape"), i)
		if i > 0 && p.Utilization <= ss.RequestedToCapacityRatio.Shape[i-1].Utilization {
			return s, a.errorf(join(pp, "utilization"), "%d after %d (accepted: utilization strictly increasing)", p.Utilization, ss.RequestedToCapacityRatio.Shape[i-1].Utilization)
		}
		if p.Utilization < 0 || p.Utilization > 100 {
			return s, a.errorf(join(pp, "utilization"), "%d (accepted: 0 to 100)", p.Utilization)
		}
		if p.Score < 0 || p.Score > 10 {
			return s, a.errorf(join(pp, "score"), "%d (accepted: 0 to 10)", p.Score)
		}
		s.Shape = append(s.Shape, model.ShapePoint{Utilization: int64(p.Utilization), Score: int64(p.Score)})
	}
	return s, nil
}

// balancedResourcesDecl validates NodeResourcesBalancedAllocation's
// resources as ValidateNodeResourcesBalancedAllocationArgs does, after
// v1's defaulting (none: cpu and memory; weight 0: 1): each named once,
// each weighted 1. nil means the default.
func balancedResourcesDecl(o Object, path string, ba *NodeResourcesBalancedAllocationArgs, warns *[]Warning) ([]string, error) {
	if len(ba.Resources) == 0 {
		return nil, nil
	}
	a := o.at()
	var out []string
	for i, r := range ba.Resources {
		rp := index(path, i)
		if r.Name == "" {
			*warns = append(*warns, a.warning(join(rp, "name"), "missing: a resource without a name, which no node has, is left out of the score (kube-scheduler accepts it alike)"))
		}
		if slices.Contains(out, r.Name) {
			return nil, a.errorf(join(rp, "name"), "%q a second time (accepted: each resource once)", r.Name)
		}
		if r.Weight != 0 && r.Weight != 1 {
			return nil, a.errorf(join(rp, "weight"), "%d (accepted: 1; 0 means 1)", r.Weight)
		}
		out = append(out, r.Name)
	}
	return out, nil
}

// spreadDefaultsDecl validates PodTopologySpread's defaulting as
// ValidatePodTopologySpreadArgs does.
func spreadDefaultsDecl(o Object, path string, pa *PodTopologySpreadArgs, sp *model.SchedulerProfile) error {
	a := o.at()
	switch pa.DefaultingType {
	case "", "System":
		if len(pa.DefaultConstraints) > 0 {
			return a.errorf(join(path, "defaultingType"), "%q with defaultConstraints (accepted: List when defaultConstraints are given)", "System")
		}
		return nil
	case "List":
		sp.ListDefaulting = true
	default:
		return a.errorf(join(path, "defaultingType"), "%q (accepted: System, List)", pa.DefaultingType)
	}
	for i, c := range pa.DefaultConstraints {
		cp := index(join(path, "defaultConstraints"), i)
		if c.MaxSkew <= 0 {
			return a.errorf(join(cp, "maxSkew"), "%d (accepted: 1 or more)", c.MaxSkew)
		}
		if c.TopologyKey == "" || !model.ValidLabelKey(c.TopologyKey) {
			return a.errorf(join(cp, "topologyKey"), "%q (accepted: a label key, a qualified name)", c.TopologyKey)
		}
		var when model.WhenUnsatisfiable
		switch c.WhenUnsatisfiable {
		case "DoNotSchedule":
		case "ScheduleAnyway":
			when = model.ScheduleAnyway
		default:
			return a.errorf(join(cp, "whenUnsatisfiable"), "%q (accepted: DoNotSchedule, ScheduleAnyway)", c.WhenUnsatisfiable)
		}
		if len(c.LabelSelector) > 0 && string(c.LabelSelector) != "null" {
			return a.errorf(join(cp, "labelSelector"), "set (accepted: none; a default constraint's selector is derived from the pod's owner)")
		}
		for _, d := range sp.DefaultConstraints {
			if d.Key == c.TopologyKey && d.When == when {
				return a.errorf(cp, "a second constraint on {%s, %s} (accepted: one per topology key and whenUnsatisfiable)", c.TopologyKey, c.WhenUnsatisfiable)
			}
		}
		sp.DefaultConstraints = append(sp.DefaultConstraints, model.DefaultSpreadConstraint{Key: c.TopologyKey, MaxSkew: int(c.MaxSkew), When: when})
	}
	return nil
}

// pluginWeights merges the profile's plugin sets with the defaults and
// returns the weights of the modelled score plugins (0: not a score
// plugin of the profile), and records in sp the filters the profile
// disables that the model turns off (filtersOff). Extension points the
// model does not run are warned about when set, another modelled filter
// plugin the profile disables too (the model keeps running it), and
// plugins that are not in-tree.
func pluginWeights(o Object, path string, pl *SchedulerPlugins, sp *model.SchedulerProfile, warns *[]Warning) (model.ScoreWeights, error) {
	a := o.at()
	// Every entry: names known, weights in range.
	points := []struct {
		name string
		set  *SchedulerPluginSet
	}{
		{"multiPoint", &pl.MultiPoint}, {"preEnqueue", &pl.PreEnqueue}, {"queueSort", &pl.QueueSort},
		{"preFilter", &pl.PreFilter}, {"filter", &pl.Filter}, {"postFilter", &pl.PostFilter},
		{"preScore", &pl.PreScore}, {"score", &pl.Score}, {"reserve", &pl.Reserve}, {"permit", &pl.Permit},
		{"preBind", &pl.PreBind}, {"bind", &pl.Bind}, {"postBind", &pl.PostBind},
	}
	for _, pt := range points {
		pp := join(path, pt.name)
		for _, list := range []struct {
			name    string
			plugins []SchedulerPlugin
		}{{"enabled", pt.set.Enabled}, {"disabled", pt.set.Disabled}} {
			seen := map[string]bool{}
			for i, p := range list.plugins {
				ep := index(join(pp, list.name), i)
				if p.Name == "" {
					return model.ScoreWeights{}, a.errorf(join(ep, "name"), "missing (accepted: a plugin name%s)", map[bool]string{true: ` or "*"`}[list.name == "disabled"])
				}
				if list.name == "enabled" && seen[p.Name] {
					return model.ScoreWeights{}, a.errorf(join(ep, "name"), "%q is enabled twice (kube-scheduler refuses the profile; accepted: once)", p.Name)
				}
				seen[p.Name] = true
				if p.Weight != nil && *p.Weight < 0 {
					return model.ScoreWeights{}, a.errorf(join(ep, "weight"), "%d (accepted: 0 to %d; 0 means 1; the model takes no negative weight)", *p.Weight, math.MaxInt32)
				}
				if p.Name != "*" && !knownPlugin(p.Name) {
					*warns = append(*warns, a.warning(join(ep, "name"), "ignored: %q is not an in-tree plugin, so it is not modelled (in-tree: %s)", p.Name, knownPluginNames()))
				}
			}
		}
		switch pt.name {
		case "multiPoint", "filter", "score":
		default:
			if len(pt.set.Enabled)+len(pt.set.Disabled) > 0 {
				*warns = append(*warns, a.warning(pp, "ignored: the model's scheduler runs the default %s plugins (it reads the multiPoint, filter and score sets)", pt.name))
			}
		}
	}
	// mergePluginSet of the MultiPoint set: the defaults minus the
	// disabled ones (all with "*"), re-weighted or extended by the
	// enabled ones.
	mpDisabled := names(pl.MultiPoint.Disabled)
	mpWeight := map[string]int32{}
	for _, d := range defaultMultiPoint {
		if !mpDisabled["*"] && !mpDisabled[d.name] {
			mpWeight[d.name] = d.weight
		}
	}
	for _, p := range pl.MultiPoint.Enabled {
		mpWeight[p.Name] = deref(p.Weight)
	}
	// The framework's expansion into one extension point: its own
	// enabled plugins, plus the MultiPoint ones it does not disable
	// (unless it disables "*").
	in := func(set *SchedulerPluginSet, name string) (bool, int32) {
		for _, p := range set.Enabled {
			if p.Name == name {
				return true, deref(p.Weight)
			}
		}
		dis := names(set.Disabled)
		if dis["*"] || dis[name] {
			return false, 0
		}
		w, ok := mpWeight[name]
		return ok, w
	}
	for _, f := range modelledFilters {
		if ok, _ := in(&pl.Filter, f); !ok {
			filterOff(a, path, f, sp, warns)
		}
	}
	var w [6]int64
	for i, s := range modelledScores {
		if ok, weight := in(&pl.Score, s); ok {
			w[i] = max(int64(weight), 1)
			if pre, _ := in(&pl.PreScore, s); !pre && slices.Contains(scoresNeedingPreScore, s) {
				return model.ScoreWeights{}, a.errorf(path, "%s runs at score but not at preScore (accepted: both, or neither; kube-scheduler accepts the profile, but %s's Score reads what its PreScore computes and fails, without it, every scheduling cycle that scores two or more feasible nodes, which the model does not represent)", s, s)
			}
		}
	}
	return model.ScoreWeights{TaintToleration: w[0], NodeAffinity: w[1], NodeResourcesFit: w[2], PodTopologySpread: w[3],
		InterPodAffinity: w[4], NodeResourcesBalancedAllocation: w[5]}, nil
}

// filterOff records that the profile disables filter f. PodTopologySpread's
// and InterPodAffinity's filters are turned off: nothing but the scheduler
// checks what they check. NodeUnschedulable's changes nothing the model
// decides: a cordoned node carries the unschedulable taint from the
// cordon on (the model gives it at once), which TaintToleration judges
// the same way, with its own reason. The others stay on, with a warning:
// the kubelet's admission checks what NodeName, NodeAffinity, NodePorts,
// NodeResourcesFit and TaintToleration's NoExecute taints check, and
// rejects (Failed) a pod bound where they would not have placed it, a
// cascade the model's scheduler does not lead to; without
// TaintToleration's filter pods would be bound to nodes that are not
// Ready and to the taint manager's nodes, which the node lifecycle model
// does not expect of the scheduler.
func filterOff(a at, path, f string, sp *model.SchedulerProfile, warns *[]Warning) {
	switch f {
	case pluginPodTopologySpread:
		sp.SpreadFilterOff = true
	case pluginInterPodAffinity:
		sp.InterPodAffinityFilterOff = true
	case pluginNodeUnschedulable:
	default:
		*warns = append(*warns, a.warning(path, "the profile disables the %s filter, which the model keeps running (the kubelet's admission would reject what it lets through): its verdicts assume nodes it rejects stay infeasible", f))
	}
}

func names(ps []SchedulerPlugin) map[string]bool {
	m := map[string]bool{}
	for _, p := range ps {
		m[p.Name] = true
	}
	return m
}

func deref(w *int32) int32 {
	if w == nil {
		return 0
	}
	return *w
}

// ReadSchedulerProfile reads one KubeSchedulerConfiguration document
// alone and returns what the model takes of its default-scheduler
// profile, with the warnings; nodeLabelSets are the label sets of the nodes
// (addedAffinity's Gt and Lt select among their values). The
// differential tests feed the same document to kube-scheduler.
func ReadSchedulerProfile(file string, data []byte, nodeLabelSets []map[string]string) (model.SchedulerProfile, []Warning, error) {
	objs, warns, err := Decode(file, data)
	if err != nil {
		return model.SchedulerProfile{}, warns, err
	}
	var c model.Cluster
	if err := schedulerDecl(objs, &c, nodeLabels{sets: nodeLabelSets}, &warns); err != nil {
		return model.SchedulerProfile{}, warns, err
	}
	return c.Scheduler.Profile, warns, nil
}
