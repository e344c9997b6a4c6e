//go:build unix

package checker

import "syscall"

// mapAnon maps n bytes of zeroed, private, anonymous memory.
func mapAnon(n int) ([]byte, bool) {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	return b, err == nil
}

func unmap(b []byte) { _ = syscall.Munmap(b) }
