package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"time"
)

// spinMode is one way of compiling and running pan.
type spinMode struct {
	Name  string
	Flags []string // gcc -D flags beyond the common ones
	// Bitstate runs use a fixed -w (bits = 2^w) and -k3, like our bitstate
	// run; the others size the hash table from the state count.
	Bitstate bool
}

// commonFlags: safety only (no cycle-detection code), partial-order
// reduction off, full state storage (no -DCOLLAPSE, no -DMA).
var commonFlags = []string{"-O2", "-w", "-DSAFETY", "-DNOREDUCE"}

var spinModes = []spinMode{
	{Name: "spin-exhaustive"},
	{Name: "spin-hc4", Flags: []string{"-DHC4"}},
	{Name: "spin-bitstate", Flags: []string{"-DBITSTATE"}, Bitstate: true},
	// Multi-core DFS needs its shared memory fixed at compile time
	// (MEMLIM, added per model in compileFlags).
	{Name: "spin-ncore2", Flags: []string{"-DNCORE=2"}},
}

// bitstateLog2 is the bit array size of both sides' bitstate runs.
const bitstateLog2 = 27

// panBuild is a compiled pan for one model, size and mode.
type panBuild struct {
	Dir, Exe string
	Compile  time.Duration // spin -a plus gcc
}

// buildPan generates and compiles pan in a fresh directory under work.
func buildPan(work, promela, param string, size int, mode spinMode, states int64) (panBuild, error) {
	dir := filepath.Join(work, fmt.Sprintf("%s-%d-%s", filepath.Base(promela), size, mode.Name))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return panBuild{}, err
	}
	start := time.Now()
	gen := exec.Command("spin", fmt.Sprintf("-D%s=%d", param, size), "-a", promela)
	gen.Dir = dir
	if out, err := gen.CombinedOutput(); err != nil {
		return panBuild{}, fmt.Errorf("spin -a %s: %w\n%s", promela, err, out)
	}
	args := append(append([]string{}, commonFlags...), mode.Flags...)
	if mode.Name == "spin-ncore2" {
		// shared memory for the state store: 4x a generous 200 B/state,
		// at least 512 MB
		mb := max(512, states*200*4>>20)
		args = append(args, fmt.Sprintf("-DMEMLIM=%d", mb))
	}
	args = append(args, "-o", "pan", "pan.c")
	cc := exec.Command("gcc", args...)
	cc.Dir = dir
	if out, err := cc.CombinedOutput(); err != nil {
		return panBuild{}, fmt.Errorf("gcc %v: %w\n%s", args, err, out)
	}
	return panBuild{Dir: dir, Exe: filepath.Join(dir, "pan"), Compile: time.Since(start)}, nil
}

// panArgs are pan's run-time options: -m the depth limit, -w the hash
// table (log2 slots) or bit array (log2 bits), -n no unreached-code report.
func panArgs(mode spinMode, states int64, depth int) []string {
	w := 10
	for int64(1)<<w < 2*states {
		w++
	}
	args := []string{fmt.Sprintf("-m%d", depth), "-n"}
	if mode.Bitstate {
		return append(args, fmt.Sprintf("-w%d", bitstateLog2), "-k3")
	}
	return append(args, fmt.Sprintf("-w%d", w))
}

// panStats is what pan prints at the end of a run.
type panStats struct {
	States, Transitions int64
	Depth               int
	Elapsed             time.Duration
	MemoryMB            float64 // "total actual memory usage"
}

var (
	reStored  = regexp.MustCompile(`(?m)^\s*([0-9.e+]+) states, stored`)
	reTrans   = regexp.MustCompile(`(?m)^\s*([0-9.e+]+) transitions`)
	reDepth   = regexp.MustCompile(`depth reached (\d+)`)
	reErrors  = regexp.MustCompile(`errors: (\d+)`)
	reElapsed = regexp.MustCompile(`elapsed time ([0-9.e+]+) seconds`)
	reMemory  = regexp.MustCompile(`(?m)^\s*([0-9.]+)\s+total actual memory usage`)
	reTooDeep = regexp.MustCompile(`max search depth too small`)
)

func parseFloat(re *regexp.Regexp, out string) (float64, bool) {
	m := re.FindStringSubmatch(out)
	if m == nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(m[1], 64)
	return f, err == nil
}

// parsePan reads pan's summary; a truncated or failed search is an error.
func parsePan(out string) (panStats, error) {
	if reTooDeep.MatchString(out) {
		return panStats{}, fmt.Errorf("pan: max search depth too small")
	}
	if e, ok := parseFloat(reErrors, out); !ok || e != 0 {
		return panStats{}, fmt.Errorf("pan reported errors or no summary:\n%s", out)
	}
	var s panStats
	st, ok1 := parseFloat(reStored, out)
	tr, ok2 := parseFloat(reTrans, out)
	if !ok1 || !ok2 {
		return panStats{}, fmt.Errorf("pan: no state count in output:\n%s", out)
	}
	s.States, s.Transitions = int64(st), int64(tr)
	if d, ok := parseFloat(reDepth, out); ok {
		s.Depth = int(d)
	}
	if e, ok := parseFloat(reElapsed, out); ok {
		s.Elapsed = time.Duration(e * float64(time.Second))
	}
	s.MemoryMB, _ = parseFloat(reMemory, out)
	return s, nil
}
