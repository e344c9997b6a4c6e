package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kivi-go/kivi/bench/systems"
	"github.com/kivi-go/kivi/checker"
)

// The memory probe runs one large exploration under a memory budget in a
// child process (this test binary again, TestMemoryProbeChild) and
// reports the child's peak resident set (the kernel's high-water mark)
// against the budget, with what made it up at its highest sample: the Go
// runtime's share (heap in use, heap free but not returned, stacks and
// runtime metadata) and the rest, which is the engine's anonymous
// mappings (the table, the encodings, parent records, bit array) and the
// binary.
//
//	go test -run XXX -bench Memory -benchtime 1x ./bench/
//	KIVI_MEMPROBE='system=c3-20,budget=1GiB,workers=2' go test -run MemoryProbeChild -v ./bench/
//
// Fields of KIVI_MEMPROBE: system (c3-20: C3 at 10+10 nodes and 40
// replicas without symmetry, the largest built-in shape; c3-20-sym with
// symmetry; filter-N, philosophers-N: the SPIN comparison's models),
// budget (MaxMemory), workers, storage (exact, compact, bitstate),
// strategy (bfs, dfs), cycle (on: a cycle property, which records every
// edge and runs the cycle analysis; SPIN models only), timeout, gc (off:
// leave the Go memory limit alone).
const memProbeEnv = "KIVI_MEMPROBE"

// memProbe is what the child reports (one JSON line on stdout).
type memProbe struct {
	Budget       int64   `json:"budget"`
	PeakRSS      int64   `json:"peak_rss"` // VmHWM
	Verdict      string  `json:"verdict"`
	Reasons      string  `json:"reasons"`
	States       int64   `json:"states"`
	Switched     bool    `json:"switched"`
	SwitchStates int64   `json:"switch_states"`
	Seconds      float64 `json:"seconds"`
	VisitedBytes int64   `json:"visited_bytes"`
	ParentBytes  int64   `json:"parent_bytes"`
	// At the sample with the highest RSS.
	SampleRSS  int64  `json:"sample_rss"`
	GoHeapUsed int64  `json:"go_heap_used"` // objects, live or not yet swept
	GoHeapFree int64  `json:"go_heap_free"` // free, not returned to the OS
	GoOther    int64  `json:"go_other"`     // stacks, metadata, ...
	Outside    int64  `json:"outside"`      // RSS - Go resident: mappings, binary
	Phase      string `json:"phase"`
	Cycles     int64  `json:"gc_cycles"`
}

func probeConfig(s string) map[string]string {
	cfg := map[string]string{"system": "c3-20", "budget": "256MiB", "workers": "1", "storage": "exact", "timeout": "10m", "gc": "on", "strategy": "bfs", "cycle": "off"}
	for _, kv := range strings.Split(s, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			cfg[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return cfg
}

func parseBytes(t testing.TB, s string) int64 {
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return int64(n * float64(u.mult))
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// procStatus reads a "kB" field of /proc/self/status in bytes.
func procStatus(field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n << 10
		}
	}
	return 0
}

// TestMemoryProbeChild is the child of the memory probe; without
// KIVI_MEMPROBE it does nothing.
func TestMemoryProbeChild(t *testing.T) {
	spec := os.Getenv(memProbeEnv)
	if spec == "" {
		t.Skip("the memory probe's child: run by BenchmarkMemory")
	}
	cfg := probeConfig(spec)
	budget := parseBytes(t, cfg["budget"])
	workers, err := strconv.Atoi(cfg["workers"])
	if err != nil {
		t.Fatal(err)
	}
	timeout, err := time.ParseDuration(cfg["timeout"])
	if err != nil {
		t.Fatal(err)
	}
	opts := checker.Options{Workers: workers, MaxMemory: budget, Timeout: timeout, CollectAll: true}
	switch cfg["storage"] {
	case "compact":
		opts.Storage = checker.HashCompaction
	case "bitstate":
		opts.Storage = checker.Bitstate
	}
	if cfg["strategy"] == "dfs" {
		opts.Strategy = checker.DFS
	}
	if cfg["gc"] != "off" {
		// What the CLI does with the budget (cmd/kivi verifyCommand).
		debug.SetMemoryLimit(budget + budget/8)
	}

	var phase sync.Mutex
	phaseName := "setup"
	setPhase := func(p string) { phase.Lock(); phaseName = p; phase.Unlock() }
	var best memProbe
	samples := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/gc/cycles/total:gc-cycles"},
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			rss := procStatus("VmRSS")
			if rss <= best.SampleRSS {
				continue
			}
			metrics.Read(samples)
			total, released := int64(samples[0].Value.Uint64()), int64(samples[1].Value.Uint64())
			objects, unused, free := int64(samples[2].Value.Uint64()), int64(samples[3].Value.Uint64()), int64(samples[4].Value.Uint64())
			goResident := total - released
			best.SampleRSS = rss
			best.GoHeapUsed = objects + unused
			best.GoHeapFree = free
			best.GoOther = goResident - objects - unused - free
			best.Outside = rss - goResident
			best.Cycles = int64(samples[5].Value.Uint64())
			phase.Lock()
			best.Phase = phaseName
			phase.Unlock()
		}
	}()

	start := time.Now()
	var res probeResult
	system := cfg["system"]
	switch {
	case strings.HasPrefix(system, "c3-20"):
		p := reductionShape(t, "c3", true, 20, 40)
		opts.NoSymmetry = system != "c3-20-sym"
		opts.OnProgress = func(checker.Progress) { setPhase("explore") }
		rep, err := p.Check(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		res.verdict = rep.Verdict().String()
		for _, r := range rep.Results {
			if r.Verdict == checker.Unknown {
				res.reasons += r.Reason.String() + ";"
			}
		}
		res.stats = rep.Stats
	default:
		name, arg, _ := strings.Cut(system, "-")
		n, err := strconv.Atoi(arg)
		if err != nil {
			t.Fatalf("system %q", system)
		}
		var sys checker.System[systems.State]
		switch name {
		case "filter":
			sys = systems.NewFilter(n)
		case "philosophers":
			sys = systems.Philosophers{N: n}
		default:
			t.Fatalf("system %q", system)
		}
		opts.OnProgress = func(checker.Progress) { setPhase("explore") }
		var props checker.Properties[systems.State]
		if cfg["cycle"] == "on" {
			// Every cycle qualifies: the edges are recorded and the
			// analysis runs over the whole graph.
			props.Cycles = []checker.Cycle{{Name: "any cycle"}}
		}
		r, err := checker.Check(context.Background(), sys, props, opts)
		if err != nil {
			t.Fatal(err)
		}
		res.verdict = r.Verdict().String()
		for _, p := range r.Properties {
			res.reasons += p.Reason.String() + ";"
		}
		if r.Verdict() == checker.Holds {
			res.reasons = ""
		}
		res.stats = r.Stats
	}
	setPhase("done")
	close(stop)
	wg.Wait()
	best.Budget = budget
	best.PeakRSS = procStatus("VmHWM")
	best.Verdict, best.Reasons = res.verdict, res.reasons
	best.States = res.stats.States
	best.Switched, best.SwitchStates = res.stats.SwitchedToBitstate, res.stats.SwitchStates
	best.VisitedBytes, best.ParentBytes = res.stats.VisitedBytes, res.stats.ParentBytes
	best.Seconds = time.Since(start).Seconds()
	out, _ := json.Marshal(best)
	fmt.Printf("MEMPROBE %s\n", out)
	runtime.KeepAlive(res)
}

type probeResult struct {
	verdict, reasons string
	stats            checker.Stats
}

// runMemProbe runs the child with the given KIVI_MEMPROBE fields.
func runMemProbe(t testing.TB, spec string) memProbe {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryProbeChild$", "-test.v")
	cmd.Env = append(os.Environ(), memProbeEnv+"="+spec)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("memory probe %s: %v\n%s", spec, err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "MEMPROBE "); ok {
			var p memProbe
			if err := json.Unmarshal([]byte(v), &p); err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	t.Fatalf("memory probe %s: no result\n%s", spec, out)
	return memProbe{}
}

// BenchmarkMemory is the memory probe: peak RSS against the budget for
// budgets of 256 MiB, 1 GiB and 3 GiB (peak/budget is the figure of
// docs/performance.md; the target is at most 1.1 plus 64 MiB).
func BenchmarkMemory(b *testing.B) {
	var specs []string
	for _, budget := range []string{"256MiB", "1GiB", "3GiB"} {
		for _, workers := range []int{1, 2} {
			specs = append(specs, fmt.Sprintf("system=c3-20,budget=%s,workers=%d", budget, workers))
		}
	}
	for _, budget := range []string{"256MiB", "1GiB"} {
		specs = append(specs,
			fmt.Sprintf("system=c3-20,budget=%s,workers=2,storage=compact", budget),
			fmt.Sprintf("system=filter-7,budget=%s,workers=2", budget))
	}
	specs = append(specs, "system=filter-7,budget=256MiB,workers=1,cycle=on", "system=c3-20,budget=256MiB,workers=1,strategy=dfs")
	for _, spec := range specs {
		b.Run(strings.ReplaceAll(spec, ",", "/"), func(b *testing.B) {
			var p memProbe
			for b.Loop() {
				p = runMemProbe(b, spec)
			}
			b.ReportMetric(float64(p.PeakRSS)/(1<<20), "peak-MiB")
			b.ReportMetric(float64(p.PeakRSS)/float64(p.Budget), "peak/budget")
			b.ReportMetric(float64(p.States), "states")
			b.Logf("%+v", p)
		})
	}
}
