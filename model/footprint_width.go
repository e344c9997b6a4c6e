//go:build !kivi_narrowfootprint

package model

// The bits of a Footprint per kind of component; a universe with more
// shares them (see Footprint).
const (
	footprintEvents = 48
	footprintDeps   = 64
	footprintNodes  = 128
)
