package intents

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestMinWatchCountsReadyPods: the replica-count intents count the pods
// that serve. Two Running pods reach the HPA minimum 2 only once both are
// Ready; a pod the node lifecycle controller marks not Ready drops the
// count below it; a terminating pod that was Ready still counts until it
// is removed, one that was not Ready does not.
func TestMinWatchCountsReadyPods(t *testing.T) {
	u, s := cluster(t, 2)
	in, err := New(u, "replica_num_always_meet_min", Params{"did": 1}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mem := []byte{0}
	s.Pods[1].Readiness = model.PodNotReady
	if msg := in.Watch.Observe(u, s, mem, nil); msg != "" || mem[0] != 0 {
		t.Fatalf("one of two Running pods Ready, min 2: %q stage %d", msg, mem[0])
	}
	s.Pods[1].Readiness = model.PodReadyNotAvailable // Ready, minReadySeconds not yet passed
	if msg := in.Watch.Observe(u, s, mem, nil); msg != "" || mem[0] != 1 {
		t.Fatalf("both Ready: %q stage %d", msg, mem[0])
	}
	s.MarkTerminating(0) // was Ready: still a replica
	if msg := in.Watch.Observe(u, s, mem, nil); msg != "" {
		t.Fatalf("a Ready pod's deletion began: %q", msg)
	}
	s.Pods[1].Readiness = model.PodNotReady
	if msg := in.Watch.Observe(u, s, mem, nil); !strings.Contains(msg, "fewer replicas than its minimum") || !strings.Contains(msg, ": 1, minimum 2") {
		t.Fatalf("a pod marked not Ready: %q", msg)
	}
}

// TestRolloutWaitsForAvailable: `kubectl rollout status` waits for the
// updated replicas to be available, so a cluster that stops with an
// updated pod Running but not available has not completed its rollout.
func TestRolloutWaitsForAvailable(t *testing.T) {
	u, s := cluster(t, 3)
	s.Deps[0].Replicas = 3
	in, err := New(u, "rollout_completes", Params{"did": 1}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if msg := in.Watch.Stuck(u, s, nil); msg != "" {
		t.Fatalf("three available pods: %q", msg)
	}
	s.Pods[2].Readiness = model.PodReadyNotAvailable
	if msg := in.Watch.Stuck(u, s, nil); !strings.Contains(msg, "2 of 3 updated replicas available") {
		t.Fatalf("a pod not yet available: %q", msg)
	}
}
