package descheduler

import (
	"strings"

	"github.com/kivi-go/kivi/model"
)

// cycle is one descheduling pass: the nodes it works on, the eviction
// counters (reset every cycle, as podEvictor.ResetCounters does upstream),
// and optionally a builder that collects the plugins' reasoning for
// Explain.
type cycle struct {
	u  *model.Universe
	s  *model.State
	tx *model.Tx
	// ready lists the Ready nodes in index order: the cycle's nodes.
	ready   []int
	isReady []bool
	ev      evictor
	// explain is nil except under Explain; plugins write to it only then.
	explain *strings.Builder
	// scalarUsed is fitsNode's scratch for a node's scalar requests.
	scalarUsed []int64
	// constraints are the DefaultEvictor's constraints of each profile
	// (evictorconstraints.go), decided when the cycle starts.
	constraints []profileConstraints
	// unseen marks the pods a plugin's listing shows as they were before
	// this cycle evicted them (an informer that has not seen the
	// deletions: nodeAffinity.informerLag); nil for none.
	unseen []bool
	// crash is what the cycle's instant shows of the pods whose
	// containers may be crashing (crashview.go).
	crash crashViews
}

func newCycle(u *model.Universe, s *model.State, tx *model.Tx, explain *strings.Builder) *cycle {
	c := &cycle{u: u, s: s, tx: tx, explain: explain, isReady: make([]bool, len(s.Nodes))}
	for n := range s.Nodes {
		if s.Nodes[n].Status == model.Ready {
			c.ready = append(c.ready, n)
			c.isReady[n] = true
		}
	}
	c.ev = newEvictor(u, len(s.Nodes))
	c.constraints = newConstraints(u, s)
	c.crash.tracked = u.TracksRestarts()
	return c
}

// run executes every profile's Deschedule plugins, then every profile's
// Balance plugins, in order (upstream's runProfiles).
func (c *cycle) run() {
	if c.u.Descheduler == nil {
		return
	}
	// descheduler.go: "Skipping descheduling cycle: requires >=2 nodes".
	if len(c.ready) <= 1 {
		c.note("skipped: %d Ready node(s), a cycle needs at least 2\n", len(c.ready))
		return
	}
	c.runDeschedule()
	for i := range c.u.Descheduler.Profiles {
		p := &c.u.Descheduler.Profiles[i]
		if len(p.Balance) == 0 && len(p.Deschedule.Enabled) > 0 {
			continue
		}
		c.note("profile %q:\n", p.Name)
		for _, b := range p.Balance {
			plugin := pluginFor(b)
			if plugin == nil {
				c.note("  %s: not modelled, skipped\n", b)
				continue
			}
			c.note("  %s:\n", plugin.Name())
			plugin.Balance(c, p)
		}
	}
}

// note writes to the explanation when one is being built.
func (c *cycle) note(format string, args ...any) {
	if c.explain != nil {
		appendf(c.explain, format, args...)
	}
}

// nodeName is the printed name of node n.
func (c *cycle) nodeName(n int) string { return c.u.Nodes[n].Name }
