package script

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/controllers/descheduler"
	"github.com/kivi-go/kivi/controllers/scheduler"
	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/reduction/symmetry"
	"github.com/kivi-go/kivi/scaling"
)

// describe is model.Describe; after `build verbose` also what it leaves
// out and the events read: each active deployment's config, current
// ReplicaSet and ReplicaSets, the init phase and the event memory.
func (e *Env) describe(s *model.State) string {
	if !e.verbose {
		return model.Describe(e.u, s)
	}
	var b strings.Builder
	b.WriteString(model.Describe(e.u, s))
	for d := range s.Deps {
		ds := &s.Deps[d]
		if ds.Active {
			fmt.Fprintf(&b, "deployment %s: config %d cur %d rs %v\n", e.u.Deployments[d].Name, ds.Config, ds.Cur, ds.RS)
		}
	}
	fmt.Fprintf(&b, "init: %s\n", initPhases[s.Init])
	for i := range e.u.Events {
		ev := &e.u.Events[i]
		fmt.Fprintf(&b, "event %d %s: %v\n", i+1, ev.Kind, s.EventVars[ev.VarOffset:ev.VarOffset+ev.VarLen])
	}
	return b.String()
}

// explain scheduler pod=P | explain descheduler: the scheduler's decision
// for pod P (filters and scores per node), or the descheduler's next
// cycle (scheduler.Explain, descheduler.Explain).
func (e *Env) explain(c Command) (string, error) {
	switch ops := c.Operands(); {
	case len(ops) == 1 && ops[0] == "scheduler":
		p, err := e.podIndex(c)
		if err != nil {
			return "", err
		}
		return scheduler.Explain(e.u, e.s, p), nil
	case len(ops) == 1 && ops[0] == "descheduler":
		return descheduler.Explain(e.u, e.s), nil
	}
	return "", fmt.Errorf("explain scheduler pod=P | explain descheduler")
}

func (e *Env) canonicalizer() *symmetry.Canonicalizer {
	if e.canon == nil {
		e.canon = symmetry.New(e.u, compose.SymmetryFacts(e.u))
	}
	return e.canon
}

// classes: the node symmetry classes (reduction/symmetry).
func (e *Env) classes(Command) (string, error) {
	return fmt.Sprintf("classes %v", e.canonicalizer().Analysis().Classes), nil
}

// permute order=p1,p2,...: node i moves to position p_i (1-based); prints
// the state.
func (e *Env) permute(c Command) (string, error) {
	order, err := ints("order", c.Arg("order", ""))
	if err != nil {
		return "", err
	}
	if len(order) != len(e.u.Nodes) {
		return "", fmt.Errorf("order: %d positions for %d nodes", len(order), len(e.u.Nodes))
	}
	perm := make([]int, len(order))
	for i, p := range order {
		perm[i] = p - 1
	}
	e.s = symmetry.Permute(e.u, e.s, perm)
	return e.describe(e.s), nil
}

// canonical: the canonical form of the state under node symmetry.
func (e *Env) canonical(Command) (string, error) {
	return e.describe(e.canonicalizer().Canonical(e.s)), nil
}

// case ID [scale=3] [no-violation]: replaces the cluster by built-in case
// ID (inputs/cases) and prints what Kivi's case definitions specifies (node labels and
// taints, templates, deployments and their search bounds, events,
// intents), then the state.
func (e *Env) builtinCase(c Command) (string, error) {
	ops := c.Operands()
	id := ""
	for _, o := range ops {
		if o != "no-violation" {
			id = o
		}
	}
	scale, err := intArg(c, "scale", 3)
	if err != nil {
		return "", err
	}
	e.reset()
	cl, err := cases.Get(id, scale, c.Has("no-violation"))
	if err != nil {
		return "error: " + err.Error(), nil
	}
	u, s, err := cl.Build()
	if err != nil {
		return "error: " + err.Error(), nil
	}
	out := caseSummary(cl, u)
	e.start(u, s)
	return out + e.describe(s), nil
}

func caseSummary(c *model.Cluster, u *model.Universe) string {
	var b strings.Builder
	fmt.Fprintf(&b, "expect %s; %d pod slots\n", c.Expect, u.PodSlots)
	for _, t := range c.NodeTypes {
		fmt.Fprintf(&b, "node type %s: %d..%d nodes, cpu %d reserved %d\n", t.Name, t.Min, t.Max, t.CPU, t.ReservedCPU)
	}
	for _, n := range u.Nodes {
		fmt.Fprintf(&b, "node %s (%s): %s", n.Name, c.NodeTypes[n.Type].Name, labelList(n.Labels))
		for _, t := range n.Taints {
			fmt.Fprintf(&b, " taint %s=%s:%s", t.Key, t.Value, t.Effect)
		}
		b.WriteByte('\n')
	}
	for _, t := range u.Templates {
		fmt.Fprintf(&b, "template %s: %s requests %d/%d", t.Name, labelList(t.Labels), t.CPU, t.Memory)
		if t.NodeName != 0 {
			fmt.Fprintf(&b, " nodeName %s", u.Nodes[t.NodeName-1].Name)
		}
		for _, p := range t.Pattern {
			fmt.Fprintf(&b, " usage %d@%d", p.CPU, p.At)
		}
		for _, sc := range t.Spread {
			fmt.Fprintf(&b, " spread(%s skew %d %s)", sc.TopologyKey, sc.MaxSkew, sc.When)
		}
		for _, p := range t.Preferred {
			fmt.Fprintf(&b, " prefer(%d %v)", p.Weight, p.Term.MatchExpressions)
		}
		b.WriteByte('\n')
	}
	for _, d := range c.Deployments {
		fmt.Fprintf(&b, "deployment %s: replicas %d created %v search %d..%d ≤%d/node", d.Name, d.Replicas,
			d.Created == nil || *d.Created, d.MinReplicas, d.MaxReplicas, d.MaxPodsPerNode)
		if h := d.HPA; h != nil {
			fmt.Fprintf(&b, " hpa %d..%d cpu %d%% factor %d", h.Min, h.Max, h.Metrics[0].Target, h.Factor)
		}
		b.WriteByte('\n')
	}
	for _, d := range c.DeploymentTemplates {
		fmt.Fprintf(&b, "deployment template %s: replicas set %v\n", d.Name, d.Replicas != nil)
	}
	if ds := c.Descheduler; ds != nil {
		for _, p := range ds.Profiles {
			fmt.Fprintf(&b, "descheduler %s: %v constraints %d topologyBalanceNodeFit %v\n", p.Name, p.Balance, p.Constraints, p.TopologyBalanceNodeFit)
		}
	}
	for _, e := range c.Events {
		fmt.Fprintf(&b, "event %s when %q deployment %q template %q parallel %d\n", e.Kind, e.When, e.Deployment, e.Template, e.Parallel)
	}
	for _, in := range c.Intents {
		fmt.Fprintf(&b, "intent %s %v\n", in.Name, in.Params)
	}
	return b.String()
}

func labelList(m map[string]string) string {
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, ",")
}

// enumerate-setups node-types=lo..hi,... deployments=lo..hi/maxPodsPerNode,...
// [fast-find=0] [from=1] [to=last]: the scaling search's order of setups
// (scaling.Enumerate): their number and list hash, then setups from..to
// (1-based, as Kivi counts them).
func enumerateSetups(_ *Env, c Command) (string, error) {
	var b scaling.Bounds
	rng := func(s string) (int, int, error) {
		lo, hi, ok := strings.Cut(s, "..")
		a, err1 := strconv.Atoi(lo)
		z, err2 := strconv.Atoi(hi)
		if !ok || err1 != nil || err2 != nil {
			return 0, 0, fmt.Errorf("bad range %q (lo..hi)", s)
		}
		return a, z, nil
	}
	for i, r := range strings.Split(c.Arg("node-types", ""), ",") {
		lo, hi, err := rng(r)
		if err != nil {
			return "", err
		}
		b.NodeTypes = append(b.NodeTypes, scaling.TypeBounds{Name: fmt.Sprintf("t%d", i), Min: lo, Max: hi})
	}
	for i, r := range strings.Split(c.Arg("deployments", ""), ",") {
		r, per, _ := strings.Cut(r, "/")
		lo, hi, err := rng(r)
		if err != nil {
			return "", err
		}
		p, err := strconv.Atoi(per)
		if err != nil {
			return "", fmt.Errorf("bad deployment bounds %q (lo..hi/maxPodsPerNode)", r)
		}
		b.Deployments = append(b.Deployments, scaling.DeploymentBounds{Name: fmt.Sprintf("d%d", i), Min: lo, Max: hi, MaxPodsPerNode: p})
	}
	fast, err := intArg(c, "fast-find", 0)
	if err != nil {
		return "", err
	}
	setups, err := scaling.Enumerate(b, scaling.EnumerateOptions{FastFind: fast})
	if err != nil {
		return "error: " + err.Error(), nil
	}
	from, err := intArg(c, "from", 1)
	if err != nil {
		return "", err
	}
	to, err := intArg(c, "to", len(setups))
	if err != nil {
		return "", err
	}
	var out strings.Builder
	fmt.Fprintf(&out, "%d setups, hash %s\n", len(setups), scaling.ListHash(setups)[:19])
	for i := from; i <= min(to, len(setups)); i++ {
		fmt.Fprintf(&out, "%d %s\n", i, setups[i-1])
	}
	return out.String(), nil
}
