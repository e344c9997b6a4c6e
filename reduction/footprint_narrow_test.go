//go:build kivi_narrowfootprint

package reduction_test

const narrowFootprint = true
