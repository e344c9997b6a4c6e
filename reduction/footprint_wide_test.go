//go:build !kivi_narrowfootprint

package reduction_test

// narrowFootprint is true under the kivi_narrowfootprint build tag, where
// components share footprint bits: the verdicts must stay, the amounts of
// reduction may not.
const narrowFootprint = false
