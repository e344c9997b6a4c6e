package script

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kivi-go/kivi/kivitest/script/build"

	"github.com/kivi-go/kivi/controllers/deployment"
	"github.com/kivi-go/kivi/controllers/descheduler"
	"github.com/kivi-go/kivi/controllers/hpa"
	"github.com/kivi-go/kivi/controllers/kubelet"
	"github.com/kivi-go/kivi/controllers/nodelifecycle"
	"github.com/kivi-go/kivi/controllers/podgc"
	"github.com/kivi-go/kivi/controllers/scheduler"
	"github.com/kivi-go/kivi/events"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/reduction/symmetry"
)

// Env is the cluster one script builds and drives: a Builder and the
// names its declarations gave, then (after build, load or case) the
// Universe, the current State and the processes that step it.
type Env struct {
	dir  string // the script's directory: load reads files relative to it
	user []namedProcess

	b           *build.Builder
	templates   map[string]int
	deployments map[string]int
	configs     map[string]int
	dtemplates  map[string]int
	policy      *model.Descheduler

	u       *model.Universe
	s       *model.State
	verbose bool
	procs   []namedProcess
	events  []model.Process // events.All, in its order (for enabled)
	canon   *symmetry.Canonicalizer
}

type namedProcess struct {
	name string
	p    model.Process
}

// Option configures an Env.
type Option func(*Env)

// WithProcess registers a process of the user's own (a custom
// controller's model) under name, for step, settle, successors and
// enabled, next to the built-in ones.
func WithProcess(name string, p model.Process) Option {
	return func(e *Env) { e.user = append(e.user, namedProcess{name, p}) }
}

// NewEnv returns an empty environment whose files (load) are relative to
// dir.
func NewEnv(dir string, opts ...Option) *Env {
	e := &Env{dir: dir}
	for _, o := range opts {
		o(e)
	}
	e.reset()
	return e
}

func (e *Env) reset() {
	*e = Env{dir: e.dir, user: e.user, b: build.New(), templates: map[string]int{}, deployments: map[string]int{},
		configs: map[string]int{}, dtemplates: map[string]int{}}
}

// Universe and State are the built cluster and its current state (nil
// before build, load or case).
func (e *Env) Universe() *model.Universe { return e.u }
func (e *Env) State() *model.State       { return e.s }

// ExecLine parses and runs one command line.
func (e *Env) ExecLine(line string) (string, error) { return e.Exec(Parse(line)) }

// Exec runs one command and returns its output.
func (e *Env) Exec(c Command) (string, error) {
	h, ok := handlers[c.Name]
	if !ok {
		return "", fmt.Errorf("unknown command %q", c.Name)
	}
	if err := h.check(c); err != nil {
		return "", err
	}
	switch {
	case h.phase == declaring && e.u != nil:
		return "", fmt.Errorf("%s declares the cluster: it comes before build", c.Name)
	case h.phase == running && e.u == nil:
		return "", fmt.Errorf("%s needs a cluster: build, load or case first", c.Name)
	}
	return h.run(e, c)
}

type phase int

const (
	anytime   phase = iota
	declaring       // before build
	running         // after build
)

// handler is one command: its arguments (keys of key=value, bare flags,
// how many operands) and its function.
type handler struct {
	phase    phase
	keys     []string
	flags    []string
	operands int // at most; -1: any number
	run      func(*Env, Command) (string, error)
}

func (h handler) check(c Command) error {
	n := 0
	for _, a := range c.Args {
		if k, _, ok := strings.Cut(a, "="); ok {
			if !slices.Contains(h.keys, k) {
				return fmt.Errorf("%s takes no argument %s= (arguments: %s)", c.Name, k, strings.Join(h.keys, "= ")+"=")
			}
			continue
		}
		if slices.Contains(h.flags, a) {
			continue
		}
		if n++; h.operands >= 0 && n > h.operands {
			return fmt.Errorf("%s: unexpected %q", c.Name, a)
		}
	}
	return nil
}

// handlers is the command vocabulary (doc.go lists it).
var handlers = map[string]handler{
	// Declarations.
	"node":                {declaring, []string{"name", "count", "cpu", "memory", "reserved-cpu", "reserved-memory", "max-pods", "labels", "taints", "scalar", "reserved-host-ports"}, nil, 0, (*Env).node},
	"template":            {declaring, []string{"name", "cpu", "memory", "scalar", "labels", "namespace", "node-selector", "node-name", "tolerations", "spread", "preferred", "pattern", "required", "anti-affinity", "priority", "preemption-policy", "min-ready-seconds", "limit-memory", "host-ports"}, []string{"critical", "readiness-probe", "guaranteed"}, 0, (*Env).template},
	"deployment":          {declaring, []string{"name", "template", "replicas", "strategy", "max-surge", "max-unavailable", "hpa"}, []string{"inactive", "paused", "rolled-out"}, 0, (*Env).deployment},
	"statefulset":         {declaring, []string{"name", "template", "replicas", "pod-management", "strategy", "partition", "max-unavailable", "ordinals-start", "hpa"}, []string{"inactive"}, 0, (*Env).statefulSet},
	"job":                 {declaring, []string{"name", "template", "parallelism", "completions", "backoff-limit"}, []string{"suspend", "inactive"}, 0, (*Env).job},
	"cronjob":             {declaring, []string{"name", "runs", "policy"}, []string{"suspend"}, 0, (*Env).cronJob},
	"config":              {declaring, []string{"name", "template", "strategy", "max-surge", "max-unavailable", "partition", "pod-management"}, []string{"statefulset"}, 0, (*Env).config},
	"deployment-template": {declaring, []string{"name", "config", "hpa", "replicas", "paused"}, nil, 0, (*Env).deploymentTemplate},
	"event": {declaring, []string{"kind", "slot", "deployment", "node", "deployment-template", "parallel", "max-deployment", "max-delta", "delta-unit", "nodes", "timeout-retries", "order", "recovers"},
		[]string{"disable-eviction", "force", "uncordon", "out-of-service", "drain"}, 0, (*Env).event},
	"descheduler-profile": {declaring, []string{"name", "plugins", "constraints", "node-fit", "topology-balance-node-fit", "evict-system-critical-pods",
		"low-thresholds", "low-targets", "low-deviation", "low-number-of-nodes", "low-node-limit", "high-thresholds", "high-number-of-nodes", "high-only-thresholding",
		"deschedule", "include-prefer-no-schedule", "excluded-taints", "included-taints", "node-affinity-type",
		"failed-reasons", "failed-exit-codes", "failed-exclude-owner-kinds", "failed-min-age", "lifetime-max-age", "lifetime-states",
		"lifetime-conditions", "lifetime-exit-codes", "lifetime-include-owner-kinds", "lifetime-exclude-owner-kinds", "evict-failed-bare-pods",
		"restarts-threshold", "restarts-including-init", "restarts-states"}, nil, 0, (*Env).deschedulerProfile},
	"descheduler-limits": {declaring, []string{"per-node", "per-namespace", "total"}, nil, 0, (*Env).deschedulerLimits},
	"pod-slots":          {declaring, []string{"count"}, nil, 0, (*Env).podSlots},
	"pdb":                {declaring, []string{"name", "selector", "min-available", "max-unavailable", "unhealthy-pod-eviction-policy"}, nil, 0, (*Env).pdb},
	"build":              {declaring, []string{"tie-break", "lifecycle"}, []string{"verbose", "quiet", "kernel-panic-assert", "merge-old-revisions"}, 0, (*Env).build},
	"load":               {anytime, nil, []string{"marshal"}, 1, (*Env).load},
	"case":               {anytime, []string{"scale"}, []string{"no-violation"}, 1, (*Env).builtinCase},
	"reset":              {anytime, nil, nil, 0, func(e *Env, _ Command) (string, error) { e.reset(); return "", nil }},
	"enumerate-setups":   {anytime, []string{"node-types", "deployments", "fast-find", "from", "to"}, nil, 0, enumerateSetups},
	// Declaration or change of the state.
	"pod": {anytime, []string{"deployment", "phase", "node", "cpu", "count"}, nil, 0, (*Env).pod},
	// Changes of the state.
	"set-pod":      {running, []string{"pod", "phase", "cpu", "memory", "replicaset", "nominated", "readiness", "restarts"}, []string{"was-running", "preempted"}, 0, (*Env).setPod},
	"node-status":  {running, []string{"node", "status"}, nil, 0, (*Env).nodeStatus},
	"enqueue":      {running, []string{"queue", "id"}, nil, 0, (*Env).enqueue},
	"clear-queue":  {running, []string{"queue"}, nil, 0, (*Env).clearQueue},
	"init-phase":   {running, []string{"phase"}, nil, 0, (*Env).initPhase},
	"apply":        {running, []string{"deployment", "config"}, nil, 0, (*Env).apply},
	"scale":        {running, []string{"deployment", "replicas"}, []string{"no-enqueue"}, 0, (*Env).scale},
	"descheduling": {running, nil, nil, 0, (*Env).descheduling},
	// Processes.
	"step":       {running, []string{"choices"}, nil, 1, (*Env).step},
	"successors": {running, []string{"pick"}, nil, 1, (*Env).successors},
	"settle":     {running, []string{"max"}, nil, -1, (*Env).settle},
	"enabled":    {running, nil, nil, 1, (*Env).enabled},
	// Views.
	"describe":   {running, nil, nil, 0, func(e *Env, _ Command) (string, error) { return e.describe(e.s), nil }},
	"explain":    {running, []string{"pod"}, nil, 1, (*Env).explain},
	"classes":    {running, nil, nil, 0, (*Env).classes},
	"permute":    {running, []string{"order"}, nil, 0, (*Env).permute},
	"canonical":  {running, nil, nil, 0, (*Env).canonical},
	"disruption": {running, nil, nil, 0, (*Env).disruption},
}

// start makes the built universe and state current: the init phase as
// the events need it, and the processes.
func (e *Env) start(u *model.Universe, s *model.State, opts ...events.Option) {
	e.u, e.s = u, s
	s.Init = events.InitialPhase(u)
	e.procs = []namedProcess{
		{"scheduler", scheduler.New()},
		{"descheduler", descheduler.New()},
		{"deployment", deployment.New()},
		{"kubelet", kubelet.New()},
		{"readiness", kubelet.NewReadiness()},
		{"evictionmanager", kubelet.NewEvictionManager()},
		{"nodecontroller", nodelifecycle.NewNodeController()},
		{"taintmanager", nodelifecycle.NewTaintManager()},
		{"hpa", hpa.New()},
		{"podgc", podgc.New()},
		{"first-fit", FirstFit{}},
	}
	e.events = events.All(u, opts...)
	// events.All: the init process, the CPU pattern process when some
	// template has a pattern, the Job pods' completions when some workload
	// is a Job, the CronJobs' schedule, then one process per event.
	e.procs = append(e.procs, namedProcess{"init", e.events[0]})
	first := len(e.events) - len(u.Events)
	k := 1
	if u.HasPatterns {
		e.procs = append(e.procs, namedProcess{"cpu-pattern", e.events[k]})
		k++
	}
	if u.HasJobs {
		e.procs = append(e.procs, namedProcess{"job-completion", e.events[k]})
		k++
	}
	if len(u.CronJobs) > 0 {
		e.procs = append(e.procs, namedProcess{"cronjob-schedule", e.events[k]})
	}
	for i := range u.Events {
		e.procs = append(e.procs, namedProcess{fmt.Sprintf("event-%d", i+1), e.events[first+i]})
	}
	for i := range u.Events {
		if ev := &u.Events[i]; ev.Kind == model.DeleteNode {
			e.procs = append(e.procs, namedProcess{"podgc-orphaned-" + u.Nodes[ev.Node].Name, podgc.NewOrphaned(u, ev.Node)})
		}
	}
	e.procs = append(e.procs, e.user...)
}

func (e *Env) process(name string) (model.Process, error) {
	for _, np := range e.procs {
		if np.name == name {
			return np.p, nil
		}
	}
	var names []string
	for _, np := range e.procs {
		names = append(names, np.name)
	}
	return nil, fmt.Errorf("unknown process %q (processes: %s)", name, strings.Join(names, " "))
}

// Argument parsing.

func intArg(c Command, key string, def int) (int, error) {
	v := c.Arg(key, "")
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q is not an integer", key, v)
	}
	return n, nil
}

// ints parses a comma-separated list of integers.
func ints(key, v string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not an integer", key, f)
		}
		out = append(out, n)
	}
	return out, nil
}

// labels parses k=v,k2=v2.
func labels(key, v string) ([][2]string, error) {
	var out [][2]string
	if v == "" {
		return nil, nil
	}
	for _, f := range strings.Split(v, ",") {
		k, val, ok := strings.Cut(f, "=")
		if !ok {
			return nil, fmt.Errorf("%s: %q is not key=value", key, f)
		}
		out = append(out, [2]string{k, val})
	}
	return out, nil
}

// taints parses key=value:Effect,... as kubectl taint writes them.
func taints(key, v string) ([]model.Taint, error) {
	var out []model.Taint
	if v == "" {
		return nil, nil
	}
	for _, f := range strings.Split(v, ",") {
		kv, eff, ok := strings.Cut(f, ":")
		if !ok {
			return nil, fmt.Errorf("%s: %q is not key=value:Effect", key, f)
		}
		k, val, _ := strings.Cut(kv, "=")
		switch e := model.TaintEffect(eff); e {
		case model.NoSchedule, model.PreferNoSchedule, model.NoExecute:
			out = append(out, model.Taint{Key: k, Value: val, Effect: e})
		default:
			return nil, fmt.Errorf("%s: unknown effect %q", key, eff)
		}
	}
	return out, nil
}

// tolerations reads tolerations=...: key=value:Effect (operator Equal),
// key:Effect (Exists), :Effect (Exists with an empty key: every taint of
// the effect), each with an optional @seconds (tolerationSeconds).
func tolerations(v string) ([]model.Toleration, error) {
	var out []model.Toleration
	if v == "" {
		return nil, nil
	}
	for _, f := range strings.Split(v, ",") {
		spec, secs, timed := strings.Cut(f, "@")
		kv, eff, ok := strings.Cut(spec, ":")
		if !ok {
			return nil, fmt.Errorf("tolerations: %q is not key=value:Effect, key:Effect or :Effect, with an optional @seconds", f)
		}
		t := model.Toleration{Effect: model.TaintEffect(eff), Operator: "Exists"}
		if k, val, equal := strings.Cut(kv, "="); equal {
			t.Key, t.Value, t.Operator = k, val, ""
		} else {
			t.Key = kv
		}
		switch t.Effect {
		case model.NoSchedule, model.PreferNoSchedule, model.NoExecute:
		default:
			return nil, fmt.Errorf("tolerations: unknown effect %q (NoSchedule, PreferNoSchedule, NoExecute)", eff)
		}
		if timed {
			n, err := strconv.ParseInt(secs, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("tolerations: %q: seconds %q is not an integer", f, secs)
			}
			t.TolerationSeconds = &n
		}
		out = append(out, t)
	}
	return out, nil
}

// nodeIndex resolves a node by name, in the builder before build and in
// the universe after.
func (e *Env) nodeIndex(name string) (int, error) {
	nodes := e.b.U.Nodes
	if e.u != nil {
		nodes = e.u.Nodes
	}
	for i := range nodes {
		if nodes[i].Name == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown node %q", name)
}

func (e *Env) deploymentIndex(name string) (int, error) {
	if e.u != nil {
		for d := range e.u.Deployments {
			if e.u.Deployments[d].Name == name {
				return d, nil
			}
		}
	} else if d, ok := e.deployments[name]; ok {
		return d, nil
	}
	return 0, fmt.Errorf("unknown deployment %q", name)
}

// podIndex resolves pod=P, the 1-based slot model.Describe prints.
func (e *Env) podIndex(c Command) (int, error) {
	p, err := intArg(c, "pod", 0)
	if err != nil {
		return 0, err
	}
	if p < 1 || p > len(e.s.Pods) {
		return 0, fmt.Errorf("pod=%d: pods are 1..%d", p, len(e.s.Pods))
	}
	return p - 1, nil
}

func queueArg(c Command) (model.Queue, error) {
	name := c.Arg("queue", "")
	for q := model.Queue(0); q < model.NumQueues; q++ {
		if q.String() == name {
			return q, nil
		}
	}
	return 0, fmt.Errorf("unknown queue %q", name)
}

func phaseArg(c Command, def model.Phase) (model.Phase, error) {
	name := c.Arg("phase", "")
	if name == "" {
		return def, nil
	}
	for _, ph := range []model.Phase{model.Free, model.Pending, model.Running, model.Terminating, model.Failed} {
		if ph.String() == name {
			return ph, nil
		}
	}
	return 0, fmt.Errorf("unknown phase %q (Free, Pending, Running, Terminating, Failed)", name)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
