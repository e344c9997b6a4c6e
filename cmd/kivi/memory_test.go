package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
)

// TestDefaultMemoryBudget: a quarter of the machine's memory, or of the
// lowest memory limit of the process's control group and its ancestors
// when that is lower (cgroup v2 and v1); 4 GiB when nothing can be read.
func TestDefaultMemoryBudget(t *testing.T) {
	meminfo := &fstest.MapFile{Data: []byte("MemTotal:       25165824 kB\nMemFree: 1 kB\n")} // 24 GiB
	for _, tc := range []struct {
		name  string
		files fstest.MapFS
		want  int64
	}{
		{"machine", fstest.MapFS{"proc/meminfo": meminfo}, 6 << 30},
		{"nothing readable", fstest.MapFS{}, 4 << 30},
		{"cgroup v2 limit", fstest.MapFS{
			"proc/meminfo":                       meminfo,
			"proc/self/cgroup":                   {Data: []byte("0::/ci/job\n")},
			"sys/fs/cgroup/ci/job/memory.max":    {Data: []byte("max\n")},
			"sys/fs/cgroup/ci/memory.max":        {Data: []byte("4294967296\n")},
			"sys/fs/cgroup/memory.max":           {Data: []byte("max\n")},
			"sys/fs/cgroup/ci/job/memory.events": {Data: []byte("oom 0\n")},
		}, 1 << 30},
		{"cgroup v2 without limit", fstest.MapFS{
			"proc/meminfo":             meminfo,
			"proc/self/cgroup":         {Data: []byte("0::/\n")},
			"sys/fs/cgroup/memory.max": {Data: []byte("max\n")},
		}, 6 << 30},
		{"cgroup v1 limit", fstest.MapFS{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": {Data: []byte("4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n")},
			"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": {Data: []byte("2147483648\n")},
			"sys/fs/cgroup/memory/memory.limit_in_bytes":            {Data: []byte("9223372036854771712\n")},
		}, 512 << 20},
		{"limit above the machine", fstest.MapFS{
			"proc/meminfo":             meminfo,
			"proc/self/cgroup":         {Data: []byte("0::/\n")},
			"sys/fs/cgroup/memory.max": {Data: []byte("107374182400\n")},
		}, 6 << 30},
	} {
		if got := memoryBudgetFrom(tc.files); got != tc.want {
			t.Errorf("%s: %d MiB, want %d MiB", tc.name, got>>20, tc.want>>20)
		}
	}
}

// cliChildEnv carries the arguments of TestCLIChild, one a line.
const cliChildEnv = "KIVI_CLI_CHILD"

// TestCLIChild runs the command with the arguments cliChildEnv gives,
// as the kivi binary does, then prints its exit status and the process's
// peak resident memory (VmHWM, in KiB).
func TestCLIChild(t *testing.T) {
	args := os.Getenv(cliChildEnv)
	if args == "" {
		t.Skip("run by TestCLIPeakMemoryWithinBudget")
	}
	code := run(context.Background(), strings.Split(args, "\n"), os.Stdout, os.Stderr)
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			fmt.Printf("\nEXIT %d PEAK %s\n", code, strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
}

// TestCLIPeakMemoryWithinBudget: `kivi verify --max-memory 256MiB` on
// twelve nodes and three Deployments without symmetry reduction (far more
// states than fit) ends Unknown for the memory budget, exit status 3,
// with the process's peak resident memory within the budget plus a
// tenth and 64 MiB. The command runs in a child process (this test
// binary), whose high-water mark the kernel keeps.
func TestCLIPeakMemoryWithinBudget(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status")
	}
	const budget = 256 << 20
	args := []string{"verify", "-f", "testdata/memory/app.yaml", "--nodes", "testdata/memory/nodes.yaml",
		"--intents", "testdata/memory/intents.yaml", "--symmetry", "off", "--max-memory", "256MiB", "--json", "--quiet"}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCLIChild$")
	cmd.Env = append(os.Environ(), cliChildEnv+"="+strings.Join(args, "\n"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	i := strings.LastIndex(out, "\nEXIT ")
	if i < 0 {
		t.Fatalf("no exit status:\n%s\n%s", out, stderr.String())
	}
	var code int
	var peakKiB int64
	if _, err := fmt.Sscanf(out[i+1:], "EXIT %d PEAK %d", &code, &peakKiB); err != nil {
		t.Fatalf("%v: %q", err, out[i+1:])
	}
	var doc struct {
		Verdict string
		Intents []struct{ Name, Verdict, Reason string }
	}
	if err := json.Unmarshal([]byte(out[:strings.LastIndex(out[:i], "}")+1]), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	limit := int64(budget + budget/10 + 64<<20)
	t.Logf("peak RSS %d MiB for a budget of %d MiB (limit %d MiB)", peakKiB>>10, budget>>20, limit>>20)
	if peak := peakKiB << 10; peak > limit {
		t.Errorf("peak RSS %d MiB, want at most %d MiB", peak>>20, limit>>20)
	}
	if code != exitUnknown || doc.Verdict != "unknown" || len(doc.Intents) == 0 {
		t.Fatalf("exit %d, verdict %q: want %d, unknown\n%s", code, doc.Verdict, exitUnknown, out)
	}
	for _, in := range doc.Intents {
		if in.Verdict != "unknown" || in.Reason != "memory budget" {
			t.Errorf("%s: %s (%s), want unknown (memory budget)", in.Name, in.Verdict, in.Reason)
		}
	}
}
