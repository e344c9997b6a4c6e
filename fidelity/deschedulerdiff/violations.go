package deschedulerdiff

import (
	"context"
	"fmt"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
	"pgregory.net/rapid"

	"sigs.k8s.io/descheduler/pkg/framework/plugins/removepodsviolatinginterpodantiaffinity"
	"sigs.k8s.io/descheduler/pkg/framework/plugins/removepodsviolatingnodeaffinity"
	"sigs.k8s.io/descheduler/pkg/framework/plugins/removepodsviolatingnodetaints"
	frameworktypes "sigs.k8s.io/descheduler/pkg/framework/types"

	"github.com/kivi-go/kivi/model"
)

// The Deschedule plugins RemovePodsViolatingNodeTaints,
// RemovePodsViolatingNodeAffinity and
// RemovePodsViolatingInterPodAntiAffinity. Their snapshots are the
// cluster of Generate, whose pods are bound wherever the draw put them
// (so they break their nodeSelector, affinity, taints and anti-affinity
// as a pod placed by nodeName or before a label or taint changed does),
// with more: nodes labelled disk=ssd or disk=hdd and tainted with the
// values a or b; tolerations with the Exists operator, of every taint, of
// one key or of the unschedulable taint; required and preferred node
// affinity over the disk, zone and hostname labels and the node's name
// (matchFields); required pod
// anti-affinity over the hostname or zone key selecting the Dep's own
// pods or its tier's, in a multi-namespace snapshot sometimes over named
// namespaces or every namespace (namespaceSelector {}); and the plugins'
// args and labelSelector. The other features come in one snapshot of
// six of each plugin, where NodeFit judges them.

// DiskKey is the node label the node-affinity terms select besides the
// zone and hostname.
const DiskKey = "disk"

// AntiTerm is a required pod anti-affinity term of a Dep over Key,
// selecting the Dep's pods (its app label) or, ByTier, its tier's. It
// reaches the Dep's namespace, or the Namespaces named, or with
// AllNamespaces (namespaceSelector {}) every namespace as well.
type AntiTerm struct {
	Key           string
	ByTier        bool
	Namespaces    []string
	AllNamespaces bool
}

// selector is the term's label selector for Dep d.
func (k AntiTerm) selector(d int, dep Dep) map[string]string {
	if k.ByTier {
		return map[string]string{tierKey: dep.Tier}
	}
	return map[string]string{appLabel: depName(d)}
}

// nodeRequirements are the requirements node-affinity terms draw from.
var nodeRequirements = []model.Requirement{
	{Key: DiskKey, Operator: model.OpIn, Values: []string{"ssd"}},
	{Key: DiskKey, Operator: model.OpNotIn, Values: []string{"hdd"}},
	{Key: DiskKey, Operator: model.OpExists},
	{Key: ZoneKey, Operator: model.OpIn, Values: []string{"z1"}},
	{Key: ZoneKey, Operator: model.OpIn, Values: []string{"z1", "z2"}},
	{Key: ZoneKey, Operator: model.OpDoesNotExist},
	{Key: model.HostnameKey, Operator: model.OpNotIn, Values: []string{"n1"}},
	// matchFields on the node's name.
	{Key: model.NodeNameField, Operator: model.OpIn, Values: []string{"n2"}},
	{Key: model.NodeNameField, Operator: model.OpNotIn, Values: []string{"n1"}},
}

// drawNodeSelectorTerm draws a term of one or two requirements.
func drawNodeSelectorTerm(t *rapid.T) model.Selector {
	var sel model.Selector
	for range rapid.IntRange(1, 2).Draw(t, "requirements") {
		r := rapid.SampledFrom(nodeRequirements).Draw(t, "requirement")
		r.Values = slices.Clone(r.Values)
		sel.MatchExpressions = append(sel.MatchExpressions, r)
	}
	return sel
}

// taintNames are the names excludedTaints and includedTaints draw from.
var taintNames = []string{"dedicated", "gpu", "dedicated=a", "gpu=b", unschedulableKey}

// drawToleration draws a toleration: Equal of a key and value, Exists of
// a key, of the unschedulable taint, or of every taint.
func drawToleration(t *rapid.T) model.Toleration {
	effect := func() model.TaintEffect {
		return rapid.SampledFrom([]model.TaintEffect{"", model.NoSchedule, model.PreferNoSchedule, model.NoExecute}).Draw(t, "tolEffect")
	}
	key := func() string { return rapid.SampledFrom([]string{"dedicated", "gpu"}).Draw(t, "tolKey") }
	switch rapid.IntRange(0, 4).Draw(t, "tolKind") {
	case 0, 1:
		return model.Toleration{Key: key(), Operator: "Equal", Value: rapid.SampledFrom([]string{"a", "b"}).Draw(t, "tolValue"), Effect: effect()}
	case 2:
		return model.Toleration{Key: key(), Operator: "Exists", Effect: effect()}
	case 3:
		return model.Toleration{Key: unschedulableKey, Operator: "Exists", Effect: model.NoSchedule}
	}
	return model.Toleration{Operator: "Exists"}
}

// drawViolations draws what these plugins look at and their args.
func drawViolations(t *rapid.T, s *Snapshot) {
	for i := range s.Nodes {
		n := &s.Nodes[i]
		if !oneIn(t, 3, "noDisk") {
			n.Disk = rapid.SampledFrom([]string{"ssd", "hdd"}).Draw(t, "disk")
		}
		for k := range n.Taints {
			if oneIn(t, 3, "taintValueB") {
				n.Taints[k].Value = "b"
			}
		}
	}
	for i := range s.Deps {
		d := &s.Deps[i]
		for range rapid.IntRange(0, 2).Draw(t, "moreTolerations") {
			d.Tolerations = append(d.Tolerations, drawToleration(t))
		}
		if s.Plugin == NodeAffinity || oneIn(t, 6, "nodeAffinityElsewhere") {
			if rapid.Bool().Draw(t, "required") {
				for range rapid.IntRange(1, 2).Draw(t, "requiredTerms") {
					d.Required = append(d.Required, drawNodeSelectorTerm(t))
				}
			}
			if rapid.Bool().Draw(t, "preferred") {
				for range rapid.IntRange(1, 2).Draw(t, "preferredTerms") {
					d.Preferred = append(d.Preferred, model.PreferredTerm{Weight: rapid.SampledFrom([]int{1, 10, 50, 100}).Draw(t, "weight"),
						Term: drawNodeSelectorTerm(t)})
				}
			}
		}
		if s.Plugin == PodAntiAffinity && !oneIn(t, 3, "noAntiAffinity") || oneIn(t, 6, "antiAffinityElsewhere") {
			for range rapid.IntRange(1, 2).Draw(t, "antiTerms") {
				d.AntiAffinity = append(d.AntiAffinity, AntiTerm{Key: rapid.SampledFrom([]string{model.HostnameKey, ZoneKey}).Draw(t, "antiKey"),
					ByTier: oneIn(t, 3, "antiByTier")})
			}
		}
	}
	d := &s.Profile.Deschedule
	switch s.Plugin {
	case NodeTaints:
		d.Enabled = []model.DeschedulePlugin{model.RemovePodsViolatingNodeTaints}
		a := &d.NodeTaints
		a.IncludePreferNoSchedule = rapid.Bool().Draw(t, "includePreferNoSchedule")
		switch rapid.IntRange(0, 3).Draw(t, "taintFilter") {
		case 1:
			a.ExcludedTaints = drawSubset(t, taintNames, 1, 2)
		case 2:
			a.IncludedTaints = drawSubset(t, taintNames, 1, 2)
		}
	case NodeAffinity:
		d.Enabled = []model.DeschedulePlugin{model.RemovePodsViolatingNodeAffinity}
		req, pref := model.RequiredDuringSchedulingIgnoredDuringExecution, model.PreferredDuringSchedulingIgnoredDuringExecution
		d.NodeAffinityType = slices.Clone(rapid.SampledFrom([][]model.NodeAffinityType{{req}, {pref}, {req, pref}, {pref, req}}).Draw(t, "nodeAffinityType"))
	case PodAntiAffinity:
		d.Enabled = []model.DeschedulePlugin{model.RemovePodsViolatingInterPodAntiAffinity}
	}
	if oneIn(t, 6, "labelSelector") {
		s.violationsFilter().LabelSelector = &model.Selector{MatchLabels: map[string]string{tierKey: "a"}}
	}
}

// isViolations reports whether s runs one of these plugins.
func (s *Snapshot) isViolations() bool {
	return s.Plugin == NodeTaints || s.Plugin == NodeAffinity || s.Plugin == PodAntiAffinity
}

// violationsFilter is the plugin's own pod filter.
func (s *Snapshot) violationsFilter() *model.PodFilter {
	d := &s.Profile.Deschedule
	switch s.Plugin {
	case NodeTaints:
		return d.Filter(model.RemovePodsViolatingNodeTaints)
	case NodeAffinity:
		return d.Filter(model.RemovePodsViolatingNodeAffinity)
	}
	return d.Filter(model.RemovePodsViolatingInterPodAntiAffinity)
}

// drawAntiNamespaces widens some anti-affinity terms of a multi-namespace
// snapshot to named namespaces or to every namespace.
func drawAntiNamespaces(t *rapid.T, s *Snapshot) {
	if len(s.Namespaces) == 0 {
		return
	}
	for i := range s.Deps {
		for k := range s.Deps[i].AntiAffinity {
			a := &s.Deps[i].AntiAffinity[k]
			switch rapid.IntRange(0, 3).Draw(t, "antiNamespaces") {
			case 1:
				a.Namespaces = drawSubset(t, s.Namespaces, 1, len(s.Namespaces))
			case 2:
				a.AllNamespaces = true
			}
		}
	}
}

// modelAffinity puts Dep d's node affinity and anti-affinity on its
// template.
func modelAffinity(t *model.PodTemplate, d int, dep Dep) {
	for _, sel := range dep.Required {
		t.Required = append(t.Required, cloneSelector(sel))
	}
	for _, p := range dep.Preferred {
		t.Preferred = append(t.Preferred, model.PreferredTerm{Weight: p.Weight, Term: cloneSelector(p.Term)})
	}
	for _, k := range dep.AntiAffinity {
		term := model.PodAffinityTerm{TopologyKey: k.Key, Selector: &model.Selector{MatchLabels: k.selector(d, dep)},
			Namespaces: slices.Clone(k.Namespaces)}
		if k.AllNamespaces {
			term.NamespaceSelector = &model.Selector{}
		}
		t.PodAntiAffinity = append(t.PodAntiAffinity, term)
	}
}

func cloneSelector(s model.Selector) model.Selector {
	out := model.Selector{}
	for _, r := range s.MatchExpressions {
		out.MatchExpressions = append(out.MatchExpressions, model.Requirement{Key: r.Key, Operator: r.Operator, Values: slices.Clone(r.Values)})
	}
	return out
}

// nodeSelectorTerm is a term as the API writes it: a requirement on
// model.NodeNameField is a matchFields one.
func nodeSelectorTerm(s model.Selector) v1.NodeSelectorTerm {
	var term v1.NodeSelectorTerm
	for _, r := range s.MatchExpressions {
		if r.Key == model.NodeNameField {
			term.MatchFields = append(term.MatchFields, v1.NodeSelectorRequirement{Key: "metadata.name",
				Operator: v1.NodeSelectorOperator(r.Operator), Values: slices.Clone(r.Values)})
			continue
		}
		term.MatchExpressions = append(term.MatchExpressions, v1.NodeSelectorRequirement{Key: r.Key,
			Operator: v1.NodeSelectorOperator(r.Operator), Values: slices.Clone(r.Values)})
	}
	return term
}

// apiAffinity writes Dep d's node affinity and anti-affinity on pod.
func apiAffinity(pod *v1.Pod, d int, dep Dep) {
	if len(dep.Required)+len(dep.Preferred)+len(dep.AntiAffinity) == 0 {
		return
	}
	aff := &v1.Affinity{}
	if len(dep.Required)+len(dep.Preferred) > 0 {
		aff.NodeAffinity = &v1.NodeAffinity{}
	}
	if len(dep.Required) > 0 {
		sel := &v1.NodeSelector{}
		for _, s := range dep.Required {
			sel.NodeSelectorTerms = append(sel.NodeSelectorTerms, nodeSelectorTerm(s))
		}
		aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = sel
	}
	for _, p := range dep.Preferred {
		aff.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution = append(aff.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution,
			v1.PreferredSchedulingTerm{Weight: int32(p.Weight), Preference: nodeSelectorTerm(p.Term)})
	}
	if len(dep.AntiAffinity) > 0 {
		aff.PodAntiAffinity = &v1.PodAntiAffinity{}
		for _, k := range dep.AntiAffinity {
			term := v1.PodAffinityTerm{TopologyKey: k.Key, LabelSelector: &metav1.LabelSelector{MatchLabels: k.selector(d, dep)},
				Namespaces: slices.Clone(k.Namespaces)}
			if k.AllNamespaces {
				term.NamespaceSelector = &metav1.LabelSelector{}
			}
			aff.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution = append(aff.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, term)
		}
	}
	pod.Spec.Affinity = aff
}

// labelSelector is a plugin's labelSelector argument (nil: every pod).
func labelSelector(f model.PodFilter) *metav1.LabelSelector {
	if f.LabelSelector == nil {
		return nil
	}
	return &metav1.LabelSelector{MatchLabels: f.LabelSelector.MatchLabels}
}

// newViolationsPlugin builds the plugin with its constructor from the
// profile's args, validated by its own validation.
func (s *Snapshot) newViolationsPlugin(ctx context.Context, h frameworktypes.Handle) (frameworktypes.Plugin, error) {
	d := &s.Profile.Deschedule
	f := *s.violationsFilter()
	switch s.Plugin {
	case NodeTaints:
		a := d.NodeTaints
		args := &removepodsviolatingnodetaints.RemovePodsViolatingNodeTaintsArgs{Namespaces: namespaces(f), LabelSelector: labelSelector(f),
			IncludePreferNoSchedule: a.IncludePreferNoSchedule, ExcludedTaints: a.ExcludedTaints, IncludedTaints: a.IncludedTaints}
		if err := removepodsviolatingnodetaints.ValidateRemovePodsViolatingNodeTaintsArgs(args); err != nil {
			return nil, err
		}
		return removepodsviolatingnodetaints.New(ctx, args, h)
	case NodeAffinity:
		args := &removepodsviolatingnodeaffinity.RemovePodsViolatingNodeAffinityArgs{Namespaces: namespaces(f), LabelSelector: labelSelector(f)}
		for _, t := range d.NodeAffinityType {
			args.NodeAffinityType = append(args.NodeAffinityType, t.String())
		}
		if err := removepodsviolatingnodeaffinity.ValidateRemovePodsViolatingNodeAffinityArgs(args); err != nil {
			return nil, err
		}
		return removepodsviolatingnodeaffinity.New(ctx, args, h)
	}
	args := &removepodsviolatinginterpodantiaffinity.RemovePodsViolatingInterPodAntiAffinityArgs{Namespaces: namespaces(f), LabelSelector: labelSelector(f)}
	if err := removepodsviolatinginterpodantiaffinity.ValidateRemovePodsViolatingInterPodAntiAffinityArgs(args); err != nil {
		return nil, err
	}
	return removepodsviolatinginterpodantiaffinity.New(ctx, args, h)
}

// fmtViolations writes these plugins' args.
func fmtViolations(b *strings.Builder, s *Snapshot) {
	if !s.isViolations() {
		return
	}
	d := &s.Profile.Deschedule
	switch s.Plugin {
	case NodeTaints:
		a := d.NodeTaints
		fmt.Fprintf(b, ", includePreferNoSchedule %v, excludedTaints %v, includedTaints %v", a.IncludePreferNoSchedule, a.ExcludedTaints, a.IncludedTaints)
	case NodeAffinity:
		fmt.Fprintf(b, ", nodeAffinityType %v", d.NodeAffinityType)
	}
	f := *s.violationsFilter()
	fmtFilter(b, f)
	if f.LabelSelector != nil {
		fmt.Fprintf(b, ", labelSelector %v", f.LabelSelector.MatchLabels)
	}
}

// fmtAffinity writes Dep d's node affinity and anti-affinity.
func fmtAffinity(b *strings.Builder, d int, dep Dep) {
	for _, sel := range dep.Required {
		fmt.Fprintf(b, ", required %s", fmtTerm(sel))
	}
	for _, p := range dep.Preferred {
		fmt.Fprintf(b, ", preferred %d %s", p.Weight, fmtTerm(p.Term))
	}
	for _, k := range dep.AntiAffinity {
		fmt.Fprintf(b, ", anti-affinity %s selector %v", k.Key, k.selector(d, dep))
		if len(k.Namespaces) > 0 {
			fmt.Fprintf(b, " namespaces %v", k.Namespaces)
		}
		if k.AllNamespaces {
			b.WriteString(" namespaceSelector {}")
		}
	}
}

func fmtTerm(s model.Selector) string {
	var parts []string
	for _, r := range s.MatchExpressions {
		parts = append(parts, fmt.Sprintf("%s %s %v", r.Key, r.Operator, r.Values))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// passes are the plugins Run runs one after the other: the snapshot's,
// or with InformerCaughtUp one per nodeAffinityType.
func (s *Snapshot) passes() []*Snapshot {
	types := s.Profile.Deschedule.NodeAffinityType
	if !s.InformerCaughtUp || s.Plugin != NodeAffinity || len(types) < 2 {
		return []*Snapshot{s}
	}
	var out []*Snapshot
	for _, t := range types {
		c := *s
		c.Profile.Deschedule.NodeAffinityType = []model.NodeAffinityType{t}
		out = append(out, &c)
	}
	return out
}

// inform shows the informer's indexer the deletions requested so far: a
// pod being deleted carries its deletion timestamp.
func inform(indexer cache.Indexer, deleted []string) error {
	for _, obj := range indexer.List() {
		pod := obj.(*v1.Pod)
		if pod.DeletionTimestamp != nil || !slices.Contains(deleted, pod.Name) {
			continue
		}
		pod = pod.DeepCopy()
		pod.DeletionTimestamp = ptr.To(metav1.NewTime(deletedAt))
		if err := indexer.Update(pod); err != nil {
			return err
		}
	}
	return nil
}
