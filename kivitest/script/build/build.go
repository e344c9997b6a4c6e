// Package build assembles small Universes and States fluently for tests,
// in the style of the Kubernetes scheduler's test wrappers. The
// declarations of a kivitest/script script drive one Builder; unit tests
// use it directly, also inside the controller packages (it imports only
// model, so that their white-box tests can use it without an import
// cycle):
//
//	b := build.New()
//	b.AddNodes(3, build.Node().CPU(64).Label("zone", "a"))
//	app := b.AddTemplate(build.Template("app").Requests(8, 8).Label("name", "app").
//		Spread(1, "zone", model.DoNotSchedule))
//	web := b.AddDeployment("web", app, 3)
//	b.RunPod(web, 0)
//	u, s := b.MustBuild()
package build

import (
	"fmt"

	"github.com/kivi-go/kivi/model"
)

// NodeBuilder builds a model.Node.
type NodeBuilder struct {
	n model.Node
	// scalar is the node's allocatable scalar resources by name, which
	// Build aligns with the universe's (model/scalar.go).
	scalar map[string]int64
}

// Node starts a node of 64 CPU and 64 memory units.
func Node() *NodeBuilder {
	return &NodeBuilder{n: model.Node{CPU: 64, Memory: 64, Labels: map[string]string{}}}
}

func (b *NodeBuilder) Name(name string) *NodeBuilder { b.n.Name = name; return b }
func (b *NodeBuilder) Type(t int) *NodeBuilder       { b.n.Type = t; return b }
func (b *NodeBuilder) CPU(c int64) *NodeBuilder      { b.n.CPU = c; return b }
func (b *NodeBuilder) Mem(m int64) *NodeBuilder      { b.n.Memory = m; return b }
func (b *NodeBuilder) Reserved(cpu, mem int64) *NodeBuilder {
	b.n.ReservedCPU, b.n.ReservedMemory = cpu, mem
	return b
}
func (b *NodeBuilder) MaxPods(p int) *NodeBuilder { b.n.MaxPods = p; return b }

// Scalar gives the node v allocatable of scalar resource name (an
// extended resource such as nvidia.com/gpu, ephemeral-storage, huge
// pages).
func (b *NodeBuilder) Scalar(name string, v int64) *NodeBuilder {
	if b.scalar == nil {
		b.scalar = map[string]int64{}
	}
	b.scalar[name] = v
	return b
}
func (b *NodeBuilder) Label(k, v string) *NodeBuilder {
	b.n.Labels[k] = v
	return b
}
func (b *NodeBuilder) Zone(z string) *NodeBuilder { return b.Label("zone", z) }
func (b *NodeBuilder) Taint(k, v string, e model.TaintEffect) *NodeBuilder {
	b.n.Taints = append(b.n.Taints, model.Taint{Key: k, Value: v, Effect: e})
	return b
}

// Obj returns a copy of the node.
func (b *NodeBuilder) Obj() model.Node {
	n := b.n
	n.Labels = map[string]string{}
	for k, v := range b.n.Labels {
		n.Labels[k] = v
	}
	n.Taints = append([]model.Taint(nil), b.n.Taints...)
	return n
}

// TemplateBuilder builds a model.PodTemplate.
type TemplateBuilder struct {
	t model.PodTemplate
	// scalar is the pods' scalar requests by name (NodeBuilder.scalar).
	scalar map[string]int64
}

// Template starts a pod template with no requests.
func Template(name string) *TemplateBuilder {
	return &TemplateBuilder{t: model.PodTemplate{Name: name, Labels: map[string]string{}}}
}

func (b *TemplateBuilder) Requests(cpu, mem int64) *TemplateBuilder {
	b.t.CPU, b.t.Memory = cpu, mem
	return b
}
func (b *TemplateBuilder) Label(k, v string) *TemplateBuilder { b.t.Labels[k] = v; return b }

// OS sets the pod's spec.os.name.
func (b *TemplateBuilder) OS(name string) *TemplateBuilder { b.t.OS = name; return b }

// Scalar makes the pods request v of scalar resource name.
func (b *TemplateBuilder) Scalar(name string, v int64) *TemplateBuilder {
	if b.scalar == nil {
		b.scalar = map[string]int64{}
	}
	b.scalar[name] = v
	return b
}

// Namespace puts the template's pods in namespace ns (model/namespace.go).
func (b *TemplateBuilder) Namespace(ns string) *TemplateBuilder { b.t.Namespace = ns; return b }
func (b *TemplateBuilder) NodeName(node int) *TemplateBuilder   { b.t.NodeName = node + 1; return b }
func (b *TemplateBuilder) Critical() *TemplateBuilder           { b.t.Critical = true; return b }
func (b *TemplateBuilder) Guaranteed() *TemplateBuilder         { b.t.Guaranteed = true; return b }

// Priority sets the pods' priority (the value of their PriorityClass).
func (b *TemplateBuilder) Priority(p int32) *TemplateBuilder { b.t.Priority = p; return b }

// PreemptNever sets preemptionPolicy: Never.
func (b *TemplateBuilder) PreemptNever() *TemplateBuilder {
	b.t.PreemptionPolicy = model.PreemptNever
	return b
}
func (b *TemplateBuilder) NodeSelector(k, v string) *TemplateBuilder {
	if b.t.NodeSelector == nil {
		b.t.NodeSelector = map[string]string{}
	}
	b.t.NodeSelector[k] = v
	return b
}

// Required adds a required node-affinity term matching all given labels.
func (b *TemplateBuilder) Required(kv ...string) *TemplateBuilder {
	b.t.Required = append(b.t.Required, model.Selector{MatchLabels: pairs(kv)})
	return b
}

// RequiredTerm adds a required node-affinity term given in full.
func (b *TemplateBuilder) RequiredTerm(term model.Selector) *TemplateBuilder {
	b.t.Required = append(b.t.Required, term)
	return b
}

// Preferred adds a preferred node-affinity term.
func (b *TemplateBuilder) Preferred(weight int, kv ...string) *TemplateBuilder {
	b.t.Preferred = append(b.t.Preferred, model.PreferredTerm{Weight: weight, Term: model.Selector{MatchLabels: pairs(kv)}})
	return b
}

func (b *TemplateBuilder) Toleration(k, v string, e model.TaintEffect) *TemplateBuilder {
	b.t.Tolerations = append(b.t.Tolerations, model.Toleration{Key: k, Value: v, Effect: e})
	return b
}

// TolerationWith adds a fully specified toleration.
func (b *TemplateBuilder) TolerationWith(t model.Toleration) *TemplateBuilder {
	b.t.Tolerations = append(b.t.Tolerations, t)
	return b
}

// Spread adds a topology spread constraint whose selector is the
// template's own labels at Obj time (Kivi's default selector).
func (b *TemplateBuilder) Spread(maxSkew int, key string, when model.WhenUnsatisfiable) *TemplateBuilder {
	b.t.Spread = append(b.t.Spread, model.SpreadConstraint{MaxSkew: maxSkew, TopologyKey: key, When: when, HonorNodeAffinity: true})
	return b
}

// SpreadWith adds a fully specified constraint.
func (b *TemplateBuilder) SpreadWith(c model.SpreadConstraint) *TemplateBuilder {
	b.t.Spread = append(b.t.Spread, c)
	return b
}

// Pattern sets a CPU usage pattern as (cpu, at) pairs.
func (b *TemplateBuilder) Pattern(points ...model.UsagePoint) *TemplateBuilder {
	b.t.Pattern = points
	return b
}

// Obj returns the template; constraints without a selector get the
// template's labels.
func (b *TemplateBuilder) Obj() model.PodTemplate {
	t := b.t
	t.Labels = map[string]string{}
	for k, v := range b.t.Labels {
		t.Labels[k] = v
	}
	t.Spread = append([]model.SpreadConstraint(nil), b.t.Spread...)
	clonePodAffinity(&t)
	for i := range t.Spread {
		if t.Spread[i].Selector == nil {
			t.Spread[i].Selector = &model.Selector{MatchLabels: t.Labels}
		}
	}
	return t
}

func pairs(kv []string) map[string]string {
	if len(kv)%2 != 0 {
		panic("build: odd number of label arguments")
	}
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// Builder assembles a Universe and an initial State.
type Builder struct {
	U    model.Universe
	deps []depInit
	pods []podInit
	// Slots overrides the number of pod slots (default: pods placed + 4).
	Slots int
	// nodeScalar[n] and templateScalar[t] are node n's and template t's
	// scalar resources by name (nil: none).
	nodeScalar, templateScalar []map[string]int64
}

type depInit struct {
	active   bool
	replicas int
	hpa      int
	config   int
	// paused: spec.paused; rolledOut: with the ReplicaSet of its
	// template all the same (model.DeploymentDecl.RolledOut).
	paused, rolledOut bool
}

type podInit struct {
	dep, node int
	phase     model.Phase
	cpu       int64
	hasCPU    bool
}

// New starts an empty cluster with Kivi's `hostname` alias on
// (model.Options.KiviHostnameAlias): the builder restates Kivi's cases,
// which use it; a test of real inputs turns it off in U.Options.
func New() *Builder {
	b := &Builder{}
	b.U.Options.KiviHostnameAlias = true
	return b
}

// AddNodes adds count copies of a node (named by their 1-based index unless
// the builder names them) and returns the index of the first.
func (b *Builder) AddNodes(count int, nb *NodeBuilder) int {
	first := len(b.U.Nodes)
	for i := 0; i < count; i++ {
		n := nb.Obj()
		if n.Name == "" || count > 1 {
			n.Name = fmt.Sprint(len(b.U.Nodes) + 1)
		}
		b.U.Nodes = append(b.U.Nodes, n)
		b.nodeScalar = append(b.nodeScalar, nb.scalar)
	}
	return first
}

// AddTemplate adds a pod template and returns its index.
func (b *Builder) AddTemplate(tb *TemplateBuilder) int {
	b.U.Templates = append(b.U.Templates, tb.Obj())
	for len(b.templateScalar) < len(b.U.Templates)-1 {
		b.templateScalar = append(b.templateScalar, nil)
	}
	b.templateScalar = append(b.templateScalar, tb.scalar)
	return len(b.U.Templates) - 1
}

// AddHPA adds an HPA spec with one CPU utilisation metric and returns its
// index + 1 (the value DeploymentState.HPA takes).
func (b *Builder) AddHPA(min, max int, targetPercent int64) int {
	b.U.HPAs = append(b.U.HPAs, model.HPA{Min: min, Max: max, Metrics: []model.Metric{{Resource: model.CPU, Target: model.Utilization, Value: targetPercent}}})
	return len(b.U.HPAs)
}

// AddDeployment adds an active deployment of the template with the given
// spec replicas (no pods yet) and returns its index.
func (b *Builder) AddDeployment(name string, template, replicas int) int {
	b.U.Configs = append(b.U.Configs, model.DeploymentConfig{PodTemplate: template,
		MaxSurge: model.IntOrPercent{Value: 25, Percent: true}, MaxUnavailable: model.IntOrPercent{Value: 25, Percent: true}})
	b.U.Deployments = append(b.U.Deployments, model.Deployment{Name: name})
	b.deps = append(b.deps, depInit{active: true, replicas: replicas, config: len(b.U.Configs) - 1})
	return len(b.U.Deployments) - 1
}

// AddStatefulSet adds an active StatefulSet of the template with the
// given spec replicas (no pods yet; OrderedReady, RollingUpdate, partition
// 0, maxUnavailable 1) and returns its index.
func (b *Builder) AddStatefulSet(name string, template, replicas int) int {
	d := b.AddDeployment(name, template, replicas)
	b.U.Deployments[d].Kind = model.KindStatefulSet
	b.U.Configs[b.deps[d].config] = model.DeploymentConfig{PodTemplate: template, MaxUnavailable: model.IntOrPercent{Value: 1}}
	return d
}

// AddJob adds an active Job of the template with the given parallelism
// (no pods yet; completions 1, backoffLimit 6) and returns its index.
func (b *Builder) AddJob(name string, template, parallelism int) int {
	d := b.AddDeployment(name, template, parallelism)
	b.U.Deployments[d].Kind = model.KindJob
	b.U.Configs[b.deps[d].config] = model.DeploymentConfig{PodTemplate: template, Job: model.JobSpec{Completions: 1, BackoffLimit: 6}}
	return d
}

// Config is workload d's configuration, to change before Build.
func (b *Builder) Config(d int) *model.DeploymentConfig { return &b.U.Configs[b.deps[d].config] }

// Inactive marks deployment d as not created yet.
func (b *Builder) Inactive(d int) *Builder { b.deps[d].active = false; return b }

// Paused makes deployment d paused (spec.paused, model/paused.go): it
// starts without a ReplicaSet, unless rolledOut (it was rolled out before
// it was paused, and its pods are the ones placed).
func (b *Builder) Paused(d int, rolledOut bool) *Builder {
	b.U.Deployments[d].Paused = true
	b.deps[d].paused, b.deps[d].rolledOut = true, rolledOut
	return b
}

// WithHPA attaches HPA h (as returned by AddHPA) to deployment d.
func (b *Builder) WithHPA(d, h int) *Builder { b.deps[d].hpa = h; return b }

// RunPod places a Running pod of deployment d on node n.
func (b *Builder) RunPod(d, n int) *Builder {
	b.pods = append(b.pods, podInit{dep: d, node: n, phase: model.Running})
	return b
}

// RunPodCPU places a Running pod with an explicit CPU usage.
func (b *Builder) RunPodCPU(d, n int, cpu int64) *Builder {
	b.pods = append(b.pods, podInit{dep: d, node: n, phase: model.Running, cpu: cpu, hasCPU: true})
	return b
}

// PendingPod adds a Pending pod of deployment d, bound to node n (-1 for
// unbound).
func (b *Builder) PendingPod(d, n int) *Builder {
	b.pods = append(b.pods, podInit{dep: d, node: n, phase: model.Pending})
	return b
}

// AddEvent adds an event.
func (b *Builder) AddEvent(e model.Event) *Builder { b.U.Events = append(b.U.Events, e); return b }

// Build compiles the Universe and returns it with the initial State.
func (b *Builder) Build(monitors int) (*model.Universe, *model.State, error) {
	u := b.U
	u.Nodes = append([]model.Node(nil), b.U.Nodes...)
	b.alignScalar(&u)
	if b.Slots > 0 {
		u.PodSlots = b.Slots
	} else if u.PodSlots == 0 {
		u.PodSlots = len(b.pods) + 4
	}
	if err := u.Compile(); err != nil {
		return nil, nil, err
	}
	s := model.NewState(&u, monitors)
	for d, di := range b.deps {
		ds := &s.Deps[d]
		ds.Active = di.active
		ds.Replicas = int16(di.replicas)
		ds.Config = uint8(di.config)
		ds.HPA = uint8(di.hpa)
		ds.RS[0] = model.ReplicaSetState{Template: uint8(u.Configs[di.config].PodTemplate + 1), Replicas: int16(di.replicas)}
		if u.IsStatefulSet(d) || u.IsJob(d) {
			ds.RS[0].Replicas = 0 // a revision or a Job's template, not a ReplicaSet
		}
		if di.paused {
			u.SetPaused(s, d, true)
			u.SetLastAppliedPaused(s, d, true)
			if !di.rolledOut {
				ds.RS[0] = model.ReplicaSetState{}
			}
		}
	}
	ordinals := make([]int, len(b.deps))
	for i, p := range b.pods {
		if i >= len(s.Pods) {
			return nil, nil, fmt.Errorf("build: %d pods but %d slots", len(b.pods), len(s.Pods))
		}
		if di := b.deps[p.dep]; di.paused && !di.rolledOut {
			return nil, nil, fmt.Errorf("build: a pod of paused deployment %s, which has no ReplicaSet (rolled out: no)", u.Deployments[p.dep].Name)
		}
		tmpl := u.Configs[b.deps[p.dep].config].PodTemplate
		t := &u.Templates[tmpl]
		ps := model.PodState{Phase: p.phase, Owner: uint8(p.dep + 1), Template: uint8(tmpl)}
		ps.CPU, ps.Memory = t.StartUsage()
		if len(t.Pattern) > 0 {
			ps.CPU = int32(t.Pattern[0].CPU)
			ps.Pattern = 1
		}
		if p.hasCPU {
			ps.CPU = int32(p.cpu)
		}
		if p.node >= 0 {
			ps.Node = uint16(p.node + 1)
		}
		if u.IsStatefulSet(p.dep) {
			// A StatefulSet's pods take its ordinals in the order placed.
			ps.Ordinal = uint8(u.Configs[b.deps[p.dep].config].StatefulSet.OrdinalsStart + ordinals[p.dep] + 1)
			ordinals[p.dep]++
		}
		s.Pods[i] = ps
	}
	return &u, s, nil
}

// MustBuild is Build(0) that panics on error (tests only).
func (b *Builder) MustBuild() (*model.Universe, *model.State) {
	u, s, err := b.Build(0)
	if err != nil {
		panic(err)
	}
	return u, s
}

// alignScalar sets u's scalar resources from the nodes' and templates'
// (model.ScalarResourceNames); u.Templates is copied when it changes.
func (b *Builder) alignScalar(u *model.Universe) {
	names := model.ScalarResourceNames(b.templateScalar)
	if len(names) == 0 {
		return
	}
	u.ScalarResources = names
	u.Templates = append([]model.PodTemplate(nil), u.Templates...)
	for t := range u.Templates {
		var m map[string]int64
		if t < len(b.templateScalar) {
			m = b.templateScalar[t]
		}
		u.Templates[t].Scalar = model.ScalarVector(names, m)
	}
	for n := range u.Nodes {
		var m map[string]int64
		if n < len(b.nodeScalar) {
			m = b.nodeScalar[n]
		}
		u.Nodes[n].Scalar = model.ScalarVector(names, m)
		u.Nodes[n].ScalarListed = model.ScalarListed(names, m)
	}
}
