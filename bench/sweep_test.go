package bench

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

var (
	sweepSizes = flag.String("sweep", "", "TestRealisticSweep: comma-separated cluster sizes (e.g. 20,50,100); empty skips the sweep")
	sweepCount = flag.Int("sweep.count", 20, "TestRealisticSweep: random shapes per size")
	sweepTime  = flag.Duration("sweep.timeout", 10*time.Second, "TestRealisticSweep: the timeout of each verification")
	sweepSeed  = flag.Uint64("sweep.seed", 1, "TestRealisticSweep: the first shape's seed")
)

// TestRealisticSweep verifies random realistic shapes (RandomShape) at
// the sizes users run, as `kivi verify -f` does, and prints one line per
// shape: its verdict, the phase that gave it, states and time. Every
// shape must read and verify without error, and a run cut by its
// timeout must say Unknown with a reason; how many decide within the
// timeout is the figure to watch (docs/performance.md).
//
//	go test -run TestRealisticSweep -v ./bench/ -args -sweep 20,50,100
func TestRealisticSweep(t *testing.T) {
	if *sweepSizes == "" {
		t.Skip("no -sweep sizes")
	}
	for _, f := range strings.Split(*sweepSizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			t.Fatalf("-sweep %q: sizes are positive integers", *sweepSizes)
		}
		decided := 0
		for i := range *sweepCount {
			seed := *sweepSeed + uint64(i)
			sh := RandomShape(seed, n)
			line, ok := sweepOne(t, sh)
			if ok {
				decided++
			}
			t.Log(line)
		}
		t.Logf("nodes=%d: %d of %d decided within %v", n, decided, *sweepCount, *sweepTime)
	}
}

// sweepOne verifies one shape and describes the outcome; ok reports a
// decided verdict (holds or violated).
func sweepOne(t *testing.T, sh Shape) (line string, ok bool) {
	t.Helper()
	cl, err := sh.Cluster()
	if err != nil {
		t.Errorf("%s: %v", sh.Name, err)
		return sh.Name + ": input error", false
	}
	start := time.Now()
	rep, err := kivi.Verify(context.Background(), cl, kivi.Options{Checker: checker.Options{Timeout: *sweepTime}})
	if err != nil {
		if errorsIsBound(err) {
			return fmt.Sprintf("%-32s model bound: %v", sh.Name, err), false
		}
		t.Errorf("%s: %v", sh.Name, err)
		return sh.Name + ": error", false
	}
	v := rep.Verdict()
	for _, r := range rep.Unknown() {
		if r.Reason == checker.ReasonNone && r.Bound == "" {
			t.Errorf("%s: %s unknown without a reason", sh.Name, r.Name)
		}
	}
	var phases []string
	for _, p := range rep.Phases {
		phases = append(phases, fmt.Sprintf("%s:%d", p.Name, p.Stats.States))
	}
	if len(rep.CheckedIntents()) > 0 {
		phases = append(phases, fmt.Sprintf("checked within %d steps", rep.CheckedSteps()))
	}
	return fmt.Sprintf("%-32s %-8s %6.2fs %s", sh.Name, v, time.Since(start).Seconds(), strings.Join(phases, " ")),
		v != checker.Unknown
}
