//go:build amd64 || arm64

package checker

// prefetch asks the processor to bring the cache line at addr closer
// without waiting for it (and without faulting on any address): unlike
// a load, a miss does not hold up the instructions after it.
//
//go:noescape
func prefetch(addr uintptr)
