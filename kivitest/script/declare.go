package script

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kivi-go/kivi/kivitest/script/build"

	"github.com/kivi-go/kivi/events"
	"github.com/kivi-go/kivi/inputs/casefile"
	"github.com/kivi-go/kivi/model"
)

// node [name=N] [count=K] [cpu=64] [memory=64] [reserved-cpu=C]
// [reserved-memory=M] [max-pods=P] [labels=k=v,...] [taints=k=v:Effect,...]
// [scalar=resource=amount,...]
func (e *Env) node(c Command) (string, error) {
	nb := build.Node()
	for _, f := range []struct {
		key string
		def int
		set func(int)
	}{
		{"cpu", 64, func(v int) { nb.CPU(int64(v)) }},
		{"memory", 64, func(v int) { nb.Mem(int64(v)) }},
		{"max-pods", 0, func(v int) { nb.MaxPods(v) }},
	} {
		v, err := intArg(c, f.key, f.def)
		if err != nil {
			return "", err
		}
		f.set(v)
	}
	rcpu, err := intArg(c, "reserved-cpu", 0)
	if err != nil {
		return "", err
	}
	rmem, err := intArg(c, "reserved-memory", 0)
	if err != nil {
		return "", err
	}
	nb.Reserved(int64(rcpu), int64(rmem)).Name(c.Arg("name", ""))
	ls, err := labels("labels", c.Arg("labels", ""))
	if err != nil {
		return "", err
	}
	for _, kv := range ls {
		nb.Label(kv[0], kv[1])
	}
	ts, err := taints("taints", c.Arg("taints", ""))
	if err != nil {
		return "", err
	}
	for _, t := range ts {
		nb.Taint(t.Key, t.Value, t.Effect)
	}
	sc, err := scalarArg(c)
	if err != nil {
		return "", err
	}
	for _, kv := range sc {
		nb.Scalar(kv.name, kv.v)
	}
	ports, err := hostPortsArg(c, "reserved-host-ports")
	if err != nil {
		return "", err
	}
	nb.ReservedHostPorts(ports...)
	count, err := intArg(c, "count", 1)
	if err != nil {
		return "", err
	}
	e.b.AddNodes(count, nb)
	return "", nil
}

// template name=T [cpu=0] [memory=0] [scalar=resource=amount,...] [labels=k=v,...] [namespace=NS] [node-selector=k=v,...]
// [node-name=N] [tolerations=k=v:Effect|k:Effect|:Effect[@seconds],...] [spread=key:maxSkew:When[:matchLabelKey+…],...]
// [preferred=weight:k=v,...] [pattern=cpu@at,...] [critical] [guaranteed] [limit-memory=M] [host-ports=[PROTOCOL/][HOSTIP:]PORT,...]
func (e *Env) template(c Command) (string, error) {
	name := c.Arg("name", "")
	cpu, err := intArg(c, "cpu", 0)
	if err != nil {
		return "", err
	}
	mem, err := intArg(c, "memory", 0)
	if err != nil {
		return "", err
	}
	tb := build.Template(name).Requests(int64(cpu), int64(mem))
	limit, err := intArg(c, "limit-memory", 0)
	if err != nil {
		return "", err
	}
	tb.LimitMemory(int64(limit))
	sc, err := scalarArg(c)
	if err != nil {
		return "", err
	}
	for _, kv := range sc {
		tb.Scalar(kv.name, kv.v)
	}
	ports, err := hostPortsArg(c, "host-ports")
	if err != nil {
		return "", err
	}
	tb.HostPorts(ports...)
	ls, err := labels("labels", c.Arg("labels", ""))
	if err != nil {
		return "", err
	}
	for _, kv := range ls {
		tb.Label(kv[0], kv[1])
	}
	if ns := c.Arg("namespace", ""); ns != "" {
		tb.Namespace(ns)
	}
	if ls, err = labels("node-selector", c.Arg("node-selector", "")); err != nil {
		return "", err
	}
	for _, kv := range ls {
		tb.NodeSelector(kv[0], kv[1])
	}
	if n := c.Arg("node-name", ""); n != "" {
		i, err := e.nodeIndex(n)
		if err != nil {
			return "", err
		}
		tb.NodeName(i)
	}
	ts, err := tolerations(c.Arg("tolerations", ""))
	if err != nil {
		return "", err
	}
	for _, t := range ts {
		tb.TolerationWith(t)
	}
	if v := c.Arg("spread", ""); v != "" {
		for _, f := range strings.Split(v, ",") {
			parts := strings.Split(f, ":")
			if len(parts) != 3 && len(parts) != 4 {
				return "", fmt.Errorf("spread: %q is not topologyKey:maxSkew:whenUnsatisfiable[:matchLabelKey+…]", f)
			}
			skew, err := ints("spread", parts[1])
			if err != nil {
				return "", err
			}
			var when model.WhenUnsatisfiable
			switch parts[2] {
			case "DoNotSchedule":
				when = model.DoNotSchedule
			case "ScheduleAnyway":
				when = model.ScheduleAnyway
			default:
				return "", fmt.Errorf("spread: unknown whenUnsatisfiable %q", parts[2])
			}
			var keys []string
			if len(parts) == 4 {
				keys = strings.Split(parts[3], "+")
			}
			tb.SpreadMatching(skew[0], parts[0], when, keys...)
		}
	}
	if v := c.Arg("preferred", ""); v != "" {
		for _, f := range strings.Split(v, ",") {
			w, kv, ok := strings.Cut(f, ":")
			k, val, ok2 := strings.Cut(kv, "=")
			weight, err := ints("preferred", w)
			if !ok || !ok2 || err != nil {
				return "", fmt.Errorf("preferred: %q is not weight:key=value", f)
			}
			tb.Preferred(weight[0], k, val)
		}
	}
	if v := c.Arg("pattern", ""); v != "" {
		var pts []model.UsagePoint
		for _, f := range strings.Split(v, ",") {
			cpu, at, ok := strings.Cut(f, "@")
			n, err := ints("pattern", cpu+","+at)
			if !ok || err != nil {
				return "", fmt.Errorf("pattern: %q is not cpu@at", f)
			}
			pts = append(pts, model.UsagePoint{CPU: int64(n[0]), At: n[1]})
		}
		tb.Pattern(pts...)
	}
	if c.Has("critical") {
		tb.Critical()
	}
	if c.Has("guaranteed") {
		tb.Guaranteed()
	}
	if c.Has("readiness-probe") {
		tb.ReadinessProbe()
	}
	if v := c.Arg("min-ready-seconds", ""); v != "" {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil || n < 0 {
			return "", fmt.Errorf("min-ready-seconds: %q (accepted: an integer ≥ 0)", v)
		}
		tb.MinReadySeconds(int32(n))
	}
	if v := c.Arg("priority", ""); v != "" {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			return "", fmt.Errorf("priority: %q is not a 32-bit integer", v)
		}
		tb.Priority(int32(n))
	}
	switch v := c.Arg("preemption-policy", ""); v {
	case "", string(model.PreemptLowerPriority):
	case string(model.PreemptNever):
		tb.PreemptNever()
	default:
		return "", fmt.Errorf("preemption-policy: %q (accepted: PreemptLowerPriority, Never)", v)
	}
	if err := templateAffinityArgs(c, tb); err != nil {
		return "", err
	}
	e.templates[name] = e.b.AddTemplate(tb)
	return "", nil
}

func (e *Env) templateIndex(name string) (int, error) {
	t, ok := e.templates[name]
	if !ok {
		return 0, fmt.Errorf("unknown template %q", name)
	}
	return t, nil
}

// deployment name=D template=T [replicas=1] [strategy=RollingUpdate|Recreate]
// [max-surge=25%] [max-unavailable=25%] [hpa=min:max:targetCPUPercent] [inactive]
// [paused [rolled-out]]
func (e *Env) deployment(c Command) (string, error) {
	if _, err := e.workload(c, e.b.AddDeployment, func(cfg *model.DeploymentConfig, _ int) error { return strategy(c, cfg) }); err != nil {
		return "", err
	}
	switch {
	case c.Has("paused"):
		e.b.Paused(e.deployments[c.Arg("name", "")], c.Has("rolled-out"))
	case c.Has("rolled-out"):
		return "", fmt.Errorf("rolled-out: only with paused")
	}
	return "", nil
}

// workload declares a Deployment or StatefulSet (add) with c's name,
// template and replicas, lets configure set its configuration, then
// reads the hpa and inactive arguments both kinds take.
func (e *Env) workload(c Command, add func(name string, template, replicas int) int, configure func(cfg *model.DeploymentConfig, template int) error) (string, error) {
	name := c.Arg("name", "")
	t, err := e.templateIndex(c.Arg("template", ""))
	if err != nil {
		return "", err
	}
	replicas, err := intArg(c, "replicas", 1)
	if err != nil {
		return "", err
	}
	d := add(name, t, replicas)
	e.deployments[name] = d
	e.configs[name] = len(e.b.U.Configs) - 1
	if err := configure(e.b.Config(d), t); err != nil {
		return "", err
	}
	if v := c.Arg("hpa", ""); v != "" {
		n, err := ints("hpa", strings.ReplaceAll(v, ":", ","))
		if err != nil || len(n) != 3 {
			return "", fmt.Errorf("hpa: %q is not min:max:targetCPUPercent", v)
		}
		e.b.WithHPA(d, e.b.AddHPA(n[0], n[1], int64(n[2])))
	}
	if c.Has("inactive") {
		e.b.Inactive(d)
	}
	return "", nil
}

// config name=C template=T [strategy=...] [max-surge=...] [max-unavailable=...]
func (e *Env) config(c Command) (string, error) {
	t, err := e.templateIndex(c.Arg("template", ""))
	if err != nil {
		return "", err
	}
	cfg := model.DeploymentConfig{PodTemplate: t, MaxSurge: model.IntOrPercent{Value: 25, Percent: true},
		MaxUnavailable: model.IntOrPercent{Value: 25, Percent: true}}
	if c.Has("statefulset") {
		var err error
		if cfg, err = statefulSetConfig(c, t); err != nil {
			return "", err
		}
	} else if err := strategy(c, &cfg); err != nil {
		return "", err
	}
	e.b.U.Configs = append(e.b.U.Configs, cfg)
	e.configs[c.Arg("name", "")] = len(e.b.U.Configs) - 1
	return "", nil
}

func strategy(c Command, cfg *model.DeploymentConfig) error {
	switch s := c.Arg("strategy", "RollingUpdate"); s {
	case "RollingUpdate":
	case "Recreate":
		cfg.Strategy = model.Recreate
	default:
		return fmt.Errorf("unknown strategy %q (RollingUpdate, Recreate)", s)
	}
	for _, f := range []struct {
		key string
		to  *model.IntOrPercent
	}{{"max-surge", &cfg.MaxSurge}, {"max-unavailable", &cfg.MaxUnavailable}} {
		v := c.Arg(f.key, "")
		if v == "" {
			continue
		}
		p, percent := strings.CutSuffix(v, "%")
		n, err := ints(f.key, p)
		if err != nil {
			return err
		}
		*f.to = model.IntOrPercent{Value: n[0], Percent: percent}
	}
	return nil
}

func (e *Env) configIndex(name string) (int, error) {
	cfg, ok := e.configs[name]
	if !ok {
		return 0, fmt.Errorf("unknown config %q", name)
	}
	return cfg, nil
}

// deployment-template name=X config=C [hpa=-1] [replicas=R]
// [paused=true|false]: a manifest the apply and create events submit (HPA
// -1 keeps the deployment's HPA, 0 removes it, i attaches the i-th;
// without replicas the API server defaults them; without paused it
// leaves spec.paused out).
func (e *Env) deploymentTemplate(c Command) (string, error) {
	cfg, err := e.configIndex(c.Arg("config", ""))
	if err != nil {
		return "", err
	}
	h, err := intArg(c, "hpa", -1)
	if err != nil {
		return "", err
	}
	dt := model.DeploymentTemplate{Name: c.Arg("name", ""), Config: cfg, HPA: h}
	if c.Arg("replicas", "") != "" {
		r, err := intArg(c, "replicas", 0)
		if err != nil {
			return "", err
		}
		dt.Replicas = &r
	}
	switch p := c.Arg("paused", ""); p {
	case "":
	case "true", "false":
		paused := p == "true"
		dt.Paused = &paused
	default:
		return "", fmt.Errorf("paused: %q (true, false)", p)
	}
	e.dtemplates[dt.Name] = len(e.b.U.DeploymentTemplates)
	e.b.U.DeploymentTemplates = append(e.b.U.DeploymentTemplates, dt)
	return "", nil
}

var eventKinds = []model.EventKind{model.CPUChange, model.KernelPanic, model.Maintenance, model.NodeFailure,
	model.CreateTargetDeployment, model.ApplyDeployment, model.CreateDeployment, model.ScaleDeployment, model.Drain, model.MemoryChange, model.DeleteNode,
	model.RolloutPause, model.RolloutResume}

// event kind=K [slot=first|main|afterStable] [deployment=D] [node=N]
// [deployment-template=X] [parallel=P] [max-deployment=M] [max-delta=δ] [delta-unit=u]
// [nodes=N,…] [timeout-retries=R] [disable-eviction] [force] [uncordon]
// [order=written|any] [recovers=true|false] [out-of-service] [drain]: the kinds are Kivi's; absent references are the first
// deployment, node and deployment template. A drain takes nodes= (or
// node=, one node) and kubectl drain's options; eventCpuChange and
// eventMemoryChange take max-delta amounts delta-unit apart (memory: the
// default quarters of model.Universe.DefaultMemoryDelta without either); a
// nodeFailure takes recovers=false (the node is lost for good) and
// out-of-service (the operator's taint then). A deleteNode takes node=
// and drain (kubectl drain it first).
func (e *Env) event(c Command) (string, error) {
	var ev model.Event
	kind, ok := "", false
	for _, k := range eventKinds {
		if k.String() == c.Arg("kind", "") {
			ev.Kind, ok = k, true
		}
		kind += " " + k.String()
	}
	if !ok {
		return "", fmt.Errorf("unknown event kind %q (%s)", c.Arg("kind", ""), kind[1:])
	}
	switch s := c.Arg("slot", "main"); s {
	case "main":
		ev.Slot = model.Main
	case "first":
		ev.Slot = model.First
	case "afterStable":
		ev.Slot = model.AfterStable
	default:
		return "", fmt.Errorf("unknown slot %q (first, main, afterStable)", s)
	}
	var err error
	if d := c.Arg("deployment", ""); d != "" {
		if ev.Deployment, err = e.deploymentIndex(d); err != nil {
			return "", err
		}
	}
	if n := c.Arg("node", ""); n != "" {
		if ev.Node, err = e.nodeIndex(n); err != nil {
			return "", err
		}
	}
	if t := c.Arg("deployment-template", ""); t != "" {
		i, ok := e.dtemplates[t]
		if !ok {
			return "", fmt.Errorf("unknown deployment template %q", t)
		}
		ev.Template = i
	}
	for _, f := range []struct {
		key string
		to  *int
	}{{"parallel", &ev.Parallel}, {"max-deployment", &ev.MaxDeployment}, {"max-delta", &ev.MaxDelta}, {"delta-unit", &ev.DeltaUnit}} {
		if *f.to, err = intArg(c, f.key, 0); err != nil {
			return "", err
		}
	}
	if ev.Kind == model.Drain {
		if err := e.drainEvent(c, &ev); err != nil {
			return "", err
		}
	}
	switch o := c.Arg("order", "written"); o {
	case "written":
	case "any":
		ev.Order = model.AnyOrder
	default:
		return "", fmt.Errorf("unknown order %q (written, any)", o)
	}
	switch r := c.Arg("recovers", "true"); r {
	case "true", "false":
		ev.Permanent = r == "false"
	default:
		return "", fmt.Errorf("recovers=%q is not true or false", r)
	}
	ev.OutOfService = c.Has("out-of-service")
	if ev.Kind == model.DeleteNode {
		ev.DrainFirst = c.Has("drain")
	}
	e.b.AddEvent(ev)
	return "", nil
}

// drainEvent reads a drain's nodes and options.
func (e *Env) drainEvent(c Command, ev *model.Event) error {
	names := strings.Split(c.Arg("nodes", c.Arg("node", "")), ",")
	if names[0] == "" {
		return fmt.Errorf("a drain needs nodes=N,… or node=N")
	}
	for _, name := range names {
		n, err := e.nodeIndex(name)
		if err != nil {
			return err
		}
		ev.Nodes = append(ev.Nodes, n)
	}
	r, err := intArg(c, "timeout-retries", 0)
	if err != nil {
		return err
	}
	ev.Drain = model.DrainOptions{TimeoutRetries: r, DisableEviction: c.Has("disable-eviction"), Force: c.Has("force"), Uncordon: c.Has("uncordon")}
	return nil
}

// descheduler-profile name=P plugins=A,B [constraints=hard|soft|all]
// [node-fit=false] [topology-balance-node-fit=true] [evict-system-critical-pods=false]
func (e *Env) deschedulerProfile(c Command) (string, error) {
	p := model.DeschedulerProfile{Name: c.Arg("name", "default")}
	for _, f := range []struct {
		key, def string
		to       *bool
	}{{"node-fit", "false", &p.NodeFit}, {"topology-balance-node-fit", "true", &p.TopologyBalanceNodeFit},
		{"evict-system-critical-pods", "false", &p.EvictSystemCriticalPods}, {"evict-failed-bare-pods", "false", &p.EvictFailedBarePods}} {
		switch v := c.Arg(f.key, f.def); v {
		case "true", "false":
			*f.to = v == "true"
		default:
			return "", fmt.Errorf("%s=%q is not true or false", f.key, v)
		}
	}
	switch v := c.Arg("constraints", "hard"); v {
	case "hard":
	case "soft":
		p.Constraints = model.SoftConstraints
	case "all":
		p.Constraints = model.AllConstraints
	default:
		return "", fmt.Errorf("unknown constraints %q (hard, soft, all)", v)
	}
	if v := c.Arg("plugins", ""); v != "" {
		for _, name := range strings.Split(v, ",") {
			switch name {
			case "RemoveDuplicates":
				p.Balance = append(p.Balance, model.RemoveDuplicates)
			case "RemovePodsViolatingTopologySpreadConstraint":
				p.Balance = append(p.Balance, model.RemovePodsViolatingTopologySpreadConstraint)
			case "LowNodeUtilization":
				p.Balance = append(p.Balance, model.LowNodeUtilization)
			case "HighNodeUtilization":
				p.Balance = append(p.Balance, model.HighNodeUtilization)
			default:
				return "", fmt.Errorf("unknown plugin %q", name)
			}
		}
	}
	if err := nodeUtilizationArgs(c, &p); err != nil {
		return "", err
	}
	if err := deschedulePluginArgs(c, &p); err != nil {
		return "", err
	}
	e.deschedulerPolicy().Profiles = append(e.policy.Profiles, p)
	return "", nil
}

// descheduler-limits [per-node=N] [per-namespace=N] [total=N]: the
// policy's maxNoOfPodsToEvictPerNode, …PerNamespace, …Total; a limit left
// out is none, one given as 0 admits no eviction, as upstream's optional
// counts (model.Descheduler.EvictionLimitZero).
func (e *Env) deschedulerLimits(c Command) (string, error) {
	pol := e.deschedulerPolicy()
	for _, f := range []struct {
		key string
		to  *int
	}{{"per-node", &pol.MaxPerNode}, {"per-namespace", &pol.MaxPerNamespace}, {"total", &pol.MaxTotal}} {
		if c.Arg(f.key, "") == "" {
			continue
		}
		n, err := intArg(c, f.key, 0)
		if err != nil {
			return "", err
		}
		if n < 0 {
			return "", fmt.Errorf("%s=%d: negative (accepted: a count of 0 or more; 0 admits no eviction)", f.key, n)
		}
		*f.to = n
		pol.EvictionLimitZero = pol.EvictionLimitZero || n == 0
	}
	return "", nil
}

func (e *Env) deschedulerPolicy() *model.Descheduler {
	if e.policy == nil {
		e.policy = &model.Descheduler{}
	}
	return e.policy
}

// pod-slots count=N: the number of pod slots (default: the pods declared
// plus 4).
func (e *Env) podSlots(c Command) (string, error) {
	n, err := intArg(c, "count", 0)
	e.b.Slots = n
	return "", err
}

// build [tie-break=branch|lowest] [lifecycle=kubernetes|kivi] [verbose|quiet]
// [kernel-panic-assert] [merge-old-revisions]: compiles the declarations and
// prints the state (describe). lifecycle=kivi is
// model.Options.KiviLifecycle, merge-old-revisions
// model.Options.MergeOldRevisions. With a descheduler policy a
// descheduling request is pending.
func (e *Env) build(c Command) (string, error) {
	e.b.U.Options.MergeOldRevisions = c.Has("merge-old-revisions")
	switch lc := c.Arg("lifecycle", "kubernetes"); lc {
	case "kubernetes":
		e.b.U.Options.KiviLifecycle = false
	case "kivi":
		e.b.U.Options.KiviLifecycle = true
	default:
		return "", fmt.Errorf("unknown lifecycle %q (kubernetes, kivi)", lc)
	}
	switch tb := c.Arg("tie-break", "branch"); tb {
	case "branch":
		e.b.U.Options.TieBreak = model.BranchOnTies
	case "lowest":
		e.b.U.Options.TieBreak = model.LowestIndex
	default:
		return "", fmt.Errorf("unknown tie-break %q (branch, lowest)", tb)
	}
	e.b.U.Descheduler = e.policy
	u, s, err := e.b.Build(0)
	if err != nil {
		return "error: " + err.Error(), nil
	}
	s.DeschedulerPending = e.policy != nil
	var opts []events.Option
	if c.Has("kernel-panic-assert") {
		opts = append(opts, events.WithKernelPanicAssert(true))
	}
	e.start(u, s, opts...)
	e.verbose = c.Has("verbose")
	if c.Has("quiet") {
		return "", nil
	}
	return e.describe(s), nil
}

// load FILE [marshal]: replaces the cluster: builds the case file FILE (inputs/casefile,
// relative to the script) as the CLI does and prints the state; marshal
// first prints the file as casefile.Marshal writes it back, then "---".
func (e *Env) load(c Command) (string, error) {
	ops := c.Operands()
	var file string
	for _, o := range ops {
		if o != "marshal" {
			file = o
		}
	}
	if file == "" {
		return "", fmt.Errorf("load: which file?")
	}
	e.reset()
	cl, err := casefile.Load(filepath.Join(e.dir, file))
	if err != nil {
		return "error: " + err.Error(), nil
	}
	var out string
	if c.Has("marshal") {
		data, err := casefile.Marshal(cl)
		if err != nil {
			return "", err
		}
		out = string(data) + "---\n"
	}
	u, s, err := cl.Build()
	if err != nil {
		return "", err
	}
	e.start(u, s)
	return out + e.describe(s), nil
}

// scalarAmount is one resource=amount of a scalar argument.
type scalarAmount struct {
	name string
	v    int64
}

// scalarArg parses scalar=resource=amount,... (model/scalar.go: extended
// resources such as nvidia.com/gpu, ephemeral-storage, huge pages).
func scalarArg(c Command) ([]scalarAmount, error) {
	kvs, err := labels("scalar", c.Arg("scalar", ""))
	if err != nil {
		return nil, err
	}
	var out []scalarAmount
	for _, kv := range kvs {
		v, err := strconv.ParseInt(kv[1], 10, 64)
		if err != nil || v < 0 {
			return nil, fmt.Errorf("scalar: %s=%s is not resource=amount with a whole amount ≥ 0", kv[0], kv[1])
		}
		out = append(out, scalarAmount{kv[0], v})
	}
	return out, nil
}
