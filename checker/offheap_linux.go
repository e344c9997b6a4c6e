//go:build linux

package checker

import "syscall"

// adviseRandom asks for transparent huge pages for a block that is read
// at random (the table): one TLB entry then covers 2 MiB instead of 4
// KiB. Where the kernel does not grant them, nothing changes.
func adviseRandom(b []byte) { _ = syscall.Madvise(b, 14 /* MADV_HUGEPAGE */) }

// releasePages gives the pages of b (page-aligned, in a mapping) back to
// the system (MADV_DONTNEED): they read as zeros afterwards.
func releasePages(b []byte) { _ = syscall.Madvise(b, 4 /* MADV_DONTNEED */) }
