package events

import "github.com/kivi-go/kivi/model"

// Maintenance program counter of one node (event memory byte w+n, where
// the first w bytes hold the index of the next node the driver waits for:
// model.MaintenanceIndexWidthOf, none in any order).
const (
	maintIdle    uint8 = iota // not started
	maintStarted              // maintenanceNode(n) started, node still up
	maintDown                 // node down, waiting for quiescence
	maintDone
)

// Maintenance is maintenance(p) with its maintenanceNode(i) children,
// as one process: a rolling maintenance of every node in
// index order, at most Parallel nodes at a time, or in any order
// (model.AnyOrder, maintenanceany.go). Its sub-actors are the driver,
// which starts nodes, and one per node, which takes the node down and,
// once the cluster is quiescent, back up.
type Maintenance struct {
	event int
	unanalysed
}

var (
	_ model.Process    = Maintenance{}
	_ model.EndChecker = Maintenance{}
)

func (Maintenance) Name() string { return "maintenance" }

func (m Maintenance) Enabled(u *model.Universe, s *model.State) bool {
	if !mayStart(u, s, m.event) {
		return false
	}
	return anyEnabled(1+len(s.Nodes), func(i int) bool { return m.subActorEnabled(u, s, i) })
}

// subActorEnabled: sub-actor 0 is the driver, sub-actor i the maintenance
// of node i-1.
func (m Maintenance) subActorEnabled(u *model.Universe, s *model.State, i int) bool {
	if i == 0 {
		if m.anyOrder(u) {
			return m.anyDriverEnabled(u, s)
		}
		return m.driverEnabled(u, s)
	}
	return m.nodeEnabled(u, s, i-1)
}

// Step lets one enabled sub-actor move: the driver first, then the nodes
// in index order.
func (m Maintenance) Step(tx *model.Tx, s *model.State) {
	u := tx.U
	if m.anyOrder(u) {
		m.anyStep(tx, s)
		return
	}
	i := chooseEnabled(tx, 1+len(s.Nodes), func(i int) bool { return m.subActorEnabled(u, s, i) })
	defer afterStep(u, s, m.event)
	switch {
	case i == 0:
		m.driverStep(u, s)
	case i > 0:
		m.nodeStep(tx, s, i-1)
	}
}

// driverEnabled: the node the driver waits for is Ready, not maintained,
// and fewer than Parallel nodes are in maintenance.
func (m Maintenance) driverEnabled(u *model.Universe, s *model.State) bool {
	mem, w := vars(u, s, m.event), u.MaintenanceIndexWidth()
	next, pcs := model.MaintenanceNext(mem, w), mem[w:]
	if next >= len(s.Nodes) || s.Nodes[next].Status != model.Ready || pcs[next] != maintIdle {
		return false
	}
	busy := 0
	for _, pc := range pcs {
		if pc == maintStarted || pc == maintDown {
			busy++
		}
	}
	return busy < u.Events[m.event].Parallel
}

// driverStep starts nodes while the condition holds, as Kivi's atomic
// sequence continues without releasing atomicity. It prints nothing
// (Kivi's line is level 3).
func (m Maintenance) driverStep(u *model.Universe, s *model.State) {
	mem, w := vars(u, s, m.event), u.MaintenanceIndexWidth()
	for m.driverEnabled(u, s) {
		next := model.MaintenanceNext(mem, w)
		mem[w+next] = maintStarted
		model.SetMaintenanceNext(mem, w, next+1)
	}
}

func (m Maintenance) nodeEnabled(u *model.Universe, s *model.State, n int) bool {
	switch vars(u, s, m.event)[u.MaintenanceIndexWidthOf(&u.Events[m.event])+n] {
	case maintStarted:
		return true
	case maintDown:
		return s.ControllerAndHPAQueuesEmpty()
	}
	return false
}

func (m Maintenance) nodeStep(tx *model.Tx, s *model.State, n int) {
	u := tx.U
	pc := &vars(u, s, m.event)[u.MaintenanceIndexWidthOf(&u.Events[m.event])+n]
	switch *pc {
	case maintStarted:
		*pc = maintDown
		model.SetNodeStatus(u, s, n, model.NotReady)
		s.Enqueue(model.NodeControllerQueue, n)
		if tx.Tracing() {
			tx.Log(NodeComponent, "Node %s goes down for maintenance: it is NotReady", u.Nodes[n].Name)
		}
	case maintDown:
		*pc = maintDone
		if tx.Tracing() {
			tx.Log(NodeComponent, "Node %s is back from maintenance: it is Ready", u.Nodes[n].Name)
		}
		// A node back Ready requests a descheduler cycle
		// (model.RequestDeschedulerCycle), which sees it back and empty.
		model.SetNodeReady(tx, s, n)
	}
}

// ValidEnd: the driver waiting for a node, or a node in maintenance, is
// not an end location (Kivi's invalid end state).
func (m Maintenance) ValidEnd(u *model.Universe, s *model.State) bool {
	if !mayStart(u, s, m.event) {
		return true
	}
	return maintenanceFinished(vars(u, s, m.event), u.MaintenanceIndexWidthOf(&u.Events[m.event]))
}

// maintenanceFinished: every node has been through its maintenance (the
// memory's index takes w bytes, none in any order).
func maintenanceFinished(mem []uint8, w int) bool {
	if w > 0 && model.MaintenanceNext(mem, w) < len(mem)-w {
		return false
	}
	for _, pc := range mem[w:] {
		if pc != maintDone {
			return false
		}
	}
	return true
}
