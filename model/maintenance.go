package model

import "encoding/binary"

// A maintenance event's memory (events/maintenance.go) is the index of
// the next node its driver waits for, then one program-counter byte per
// node. The index takes one byte, or two (little-endian) in a universe of
// more nodes than a byte numbers (wideNodes): MaintenanceIndexWidth.

// MaintenanceIndexWidth is the number of bytes a maintenance event's
// memory gives the index of the next node; the nodes' program counters
// follow it.
func (u *Universe) MaintenanceIndexWidth() int {
	if u.wideNodes {
		return 2
	}
	return 1
}

// MaintenanceNext reads the index of the next node from a maintenance
// event's memory whose index takes width bytes.
func MaintenanceNext(mem []byte, width int) int {
	if width == 2 {
		return int(binary.LittleEndian.Uint16(mem))
	}
	return int(mem[0])
}

// SetMaintenanceNext writes the index of the next node into a
// maintenance event's memory whose index takes width bytes.
func SetMaintenanceNext(mem []byte, width, next int) {
	if width == 2 {
		binary.LittleEndian.PutUint16(mem, uint16(next))
		return
	}
	mem[0] = byte(next)
}
