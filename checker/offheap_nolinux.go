//go:build !linux

package checker

// adviseRandom: no advice where the engine knows none.
func adviseRandom([]byte) {}

// releasePages: pages are given back when their block is unmapped.
func releasePages([]byte) {}
