package scheddiff

import (
	"context"
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/latest"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	frameworkplugins "k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodevolumelimits"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
)

// Real is kube-scheduler's default profile running in process: the
// framework built from the v1 configuration defaults (every default
// plugin at its default weight, the in-tree registry), as
// pkg/scheduler/scheduler.go builds it, on a snapshot that Decide swaps in
// for each question. Building the framework once keeps a question at the
// cost of the plugins' own work.
type Real struct {
	ctx    context.Context
	cancel context.CancelFunc
	fw     framework.Framework
	lister *swapLister
}

// swapLister is the framework's snapshot lister: plugins keep the lister
// they were created with, so the snapshot behind it is swapped instead.
type swapLister struct{ s *cache.Snapshot }

func (l *swapLister) NodeInfos() fwk.NodeInfoLister           { return l.s.NodeInfos() }
func (l *swapLister) StorageInfos() fwk.StorageInfoLister     { return l.s.StorageInfos() }
func (l *swapLister) PodGroupStates() fwk.PodGroupStateLister { return l.s.PodGroupStates() }

// NewReal builds the framework. The informers hold one object, the
// pending pod's ReplicaSet, so that PodTopologySpread's system default
// constraints find the pod's selector as they would in a cluster
// (helper.DefaultSelector reads ReplicaSets through informers, not the
// snapshot).
func NewReal() (*Real, error) { return NewRealWith(pendingReplicaSet()) }

// NewRealWith builds the framework with objects (ReplicaSets) in its
// informers: the trace replay (replay.go) gives every pod template of a
// universe its own ReplicaSet.
func NewRealWith(objects ...runtime.Object) (*Real, error) { return NewRealConfig(nil, objects...) }

// NewRealConfig builds the framework from a kubescheduler.config.k8s.io/v1
// KubeSchedulerConfiguration document (nil: the defaults), decoded,
// defaulted and validated as kube-scheduler loads its --config file; its
// one profile is the framework's.
func NewRealConfig(config []byte, objects ...runtime.Object) (*Real, error) {
	// The framework records plugin metrics unconditionally; scheduler.New
	// registers them first, and so must we (it is idempotent).
	metrics.Register()
	ctx, cancel := context.WithCancel(context.Background())
	ctx = klog.NewContext(ctx, klog.Background().V(-1))
	cfg, err := latest.Default()
	if config != nil {
		cfg, err = loadConfig(config)
	}
	if err != nil {
		cancel()
		return nil, err
	}
	if len(cfg.Profiles) != 1 {
		cancel()
		return nil, fmt.Errorf("default configuration has %d profiles, want 1", len(cfg.Profiles))
	}
	client := fake.NewClientset(objects...)
	factory := informers.NewSharedInformerFactory(client, 0)
	// The DRA manager and CSI manager as scheduler.New makes them: the
	// DynamicResources and NodeVolumeLimits plugins dereference them even
	// for pods without claims or volumes.
	var draManager fwk.SharedDRAManager
	if utilfeature.DefaultFeatureGate.Enabled(features.DynamicResourceAllocation) {
		logger := klog.FromContext(ctx)
		claims := assumecache.NewAssumeCache(logger, factory.Resource().V1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
		opts := resourceslicetracker.Options{
			EnableDeviceTaintRules:   utilfeature.DefaultFeatureGate.Enabled(features.DRADeviceTaintRules),
			EnableConsumableCapacity: utilfeature.DefaultFeatureGate.Enabled(features.DRAConsumableCapacity),
			SliceInformer:            factory.Resource().V1().ResourceSlices(),
			KubeClient:               client,
		}
		if opts.EnableDeviceTaintRules {
			opts.TaintInformer = factory.Resource().V1beta2().DeviceTaintRules()
			opts.ClassInformer = factory.Resource().V1().DeviceClasses()
		}
		tracker, err := resourceslicetracker.StartTracker(ctx, opts)
		if err != nil {
			cancel()
			return nil, err
		}
		draManager = dynamicresources.NewDRAManager(ctx, claims, tracker, factory)
	}
	lister := &swapLister{s: cache.NewEmptySnapshot()}
	fw, err := frameworkruntime.NewFramework(ctx, frameworkplugins.NewInTreeRegistry(), &cfg.Profiles[0],
		frameworkruntime.WithClientSet(client),
		frameworkruntime.WithInformerFactory(factory),
		frameworkruntime.WithSharedDRAManager(draManager),
		frameworkruntime.WithSharedCSIManager(nodevolumelimits.NewCSIManager(factory.Storage().V1().CSINodes().Lister())),
		frameworkruntime.WithSnapshotSharedLister(lister),
		// One goroutine: the questions are tiny, and the test's own
		// parallelism is the machine's.
		frameworkruntime.WithParallelism(1),
	)
	if err != nil {
		cancel()
		return nil, err
	}
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	return &Real{ctx: ctx, cancel: cancel, fw: fw, lister: lister}, nil
}

// Close stops the informers.
func (r *Real) Close() { r.cancel() }

// ScoreWeights returns the score plugins of the profile with their
// weights, for the report.
func (r *Real) ScoreWeights() map[string]int32 {
	w := map[string]int32{}
	for _, p := range r.fw.ListPlugins().Score.Enabled {
		w[p.Name] = p.Weight
	}
	return w
}

// RealAnswer is one scheduling cycle of the real framework.
type RealAnswer struct {
	// PreFilter is the PreFilter status message when PreFilter rejected
	// the pod (no node is then feasible), "" otherwise.
	PreFilter string
	// Feasible are the names of the nodes that pass every filter, sorted.
	Feasible []string
	// Rejected maps each infeasible node to the status of the filter that
	// rejected it.
	Rejected map[string]string
	// Scores maps each feasible node to each non-skipped score plugin's
	// weighted normalised score (empty when only one node is feasible:
	// the scheduler then does not score).
	Scores map[string]map[string]int64
}

// Decide runs one scheduling cycle for pending on the snapshot of nodes
// and pods, as schedule_one.go does (findNodesThatFitPod,
// prioritizeNodes) minus nominated pods, extenders and node sampling
// (below 100 nodes every node is evaluated anyway).
func (r *Real) Decide(nodes []*v1.Node, pods []*v1.Pod, pending *v1.Pod) (RealAnswer, error) {
	r.SetSnapshot(nodes, pods)
	ctx := r.ctx
	state := framework.NewCycleState()
	ans := RealAnswer{Rejected: map[string]string{}, Scores: map[string]map[string]int64{}}
	pre, st, _ := r.fw.RunPreFilterPlugins(ctx, state, pending)
	if !st.IsSuccess() {
		if !st.IsRejected() {
			return ans, st.AsError()
		}
		ans.PreFilter = st.Message()
		return ans, nil
	}
	all, err := r.lister.s.NodeInfos().List()
	if err != nil {
		return ans, err
	}
	var feasible []fwk.NodeInfo
	for _, ni := range all {
		name := ni.Node().Name
		if !pre.AllNodes() && !pre.NodeNames.Has(name) {
			ans.Rejected[name] = "PreFilterResult excludes the node"
			continue
		}
		if st := r.fw.RunFilterPlugins(ctx, state, pending, ni); !st.IsSuccess() {
			if !st.IsRejected() {
				return ans, st.AsError()
			}
			ans.Rejected[name] = st.Plugin() + ": " + st.Message()
			continue
		}
		feasible = append(feasible, ni)
		ans.Feasible = append(ans.Feasible, name)
	}
	slices.Sort(ans.Feasible)
	if len(feasible) < 2 {
		return ans, nil
	}
	if st := r.fw.RunPreScorePlugins(ctx, state, pending, feasible); !st.IsSuccess() {
		return ans, st.AsError()
	}
	scores, st := r.fw.RunScorePlugins(ctx, state, pending, feasible)
	if !st.IsSuccess() {
		return ans, st.AsError()
	}
	for _, ns := range scores {
		m := map[string]int64{}
		for _, ps := range ns.Scores {
			m[ps.Name] = ps.Score
		}
		ans.Scores[ns.Name] = m
	}
	return ans, nil
}

// Top returns the feasible nodes with the highest total of weighted
// scores, leaving out the plugins named in without (sorted names).
func (a RealAnswer) Top(without ...string) []string {
	if len(a.Feasible) < 2 {
		return a.Feasible
	}
	var top []string
	best := int64(-1)
	for _, n := range a.Feasible {
		var total int64
		for p, s := range a.Scores[n] {
			if !slices.Contains(without, p) {
				total += s
			}
		}
		switch {
		case total > best:
			best, top = total, []string{n}
		case total == best:
			top = append(top, n)
		}
	}
	return top
}
