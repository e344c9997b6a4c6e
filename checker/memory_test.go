package checker

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// tree is a system whose states form a complete binary tree: the state
// (d, i) has the successors (d+1, 2i) and (d+1, 2i+1) below depth Depth,
// and every state is encoded in Width bytes. Each BFS level holds as many
// states as all the levels before it, the shape in which the queued
// states are a large share of a run's memory.
type tree struct{ Depth, Width int }

func (t tree) Initial(emit func(uint64)) { emit(0) }
func (t tree) Next(x uint64, emit func(Step, uint64)) {
	if d := x >> 40; d < uint64(t.Depth) {
		i := x & (1<<40 - 1)
		emit(Step{}, (d+1)<<40|2*i)
		emit(Step{Choice: 1}, (d+1)<<40|(2*i+1))
	}
}
func (t tree) AppendEncoding(dst []byte, x uint64) []byte {
	for len := 0; len < t.Width; len += 8 {
		dst = binary.LittleEndian.AppendUint64(dst, x)
	}
	return dst
}
func (t tree) Decode(enc []byte) (uint64, error) { return binary.LittleEndian.Uint64(enc), nil }

// memoryChildEnv carries the options of TestMemoryBudgetChild.
const memoryChildEnv = "KIVI_CHECKER_MEMORY_CHILD"

// memoryChildResult is what TestMemoryBudgetChild reports.
type memoryChildResult struct {
	Verdict  Verdict
	Reason   Reason
	Switched bool
	States   int64
	PeakRSS  int64 // the process's high-water mark of resident memory
}

// TestMemoryBudgetChild explores a tree far larger than the budget that
// memoryChildEnv gives (budget bytes, workers, storage, strategy,
// cycles), and prints the result and the process's peak resident set.
func TestMemoryBudgetChild(t *testing.T) {
	spec := os.Getenv(memoryChildEnv)
	if spec == "" {
		t.Skip("run by TestPeakMemoryWithinBudget")
	}
	var budget int64
	var workers, storage, strategy, cycles int
	if _, err := fmt.Sscan(spec, &budget, &workers, &storage, &strategy, &cycles); err != nil {
		t.Fatal(err)
	}
	props := Properties[uint64]{Invariants: []Invariant[uint64]{{Name: "anything", Holds: func(uint64) bool { return true }}}}
	if cycles != 0 {
		props.Cycles = []Cycle{{Name: "any cycle"}}
	}
	res, err := Check[uint64](context.Background(), tree{Depth: 30, Width: 256}, props,
		Options{MaxMemory: budget, Workers: workers, Storage: Storage(storage), Strategy: Strategy(strategy)})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Properties[0]
	out, _ := json.Marshal(memoryChildResult{Verdict: p.Verdict, Reason: p.Reason, Switched: res.Stats.SwitchedToBitstate,
		States: res.Stats.States, PeakRSS: peakRSS(t)})
	fmt.Printf("RESULT %s\n", out)
}

// peakRSS is the process's VmHWM.
func peakRSS(t *testing.T) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kib, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kib << 10
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}

// TestPeakMemoryWithinBudget: a run far larger than its memory budget
// keeps its process's peak resident memory within the budget plus a
// small allowance (a tenth, and 64 MiB for the binary, the Go runtime
// and the System's own heap), through the exploration, the switch to
// bitstate, the exploration in bitstate mode and the cycle analysis, and
// ends Unknown for the memory budget. Each run is a child process (this
// test binary) whose high-water mark the kernel keeps. (DFS, which goes
// on in bitstate mode until its parent records fill the budget, takes
// too long for a test: bench's BenchmarkMemory measures it.)
func TestPeakMemoryWithinBudget(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status")
	}
	if raceEnabled {
		t.Skip("the race detector keeps everything on the heap and multiplies its size")
	}
	const budget = 256 << 20
	for _, tc := range []struct {
		name                               string
		workers, storage, strategy, cycles int
	}{
		{"exact/bfs/2 workers", 2, int(Exact), int(BFS), 0},
		{"hash-compaction/bfs", 1, int(HashCompaction), int(BFS), 0},
		{"exact/bfs/cycles", 1, int(Exact), int(BFS), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.name != "exact/bfs/2 workers" {
				t.Skip("short")
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryBudgetChild$", "-test.v")
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d %d %d %d %d", memoryChildEnv, budget, tc.workers, tc.storage, tc.strategy, tc.cycles))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var r memoryChildResult
			for _, line := range strings.Split(string(out), "\n") {
				if v, ok := strings.CutPrefix(line, "RESULT "); ok {
					if err := json.Unmarshal([]byte(v), &r); err != nil {
						t.Fatal(err)
					}
				}
			}
			limit := int64(budget + budget/10 + 64<<20)
			t.Logf("peak RSS %d MiB for a budget of %d MiB (limit %d MiB); %d states, switched %v, %v",
				r.PeakRSS>>20, budget>>20, limit>>20, r.States, r.Switched, r.Verdict)
			if r.PeakRSS == 0 || r.PeakRSS > limit {
				t.Errorf("peak RSS %d MiB, want at most %d MiB", r.PeakRSS>>20, limit>>20)
			}
			if r.Verdict != Unknown || r.Reason != ReasonMemory || !r.Switched {
				t.Errorf("%v (%v), switched %v: want Unknown for the memory budget after a switch to bitstate", r.Verdict, r.Reason, r.Switched)
			}
		})
	}
}

// roots is a system of N initial states, each encoded in 8 bytes, whose
// one successor is the next of them: a run stores the initial states and
// nothing else. expanded counts the expansions of each.
type roots struct {
	N        uint64
	expanded []atomic.Int32
}

func (r roots) Initial(emit func(uint64)) {
	for i := range r.N {
		emit(i)
	}
}
func (r roots) Next(x uint64, emit func(Step, uint64)) {
	r.expanded[x].Add(1)
	emit(Step{}, (x+1)%r.N)
}
func (r roots) AppendEncoding(dst []byte, x uint64) []byte {
	return binary.LittleEndian.AppendUint64(dst, x)
}
func (r roots) Decode(enc []byte) (uint64, error) { return binary.LittleEndian.Uint64(enc), nil }

// TestSwitchWhileStoringInitialStates: a budget that the initial states
// alone exceed makes a BFS run switch to bitstate while it stores them;
// the initial states queued before the switch (whose encodings the
// visited set kept) and after it (as copies) are all expanded, each from
// its own encoding, once.
func TestSwitchWhileStoringInitialStates(t *testing.T) {
	const n = 90_000
	props := Properties[uint64]{Invariants: []Invariant[uint64]{{Name: "initial", Holds: func(x uint64) bool { return x < n }}}}
	for _, workers := range []int{1, 2} {
		sys := roots{N: n, expanded: make([]atomic.Int32, n)}
		res, err := Check[uint64](context.Background(), sys, props, Options{Workers: workers, MaxMemory: 4 << 20})
		if err != nil {
			t.Fatal(err)
		}
		st := res.Stats
		if !st.SwitchedToBitstate || st.SwitchDepth != 0 || st.SwitchStates == 0 || st.SwitchStates >= n {
			t.Fatalf("%d workers: switched %v at depth %d with %d states, want a switch among the initial states",
				workers, st.SwitchedToBitstate, st.SwitchDepth, st.SwitchStates)
		}
		if p := res.Properties[0]; p.Verdict != Unknown || p.Reason != ReasonMemory {
			t.Fatalf("%d workers: %v", workers, p)
		}
		// Two workers also rank the level, which the budget pays for:
		// the run stops within it.
		if workers == 1 && (st.States < n*99/100 || st.Transitions != st.States) || st.Transitions == 0 {
			t.Fatalf("%d workers: %d states, %d transitions, want about %d and one per state", workers, st.States, st.Transitions, n)
		}
		var once int64
		for x := range sys.expanded {
			switch c := sys.expanded[x].Load(); {
			case c > 1:
				t.Fatalf("%d workers: state %d expanded %d times", workers, x, c)
			case c == 1:
				once++
			}
		}
		// A worker whose expansion is under way when another one stops
		// the run abandons it uncounted: at most one per worker.
		if once < st.Transitions || once > st.Transitions+int64(workers-1) {
			t.Fatalf("%d workers: %d states expanded, %d transitions", workers, once, st.Transitions)
		}
	}
}
