//go:build !unix

package checker

// mapAnon: no anonymous mappings here; every block is on the Go heap.
func mapAnon(int) ([]byte, bool) { return nil, false }

func unmap([]byte) {}
