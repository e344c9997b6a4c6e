package scripttest

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/inputs/casefile"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/model/modeltest"
)

// Run runs the golden script at path.
func Run(t *testing.T, path string) {
	r := &runner{b: modeltest.New(), templates: map[string]int{}, deps: map[string]int{}, configs: map[string]int{},
		procs: Processes(), dir: filepath.Dir(path)}
	modeltest.RunScript(t, path, func(t *testing.T, c modeltest.Command) string {
		out, err := r.do(c)
		if err != nil {
			t.Fatalf("%s: %s: %v", c.Pos, c.Name, err)
		}
		return out
	})
}

type runner struct {
	b         *modeltest.Builder
	u         *model.Universe
	s         *model.State
	templates map[string]int
	deps      map[string]int
	configs   map[string]int
	procs     map[string]model.Process
	dir       string // the script's directory, for load
}

func (r *runner) do(c modeltest.Command) (string, error) {
	if r.u == nil {
		return r.declare(c)
	}
	return r.act(c)
}

// declare handles the commands that build the universe.
func (r *runner) declare(c modeltest.Command) (string, error) {
	b := r.b
	switch c.Name {
	case "nodes":
		nb := modeltest.Node().CPU(argInt(c, "cpu", 64)).Mem(argInt(c, "mem", 64))
		if tt := c.Arg("taint", ""); tt != "" {
			k, v, e := parseTaint(tt)
			nb.Taint(k, v, e)
		}
		if l := c.Arg("label", ""); l != "" {
			k, v, _ := strings.Cut(l, "=")
			nb.Label(k, v)
		}
		b.AddNodes(int(argInt(c, "count", 1)), nb)
	case "template":
		tb := modeltest.Template(c.Arg("name", "")).Requests(argInt(c, "cpu", 0), argInt(c, "mem", 0))
		if n := argInt(c, "nodename", 0); n > 0 {
			tb.NodeName(int(n) - 1)
		}
		if tt := c.Arg("tolerate", ""); tt != "" {
			tb.TolerationWith(parseToleration(tt, c.Arg("tolerate-seconds", "")))
		}
		if tt := c.Arg("tolerate2", ""); tt != "" {
			tb.TolerationWith(parseToleration(tt, c.Arg("tolerate2-seconds", "")))
		}
		if p := c.Arg("pattern", ""); p != "" {
			var pts []model.UsagePoint
			for _, e := range strings.Split(p, ",") {
				cpu, at, _ := strings.Cut(e, "@")
				pts = append(pts, model.UsagePoint{CPU: atoi(cpu), At: int(atoi(at))})
			}
			tb.Pattern(pts...)
		}
		r.templates[c.Arg("name", "")] = b.AddTemplate(tb)
	case "deployment":
		tmpl, ok := r.templates[c.Arg("template", "")]
		if !ok {
			return "", fmt.Errorf("unknown template %q", c.Arg("template", ""))
		}
		d := b.AddDeployment(c.Arg("name", ""), tmpl, int(argInt(c, "replicas", 1)))
		r.deps[c.Arg("name", "")] = d
		cfg := &b.U.Configs[len(b.U.Configs)-1]
		setStrategy(c, cfg)
		if h := c.Arg("hpa", ""); h != "" {
			parts := strings.Split(h, ",")
			if len(parts) != 3 {
				return "", fmt.Errorf("hpa=min,max,target")
			}
			id := b.AddHPA(int(atoi(parts[0])), int(atoi(parts[1])), atoi(parts[2]))
			m := &b.U.HPAs[id-1].Metrics[0]
			if c.Arg("avg", "") == "true" {
				m.Target = model.AverageValue
			}
			if c.Arg("mem", "") == "true" {
				m.Resource = model.Memory
			}
			b.U.HPAs[id-1].TolerancePercent = int(argInt(c, "tol", 0))
			b.WithHPA(d, id)
		}
		if hasFlag(c, "inactive") {
			b.Inactive(d)
		}
	case "config":
		tmpl, ok := r.templates[c.Arg("template", "")]
		if !ok {
			return "", fmt.Errorf("unknown template %q", c.Arg("template", ""))
		}
		cfg := model.DeploymentConfig{PodTemplate: tmpl, MaxSurge: model.IntOrPercent{Value: 25, Percent: true},
			MaxUnavailable: model.IntOrPercent{Value: 25, Percent: true}}
		setStrategy(c, &cfg)
		b.U.Configs = append(b.U.Configs, cfg)
		r.configs[c.Arg("name", "")] = len(b.U.Configs) - 1
	case "run":
		d, n := r.deps[c.Arg("dep", "")], int(argInt(c, "node", 1))-1
		if v := c.Arg("cpu", ""); v != "" {
			b.RunPodCPU(d, n, atoi(v))
		} else {
			b.RunPod(d, n)
		}
	case "pending":
		b.PendingPod(r.deps[c.Arg("dep", "")], int(argInt(c, "node", 0))-1)
	case "slots":
		b.Slots = int(argInt(c, "n", 0))
	case "kivi-lifecycle":
		// model.Options.KiviLifecycle: Kivi's pod lifecycle.
		b.U.Options.KiviLifecycle = true
	case "build":
		u, s, err := b.Build(0)
		if err != nil {
			return "", err
		}
		r.u, r.s = u, s
		s.Init = model.InitMain
		return model.Describe(u, s), nil
	case "load":
		// A case file next to the script (inputs/casefile), built like
		// the CLI builds it: the script then also checks that the case
		// file's fields reach the controllers.
		cl, err := casefile.Load(filepath.Join(r.dir, c.Arg("file", "")))
		if err != nil {
			return "", err
		}
		if r.u, r.s, err = cl.Build(); err != nil {
			return "", err
		}
		r.s.Init = model.InitMain
		return model.Describe(r.u, r.s), nil
	default:
		return "", fmt.Errorf("unknown command before build")
	}
	return "", nil
}

// act handles the commands on a built cluster.
func (r *runner) act(c modeltest.Command) (string, error) {
	u, s := r.u, r.s
	switch c.Name {
	case "terminate":
		p := &s.Pods[argInt(c, "pod", 0)-1]
		p.Phase, p.WasRunning = model.Terminating, hasFlag(c, "was-running")
	case "node":
		st := map[string]model.NodeStatus{"NotReady": model.NotReady, "Ready": model.Ready, "Unhealthy": model.Unhealthy}
		s.Nodes[argInt(c, "n", 0)-1].Status = st[c.Arg("status", "")]
	case "add-pod":
		d := r.deps[c.Arg("dep", "")]
		j := model.FreeSlot(s)
		if j < 0 {
			return "", fmt.Errorf("no free slot")
		}
		ds := &s.Deps[d]
		tmpl := int(ds.RS[ds.Cur].Template) - 1
		t := &u.Templates[tmpl]
		p := model.PodState{Phase: model.Pending, Owner: uint8(d + 1), RS: ds.Cur, Template: uint8(tmpl),
			CPU: int32(t.CPU), Memory: int32(t.Memory), Node: uint8(argInt(c, "node", 0))}
		if c.Arg("phase", "") == "running" {
			p.Phase = model.Running
		}
		s.Pods[j] = p
	case "cpu":
		if c.Arg("pods", "") == "" {
			s.Pods[argInt(c, "pod", 0)-1].CPU = int32(argInt(c, "value", 0))
			break
		}
		// pods=1,2,…: as a CPU event does, also queue the owners for
		// the HPA.
		for _, f := range strings.Split(c.Arg("pods", ""), ",") {
			p, err := strconv.Atoi(f)
			if err != nil || p < 1 || p > len(s.Pods) {
				return "", fmt.Errorf("pods: %q is not a pod", f)
			}
			s.Pods[p-1].CPU = int32(argInt(c, "value", 0))
			if o := s.Pods[p-1].Owner; o != 0 {
				s.Enqueue(model.HPAQueue, int(o)-1)
			}
		}
	case "apply":
		d := r.deps[c.Arg("dep", "")]
		cfg, ok := r.configs[c.Arg("config", "")]
		if !ok {
			return "", fmt.Errorf("unknown config %q", c.Arg("config", ""))
		}
		s.Deps[d].Config = uint8(cfg)
		s.Enqueue(model.DeploymentQueue, d)
	case "scale":
		d := r.deps[c.Arg("dep", "")]
		s.Deps[d].Replicas = int16(argInt(c, "replicas", 0))
		s.Enqueue(model.DeploymentQueue, d)
	case "enqueue":
		qs := map[string]model.Queue{}
		for q := model.Queue(0); q < model.NumQueues; q++ {
			qs[q.String()] = q
		}
		q, ok := qs[c.Arg("q", "")]
		if !ok {
			return "", fmt.Errorf("unknown queue %q", c.Arg("q", ""))
		}
		s.Enqueue(q, int(argInt(c, "id", 0)))
	case "step":
		p, ok := r.procs[c.Arg("proc", "")]
		if !ok {
			return "", fmt.Errorf("unknown process %q", c.Arg("proc", ""))
		}
		if !p.Enabled(u, s) {
			return "(not enabled)\n" + model.Describe(u, s), nil
		}
		tx := model.NewTx(u)
		tx.Begin(choices(c), true)
		p.Step(tx, s)
		return lines(tx) + model.Describe(u, s), nil
	case "settle":
		var order []model.Process
		for _, name := range strings.Split(c.Arg("procs", ""), ",") {
			p, ok := r.procs[name]
			if !ok {
				return "", fmt.Errorf("unknown process %q", name)
			}
			order = append(order, p)
		}
		var out strings.Builder
		steps, limit := 0, int(argInt(c, "max", 100))
		for ; steps < limit; steps++ {
			p := firstEnabled(u, s, order)
			if p == nil {
				break
			}
			tx := model.NewTx(u)
			tx.Begin(nil, true)
			p.Step(tx, s)
			out.WriteString(lines(tx))
		}
		fmt.Fprintf(&out, "(%d steps)\n", steps)
		return out.String() + model.Describe(u, s), nil
	case "describe":
		return model.Describe(u, s), nil
	default:
		return "", fmt.Errorf("unknown command after build")
	}
	return "", nil
}

func firstEnabled(u *model.Universe, s *model.State, order []model.Process) model.Process {
	for _, p := range order {
		if p.Enabled(u, s) {
			return p
		}
	}
	return nil
}

// lines renders a step's lines with pods by slot ("pod#3"), as the
// state dumps of the scripts (model.Describe) show them.
func lines(tx *model.Tx) string {
	var b strings.Builder
	for _, l := range tx.Lines {
		b.WriteString(l.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func setStrategy(c modeltest.Command, cfg *model.DeploymentConfig) {
	if c.Arg("strategy", "") == "recreate" {
		cfg.Strategy = model.Recreate
	}
	if v := c.Arg("surge", ""); v != "" {
		cfg.MaxSurge = intOrPercent(v)
	}
	if v := c.Arg("unavailable", ""); v != "" {
		cfg.MaxUnavailable = intOrPercent(v)
	}
}

func intOrPercent(v string) model.IntOrPercent {
	if p, ok := strings.CutSuffix(v, "%"); ok {
		return model.IntOrPercent{Value: int(atoi(p)), Percent: true}
	}
	return model.IntOrPercent{Value: int(atoi(v))}
}

// parseToleration reads key=value:Effect (Equal) or key:Effect (Exists;
// an empty key tolerates every taint of the effect, or every taint with
// no effect either), with optional tolerationSeconds.
func parseToleration(s, seconds string) model.Toleration {
	k, v, e := parseTaint(s)
	t := model.Toleration{Key: k, Value: v, Effect: e}
	if !strings.Contains(s, "=") {
		t.Operator = "Exists"
	}
	if seconds != "" {
		sec := atoi(seconds)
		t.TolerationSeconds = &sec
	}
	return t
}

// choices reads a step's choices=1,0,… (model.Tx.Choose's answers in
// order; 0 for any choice not given).
func choices(c modeltest.Command) []int {
	var out []int
	if v := c.Arg("choices", ""); v != "" {
		for _, f := range strings.Split(v, ",") {
			out = append(out, int(atoi(f)))
		}
	}
	return out
}

func parseTaint(s string) (k, v string, e model.TaintEffect) {
	kv, eff, _ := strings.Cut(s, ":")
	k, v, _ = strings.Cut(kv, "=")
	return k, v, model.TaintEffect(eff)
}

func hasFlag(c modeltest.Command, name string) bool {
	for _, a := range c.Args {
		if a == name {
			return true
		}
	}
	return false
}

func argInt(c modeltest.Command, key string, def int64) int64 {
	v := c.Arg(key, "")
	if v == "" {
		return def
	}
	return atoi(v)
}

func atoi(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		panic(fmt.Sprintf("scripttest: %q is not an integer", s))
	}
	return n
}
