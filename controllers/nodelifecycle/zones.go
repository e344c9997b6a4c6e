package nodelifecycle

import "github.com/kivi-go/kivi/model"

// Zone states (Kubernetes' lifecycle). Upstream's node lifecycle
// controller (v1.36, monitorNodeHealth and handleDisruption) sorts the
// Ready conditions of the nodes by zone (model.DisruptionZones: the nodes
// labelled node.kubernetes.io/exclude-disruption count in none) and gives
// each zone a state (ComputeZoneState): FullDisruption when none of its
// nodes is Ready, PartialDisruption when more than two and at least 55 %
// of them are not, Normal otherwise. The state sets the rate of the
// zone's NoExecute tainter queue (setLimiterInZone): Normal and
// FullDisruption the normal rate; PartialDisruption the secondary rate
// in a zone of more than 50 nodes, none in a smaller one. When every zone
// is in FullDisruption (the "master disruption mode") it removes the
// not-ready and unreachable taints from every node (markNodeAsReachable;
// the taint-eviction-controller then cancels the evictions it had
// scheduled) and sets every rate to none. Every pass queues again the
// nodes that are not Ready and not tainted, so when a zone's state lets
// tainting resume (a node is Ready again, or a zone leaves the master
// disruption mode) the nodes still down are tainted at the restored rate.
//
// The model keeps no zone state: they follow from the nodes' statuses,
// as upstream recomputes them every monitor period. The controller sees
// a node not Ready once the node was reported (model.NodeStatus
// SeenNotReady: queued for the node controller, tainted, or
// model.TaintQueued). A node it handles whose zone holds its taint back
// is marked TaintQueued; the node controller is then enabled whenever
// the zones let a queued node be tainted, and takes one of them per step
// (any of them: the rate limiter spaces the taints by the moments the
// nodes were queued, which the model does not keep), and whenever every
// zone is fully disrupted while a node carries a taint, which it removes
// from every node at once. The rates are not modelled beyond none or
// some: a zone tainted at the normal or the secondary rate may be
// tainted at any time.
//
// Upstream treats a zone none of whose nodes counts (all excluded) as no
// zone at all: its tainter keeps the normal rate, and the master
// disruption mode's removal of its taints, once on entering it, lasts
// until the next pass re-taints them (it only restarts the pods'
// tolerationSeconds, which the model has no clock for): the model leaves
// such a zone alone.

// zoneState is upstream's ZoneState.
type zoneState uint8

const (
	stateNormal zoneState = iota
	statePartialDisruption
	stateFullDisruption
)

func (z zoneState) String() string {
	return [...]string{"Normal", "PartialDisruption", "FullDisruption"}[z]
}

// zoneCounts is a zone's counted nodes and how many of them the
// controller sees not Ready.
type zoneCounts struct{ total, notReady int }

// state is ComputeZoneState at the default --unhealthy-zone-threshold.
func (c zoneCounts) state() zoneState {
	switch {
	case c.notReady == c.total && c.notReady > 0:
		return stateFullDisruption
	case c.notReady > 2 && float32(c.notReady)/float32(c.total) >= model.UnhealthyZoneThreshold:
		return statePartialDisruption
	}
	return stateNormal
}

// zones is the controller's view of the zones in one state.
type zones struct {
	u      *model.Universe
	counts []zoneCounts
	// masterDisruption: some zone has counted nodes and every such zone
	// is in FullDisruption.
	masterDisruption bool
}

// smallZones is how many zones seeZones counts without allocating.
const smallZones = 8

// seeZones computes the zones of s, the nodes in the node-controller
// queue included (queued: the queue is not empty). buf is scratch space
// for the counts.
func seeZones(u *model.Universe, s *model.State, queued bool, buf []zoneCounts) zones {
	z := zones{u: u, counts: buf[:0]}
	for range u.Zones.Names {
		z.counts = append(z.counts, zoneCounts{})
	}
	for n := range s.Nodes {
		if u.Zones.Excluded[n] || s.Nodes[n].Deleted() {
			// A deleted node is in no zone: the controller lists the
			// nodes that exist, and a zone whose last node is gone has
			// no state.
			continue
		}
		c := &z.counts[u.Zones.Of[n]]
		c.total++
		if s.Nodes[n].Status.SeenNotReady(queued && inQueue(s, model.NodeControllerQueue, n)) {
			c.notReady++
		}
	}
	all := false
	for _, c := range z.counts {
		if c.total == 0 {
			continue
		}
		if c.state() != stateFullDisruption {
			return z
		}
		all = true
	}
	z.masterDisruption = all
	return z
}

func inQueue(s *model.State, q model.Queue, id int) bool {
	for _, x := range s.Queues[q] {
		if int(x) == id {
			return true
		}
	}
	return false
}

// taintsAllowed reports whether the zone of node n lets it be tainted:
// the zone's tainter has a rate.
func (z *zones) taintsAllowed(n int) bool {
	c := z.counts[z.u.Zones.Of[n]]
	switch {
	case c.total == 0:
		return true
	case z.masterDisruption:
		return false
	}
	return c.state() != statePartialDisruption || c.total > model.LargeClusterSizeThreshold
}

// lifted reports whether the master disruption mode removes node n's
// taint: it is in a zone with counted nodes.
func (z *zones) lifted(n int) bool { return z.counts[z.u.Zones.Of[n]].total > 0 }

// zoneWork reports whether the zones give the node controller something
// to do with its queue empty: the master disruption mode while some node
// it lifts carries a taint, or a queued node its zone now lets be
// tainted.
func zoneWork(u *model.Universe, s *model.State) bool {
	if !anyHeldOrTainted(s) {
		return false
	}
	var buf [smallZones]zoneCounts
	z := seeZones(u, s, false, buf[:])
	if z.masterDisruption {
		return z.liftable(s) >= 0
	}
	return z.taintable(s, nil) > 0
}

// anyHeldOrTainted: some node carries a taint or TaintQueued, without
// which the zones give no work.
func anyHeldOrTainted(s *model.State) bool {
	for n := range s.Nodes {
		st := s.Nodes[n].Status
		if _, ok := st.NodeDownTaint(); ok || st.TaintIsQueued() {
			return true
		}
	}
	return false
}

// liftable returns the first node the master disruption mode removes a
// taint from, -1 if none.
func (z *zones) liftable(s *model.State) int {
	for n := range s.Nodes {
		if _, ok := s.Nodes[n].Status.NodeDownTaint(); ok && z.lifted(n) {
			return n
		}
	}
	return -1
}

// taintable appends to dst the queued nodes whose zones let them be
// tainted, in index order, and returns how many there are.
func (z *zones) taintable(s *model.State, dst *[]int) int {
	k := 0
	for n := range s.Nodes {
		if s.Nodes[n].Status.TaintIsQueued() && z.taintsAllowed(n) {
			k++
			if dst != nil {
				*dst = append(*dst, n)
			}
		}
	}
	return k
}

// holdTaint marks node n, not Ready, TaintQueued: its zone holds its
// NoExecute taint back. Its NoSchedule taint does not wait for the zones:
// where its key matters (the scheduler reads it, or it would decide an
// eviction) the node's condition is decided now (a choice), otherwise
// when the NoExecute taint is placed.
func holdTaint(tx *model.Tx, s *model.State, n int, z *zones) {
	if s.Nodes[n].Status.TaintIsQueued() {
		return
	}
	u := tx.U
	st := s.Nodes[n].Status.HeldBack()
	what := "no taint"
	if u.NodeDownKeyMatters || taintDecides(u, s, n) {
		k := chooseNodeDownKey(tx, s, n)
		st = st.WithHeldNodeDownTaint(k)
		what = "tainted " + model.NodeDownTaints[k] + ":NoSchedule, no NoExecute taint"
	}
	setLifecycleTaints(u, s, n, st)
	if tx.Tracing() {
		zone := u.Zones.Of[n]
		c := z.counts[zone]
		if z.masterDisruption {
			tx.Log(NodeControllerComponent, "Node %s is not Ready: %s, every zone is in FullDisruption (master disruption mode)", u.Nodes[n].Name, what)
		} else {
			tx.Log(NodeControllerComponent, "Node %s is not Ready: %s, zone %s is in PartialDisruption (%d of %d nodes not Ready, at most %d nodes)",
				u.Nodes[n].Name, what, u.Zones.Names[zone], c.notReady, c.total, model.LargeClusterSizeThreshold)
		}
	}
}

// enterMasterDisruption removes the not-ready and unreachable NoExecute
// taints of every node of a zone with counted nodes and marks them
// TaintQueued: they are all not Ready. The taint manager's queued
// evictions of their pods find the taint gone. Their NoSchedule taints
// stay (markNodeAsReachable removes the NoExecute ones only): where their
// key matters the node keeps it, and its NoExecute taint gets it again
// when placed; elsewhere the key is decided again then.
func enterMasterDisruption(tx *model.Tx, s *model.State, z *zones) {
	first := true
	for n := range s.Nodes {
		k, ok := s.Nodes[n].Status.NodeDownTaint()
		if !ok || !z.lifted(n) {
			continue
		}
		held := s.Nodes[n].Status.Health().HeldBack()
		if tx.U.NodeDownKeyMatters {
			held = held.WithHeldNodeDownTaint(k)
		}
		setLifecycleTaints(tx.U, s, n, held)
		if tx.Tracing() {
			if first {
				tx.Log(NodeControllerComponent, "Every zone is in FullDisruption: entering master disruption mode, no node is tainted")
				first = false
			}
			tx.Log(NodeControllerComponent, "Removed the taint %s:NoExecute of node %s (master disruption mode)", model.NodeDownTaints[k], tx.U.Nodes[n].Name)
		}
	}
}

// taintQueuedNode taints one of the queued nodes whose zones let them be
// tainted now (any of them: a choice), as the zone's tainter does at its
// rate. It reports whether there was one.
func taintQueuedNode(tx *model.Tx, s *model.State, z *zones) bool {
	var buf [smallZones]int
	nodes := buf[:0]
	if z.taintable(s, &nodes) == 0 {
		return false
	}
	n := tx.ChooseNode(nodes)
	if tx.Tracing() {
		zone := tx.U.Zones.Of[n]
		tx.Log(NodeControllerComponent, "Zone %s is in %s: tainting node %s, which is still not Ready", tx.U.Zones.Names[zone],
			z.counts[zone].state(), tx.U.Nodes[n].Name)
	}
	taintNotReadyNode(tx, s, n)
	return true
}
