//go:build kivi_narrowfootprint

package kivi_test

const narrowFootprint = true
