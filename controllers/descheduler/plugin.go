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
)

// candidate is a pod a plugin wants evicted, with the reason.
type candidate struct {
	pod  int
	kind reasonKind
	// key is the topology key of the violated constraint (topologySpread).
	key model.KeyID
}

// log prints the candidate's reason line with Kivi's texts: "Descheduler"
// for duplicates, "DeScheduler" (Kivi's capital S) for topology spread.
func (cd candidate) log(c *cycle) {
	if !c.tx.Tracing() {
		return
	}
	ps := &c.s.Pods[cd.pod]
	switch cd.kind {
	case reasonDuplicate:
		c.tx.Log("Descheduler", "Duplicated Pod %d (status %d) on node %s pending for deletion!",
			cd.pod+1, kiviStatus(ps.Phase), c.nodeName(ps.NodeOf()))
	case reasonTopologySpread:
		c.tx.Log("DeScheduler", "Pod violating TopoSpread constraints (topoKey %s), Pod %d pending for deletion",
			c.u.Labels.KeyName(cd.key), cd.pod+1)
	}
}

// kiviStatus is Kivi's pod status number as its traces print it.
func kiviStatus(p model.Phase) int {
	switch p {
	case model.Running:
		return 1
	case model.Pending:
		return 2
	case model.Terminating:
		return 3
	}
	return 0
}

func appendf(b *strings.Builder, format string, args ...any) {
	fmt.Fprintf(b, format, args...)
}
