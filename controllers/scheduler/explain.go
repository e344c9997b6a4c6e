package scheduler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// Explain renders the scheduling cycle that pod slot pod would get in s,
// without changing s: the spread constraints with their domain counts, and
// per node either the filter that rejects it with its reason, or each
// score plugin's raw → normalised × weight and the total; then the choice.
// Tests and `kivi explain` use it.
func Explain(u *model.Universe, s *model.State, pod int) string {
	var b strings.Builder
	if pod < 0 || pod >= len(s.Pods) {
		fmt.Fprintf(&b, "pod %d: no such pod slot\n", pod+1)
		return b.String()
	}
	p := &s.Pods[pod]
	fmt.Fprintf(&b, "pod %d", pod+1)
	if p.Phase != model.Free {
		fmt.Fprintf(&b, " (template %s", u.Templates[p.Template].Name)
		if p.Owner != 0 {
			fmt.Fprintf(&b, ", deployment %s", u.Deployments[p.Owner-1].Name)
		}
		b.WriteByte(')')
	}
	if p.Phase != model.Pending || p.Node != 0 {
		fmt.Fprintf(&b, ": %s", p.Phase)
		if p.Node != 0 {
			fmt.Fprintf(&b, " on node %s", u.Nodes[p.Node-1].Name)
		}
		b.WriteString(", not waiting for scheduling\n")
		return b.String()
	}
	b.WriteByte('\n')
	pr := defaultProfile()
	var c cycle
	c.reset(u, s, pod)
	c.filter(&pr)
	if len(c.feasible) > 0 {
		c.score(&pr)
	}
	for i := range c.hard {
		explainConstraint(&b, &c, &c.hard[i], "DoNotSchedule", fmt.Sprintf(" min %d domains %d", c.hardMin[i], c.hardDomains[i]))
	}
	// PodTopologySpread's domains are only counted when it did not skip.
	if len(c.feasible) > 0 && !c.skipped[spreadScore] {
		for i := range c.soft {
			explainConstraint(&b, &c, &c.soft[i], "ScheduleAnyway", fmt.Sprintf(" weight %.3f", c.softWeight[i]))
		}
	}
	j := 0
	for n := range u.Nodes {
		fmt.Fprintf(&b, "  node %s: ", u.Nodes[n].Name)
		if c.rejectedBy[n] == deletedNode {
			b.WriteString("deleted\n")
			continue
		}
		if by := c.rejectedBy[n]; by >= 0 {
			st := c.status[n]
			fmt.Fprintf(&b, "%s %s: %s\n", pr.filters[by].Name(), st.Code, strings.Join(splitReasons(st.Reason), ", "))
			continue
		}
		sep := ""
		for k, pl := range pr.scores {
			if c.plan.weights[k] == 0 {
				// The profile disables the plugin.
				continue
			}
			if k == interPodScore && c.plan.interPod == nil {
				// No pod of the universe has inter-pod affinity: the
				// plugin always skips, so its column says nothing.
				continue
			}
			b.WriteString(sep)
			sep = ", "
			if c.skipped[k] {
				fmt.Fprintf(&b, "%s skip", pl.Name())
				continue
			}
			fmt.Fprintf(&b, "%s %d→%d×%d", pl.Name(), c.raw[k][j], c.norm[k][j], c.plan.weights[k])
		}
		fmt.Fprintf(&b, " = %d\n", c.total[j])
		j++
	}
	if len(c.feasible) == 0 {
		b.WriteString("  no feasible node\n")
		return b.String()
	}
	if len(c.feasible) > 1 && c.preScoreFails() {
		b.WriteString("  PreScore NodeAffinity fails (a preferred term has a value of invalid syntax): the pod is not placed\n")
		return b.String()
	}
	top := c.topNodes()
	names := make([]string, len(top))
	for i, n := range top {
		names[i] = u.Nodes[n].Name
	}
	switch {
	case len(top) == 1:
		fmt.Fprintf(&b, "  selected node %s\n", names[0])
	case u.Options.TieBreak == model.BranchOnTies:
		fmt.Fprintf(&b, "  tie between nodes %s: the model branches\n", strings.Join(names, ", "))
	default:
		fmt.Fprintf(&b, "  tie between nodes %s: selected node %s (lowest index)\n", strings.Join(names, ", "), names[0])
	}
	return b.String()
}

// explainConstraint prints one constraint and its counted domains (hostname
// soft constraints are counted per node in Score, so their matching pods
// per node are shown instead).
func explainConstraint(b *strings.Builder, c *cycle, k *constraint, when, extra string) {
	key, origin := k.defaultKey, ""
	switch {
	case k.spec != nil:
		key = k.spec.TopologyKey
	case c.u.Scheduler.Profile.ListDefaulting:
		origin = " (default constraint)"
	default:
		origin = " (system default)"
	}
	if k.spec != nil && len(k.spec.MatchLabelKeys) > 0 {
		origin = fmt.Sprintf(" matchLabelKeys %v", k.spec.MatchLabelKeys)
	}
	fmt.Fprintf(b, "  %s %s maxSkew %d%s self %t%s:", when, key, k.maxSkew, origin, k.self, extra)
	if k.hostname && when == "ScheduleAnyway" {
		for n := range c.u.Nodes {
			fmt.Fprintf(b, " %s=%d", c.u.Nodes[n].Name, c.matchOn(k, n))
		}
		b.WriteByte('\n')
		return
	}
	for v := 0; v < k.values; v++ {
		d := c.dom[k.off+v]
		if d == noDomain {
			continue
		}
		name := "<none>"
		if v > 0 {
			name = c.u.Labels.ValueName(k.key, model.ValueID(v))
		}
		fmt.Fprintf(b, " %s=%d", name, d)
	}
	b.WriteByte('\n')
}

// unavailableReasons is the histogram kube-scheduler appends to "0/N
// nodes are available" when pod slot pod fits no node of s: for each
// reason, how many nodes a filter rejected with it ("3 node(s) didn't
// satisfy existing pods anti-affinity rules"), sorted as upstream sorts
// the strings and joined by commas. Only trace lines use it: it runs the
// filters again.
func unavailableReasons(u *model.Universe, s *model.State, pod int) string {
	pr := defaultProfile()
	var c cycle
	c.reset(u, s, pod)
	c.filter(&pr)
	counts := map[string]int{}
	for n := range u.Nodes {
		if c.rejectedBy[n] >= 0 {
			// framework.FitError counts each reason of a node's status.
			for _, r := range splitReasons(c.status[n].Reason) {
				counts[r]++
			}
		}
	}
	reasons := make([]string, 0, len(counts))
	for r, k := range counts {
		reasons = append(reasons, fmt.Sprintf("%d %s", k, r))
	}
	slices.Sort(reasons)
	return strings.Join(reasons, ", ")
}

// unavailable is the trace's "0/N nodes are available" with upstream's
// reasons when the filters give any.
func unavailable(u *model.Universe, s *model.State, pod int) string {
	msg := fmt.Sprintf("0/%d nodes are available", listedNodes(s))
	if r := unavailableReasons(u, s, pod); r != "" {
		msg += ": " + r
	}
	return msg
}
