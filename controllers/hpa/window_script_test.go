package hpa_test

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/controllers/internal/scripttest"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/model/casefile"
	"github.com/kivi-go/kivi/model/modeltest"
)

// TestWindowScripts runs the golden scripts of testdata/window (go test
// ./controllers/hpa/... -rewrite regenerates them). Their clusters are
// case files, so the scripts also check that the case-file field reaches
// the controller:
//
//	load file=F.yaml                   builds testdata/window/F.yaml; prints model.Describe
//	cpu pods=1,2 value=V               sets the pods' CPU usage and queues their
//	                                   deployments for the HPA, as a CPU event does
//	enqueue q=hpa id=D
//	step proc=NAME                     one step, if enabled (processes of scripttest)
//	settle procs=a,b,c [max=N]         the first enabled process of the list, until none is
func TestWindowScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/window/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := &windowRunner{procs: scripttest.Processes()}
			modeltest.RunScript(t, f, func(t *testing.T, c modeltest.Command) string {
				out, err := r.do(c)
				if err != nil {
					t.Fatalf("%s: %s: %v", c.Pos, c.Name, err)
				}
				return out
			})
		})
	}
}

type windowRunner struct {
	u     *model.Universe
	s     *model.State
	procs map[string]model.Process
}

func (r *windowRunner) do(c modeltest.Command) (string, error) {
	if c.Name == "load" {
		cl, err := casefile.Load(filepath.Join("testdata/window", c.Arg("file", "")))
		if err != nil {
			return "", err
		}
		if r.u, r.s, err = cl.Build(); err != nil {
			return "", err
		}
		r.s.Init = model.InitMain
		return model.Describe(r.u, r.s), nil
	}
	if r.u == nil {
		return "", fmt.Errorf("load a case file first")
	}
	u, s := r.u, r.s
	switch c.Name {
	case "cpu":
		v, err := strconv.Atoi(c.Arg("value", ""))
		if err != nil {
			return "", err
		}
		for _, f := range strings.Split(c.Arg("pods", ""), ",") {
			p, err := strconv.Atoi(f)
			if err != nil || p < 1 || p > len(s.Pods) {
				return "", fmt.Errorf("pods: %q is not a pod", f)
			}
			s.Pods[p-1].CPU = int32(v)
			if o := s.Pods[p-1].Owner; o != 0 {
				s.Enqueue(model.HPAQueue, int(o)-1)
			}
		}
	case "enqueue":
		if c.Arg("q", "") != "hpa" {
			return "", fmt.Errorf("only q=hpa")
		}
		d, err := strconv.Atoi(c.Arg("id", ""))
		if err != nil {
			return "", err
		}
		s.Enqueue(model.HPAQueue, d)
	case "step":
		p, ok := r.procs[c.Arg("proc", "")]
		if !ok {
			return "", fmt.Errorf("unknown process %q", c.Arg("proc", ""))
		}
		if !p.Enabled(u, s) {
			return "(not enabled)\n" + model.Describe(u, s), nil
		}
		return run(u, s, p) + model.Describe(u, s), nil
	case "settle":
		var order []model.Process
		for _, name := range strings.Split(c.Arg("procs", ""), ",") {
			p, ok := r.procs[name]
			if !ok {
				return "", fmt.Errorf("unknown process %q", name)
			}
			order = append(order, p)
		}
		limit, err := strconv.Atoi(c.Arg("max", "100"))
		if err != nil {
			return "", err
		}
		var out strings.Builder
		steps := 0
		for ; steps < limit; steps++ {
			i := firstEnabled(u, s, order)
			if i < 0 {
				break
			}
			out.WriteString(run(u, s, order[i]))
		}
		fmt.Fprintf(&out, "(%d steps)\n", steps)
		return out.String() + model.Describe(u, s), nil
	default:
		return "", fmt.Errorf("unknown command %q", c.Name)
	}
	return "", nil
}

// run takes one step of p with every choice 0, tracing.
func run(u *model.Universe, s *model.State, p model.Process) string {
	tx := model.NewTx(u)
	tx.Begin(nil, true)
	p.Step(tx, s)
	var b strings.Builder
	for _, l := range tx.Lines {
		b.WriteString(l.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func firstEnabled(u *model.Universe, s *model.State, order []model.Process) int {
	for i, p := range order {
		if p.Enabled(u, s) {
			return i
		}
	}
	return -1
}
