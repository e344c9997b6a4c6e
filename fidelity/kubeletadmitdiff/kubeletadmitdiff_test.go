package kubeletadmitdiff

import (
	"flag"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/fidelity/classify"
)

var (
	cases = flag.Int("cases", 3000, "random cases TestKubeletAdmission compares (rapid checks)")
	seed  = flag.Uint64("seed", 1, "rapid's seed (0: a random one; -rapid.seed overrides it)")
)

// newKubelet starts the real admit handlers for t.
func newKubelet(t testing.TB) *Kubelet {
	t.Helper()
	k, err := NewKubelet()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	return k
}

// reached are the upstream outcomes every run of 1 000 cases or more
// must reach: a generator that stopped reaching one would compare less
// than it claims.
var reached = []string{"admitted", "admitted, preempting", "Evicted (The node had condition: [MemoryPressure])",
	"NodeAffinity", "NodePorts", "OutOfcpu", "OutOfmemory", "OutOfpods", "OutOfephemeral-storage",
	"OutOf" + Dongle, "TaintToleration", "UnexpectedAdmissionError"}

// TestKubeletAdmission compares the model's kubelet admission with the
// real kubelet's on -cases random cases: the same rejection reason, or
// both admit, or a known class explains the difference. The counts per
// outcome and class are logged (go test -v).
func TestKubeletAdmission(t *testing.T) {
	k := newKubelet(t)
	classify.Checks(t, *cases, *seed)
	var counts classify.Counter
	var mu sync.Mutex
	n, seen := 0, map[string]bool{}
	rapid.Check(t, func(rt *rapid.T) {
		c := GenCase(rt)
		v, err := Check(k, c, nil, Pipeline{})
		if err != nil {
			rt.Fatalf("%v\n%s", err, c)
		}
		if v.Class == Unexplained {
			rt.Fatalf("unexplained disagreement\n%smodel:    %s\nupstream: %s", c, v.Model, v.Upstream)
		}
		counts.Add("upstream: " + outcome(v.Upstream))
		mu.Lock()
		n++
		seen[outcome(v.Upstream)] = true
		mu.Unlock()
		if c.Daemon != nil {
			counts.Add("a DaemonSet's pod on the node")
		}
		if len(v.Model.Alternatives) > 1 {
			counts.Add("model: a choice among tied pods to preempt")
		}
		if s := c.Specs[c.New]; s.PodRequests != nil || s.PodLimits != nil {
			counts.Add("new pod with pod-level resources")
		}
		if v.Class == "" {
			counts.Add("agree")
			return
		}
		counts.Add("class: " + v.Class)
		counts.Add("class: " + v.Class + ": upstream " + outcome(v.Upstream))
	})
	counts.Log(t)
	for _, o := range reached {
		if n >= 1000 && !seen[o] {
			t.Errorf("no case of %d reached upstream outcome %q", n, o)
		}
	}
}

// outcome names upstream's answer: admitted (preempting or not) or the
// rejection's reason.
func outcome(r Result) string {
	switch {
	case r.Reason != "":
		return r.Reason
	case len(r.Preempted) > 0:
		return "admitted, preempting"
	}
	return "admitted"
}
