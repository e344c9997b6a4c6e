package script

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// pod deployment=D [phase=Running] [node=N] [cpu=C] [count=1]: count pods
// of deployment D, unbound without node. Before build they are part of
// the initial state; after, each takes the first free slot, in the
// deployment's current ReplicaSet.
func (e *Env) pod(c Command) (string, error) {
	d, err := e.deploymentIndex(c.Arg("deployment", ""))
	if err != nil {
		return "", err
	}
	phase, err := phaseArg(c, model.Running)
	if err != nil {
		return "", err
	}
	if phase != model.Running && phase != model.Pending {
		return "", fmt.Errorf("pod: phase %s (a new pod is Pending or Running)", phase)
	}
	n := -1
	if name := c.Arg("node", ""); name != "" {
		if n, err = e.nodeIndex(name); err != nil {
			return "", err
		}
	} else if phase == model.Running {
		return "", fmt.Errorf("pod: a Running pod needs node=")
	}
	count, err := intArg(c, "count", 1)
	if err != nil {
		return "", err
	}
	cpu, err := intArg(c, "cpu", -1)
	if err != nil {
		return "", err
	}
	for range count {
		if e.u == nil {
			switch {
			case phase == model.Pending:
				e.b.PendingPod(d, n)
			case cpu >= 0:
				e.b.RunPodCPU(d, n, int64(cpu))
			default:
				e.b.RunPod(d, n)
			}
			continue
		}
		j := model.FreeSlot(e.s)
		if j < 0 {
			return "", fmt.Errorf("pod: no free slot")
		}
		ds := &e.s.Deps[d]
		tmpl := int(ds.RS[ds.Cur].Template) - 1
		t := &e.u.Templates[tmpl]
		p := model.PodState{Phase: phase, Owner: uint8(d + 1), RS: ds.Cur, Template: uint8(tmpl), Node: uint16(n + 1)}
		p.CPU, p.Memory = t.StartUsage()
		if len(t.Pattern) > 0 {
			p.CPU, p.Pattern = int32(t.Pattern[0].CPU), 1
		}
		if cpu >= 0 {
			p.CPU = int32(cpu)
		}
		e.s.Pods[j] = p
	}
	return "", nil
}

// set-pod pod=P [phase=Ph] [was-running] [preempted] [cpu=C] [memory=M]
// [replicaset=R] [nominated=N|none] [readiness=NotReady|Ready|Available]:
// edits pod P. Phase Free empties its slot; was-running marks a
// Terminating pod as having run; preempted marks it as a preemption's
// victim (model.Preempted: DisruptionTarget, PreemptionByScheduler); replicaset is the deployment's ReplicaSet slot (0 or 1);
// memory is its memory usage (MiB); nominated sets status.nominatedNodeName, which only a Pending, unbound
// pod may carry (model.PodState); readiness is a Running pod's Ready
// condition (Ready: not yet available, minReadySeconds).
func (e *Env) setPod(c Command) (string, error) {
	i, err := e.podIndex(c)
	if err != nil {
		return "", err
	}
	p := &e.s.Pods[i]
	ph, err := phaseArg(c, p.Phase)
	if err != nil {
		return "", err
	}
	if ph == model.Free {
		*p = model.PodState{}
		return "", nil
	}
	p.Phase = ph
	p.WasRunning = p.WasRunning || c.Has("was-running")
	if c.Has("preempted") {
		p.Failure |= model.Preempted
	}
	if v := c.Arg("cpu", ""); v != "" {
		cpu, err := intArg(c, "cpu", 0)
		if err != nil {
			return "", err
		}
		p.CPU = int32(cpu)
	}
	if v := c.Arg("memory", ""); v != "" {
		mem, err := intArg(c, "memory", 0)
		if err != nil {
			return "", err
		}
		p.Memory = int32(mem)
	}
	if v := c.Arg("restarts", ""); v != "" {
		n, err := intArg(c, "restarts", 0)
		if err != nil || n < 0 {
			return "", fmt.Errorf("restarts=%s: a count of 0 or more", v)
		}
		p.Restarts = model.SaturatedRestarts(int64(n))
	}
	if v := c.Arg("replicaset", ""); v != "" {
		rs, err := intArg(c, "replicaset", 0)
		if err != nil || rs < 0 || rs > 1 {
			return "", fmt.Errorf("replicaset=%s: 0 or 1", v)
		}
		p.RS = uint8(rs)
	}
	if v := c.Arg("nominated", ""); v == "none" {
		p.NominatedNode = 0
	} else if v != "" {
		n, err := e.nodeIndex(v)
		if err != nil {
			return "", err
		}
		p.NominatedNode = uint16(n + 1)
	}
	switch v := c.Arg("readiness", ""); v {
	case "":
	case "NotReady":
		p.Readiness = model.PodNotReady
	case "Ready":
		p.Readiness = model.PodReadyNotAvailable
	case "Available":
		p.Readiness = model.PodAvailable
	default:
		return "", fmt.Errorf("readiness: %q (accepted: NotReady, Ready, Available)", v)
	}
	if p.Readiness != model.PodAvailable && p.Phase != model.Running {
		return "", fmt.Errorf("set-pod: pod %d has a readiness but is not Running", i+1)
	}
	if p.NominatedNode != 0 && (p.Phase != model.Pending || p.Node != 0) {
		return "", fmt.Errorf("set-pod: pod %d is nominated but not Pending and unbound", i+1)
	}
	return "", nil
}

// node-status node=N status=Ready|NotReady|Unhealthy
func (e *Env) nodeStatus(c Command) (string, error) {
	n, err := e.nodeIndex(c.Arg("node", ""))
	if err != nil {
		return "", err
	}
	name := c.Arg("status", "")
	for _, st := range []model.NodeStatus{model.Ready, model.NotReady, model.Unhealthy} {
		if st.String() == name {
			e.s.Nodes[n].Status = st
			return "", nil
		}
	}
	return "", fmt.Errorf("unknown status %q (Ready, NotReady, Unhealthy)", name)
}

// enqueue queue=Q id=I: appends I (a raw index, as the queues of describe
// show them) unless queued already.
func (e *Env) enqueue(c Command) (string, error) {
	q, err := queueArg(c)
	if err != nil {
		return "", err
	}
	id, err := intArg(c, "id", -1)
	if err != nil || id < 0 {
		return "", fmt.Errorf("enqueue: id=%q", c.Arg("id", ""))
	}
	e.s.Enqueue(q, id)
	return "", nil
}

// clear-queue queue=Q
func (e *Env) clearQueue(c Command) (string, error) {
	q, err := queueArg(c)
	if err != nil {
		return "", err
	}
	e.s.Queues[q] = nil
	return "", nil
}

// init-phase phase=first|main|stable: Kivi's start-up phase.
func (e *Env) initPhase(c Command) (string, error) {
	for i, name := range initPhases {
		if name == c.Arg("phase", "") {
			e.s.Init = uint8(i)
			return "", nil
		}
	}
	return "", fmt.Errorf("unknown init phase %q (first, main, stable)", c.Arg("phase", ""))
}

var initPhases = []string{model.InitFirst: "first", model.InitMain: "main", model.InitStable: "stable"}

// apply deployment=D config=C: the deployment's spec becomes config C
// (kubectl apply); the deployment controller is notified.
func (e *Env) apply(c Command) (string, error) {
	d, err := e.deploymentIndex(c.Arg("deployment", ""))
	if err != nil {
		return "", err
	}
	cfg, err := e.configIndex(c.Arg("config", ""))
	if err != nil {
		return "", err
	}
	e.s.Deps[d].ApplyConfig(e.u, cfg)
	e.s.Enqueue(model.DeploymentQueue, d)
	return "", nil
}

// scale deployment=D replicas=R [no-enqueue]: sets spec.replicas (kubectl
// scale); the deployment controller is notified unless no-enqueue.
func (e *Env) scale(c Command) (string, error) {
	d, err := e.deploymentIndex(c.Arg("deployment", ""))
	if err != nil {
		return "", err
	}
	r, err := intArg(c, "replicas", -1)
	if err != nil || r < 0 {
		return "", fmt.Errorf("scale: replicas=%q", c.Arg("replicas", ""))
	}
	e.s.Deps[d].Replicas = int16(r)
	if !c.Has("no-enqueue") {
		e.s.Enqueue(model.DeploymentQueue, d)
	}
	return "", nil
}

// descheduling: a new descheduling request is pending (the descheduler's
// next interval).
func (e *Env) descheduling(Command) (string, error) {
	e.s.DeschedulerPending = true
	return "", nil
}

// step P [choices=i,j,...]: process P steps once (its first successor,
// or the one the answers to its choices pick, model.Tx.Choose's in order,
// 0 for any not given); prints its trace lines and the state, or
// "(not enabled)" and the state.
func (e *Env) step(c Command) (string, error) {
	p, err := e.oneProcess(c)
	if err != nil {
		return "", err
	}
	if !p.Enabled(e.u, e.s) {
		return "(not enabled)\n" + e.describe(e.s), nil
	}
	var picks []int
	if v := c.Arg("choices", ""); v != "" {
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				return "", fmt.Errorf("choices: %q is not an integer", f)
			}
			picks = append(picks, n)
		}
	}
	e.u.ResumeAfterFailure(e.s)
	tx := model.NewTx(e.u)
	tx.Begin(picks, true)
	p.Step(tx, e.s)
	return lines(tx, "") + e.describe(e.s), nil
}

func (e *Env) oneProcess(c Command) (model.Process, error) {
	ops := c.Operands()
	if len(ops) != 1 {
		return nil, fmt.Errorf("%s: which process?", c.Name)
	}
	return e.process(ops[0])
}

// successors P [pick=0]: every successor of one step of P (which must be
// enabled): its choices and trace lines; the script continues with
// successor pick, whose state it prints.
func (e *Env) successors(c Command) (string, error) {
	p, err := e.oneProcess(c)
	if err != nil {
		return "", err
	}
	if !p.Enabled(e.u, e.s) {
		return "", fmt.Errorf("%s is not enabled", c.Operands()[0])
	}
	type successor struct {
		choices []int
		lines   string
		state   *model.State
	}
	var succ []successor
	tx := model.NewTx(e.u)
	tx.Begin(nil, true)
	for {
		next := e.s.Clone()
		e.u.ResumeAfterFailure(next)
		p.Step(tx, next)
		succ = append(succ, successor{append([]int(nil), tx.Choices()...), lines(tx, "  "), next})
		if !tx.Advance() {
			break
		}
		tx.Restart(true)
	}
	pick, err := intArg(c, "pick", 0)
	if err != nil || pick < 0 || pick >= len(succ) {
		return "", fmt.Errorf("pick=%s: %d successors", c.Arg("pick", "0"), len(succ))
	}
	var b strings.Builder
	for i, sc := range succ {
		fmt.Fprintf(&b, "successor %d choices %v\n%s", i, sc.choices, sc.lines)
	}
	e.s = succ[pick].state
	fmt.Fprintf(&b, "continue with successor %d:\n", pick)
	b.WriteString(e.describe(e.s))
	return b.String(), nil
}

// settle P1 P2 ... [max=100]: steps the first enabled process of the list
// until none is enabled (at most max steps); prints the trace lines, the
// number of steps and the state.
func (e *Env) settle(c Command) (string, error) {
	var order []model.Process
	for _, name := range c.Operands() {
		p, err := e.process(name)
		if err != nil {
			return "", err
		}
		order = append(order, p)
	}
	limit, err := intArg(c, "max", 100)
	if err != nil {
		return "", err
	}
	var out strings.Builder
	steps := 0
	for ; steps < limit; steps++ {
		var p model.Process
		for _, q := range order {
			if q.Enabled(e.u, e.s) {
				p = q
				break
			}
		}
		if p == nil {
			break
		}
		e.u.ResumeAfterFailure(e.s)
		tx := model.NewTx(e.u)
		tx.Begin(nil, true)
		p.Step(tx, e.s)
		out.WriteString(lines(tx, ""))
	}
	fmt.Fprintf(&out, "(%d steps)\n", steps)
	return out.String() + e.describe(e.s), nil
}

// enabled [P]: "enabled" or "not enabled" for process P; without P,
// every event process (events.All: index, name, guard and, for those that
// have one, whether resting here is a valid end).
func (e *Env) enabled(c Command) (string, error) {
	if len(c.Operands()) == 1 {
		p, err := e.oneProcess(c)
		if err != nil {
			return "", err
		}
		if p.Enabled(e.u, e.s) {
			return "enabled", nil
		}
		return "not enabled", nil
	}
	var b strings.Builder
	for i, p := range e.events {
		fmt.Fprintf(&b, "%d %s: enabled=%t", i, p.Name(), p.Enabled(e.u, e.s))
		if ec, ok := p.(model.EndChecker); ok {
			fmt.Fprintf(&b, " validEnd=%t", ec.ValidEnd(e.u, e.s))
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// lines renders a step's trace lines, pods by slot ("pod#3") as describe
// shows them.
func lines(tx *model.Tx, indent string) string {
	var b strings.Builder
	for _, l := range tx.Lines {
		b.WriteString(indent + l.String() + "\n")
	}
	return b.String()
}
