package main

import (
	"bufio"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
)

// defaultMemoryBudget is the memory budget when --max-memory is not
// given: a quarter of the memory the process may use (the machine's, or
// its control group's limit when that is lower, as in a container with a
// memory limit), so that a search too large for it ends as Unknown
// (memory) after switching to bitstate instead of being killed, and the
// machine keeps room for other work. 4 GiB when the memory size cannot be
// read.
func defaultMemoryBudget() int64 { return memoryBudgetFrom(os.DirFS("/")) }

// memoryBudgetFrom is defaultMemoryBudget over the file system root.
func memoryBudgetFrom(root fs.FS) int64 {
	const fallback = 16 << 30
	total := memTotal(root)
	if total <= 0 {
		total = fallback
	}
	if limit := cgroupMemoryLimit(root); limit > 0 && limit < total {
		total = limit
	}
	return total / 4
}

// memTotal is MemTotal of /proc/meminfo in bytes, 0 when unreadable.
func memTotal(root fs.FS) int64 {
	f, err := root.Open("proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kib, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil || kib <= 0 {
				return 0
			}
			return kib * 1024
		}
	}
	return 0
}

// cgroupMemoryLimit is the lowest memory limit of the process's control
// group and its ancestors (cgroup v2 memory.max, v1
// memory.limit_in_bytes), 0 when there is none or it cannot be read.
func cgroupMemoryLimit(root fs.FS) int64 {
	f, err := root.Open("proc/self/cgroup")
	if err != nil {
		return 0
	}
	defer f.Close()
	var lowest int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// hierarchy-ID:controller-list:cgroup-path
		fields := strings.SplitN(sc.Text(), ":", 3)
		if len(fields) != 3 {
			continue
		}
		var dir, file string
		switch {
		case fields[0] == "0" && fields[1] == "":
			dir, file = "sys/fs/cgroup", "memory.max"
		case slices.Contains(strings.Split(fields[1], ","), "memory"):
			dir, file = "sys/fs/cgroup/memory", "memory.limit_in_bytes"
		default:
			continue
		}
		for p := path.Clean("/" + fields[2]); ; p = path.Dir(p) {
			if limit := readLimit(root, path.Join(dir, p, file)); limit > 0 && (lowest == 0 || limit < lowest) {
				lowest = limit
			}
			if p == "/" {
				break
			}
		}
	}
	return lowest
}

// readLimit reads a limit file: a byte count, or "max" (none, 0).
func readLimit(root fs.FS, name string) int64 {
	b, err := fs.ReadFile(root, name)
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

// goMemoryLimit is the Go runtime's soft memory limit for a run with the
// given budget. The budget bounds the engine's memory, which lives
// outside the Go heap (the runtime does not count it); what remains on
// the heap is the model's own working set, a few MiB, and the garbage it
// leaves between two collections. The limit keeps that garbage from
// growing with the heap's pacing beyond the allowance a run needs over
// its budget (docs/performance.md, "What the memory budget covers").
func goMemoryLimit(budget int64) int64 { return 48<<20 + budget/16 }
