package model

import "fmt"

// MaintenanceOrder is the order in which a maintenance event takes the
// nodes.
type MaintenanceOrder uint8

const (
	// WrittenOrder takes the nodes in index order, as Kivi's
	// maintenance(p) does: the memory keeps the index of the next node.
	WrittenOrder MaintenanceOrder = iota
	// AnyOrder takes each next node among those not maintained yet, in
	// any order, as a managed node-pool upgrade (GKE, EKS, AKS, a
	// cluster-api MachineDeployment rollout, kured) does: the memory
	// keeps only each node's program counter, whose idle value marks
	// the nodes not maintained yet.
	AnyOrder
)

// maintenanceOrders are the spellings of the orders, by value.
var maintenanceOrders = []string{WrittenOrder: "written", AnyOrder: "any"}

func (o MaintenanceOrder) String() string {
	if int(o) < len(maintenanceOrders) {
		return maintenanceOrders[o]
	}
	return fmt.Sprintf("MaintenanceOrder(%d)", uint8(o))
}

// parseMaintenanceOrder reads a maintenance event's order ("" is the
// written order).
func parseMaintenanceOrder(s string) (MaintenanceOrder, error) {
	switch s {
	case "", "written":
		return WrittenOrder, nil
	case "any":
		return AnyOrder, nil
	}
	return 0, fmt.Errorf("order %q (accepted: written, the nodes in the order the cluster lists them, as Kivi; any, each next node among those not maintained yet): %w", s, ErrInvalid)
}

// MaintenanceIndexWidthOf is the number of bytes event e's memory gives
// the index of the next node: MaintenanceIndexWidth in the written
// order, none in any order, where the nodes' program counters alone
// are the memory.
func (u *Universe) MaintenanceIndexWidthOf(e *Event) int {
	if e.Order == AnyOrder {
		return 0
	}
	return u.MaintenanceIndexWidth()
}
