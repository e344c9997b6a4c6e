package scheduler

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/model/modeltest"
)

// TestScripts runs the data-driven scripts in testdata/*.txt. Commands:
//
//	node [name=N] [count=K] [cpu=C] [mem=M] [maxpods=P] [labels=k:v,...] [taints=k:v:Effect,...]
//	template name=T [cpu=C] [mem=M] [labels=k:v,...] [nodeselector=k:v,...]
//	         [spread=key:maxSkew:DoNotSchedule|ScheduleAnyway,...] [preferred=w:k:v,...]
//	         [tolerations=k:v:Effect,...]
//	deployment name=D template=T [replicas=R] [hpa=min:max:target]
//	run deployment=D node=N            (a Running pod; N is 1-based)
//	pending deployment=D [count=K]     (unbound Pending pods)
//	build [tiebreak=lowest|branch]     (compile; prints model.Describe)
//	queue pods=1,2,...                 (1-based pod slots into the scheduling queue)
//	notready node=N
//	explain pod=P
//	step                               (one scheduler step: every successor's trace and state)
//
// Regenerate with `go test ./controllers/scheduler -rewrite` and read the diff.
func TestScripts(t *testing.T) {
	modeltest.RunScripts(t, "testdata", func(t *testing.T, f string) {
		e := &scriptEnv{b: modeltest.New(), templates: map[string]int{}, deps: map[string]int{}}
		modeltest.RunScript(t, f, e.handle)
	})
}

type scriptEnv struct {
	b         *modeltest.Builder
	templates map[string]int
	deps      map[string]int
	u         *model.Universe
	s         *model.State
}

func (e *scriptEnv) handle(t *testing.T, c modeltest.Command) string {
	t.Helper()
	atoi := func(key, def string) int {
		v, err := strconv.Atoi(c.Arg(key, def))
		if err != nil {
			t.Fatalf("%s: %s=%q: %v", c.Pos, key, c.Arg(key, def), err)
		}
		return v
	}
	list := func(key string) [][]string {
		var out [][]string
		if v := c.Arg(key, ""); v != "" {
			for _, item := range strings.Split(v, ",") {
				out = append(out, strings.Split(item, ":"))
			}
		}
		return out
	}
	switch c.Name {
	case "node":
		nb := modeltest.Node().CPU(int64(atoi("cpu", "64"))).Mem(int64(atoi("mem", "64"))).MaxPods(atoi("maxpods", "0"))
		if name := c.Arg("name", ""); name != "" {
			nb.Name(name)
		}
		for _, kv := range list("labels") {
			nb.Label(kv[0], kv[1])
		}
		for _, kve := range list("taints") {
			nb.Taint(kve[0], kve[1], model.TaintEffect(kve[2]))
		}
		e.b.AddNodes(atoi("count", "1"), nb)
	case "template":
		tb := modeltest.Template(c.Arg("name", "")).Requests(int64(atoi("cpu", "0")), int64(atoi("mem", "0")))
		for _, kv := range list("labels") {
			tb.Label(kv[0], kv[1])
		}
		for _, kv := range list("nodeselector") {
			tb.NodeSelector(kv[0], kv[1])
		}
		for _, ks := range list("spread") {
			skew, _ := strconv.Atoi(ks[1])
			when := model.DoNotSchedule
			if ks[2] == "ScheduleAnyway" {
				when = model.ScheduleAnyway
			}
			tb.Spread(skew, ks[0], when)
		}
		for _, wkv := range list("preferred") {
			w, _ := strconv.Atoi(wkv[0])
			tb.Preferred(w, wkv[1], wkv[2])
		}
		for _, kve := range list("tolerations") {
			tb.Toleration(kve[0], kve[1], model.TaintEffect(kve[2]))
		}
		e.templates[c.Arg("name", "")] = e.b.AddTemplate(tb)
	case "deployment":
		tmpl, ok := e.templates[c.Arg("template", "")]
		if !ok {
			t.Fatalf("%s: unknown template", c.Pos)
		}
		d := e.b.AddDeployment(c.Arg("name", ""), tmpl, atoi("replicas", "1"))
		if h := list("hpa"); len(h) == 1 {
			lo, _ := strconv.Atoi(h[0][0])
			hi, _ := strconv.Atoi(h[0][1])
			target, _ := strconv.Atoi(h[0][2])
			e.b.WithHPA(d, e.b.AddHPA(lo, hi, int64(target)))
		}
		e.deps[c.Arg("name", "")] = d
	case "run":
		e.b.RunPod(e.dep(t, c), atoi("node", "0")-1)
	case "pending":
		for range atoi("count", "1") {
			e.b.PendingPod(e.dep(t, c), -1)
		}
	case "build":
		if c.Arg("tiebreak", "lowest") == "lowest" {
			e.b.U.Options.TieBreak = model.LowestIndex
		} else {
			e.b.U.Options.TieBreak = model.BranchOnTies
		}
		u, s, err := e.b.Build(0)
		if err != nil {
			return "error: " + err.Error()
		}
		e.u, e.s = u, s
		return model.Describe(u, s)
	case "queue":
		for _, p := range strings.Split(c.Arg("pods", ""), ",") {
			i, _ := strconv.Atoi(p)
			e.s.Enqueue(model.SchedulerQueue, i-1)
		}
	case "notready":
		e.s.Nodes[atoi("node", "0")-1].Status = model.NotReady
	case "explain":
		return Explain(e.u, e.s, atoi("pod", "0")-1)
	case "step":
		return e.step()
	default:
		t.Fatalf("%s: unknown command %q", c.Pos, c.Name)
	}
	return ""
}

func (e *scriptEnv) dep(t *testing.T, c modeltest.Command) int {
	d, ok := e.deps[c.Arg("deployment", "")]
	if !ok {
		t.Fatalf("%s: unknown deployment %q", c.Pos, c.Arg("deployment", ""))
	}
	return d
}

// step enumerates every successor of one scheduler step. With one
// successor it prints its trace and state and keeps it; with several it
// prints each under a header and keeps the first.
func (e *scriptEnv) step() string {
	var b strings.Builder
	tx := model.NewTx(e.u)
	var script []int
	var first *model.State
	var outs []string
	for {
		s := e.s.Clone()
		tx.Begin(script, true)
		New().Step(tx, s)
		var o strings.Builder
		if len(tx.Choices()) > 0 {
			fmt.Fprintf(&o, "successor choices=%v\n", tx.Choices())
		}
		for _, l := range tx.Lines {
			o.WriteString(l.String() + "\n")
		}
		o.WriteString(model.Describe(e.u, s))
		outs = append(outs, o.String())
		if first == nil {
			first = s
		}
		if !tx.Advance() {
			break
		}
		script = append(script[:0], tx.Choices()...)
	}
	b.WriteString(strings.Join(outs, ""))
	e.s = first
	return b.String()
}
