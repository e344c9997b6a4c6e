package evictiondiff

import (
	"flag"
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/fidelity/classify"
)

var cases = flag.Int("cases", 1500, "random cases TestDifferential compares (rapid checks)")

// genCase draws a case:
//   - a node of 1, 2 or 4 GiB with 0, 128 or 512 MiB reserved;
//   - evictionHard memory.available: the default 100Mi (one in three),
//     none (evictionHard lists nodefs only), another quantity (one not a
//     whole number of MiB among them) or a percentage;
//   - evictionSoft in half the cases, a quantity or a percentage, with a
//     grace period of 0, 30 s or 1 min; evictionMinimumReclaim in half
//     the cases, 0, a quantity or a percentage;
//   - 1–6 pods: a memory request of 0–512 MiB, a limit (none, the
//     request, or 256 MiB above it; a limit alone is the request too), a
//     priority (0, 100, 1000 or system-critical), a usage up to the limit
//     (else up to 1 GiB) in steps of 16 MiB, the pods' sum at most the
//     pods' cgroup limit (capacity less the reservations).
func genCase(t *rapid.T) *Case {
	c := &Case{
		Capacity: rapid.SampledFrom([]int64{1024, 2048, 4096}).Draw(t, "capacity"),
		Reserved: rapid.SampledFrom([]int64{0, 128, 512}).Draw(t, "reserved"),
		Hard:     rapid.SampledFrom([]string{"100Mi", "100Mi", "100Mi", "", "250Mi", "500Mi", "1G", "5%", "7.5%"}).Draw(t, "hard"),
	}
	if rapid.Bool().Draw(t, "soft") {
		c.Soft = rapid.SampledFrom([]string{"300Mi", "600Mi", "1Gi", "10%", "12.5%"}).Draw(t, "softValue")
		c.Grace = rapid.SampledFrom([]string{"0s", "30s", "1m"}).Draw(t, "grace")
	}
	if rapid.Bool().Draw(t, "reclaim") {
		c.MinimumReclaim = rapid.SampledFrom([]string{"0", "50Mi", "200Mi", "2%", "100M"}).Draw(t, "reclaimValue")
	}
	if a, _ := c.Allocatable(); a <= 0 {
		c.Reserved, c.Hard = 0, "100Mi"
	}
	limit := c.Capacity - c.Reserved
	var used int64
	for range rapid.IntRange(1, 6).Draw(t, "pods") {
		p := Pod{Request: rapid.SampledFrom([]int64{0, 64, 128, 256, 512}).Draw(t, "request")}
		switch rapid.IntRange(0, 2).Draw(t, "limit") {
		case 1:
			p.Limit = p.Request
		case 2:
			p.Limit = p.Request + 256
		}
		if p.Request == 0 {
			p.Request = p.Limit
		}
		p.Priority = rapid.SampledFrom([]int32{0, 0, 100, 1000, 2000000000}).Draw(t, "priority")
		most := int64(1024)
		if p.Limit > 0 {
			most = p.Limit
		}
		p.Usage = min(16*rapid.Int64Range(0, most/16).Draw(t, "usage"), limit-used)
		used += p.Usage
		c.Pods = append(c.Pods, p)
	}
	return c
}

// TestDifferential compares the model with the kubelet's eviction
// manager on -cases random cases: every disagreement must belong to a
// known class; rapid shrinks an unexplained one. The counts are logged.
func TestDifferential(t *testing.T) {
	classify.Checks(t, *cases, 1)
	counts := map[string]int{}
	n, pressured, evictions, several, none := 0, 0, 0, 0, 0
	rapid.Check(t, func(t *rapid.T) {
		c := genCase(t)
		v, err := Check(c, nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, c)
		}
		if v.Class == Unexplained {
			t.Fatalf("unexplained disagreement\n%smodel:    %s\nupstream: %s", c, v.Model, v.Upstream)
		}
		n++
		counts[v.Class]++
		if v.Upstream.Condition {
			pressured++
			if len(v.Upstream.Evicted) == 0 {
				none++
			}
		}
		evictions += len(v.Upstream.Evicted)
		if len(v.Upstream.Evicted) > 1 {
			several++
		}
	})
	t.Logf("%d cases: agree %d", n, counts[Agree])
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		if k != Agree {
			t.Logf("  %s: %d", k, counts[k])
		}
	}
	t.Logf("upstream: %d nodes under pressure (%d without an eviction), %d evictions, %d cases with several", pressured, none, evictions, several)
	if n >= 500 && (pressured == 0 || none == 0 || several == 0) {
		t.Errorf("a branch was never reached in %d cases: pressure %d, pressure without eviction %d, several evictions %d", n, pressured, none, several)
	}
}
