package intents

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestKeptPodIsNoReplica: under Kubernetes' lifecycle a pod deleted on a
// node that is not Ready stays Terminating there (model.KeepsTerminatingPod)
// and serves nothing: it is no replica, from its deletion to its removal,
// the node's return included. Under Kivi's lifecycle the kubelet removes
// it at its next step and it counts until then, as in Kivi.
func TestKeptPodIsNoReplica(t *testing.T) {
	for _, kivi := range []bool{false, true} {
		u, s := cluster(t, 2) // one Ready pod on each node, HPA minimum 2
		u.Options.KiviLifecycle = kivi
		in, err := New(u, "replica_num_always_meet_min", Params{"did": 1}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		mem := []byte{0}
		if msg := in.Watch.Observe(u, s, mem, nil); msg != "" || mem[0] != 1 {
			t.Fatalf("two Ready pods, min 2: %q stage %d", msg, mem[0])
		}
		model.SetNodeStatus(u, s, 1, model.NotReady)
		s.MarkTerminating(1)
		msg := in.Watch.Observe(u, s, mem, nil)
		if kivi {
			if msg != "" {
				t.Fatalf("Kivi's lifecycle: the pod counts until the kubelet removes it: %q", msg)
			}
			continue
		}
		if !strings.Contains(msg, ": 1, minimum 2") {
			t.Fatalf("a pod kept Terminating on a node that is not Ready: %q", msg)
		}
		model.SetNodeStatus(u, s, 1, model.Ready)
		if msg := in.Watch.Observe(u, s, mem, nil); !strings.Contains(msg, ": 1, minimum 2") {
			t.Fatalf("the node is back, the kubelet has not removed the pod yet: %q", msg)
		}
	}
}

// TestRolloutIgnoresKeptOldPod: `kubectl rollout status` counts no
// terminating pod, so an old ReplicaSet's pod that stays Terminating on a
// node that is not Ready does not hold rollout_completes back; one the
// kubelet of a Ready node is still removing does.
func TestRolloutIgnoresKeptOldPod(t *testing.T) {
	u, s := cluster(t, 3) // three available pods of the current ReplicaSet
	s.Deps[0].Replicas = 3
	in, err := New(u, "rollout_completes", Params{"did": 1}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	old := model.PodState{Phase: model.Terminating, WasRunning: true, Node: 2, Owner: 1, RS: 1 - s.Deps[0].Cur, CPU: 8, Memory: 8}
	s.Pods[3] = old
	if msg := in.Watch.Stuck(u, s, nil); msg == "" {
		t.Fatal("an old pod terminating on a Ready node: the rollout is not complete")
	}
	model.SetNodeStatus(u, s, 1, model.NotReady)
	if msg := in.Watch.Stuck(u, s, nil); msg != "" {
		t.Fatalf("an old pod kept Terminating on a node that is not Ready: %q", msg)
	}
}
