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
		if msg := in.Watch.Observe(u, s, mem, 0); msg != "" || mem[0] != 1 {
			t.Fatalf("two Ready pods, min 2: %q stage %d", msg, mem[0])
		}
		model.SetNodeStatus(u, s, 1, model.NotReady)
		s.MarkTerminating(1)
		msg := in.Watch.Observe(u, s, mem, 0)
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
		if msg := in.Watch.Observe(u, s, mem, 0); !strings.Contains(msg, ": 1, minimum 2") {
			t.Fatalf("the node is back, the kubelet has not removed the pod yet: %q", msg)
		}
	}
}
