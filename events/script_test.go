package events

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/model/modeltest"
)

// TestScripts runs the golden scripts of testdata/. Each builds a small
// cluster with modeltest, then fires event processes and prints every
// successor's choices and trace lines, and the state it continues from.
// Regenerate with `go test ./events -rewrite` and read the diff.
func TestScripts(t *testing.T) {
	modeltest.RunScripts(t, "testdata", func(t *testing.T, f string) {
		h := &harness{b: modeltest.New(), tmpl: map[string]int{}, dep: map[string]int{}}
		modeltest.RunScript(t, f, h.run)
	})
}

// harness holds one script's cluster: the builder until `build`, then the
// universe, the current state and the processes.
type harness struct {
	b     *modeltest.Builder
	tmpl  map[string]int
	dep   map[string]int
	dtpl  []model.DeploymentTemplate
	u     *model.Universe
	s     *model.State
	procs []model.Process
}

func (h *harness) run(t *testing.T, c modeltest.Command) string {
	t.Helper()
	out, err := h.exec(c)
	if err != nil {
		t.Fatalf("%s: %v", c.Pos, err)
	}
	return out
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}

func has(c modeltest.Command, flag string) bool {
	for _, a := range c.Args {
		if a == flag {
			return true
		}
	}
	return false
}

func (h *harness) exec(c modeltest.Command) (string, error) {
	switch c.Name {
	case "reset":
		*h = harness{b: modeltest.New(), tmpl: map[string]int{}, dep: map[string]int{}}
	case "nodes":
		nb := modeltest.Node().CPU(int64(atoi(c.Arg("cpu", "64"))))
		nb.Reserved(int64(atoi(c.Arg("reserved", "0"))), 0)
		h.b.AddNodes(atoi(c.Arg("count", "1")), nb)
	case "template":
		tb := modeltest.Template(c.Arg("name", "")).Requests(int64(atoi(c.Arg("cpu", "0"))), int64(atoi(c.Arg("mem", "0"))))
		if p := c.Arg("pattern", ""); p != "" {
			var pts []model.UsagePoint
			for _, v := range strings.Split(p, ",") {
				pts = append(pts, model.UsagePoint{CPU: int64(atoi(v))})
			}
			tb.Pattern(pts...)
		}
		h.tmpl[c.Arg("name", "")] = h.b.AddTemplate(tb)
	case "deployment":
		name := c.Arg("name", "")
		d := h.b.AddDeployment(name, h.tmpl[c.Arg("template", "")], atoi(c.Arg("replicas", "0")))
		h.dep[name] = d
		if has(c, "inactive") {
			h.b.Inactive(d)
		}
		if hpa := c.Arg("hpa", ""); hpa != "" {
			f := strings.Split(hpa, ":")
			h.b.WithHPA(d, h.b.AddHPA(atoi(f[0]), atoi(f[1]), int64(atoi(f[2]))))
		}
	case "run", "pending":
		d, n := h.dep[c.Arg("dep", "")], atoi(c.Arg("node", "0"))-1
		switch {
		case c.Name == "pending":
			h.b.PendingPod(d, n)
		case c.Arg("cpu", "") != "":
			h.b.RunPodCPU(d, n, int64(atoi(c.Arg("cpu", ""))))
		default:
			h.b.RunPod(d, n)
		}
	case "dtemplate":
		dt := model.DeploymentTemplate{Name: c.Arg("name", ""), Config: h.dep[c.Arg("config", "")], HPA: atoi(c.Arg("hpa", "-1"))}
		if r := c.Arg("replicas", "none"); r != "none" {
			v := atoi(r)
			dt.Replicas = &v
		}
		h.dtpl = append(h.dtpl, dt)
	case "event":
		h.b.AddEvent(h.event(c))
	case "build":
		h.b.U.DeploymentTemplates = h.dtpl
		if s := c.Arg("slots", ""); s != "" {
			h.b.Slots = atoi(s)
		}
		u, s, err := h.b.Build(0)
		if err != nil {
			return "", err
		}
		h.u, h.s = u, s
		s.Init = InitialPhase(u)
		var opts []Option
		if has(c, "assert") {
			opts = append(opts, WithKernelPanicAssert(true))
		}
		h.procs = All(u, opts...)
		return h.describe(h.s), nil
	case "set":
		return "", h.set(c)
	case "enabled":
		return h.enabled(), nil
	case "step":
		return h.step(c)
	case "state":
		return h.describe(h.s), nil
	default:
		return "", fmt.Errorf("unknown command %q", c.Name)
	}
	return "", nil
}

var kinds = map[string]model.EventKind{
	"cpuChange": model.CPUChange, "kernelPanic": model.KernelPanic, "maintenance": model.Maintenance,
	"nodeFailure": model.NodeFailure, "createTarget": model.CreateTargetDeployment,
	"apply": model.ApplyDeployment, "create": model.CreateDeployment, "scale": model.ScaleDeployment,
}

var slots = map[string]model.EventSlot{"main": model.Main, "first": model.First, "afterStable": model.AfterStable}

func (h *harness) event(c modeltest.Command) model.Event {
	e := model.Event{Kind: kinds[c.Arg("kind", "")], Slot: slots[c.Arg("slot", "main")]}
	e.Deployment = h.dep[c.Arg("dep", "")]
	e.Node = atoi(c.Arg("node", "1")) - 1
	e.Template = atoi(c.Arg("template", "1")) - 1
	e.Parallel = atoi(c.Arg("parallel", "0"))
	e.MaxDeployment = atoi(c.Arg("maxDep", "0"))
	e.MaxDelta = atoi(c.Arg("maxDelta", "0"))
	return e
}

var (
	phases   = map[string]model.Phase{"free": model.Free, "pending": model.Pending, "running": model.Running, "terminating": model.Terminating}
	statuses = map[string]model.NodeStatus{"NotReady": model.NotReady, "Ready": model.Ready, "Unhealthy": model.Unhealthy}
	queues   = map[string]model.Queue{"scheduler": model.SchedulerQueue, "kubelet": model.KubeletQueue, "deployment": model.DeploymentQueue,
		"hpa": model.HPAQueue, "nodecontroller": model.NodeControllerQueue, "taintmanager": model.TaintManagerQueue}
	inits = map[string]uint8{"first": model.InitFirst, "main": model.InitMain, "stable": model.InitStable}
)

// set edits the current state: set pod=1 phase=terminating wasrunning
// cpu=9 rs=1 | set node=1 status=NotReady | set init=stable |
// set enqueue=hpa:0 | set clear=nodecontroller | set deployment=web replicas=4.
func (h *harness) set(c modeltest.Command) error {
	s := h.s
	if v := c.Arg("pod", ""); v != "" {
		p := &s.Pods[atoi(v)-1]
		if ph := c.Arg("phase", ""); ph != "" {
			p.Phase = phases[ph]
		}
		p.WasRunning = has(c, "wasrunning") || p.WasRunning
		if cpu := c.Arg("cpu", ""); cpu != "" {
			p.CPU = int32(atoi(cpu))
		}
		if rs := c.Arg("rs", ""); rs != "" {
			p.RS = uint8(atoi(rs))
		}
	}
	if v := c.Arg("node", ""); v != "" {
		s.Nodes[atoi(v)-1].Status = statuses[c.Arg("status", "Ready")]
	}
	if v := c.Arg("init", ""); v != "" {
		s.Init = inits[v]
	}
	if v := c.Arg("enqueue", ""); v != "" {
		q, id, _ := strings.Cut(v, ":")
		s.Enqueue(queues[q], atoi(id))
	}
	if v := c.Arg("clear", ""); v != "" {
		s.Queues[queues[v]] = nil
	}
	if v := c.Arg("deployment", ""); v != "" {
		s.Deps[h.dep[v]].Replicas = int16(atoi(c.Arg("replicas", "0")))
	}
	return nil
}

// describe is model.Describe plus what it leaves out and events read: the
// init phase and the event memory.
func (h *harness) describe(s *model.State) string {
	var b strings.Builder
	b.WriteString(model.Describe(h.u, s))
	for d := range s.Deps {
		ds := &s.Deps[d]
		if ds.Active {
			fmt.Fprintf(&b, "deployment %s: config %d cur %d rs %v\n", h.u.Deployments[d].Name, ds.Config, ds.Cur, ds.RS)
		}
	}
	fmt.Fprintf(&b, "init: %s\n", []string{"first", "main", "stable"}[s.Init])
	for i, e := range h.u.Events {
		fmt.Fprintf(&b, "event %d %s: %v\n", i+1, e.Kind, vars(h.u, s, i))
	}
	return b.String()
}

// enabled lists every process with its guard and, for end checkers,
// whether resting here is a valid end.
func (h *harness) enabled() string {
	var b strings.Builder
	for i, p := range h.procs {
		fmt.Fprintf(&b, "%d %s: enabled=%t", i, p.Name(), p.Enabled(h.u, h.s))
		if ec, ok := p.(model.EndChecker); ok {
			fmt.Fprintf(&b, " validEnd=%t", ec.ValidEnd(h.u, h.s))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// step fires process number p of All (which must be enabled), prints
// every successor's choices and trace lines, and continues from successor
// pick (default 0), whose state it prints.
func (h *harness) step(c modeltest.Command) (string, error) {
	p := h.procs[atoi(c.Arg("p", "0"))]
	if !p.Enabled(h.u, h.s) {
		return "", fmt.Errorf("%s is not enabled", p.Name())
	}
	succ := successors(h.u, h.s, p)
	var b strings.Builder
	for i, sc := range succ {
		fmt.Fprintf(&b, "successor %d choices %v\n", i, sc.choices)
		for _, l := range sc.lines {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	pick := atoi(c.Arg("pick", "0"))
	h.s = succ[pick].state
	fmt.Fprintf(&b, "continue with successor %d:\n", pick)
	b.WriteString(h.describe(h.s))
	return b.String(), nil
}
