package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// defaultMemoryBudget is the state-store budget when --max-memory is not
// given: a quarter of the machine's memory (the engine counts what it
// stores; the Go heap around it roughly doubles that), so that a search
// too large for the machine ends as Unknown (memory) after switching to
// bitstate instead of being killed. 4 GiB when the memory size cannot be
// read.
func defaultMemoryBudget() int64 {
	const fallback = 4 << 30
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return fallback
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kib, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil || kib <= 0 {
				return fallback
			}
			return kib * 1024 / 4
		}
	}
	return fallback
}
