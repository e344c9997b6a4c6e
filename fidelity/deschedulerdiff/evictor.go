package deschedulerdiff

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"sigs.k8s.io/descheduler/pkg/framework/plugins/defaultevictor"

	"github.com/kivi-go/kivi/model"
)

// The DefaultEvictor's constraints (model.EvictorConstraints): its
// labelSelector over the pods' app and tier labels, its
// namespaceLabelSelector over the Namespace objects' labels (an env
// label or none, and kubernetes.io/metadata.name), minReplicas,
// minPodAge, the PodsWithoutPDB protection (spelt as the legacy
// ignorePodsWithoutPDB or as podProtections.extraEnabled),
// noEvictionPolicy, and the pods' descheduler.alpha.kubernetes.io/evict
// and prefer-no-eviction annotations (per Dep).

// Annotations the DefaultEvictor reads (only their presence counts).
const (
	evictAnnotation            = "descheduler.alpha.kubernetes.io/evict"
	preferNoEvictionAnnotation = "descheduler.alpha.kubernetes.io/prefer-no-eviction"
)

// envKey is the label the snapshots' Namespace objects may carry.
const envKey = "env"

// startedLongAgo is the age of the pods of the snapshots whose pods have
// no age of their own (all but the lifetime plugins'): older than every
// minPodAge drawn.
const startedLongAgo = 48 * time.Hour

// podSelectors are the labelSelectors drawn, over the pods' labels.
var podSelectors = []model.Selector{
	{MatchLabels: map[string]string{tierKey: "a"}},
	{MatchLabels: map[string]string{tierKey: "b"}},
	{MatchLabels: map[string]string{appLabel: "d0"}},
	{MatchExpressions: []model.Requirement{{Key: tierKey, Operator: model.OpIn, Values: []string{"a"}}}},
	{MatchExpressions: []model.Requirement{{Key: tierKey, Operator: model.OpNotIn, Values: []string{"b"}}}},
	{MatchExpressions: []model.Requirement{{Key: appLabel, Operator: model.OpNotIn, Values: []string{"d1"}}}},
	{MatchExpressions: []model.Requirement{{Key: appLabel, Operator: model.OpIn, Values: []string{"d0", "d2"}}}},
	{MatchExpressions: []model.Requirement{{Key: appLabel, Operator: model.OpExists}, {Key: tierKey, Operator: model.OpNotIn, Values: []string{"a"}}}},
	{MatchLabels: map[string]string{tierKey: "a"}, MatchExpressions: []model.Requirement{{Key: appLabel, Operator: model.OpNotIn, Values: []string{"d0"}}}},
	{MatchExpressions: []model.Requirement{{Key: tierKey, Operator: model.OpDoesNotExist}}},
	{},
}

// namespaceSelectors are the namespaceLabelSelectors drawn, over the
// Namespace objects' labels.
var namespaceSelectors = []model.Selector{
	{MatchLabels: map[string]string{envKey: "prod"}},
	{MatchExpressions: []model.Requirement{{Key: envKey, Operator: model.OpIn, Values: []string{"prod"}}}},
	{MatchExpressions: []model.Requirement{{Key: envKey, Operator: model.OpNotIn, Values: []string{"dev"}}}},
	{MatchExpressions: []model.Requirement{{Key: envKey, Operator: model.OpExists}}},
	{MatchExpressions: []model.Requirement{{Key: envKey, Operator: model.OpDoesNotExist}}},
	{MatchExpressions: []model.Requirement{{Key: model.NamespaceNameLabel, Operator: model.OpIn, Values: []string{"team-a"}}}},
	{MatchExpressions: []model.Requirement{{Key: model.NamespaceNameLabel, Operator: model.OpNotIn, Values: []string{Namespace}}}},
	{MatchLabels: map[string]string{model.NamespaceNameLabel: Namespace}},
	{},
}

// drawEvictor draws, in half the snapshots, the DefaultEvictor's
// constraints, each in one of three of those, and the Deps'
// annotations.
func drawEvictor(t *rapid.T, s *Snapshot) {
	if !rapid.Bool().Draw(t, "evictorConstraints") {
		return
	}
	e := &s.Profile.Evictor
	if oneIn(t, 3, "labelSelector") {
		e.LabelSelector = new(cloneLabels(rapid.SampledFrom(podSelectors).Draw(t, "podSelector")))
	}
	if oneIn(t, 3, "namespaceLabels") {
		s.NamespaceLabels = map[string]map[string]string{}
		for _, ns := range s.namespaceNames() {
			if env := rapid.SampledFrom([]string{"", "prod", "dev"}).Draw(t, "env"); env != "" {
				s.NamespaceLabels[ns] = map[string]string{envKey: env}
			}
		}
		e.NamespaceLabelSelector = new(cloneLabels(rapid.SampledFrom(namespaceSelectors).Draw(t, "namespaceSelector")))
	}
	if oneIn(t, 3, "minReplicas") {
		e.MinReplicas = rapid.IntRange(0, 4).Draw(t, "minReplicas")
	}
	if oneIn(t, 3, "podsWithoutPDB") {
		e.PodsWithoutPDB = true
		s.ExtraEnabled = rapid.Bool().Draw(t, "extraEnabled")
	}
	if oneIn(t, 3, "minPodAge") {
		e.MinPodAge = rapid.SampledFrom([]string{"1s", "10m", "1h"}).Draw(t, "minPodAge")
		if s.Plugin == RemoveFailedPods || s.Plugin == PodLifeTime {
			// Their pods are 5 s old or more.
			e.MinPodAge = "1s"
		}
	}
	e.NoEvictionPolicy = rapid.SampledFrom([]string{"", "Preferred", "Mandatory"}).Draw(t, "noEvictionPolicy")
	for i := range s.Deps {
		s.Deps[i].Evict = oneIn(t, 6, "evictAnnotation")
		s.Deps[i].PreferNoEviction = oneIn(t, 4, "preferNoEvictionAnnotation")
	}
}

// drawQoS makes some Deps Guaranteed (limits equal to their requests):
// the plugins that sort candidates (podClass in the model) take
// Burstable pods before Guaranteed ones of the same priority.
func drawQoS(t *rapid.T, s *Snapshot) {
	for i := range s.Deps {
		if d := &s.Deps[i]; d.MilliCPU > 0 && d.MemMiB > 0 {
			d.Guaranteed = oneIn(t, 3, "guaranteed")
		}
	}
}

// cloneLabels copies a selector's maps and slices, so that snapshots
// share none of podSelectors' or namespaceSelectors'.
func cloneLabels(sel model.Selector) model.Selector {
	out := cloneSelector(sel)
	out.MatchLabels = maps.Clone(sel.MatchLabels)
	return out
}

// namespaceNames are the snapshot's namespaces: those drawn, or the one.
func (s *Snapshot) namespaceNames() []string {
	if len(s.Namespaces) == 0 {
		return []string{Namespace}
	}
	return s.Namespaces
}

// evictorArgs are the DefaultEvictor's args of the snapshot: the
// profile's protections, constraints and noEvictionPolicy, the
// PodsWithoutPDB protection spelt as drawn (podProtections.extraEnabled
// restates the legacy booleans as defaultDisabled, since upstream reads
// only one of the two spellings).
func (s *Snapshot) evictorArgs() (*defaultevictor.DefaultEvictorArgs, error) {
	p := &s.Profile
	e := &p.Evictor
	args := &defaultevictor.DefaultEvictorArgs{NodeFit: p.NodeFit, EvictSystemCriticalPods: p.EvictSystemCriticalPods,
		EvictFailedBarePods: p.EvictFailedBarePods, IgnorePodsWithoutPDB: e.PodsWithoutPDB,
		LabelSelector: apiSelector(e.LabelSelector), NamespaceLabelSelector: apiSelector(e.NamespaceLabelSelector),
		MinReplicas: uint(e.MinReplicas), NoEvictionPolicy: defaultevictor.NoEvictionPolicy(e.NoEvictionPolicy)}
	if e.PodsWithoutPDB && s.ExtraEnabled {
		args.IgnorePodsWithoutPDB, args.EvictSystemCriticalPods, args.EvictFailedBarePods = false, false, false
		args.PodProtections.ExtraEnabled = []defaultevictor.PodProtection{defaultevictor.PodsWithoutPDB}
		if p.EvictSystemCriticalPods {
			args.PodProtections.DefaultDisabled = append(args.PodProtections.DefaultDisabled, defaultevictor.SystemCriticalPods)
		}
		if p.EvictFailedBarePods {
			args.PodProtections.DefaultDisabled = append(args.PodProtections.DefaultDisabled, defaultevictor.FailedBarePods)
		}
	}
	if e.MinPodAge != "" {
		d, err := time.ParseDuration(e.MinPodAge)
		if err != nil {
			return nil, err
		}
		args.MinPodAge = &metav1.Duration{Duration: d}
	}
	if err := defaultevictor.ValidateDefaultEvictorArgs(args); err != nil {
		return nil, err
	}
	return args, nil
}

// apiSelector is sel as the API writes it (nil stays nil).
func apiSelector(sel *model.Selector) *metav1.LabelSelector {
	if sel == nil {
		return nil
	}
	out := &metav1.LabelSelector{MatchLabels: maps.Clone(sel.MatchLabels)}
	for _, r := range sel.MatchExpressions {
		out.MatchExpressions = append(out.MatchExpressions, metav1.LabelSelectorRequirement{Key: r.Key,
			Operator: metav1.LabelSelectorOperator(r.Operator), Values: slices.Clone(r.Values)})
	}
	return out
}

// apiNamespaces are the Namespace objects of every namespace of the
// snapshot, as the API server holds them: with the
// kubernetes.io/metadata.name label and the labels drawn.
func (s *Snapshot) apiNamespaces() []*v1.Namespace {
	var out []*v1.Namespace
	for _, name := range s.namespaceNames() {
		labels := map[string]string{model.NamespaceNameLabel: name}
		maps.Copy(labels, s.NamespaceLabels[name])
		out = append(out, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}})
	}
	return out
}

// evictorStatus writes what the DefaultEvictor reads of pod i beyond
// its spec: the Dep's annotations, and for a pod the kubelet has
// started (Running, Failed, or terminating after running) its
// status.startTime, its creation; an unstarted (Pending) pod has none.
// The pods of the snapshots without ages of their own were created
// startedLongAgo.
func (s *Snapshot) evictorStatus(pod *v1.Pod, p Pod) {
	d := s.Deps[p.Dep]
	if d.Evict {
		metav1.SetMetaDataAnnotation(&pod.ObjectMeta, evictAnnotation, "")
	}
	if d.PreferNoEviction {
		metav1.SetMetaDataAnnotation(&pod.ObjectMeta, preferNoEvictionAnnotation, "")
	}
	if s.Plugin != RemoveFailedPods && s.Plugin != PodLifeTime {
		pod.CreationTimestamp = metav1.NewTime(time.Now().Add(-startedLongAgo))
	}
	if p.Running || p.Failed {
		pod.Status.StartTime = new(pod.CreationTimestamp)
	}
}

// modelEvictor gives the model's universe what the DefaultEvictor reads
// beyond the profile: the Namespace objects' labels and the Deps'
// annotations (template t is Dep t's).
func (s *Snapshot) modelEvictor(u *model.Universe) {
	if len(s.NamespaceLabels) > 0 {
		u.Namespaces = map[string]map[string]string{}
		for ns, l := range s.NamespaceLabels {
			u.Namespaces[ns] = maps.Clone(l)
		}
	}
	for i, d := range s.Deps {
		u.Templates[i].DeschedulerEvict = d.Evict
		u.Templates[i].PreferNoEviction = d.PreferNoEviction
		u.Templates[i].Guaranteed = d.Guaranteed
	}
}

// fmtEvictor writes the DefaultEvictor's constraints.
func fmtEvictor(b *strings.Builder, s *Snapshot) {
	e := s.Profile.Evictor
	if e.LabelSelector != nil {
		fmt.Fprintf(b, ", evictor labelSelector %s", fmtSelector(*e.LabelSelector))
	}
	if e.NamespaceLabelSelector != nil {
		fmt.Fprintf(b, ", evictor namespaceLabelSelector %s (namespace labels %v)", fmtSelector(*e.NamespaceLabelSelector), s.NamespaceLabels)
	}
	if e.MinReplicas > 0 {
		fmt.Fprintf(b, ", minReplicas %d", e.MinReplicas)
	}
	if e.MinPodAge != "" {
		fmt.Fprintf(b, ", minPodAge %s", e.MinPodAge)
	}
	if e.PodsWithoutPDB {
		fmt.Fprintf(b, ", PodsWithoutPDB protection (extraEnabled %v)", s.ExtraEnabled)
	}
	if e.NoEvictionPolicy != "" {
		fmt.Fprintf(b, ", noEvictionPolicy %s", e.NoEvictionPolicy)
	}
}

// fmtSelector writes a label selector.
func fmtSelector(sel model.Selector) string {
	parts := []string{}
	for _, k := range slices.Sorted(maps.Keys(sel.MatchLabels)) {
		parts = append(parts, k+"="+sel.MatchLabels[k])
	}
	for _, r := range sel.MatchExpressions {
		parts = append(parts, fmt.Sprintf("%s %s %v", r.Key, r.Operator, r.Values))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// evictorFeatures names the DefaultEvictor features a snapshot can draw.
var evictorFeatures = []string{"labelSelector", "namespaceLabelSelector", "minReplicas", "PodsWithoutPDB", "minPodAge",
	"noEvictionPolicy Mandatory", "evict annotation", "prefer-no-eviction annotation"}

// withoutFeature returns s without the DefaultEvictor feature f (one of
// evictorFeatures), or nil when s does not use it.
func (s *Snapshot) withoutFeature(f string) *Snapshot {
	e := s.Profile.Evictor
	c := s.clone()
	ce := &c.Profile.Evictor
	switch f {
	case "labelSelector":
		if e.LabelSelector == nil {
			return nil
		}
		ce.LabelSelector = nil
	case "namespaceLabelSelector":
		if e.NamespaceLabelSelector == nil {
			return nil
		}
		ce.NamespaceLabelSelector = nil
	case "minReplicas":
		if e.MinReplicas < 2 {
			return nil
		}
		ce.MinReplicas = 0
	case "PodsWithoutPDB":
		if !e.PodsWithoutPDB {
			return nil
		}
		ce.PodsWithoutPDB = false
	case "minPodAge":
		if e.MinPodAge == "" {
			return nil
		}
		ce.MinPodAge = ""
	case "noEvictionPolicy Mandatory":
		if e.NoEvictionPolicy != "Mandatory" {
			return nil
		}
		ce.NoEvictionPolicy = ""
	case "evict annotation", "prefer-no-eviction annotation":
		used := false
		for i := range c.Deps {
			d := &c.Deps[i]
			if f == "evict annotation" {
				used, d.Evict = used || d.Evict, false
			} else {
				used, d.PreferNoEviction = used || d.PreferNoEviction, false
			}
		}
		if !used {
			return nil
		}
	}
	return c
}
