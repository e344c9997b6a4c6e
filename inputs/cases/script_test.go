package cases_test

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/model/modeltest"
)

// TestScript runs testdata/*.txt: `case <id> s=<scale> [cn]` builds the
// case's original topology and prints what cases.md specifies (node
// labels and taints, templates, the deployment and its search bounds,
// events, intents) followed by model.Describe of the initial state.
func TestScript(t *testing.T) {
	modeltest.RunScript(t, "testdata/cases.txt", func(t *testing.T, cmd modeltest.Command) string {
		if cmd.Name != "case" || len(cmd.Args) == 0 {
			t.Fatalf("%s: unknown command %s %v", cmd.Pos, cmd.Name, cmd.Args)
		}
		s, err := strconv.Atoi(cmd.Arg("s", "3"))
		if err != nil {
			t.Fatalf("%s: %v", cmd.Pos, err)
		}
		cn := false
		for _, a := range cmd.Args {
			cn = cn || a == "cn"
		}
		c, err := cases.Get(cmd.Args[0], s, cn)
		if err != nil {
			return "error: " + err.Error()
		}
		u, st, err := c.Build()
		if err != nil {
			return "error: " + err.Error()
		}
		return summary(c, u) + model.Describe(u, st)
	})
}

func summary(c *model.Cluster, u *model.Universe) string {
	var b strings.Builder
	fmt.Fprintf(&b, "expect %s; %d pod slots\n", c.Expect, u.PodSlots)
	for _, t := range c.NodeTypes {
		fmt.Fprintf(&b, "node type %s: %d..%d nodes, cpu %d reserved %d\n", t.Name, t.Min, t.Max, t.CPU, t.ReservedCPU)
	}
	for _, n := range u.Nodes {
		fmt.Fprintf(&b, "node %s (%s): %s", n.Name, c.NodeTypes[n.Type].Name, labels(n.Labels))
		for _, t := range n.Taints {
			fmt.Fprintf(&b, " taint %s=%s:%s", t.Key, t.Value, t.Effect)
		}
		b.WriteByte('\n')
	}
	for _, t := range u.Templates {
		fmt.Fprintf(&b, "template %s: %s requests %d/%d", t.Name, labels(t.Labels), t.CPU, t.Memory)
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

func labels(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, ",")
}
