//go:build race

package checker

// raceEnabled: under the race detector every block is on the Go heap
// (offHeap): the detector does not see the atomic operations on memory
// outside it, and so not the publication of the states stored there.
const raceEnabled = true
