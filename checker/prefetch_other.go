//go:build !amd64 && !arm64

package checker

// prefetch does nothing where the engine has no prefetch instruction.
func prefetch(uintptr) {}
