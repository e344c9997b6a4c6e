package deschedulerdiff

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	"k8s.io/component-base/featuregate"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"sigs.k8s.io/descheduler/pkg/api"
	"sigs.k8s.io/descheduler/pkg/descheduler/evictions"
	podutil "sigs.k8s.io/descheduler/pkg/descheduler/pod"
	"sigs.k8s.io/descheduler/pkg/features"
	frameworkfake "sigs.k8s.io/descheduler/pkg/framework/fake"
	"sigs.k8s.io/descheduler/pkg/framework/plugins/defaultevictor"
	"sigs.k8s.io/descheduler/pkg/framework/plugins/nodeutilization"
	"sigs.k8s.io/descheduler/pkg/framework/plugins/removeduplicates"
	tsc "sigs.k8s.io/descheduler/pkg/framework/plugins/removepodsviolatingtopologyspreadconstraint"
	frameworktypes "sigs.k8s.io/descheduler/pkg/framework/types"

	"github.com/kivi-go/kivi/model"
)

// RealAnswer is one run of the descheduler's plugin: the pods the
// Eviction API deleted (sorted), and for the node-utilisation plugins
// each node's class as the plugin logged it, in the model's words.
type RealAnswer struct {
	Evicted []int
	Class   map[string]string
	// Refused counts evictions the Eviction API refused.
	Refused int
	// Terminating are the pods, already terminating, whose eviction
	// the Eviction API accepted (nothing to delete: not in Evicted), in
	// the order evicted.
	Terminating []int
}

// Order is one listing order of a run: Rank[i] is pod i's place in
// every list of pods the plugin gets from the informer (the sorter of
// the descheduler's own test handle), Nodes the order of the nodes
// handed to Balance.
type Order struct {
	Rank  []int
	Nodes []int
}

// Run runs the snapshot's plugin once, in process, as
// sigs.k8s.io/descheduler v0.36's framework runs it: the plugin built by
// its own constructor from its arguments, the DefaultEvictor with the
// profile's nodeFit and evictSystemCriticalPods, the PodEvictor with the
// limits, evictions posted to a fake clientset whose eviction
// subresource is the API server's (evictionAPI) over budgets whose
// status is the disruption controller's (pdbs, from Disruption).
func (s *Snapshot) Run(ctx context.Context, o *objects, pdbs []*policyv1.PodDisruptionBudget, ord Order) (*RealAnswer, error) {
	pdbClient := fake.NewClientset()
	for _, b := range pdbs {
		if err := pdbClient.Tracker().Add(b.DeepCopy()); err != nil {
			return nil, err
		}
	}
	ev, err := newEvictionAPI(o.pods, pdbClient.PolicyV1())
	if err != nil {
		return nil, err
	}
	refused := 0
	var terminating []int
	client := fake.NewClientset()
	client.PrependReactor("create", "pods", func(a core.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "eviction" {
			return false, nil, nil
		}
		e := a.(core.CreateAction).GetObject().(*policyv1.Eviction)
		err := ev.Evict(ctx, e)
		switch {
		case err != nil:
			refused++
		default:
			if i := slices.IndexFunc(o.pods, func(p *v1.Pod) bool { return p.Name == e.Name && p.DeletionTimestamp != nil }); i >= 0 {
				terminating = append(terminating, i)
			}
		}
		return true, nil, err
	})
	factory := informers.NewSharedInformerFactory(client, 0)
	podInformer := factory.Core().V1().Pods().Informer()
	byNode, err := podutil.BuildGetPodsAssignedToNodeFunc(podInformer)
	if err != nil {
		return nil, err
	}
	for _, p := range o.pods {
		if err := podInformer.GetIndexer().Add(p); err != nil {
			return nil, err
		}
	}
	nodeInformer := factory.Core().V1().Nodes().Informer()
	for _, n := range o.nodes {
		if err := nodeInformer.GetIndexer().Add(n); err != nil {
			return nil, err
		}
	}
	// The DefaultEvictor's PodsWithoutPDB protection lists the budgets
	// and its namespaceLabelSelector the Namespace objects through the
	// informers.
	for _, b := range pdbs {
		if err := factory.Policy().V1().PodDisruptionBudgets().Informer().GetIndexer().Add(b.DeepCopy()); err != nil {
			return nil, err
		}
	}
	for _, ns := range o.namespaces {
		if err := factory.Core().V1().Namespaces().Informer().GetIndexer().Add(ns); err != nil {
			return nil, err
		}
	}
	rank := map[string]int{}
	for i, r := range ord.Rank {
		rank[PodName(i)] = r
	}
	getPods := func(node string, filter podutil.FilterFunc) ([]*v1.Pod, error) {
		pods, err := byNode(node, filter)
		sort.Slice(pods, func(a, b int) bool { return rank[pods[a].Name] < rank[pods[b].Name] })
		return pods, err
	}
	gates := featuregate.NewFeatureGate()
	if err := gates.Add(map[featuregate.Feature]featuregate.FeatureSpec{
		features.EvictionsInBackground: {Default: false, PreRelease: featuregate.Alpha}}); err != nil {
		return nil, err
	}
	opts := evictions.NewOptions()
	if s.MaxPerNode > 0 {
		opts.WithMaxPodsToEvictPerNode(ptr.To(uint(s.MaxPerNode)))
	}
	if s.MaxPerNamespace > 0 {
		opts.WithMaxPodsToEvictPerNamespace(ptr.To(uint(s.MaxPerNamespace)))
	}
	if s.MaxTotal > 0 {
		opts.WithMaxPodsToEvictTotal(ptr.To(uint(s.MaxTotal)))
	}
	switch s.ZeroLimit {
	case 1:
		opts.WithMaxPodsToEvictPerNode(ptr.To(uint(0)))
	case 2:
		opts.WithMaxPodsToEvictPerNamespace(ptr.To(uint(0)))
	case 3:
		opts.WithMaxPodsToEvictTotal(ptr.To(uint(0)))
	}
	podEvictor, err := evictions.NewPodEvictor(ctx, client, &events.FakeRecorder{}, podInformer, gates, opts)
	if err != nil {
		return nil, err
	}
	handle := &frameworkfake.HandleImpl{ClientsetImpl: client, GetPodsAssignedToNodeFuncImpl: getPods,
		SharedInformerFactoryImpl: factory, PodEvictorImpl: podEvictor, PluginInstanceIDImpl: "fidelity"}
	args, err := s.evictorArgs()
	if err != nil {
		return nil, err
	}
	evictor, err := defaultevictor.New(ctx, args, handle)
	if err != nil {
		return nil, err
	}
	handle.EvictorFilterImpl = evictor.(frameworktypes.EvictorPlugin)

	rec := &logRecorder{}
	ctx = klog.NewContext(ctx, logr.New(rec))
	nodes := make([]*v1.Node, len(o.nodes))
	for k, i := range ord.Nodes {
		nodes[k] = o.nodes[i]
	}
	for _, pass := range s.passes() {
		plugin, err := pass.newPlugin(ctx, handle)
		if err != nil {
			return nil, err
		}
		var st *frameworktypes.Status
		switch pl := plugin.(type) {
		case frameworktypes.BalancePlugin:
			st = pl.Balance(ctx, nodes)
		case frameworktypes.DeschedulePlugin:
			st = pl.Deschedule(ctx, nodes)
		}
		if st != nil && st.Err != nil {
			return nil, fmt.Errorf("%s: %w", s.Plugin, st.Err)
		}
		if err := inform(podInformer.GetIndexer(), ev.store.Deleted); err != nil {
			return nil, err
		}
	}
	ans := &RealAnswer{Refused: refused, Terminating: terminating}
	for _, name := range ev.store.Deleted {
		var i int
		fmt.Sscanf(name, "p%d", &i)
		ans.Evicted = append(ans.Evicted, i)
	}
	slices.Sort(ans.Evicted)
	if s.Plugin == LowNodeUtilization || s.Plugin == HighNodeUtilization {
		ans.Class = rec.classes(s)
	}
	return ans, nil
}

func thresholds(t model.ResourceThresholds) api.ResourceThresholds {
	out := api.ResourceThresholds{}
	names := [...]v1.ResourceName{v1.ResourceCPU, v1.ResourceMemory, v1.ResourcePods}
	for r := range model.NumResources {
		if v, ok := t.Get(r); ok {
			out[names[r]] = api.Percentage(v)
		}
	}
	return out
}

// namespaces is a plugin's namespaces argument (nil: every namespace).
func namespaces(f model.PodFilter) *api.Namespaces {
	if len(f.IncludeNamespaces)+len(f.ExcludeNamespaces) == 0 {
		return nil
	}
	return &api.Namespaces{Include: f.IncludeNamespaces, Exclude: f.ExcludeNamespaces}
}

// excluded is the node-utilisation plugins' evictableNamespaces (nil:
// every namespace).
func excluded(ns []string) *api.Namespaces {
	if len(ns) == 0 {
		return nil
	}
	return &api.Namespaces{Exclude: ns}
}

// newPlugin builds the snapshot's plugin with its constructor.
func (s *Snapshot) newPlugin(ctx context.Context, h frameworktypes.Handle) (frameworktypes.Plugin, error) {
	var p frameworktypes.Plugin
	var err error
	switch s.Plugin {
	case LowNodeUtilization:
		a := s.Profile.LowNodeUtilization
		args := &nodeutilization.LowNodeUtilizationArgs{Thresholds: thresholds(a.Thresholds), TargetThresholds: thresholds(a.TargetThresholds),
			UseDeviationThresholds: a.UseDeviationThresholds, NumberOfNodes: a.NumberOfNodes}
		if n, ok := a.NodeLimit(); ok {
			args.EvictionLimits = &api.EvictionLimits{Node: ptr.To(uint(n))}
		}
		args.EvictableNamespaces = excluded(a.ExcludedNamespaces)
		if err := nodeutilization.ValidateLowNodeUtilizationArgs(args); err != nil {
			return nil, err
		}
		p, err = nodeutilization.NewLowNodeUtilization(ctx, args, h)
	case HighNodeUtilization:
		a := s.Profile.HighNodeUtilization
		args := &nodeutilization.HighNodeUtilizationArgs{Thresholds: thresholds(a.Thresholds), NumberOfNodes: a.NumberOfNodes}
		args.EvictableNamespaces = excluded(a.ExcludedNamespaces)
		if a.OnlyThresholdingResources {
			args.EvictionModes = []nodeutilization.EvictionMode{nodeutilization.EvictionModeOnlyThresholdingResources}
		}
		if err := nodeutilization.ValidateHighNodeUtilizationArgs(args); err != nil {
			return nil, err
		}
		p, err = nodeutilization.NewHighNodeUtilization(ctx, args, h)
	case RemoveDuplicates:
		args := &removeduplicates.RemoveDuplicatesArgs{Namespaces: namespaces(s.Profile.RemoveDuplicatesFilter)}
		if err := removeduplicates.ValidateRemoveDuplicatesArgs(args); err != nil {
			return nil, err
		}
		p, err = removeduplicates.New(ctx, args, h)
	case TopologySpread:
		args := &tsc.RemovePodsViolatingTopologySpreadConstraintArgs{TopologyBalanceNodeFit: ptr.To(s.Profile.TopologyBalanceNodeFit),
			Namespaces: namespaces(s.Profile.TopologySpreadFilter)}
		switch s.Profile.Constraints {
		case model.HardConstraints:
			args.Constraints = []v1.UnsatisfiableConstraintAction{v1.DoNotSchedule}
		case model.SoftConstraints:
			args.Constraints = []v1.UnsatisfiableConstraintAction{v1.ScheduleAnyway}
		default:
			args.Constraints = []v1.UnsatisfiableConstraintAction{v1.DoNotSchedule, v1.ScheduleAnyway}
		}
		if err := tsc.ValidateRemovePodsViolatingTopologySpreadConstraintArgs(args); err != nil {
			return nil, err
		}
		p, err = tsc.New(ctx, args, h)
	case RemoveFailedPods, PodLifeTime:
		p, err = s.newLifetimePlugin(ctx, h)
	case NodeTaints, NodeAffinity, PodAntiAffinity:
		p, err = s.newViolationsPlugin(ctx, h)
	case TooManyRestarts:
		p, err = s.newRestartsPlugin(ctx, h)
	}
	return p, err
}

// logRecorder is a logr.LogSink keeping the node-utilisation plugins'
// classification lines ("Node has been classified", "Node is
// appropriately utilized"); other lines are dropped.
type logRecorder struct {
	mu    sync.Mutex
	lines []logLine
}

type logLine struct {
	msg      string
	node     string
	category string
}

func (r *logRecorder) Init(logr.RuntimeInfo)          {}
func (r *logRecorder) Enabled(level int) bool         { return level == 0 }
func (r *logRecorder) Error(error, string, ...any)    {}
func (r *logRecorder) WithValues(...any) logr.LogSink { return r }
func (r *logRecorder) WithName(string) logr.LogSink   { return r }
func (r *logRecorder) Info(_ int, msg string, kv ...any) {
	if msg != "Node has been classified" && msg != "Node is appropriately utilized" {
		return
	}
	l := logLine{msg: msg}
	for i := 0; i+1 < len(kv); i += 2 {
		switch kv[i] {
		case "node":
			if ref, ok := kv[i+1].(klog.ObjectRef); ok {
				l.node = ref.Name
			}
		case "category":
			l.category, _ = kv[i+1].(string)
		}
	}
	r.mu.Lock()
	r.lines = append(r.lines, l)
	r.mu.Unlock()
}

// classes maps the logged classification to the model's words:
// LowNodeUtilization's categories as they are; HighNodeUtilization's
// second category ("overutilized" in its log) is the schedulable nodes,
// and a node it leaves unclassified is unschedulable.
func (r *logRecorder) classes(s *Snapshot) map[string]string {
	out := map[string]string{}
	for _, l := range r.lines {
		c := l.category
		if l.msg == "Node is appropriately utilized" {
			c = "appropriately utilized"
		}
		if s.Plugin == HighNodeUtilization && c == "overutilized" {
			c = "schedulable"
		}
		out[l.node] = c
	}
	if s.Plugin == HighNodeUtilization {
		for i := range s.Nodes {
			if _, ok := out[NodeName(i)]; !ok {
				out[NodeName(i)] = "unschedulable"
			}
		}
	}
	return out
}
