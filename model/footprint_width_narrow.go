//go:build kivi_narrowfootprint

package model

// With the kivi_narrowfootprint build tag a Footprint has two node bits,
// one deployment bit and three event bits, so that the partial-order
// reduction's property tests, whose clusters are small, run with
// components sharing bits as a universe with more than 128 nodes does:
//
//	go test -tags kivi_narrowfootprint ./reduction/
const (
	footprintEvents = 3
	footprintDeps   = 1
	footprintNodes  = 2
)
