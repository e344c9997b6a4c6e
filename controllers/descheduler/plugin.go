package descheduler

import (
	"fmt"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// balancePlugin is a descheduler Balance plugin. Plan decides which pods
// to evict and why, without changing the state; Balance plans and hands
// the plan to the evictor with the plugin's own ordering and limit rules.
type balancePlugin interface {
	Name() string
	Plan(c *cycle, p *model.DeschedulerProfile) []candidate
	Balance(c *cycle, p *model.DeschedulerProfile)
}

// pluginFor returns the implementation of a configured plugin (nil for an
// unknown one).
func pluginFor(b model.BalancePlugin) balancePlugin {
	switch b {
	case model.RemoveDuplicates:
		return removeDuplicates{}
	case model.RemovePodsViolatingTopologySpreadConstraint:
		return topologySpread{}
	case model.LowNodeUtilization:
		return lowNodeUtilization{}
	case model.HighNodeUtilization:
		return highNodeUtilization{}
	}
	return nil
}

// reasonKind says which rule chose a candidate.
type reasonKind uint8

const (
	// reasonDuplicate: one of too many pods of a ReplicaSet on one node.
	reasonDuplicate reasonKind = iota + 1
	// reasonTopologySpread: one of the pods moved out of an over-full topology
	// domain.
	reasonTopologySpread
	// reasonLowNodeUtilization: a pod of an overutilized node.
	reasonLowNodeUtilization
	// reasonHighNodeUtilization: a pod of an underutilized node.
	reasonHighNodeUtilization
)

// candidate is a pod a plugin wants evicted, with the reason.
type candidate struct {
	pod  int
	kind reasonKind
	// key is the topology key of the violated constraint (topologySpread).
	key model.KeyID
}

// log prints the candidate's reason line, named after the descheduler's
// strategy.
func (cd candidate) log(c *cycle) {
	if !c.tx.Tracing() {
		return
	}
	ps := &c.s.Pods[cd.pod]
	switch cd.kind {
	case reasonDuplicate:
		c.tx.Log(Component, "RemoveDuplicates: pod %s (%s) duplicates another pod of its ReplicaSet on node %s",
			c.s.PodRef(cd.pod), ps.Phase, c.nodeName(ps.NodeOf()))
	case reasonTopologySpread:
		c.tx.Log(Component, "RemovePodsViolatingTopologySpreadConstraint: pod %s violates its topology spread constraint (topologyKey %s)",
			c.s.PodRef(cd.pod), c.u.Labels.KeyName(cd.key))
	case reasonLowNodeUtilization:
		c.tx.Log(Component, "LowNodeUtilization: pod %s on overutilized node %s (%s)",
			c.s.PodRef(cd.pod), c.nodeName(ps.NodeOf()), c.requestShares(ps.NodeOf()))
	case reasonHighNodeUtilization:
		c.tx.Log(Component, "HighNodeUtilization: pod %s on underutilized node %s (%s)",
			c.s.PodRef(cd.pod), c.nodeName(ps.NodeOf()), c.requestShares(ps.NodeOf()))
	}
}

func appendf(b *strings.Builder, format string, args ...any) {
	fmt.Fprintf(b, format, args...)
}

// requestShares prints node n's requests as percentages of allocatable.
func (c *cycle) requestShares(n int) string {
	a, r := c.u.Allocatable(n), c.u.Requested(c.s, n)
	return "requests: cpu " + roundPct(percentOf(r.CPU, a.CPU)) + "%, memory " + roundPct(percentOf(r.Memory, a.Memory)) +
		"%, pods " + roundPct(percentOf(int64(r.Pods), int64(a.Pods))) + "%"
}
