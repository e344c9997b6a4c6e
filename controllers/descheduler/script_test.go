package descheduler

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/model/modeltest"
)

// scriptEnv is the cluster a testdata script builds, command by command:
//
//	node name=1 labels=lifecycle:spot,zone:a cpu=64 taint=k:v:NoSchedule
//	template name=app cpu=8 mem=8 labels=name:app spread=hostname:1:ScheduleAnyway;zone:1:DoNotSchedule
//	         preferred=4:lifecycle:spot;5:lifecycle:on-demand selector=k:v critical=true
//	deployment name=app template=app running=1,2,3 pending=1
//	profile plugins=RemoveDuplicates,RemovePodsViolatingTopologySpreadConstraint constraints=all nodefit=false tbnf=true
//	limits node=1 namespace=0 total=0
//	build                 compile; print the state (model.Describe)
//	status node=2 to=NotReady
//	explain               print Explain
//	step                  run one cycle: trace lines, then the state
//	kubelet               the kubelet removes every Terminating pod; new request
type scriptEnv struct {
	b      *modeltest.Builder
	tmpls  map[string]int
	nodes  map[string]int
	policy model.Descheduler
	u      *model.Universe
	s      *model.State
}

func TestScripts(t *testing.T) {
	for _, f := range []string{"testdata/c8.txt", "testdata/duplicates.txt"} {
		t.Run(f, func(t *testing.T) {
			env := &scriptEnv{b: modeltest.New(), tmpls: map[string]int{}, nodes: map[string]int{}}
			modeltest.RunScript(t, f, func(t *testing.T, c modeltest.Command) string {
				out, err := env.run(c)
				if err != nil {
					t.Fatalf("%s: %v", c.Pos, err)
				}
				return out
			})
		})
	}
}

func pairsOf(s string) map[string]string {
	m := map[string]string{}
	if s == "" {
		return m
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(kv, ":")
		m[k] = v
	}
	return m
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}

func (e *scriptEnv) run(c modeltest.Command) (string, error) {
	switch c.Name {
	case "node":
		nb := modeltest.Node().Name(c.Arg("name", "")).CPU(int64(atoi(c.Arg("cpu", "64")))).Mem(int64(atoi(c.Arg("mem", "64"))))
		for k, v := range pairsOf(c.Arg("labels", "")) {
			nb.Label(k, v)
		}
		if t := c.Arg("taint", ""); t != "" {
			f := strings.Split(t, ":")
			nb.Taint(f[0], f[1], model.TaintEffect(f[2]))
		}
		e.nodes[c.Arg("name", "")] = e.b.AddNodes(1, nb)
	case "template":
		tb := modeltest.Template(c.Arg("name", "")).Requests(int64(atoi(c.Arg("cpu", "8"))), int64(atoi(c.Arg("mem", "8"))))
		for k, v := range pairsOf(c.Arg("labels", "")) {
			tb.Label(k, v)
		}
		if sp := c.Arg("spread", ""); sp != "" {
			for _, one := range strings.Split(sp, ";") {
				f := strings.Split(one, ":")
				when := model.DoNotSchedule
				if f[2] == "ScheduleAnyway" {
					when = model.ScheduleAnyway
				}
				tb.Spread(atoi(f[1]), f[0], when)
			}
		}
		if pr := c.Arg("preferred", ""); pr != "" {
			for _, one := range strings.Split(pr, ";") {
				f := strings.Split(one, ":")
				tb.Preferred(atoi(f[0]), f[1], f[2])
			}
		}
		for k, v := range pairsOf(c.Arg("selector", "")) {
			tb.NodeSelector(k, v)
		}
		if c.Arg("critical", "") == "true" {
			tb.Critical()
		}
		e.tmpls[c.Arg("name", "")] = e.b.AddTemplate(tb)
	case "deployment":
		running, pending := splitList(c.Arg("running", "")), splitList(c.Arg("pending", ""))
		d := e.b.AddDeployment(c.Arg("name", ""), e.tmpls[c.Arg("template", "")], len(running)+len(pending))
		for _, n := range running {
			e.b.RunPod(d, e.nodes[n])
		}
		for _, n := range pending {
			e.b.PendingPod(d, e.nodes[n])
		}
	case "profile":
		p := model.DeschedulerProfile{Name: c.Arg("name", "default"),
			NodeFit: c.Arg("nodefit", "false") == "true", TopologyBalanceNodeFit: c.Arg("tbnf", "true") == "true",
			EvictSystemCriticalPods: c.Arg("critical", "false") == "true"}
		switch c.Arg("constraints", "hard") {
		case "all":
			p.Constraints = model.AllConstraints
		case "soft":
			p.Constraints = model.SoftConstraints
		}
		for _, name := range splitList(c.Arg("plugins", "")) {
			switch name {
			case "RemoveDuplicates":
				p.Balance = append(p.Balance, model.RemoveDuplicates)
			case "RemovePodsViolatingTopologySpreadConstraint":
				p.Balance = append(p.Balance, model.RemovePodsViolatingTopologySpreadConstraint)
			default:
				return "", fmt.Errorf("unknown plugin %q", name)
			}
		}
		e.policy.Profiles = append(e.policy.Profiles, p)
	case "limits":
		e.policy.MaxPerNode, e.policy.MaxPerNamespace, e.policy.MaxTotal =
			atoi(c.Arg("node", "0")), atoi(c.Arg("namespace", "0")), atoi(c.Arg("total", "0"))
	case "build":
		pol := e.policy
		e.b.U.Descheduler = &pol
		u, s, err := e.b.Build(0)
		if err != nil {
			return "", err
		}
		s.DeschedulerPending = true
		e.u, e.s = u, s
		return model.Describe(u, s), nil
	case "status":
		to := map[string]model.NodeStatus{"Ready": model.Ready, "NotReady": model.NotReady, "Unhealthy": model.Unhealthy}
		e.s.Nodes[e.nodes[c.Arg("node", "")]].Status = to[c.Arg("to", "Ready")]
		return model.Describe(e.u, e.s), nil
	case "explain":
		return Explain(e.u, e.s), nil
	case "step":
		tx := model.NewTx(e.u)
		tx.Begin(nil, true)
		if !New().Enabled(e.u, e.s) {
			return "not enabled\n", nil
		}
		New().Step(tx, e.s)
		var b strings.Builder
		for _, l := range tx.Lines {
			b.WriteString(l.String() + "\n")
		}
		b.WriteString(model.Describe(e.u, e.s))
		return b.String(), nil
	case "kubelet":
		for i := range e.s.Pods {
			if e.s.Pods[i].Phase == model.Terminating {
				e.s.Pods[i] = model.PodState{}
			}
		}
		e.s.Queues[model.KubeletQueue] = nil
		// The evictions queued the deployment for its replacements; the
		// scripts follow Kivi's trails without them, so they are dropped.
		e.s.Queues[model.DeploymentQueue] = nil
		e.s.DeschedulerPending = true
		return model.Describe(e.u, e.s), nil
	default:
		return "", fmt.Errorf("unknown command %q", c.Name)
	}
	// Setup commands answer "ok": RunScript reads an empty answer's "----"
	// as the start of an output that runs to the next blank line.
	return "ok", nil
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
