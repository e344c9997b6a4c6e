package model_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// universe builds a small compiled universe: n nodes, slots pod slots, d
// deployments, one event of each kind that has memory. One in four has
// more pod slots than a byte refers to (Universe.WideRefs), one in six
// more nodes (Universe.WideNodes).
func universe(t *rapid.T) *model.Universe {
	b := build.New()
	nodes := rapid.IntRange(1, 5).Draw(t, "nodes")
	if rapid.IntRange(0, 5).Draw(t, "wide nodes") == 0 {
		nodes = rapid.IntRange(model.MaxObjects+1, 300).Draw(t, "nodes past a byte")
	}
	b.AddNodes(nodes, build.Node().Zone("a"))
	tmpl := b.AddTemplate(build.Template("app").Requests(8, 8).Label("app", "x"))
	for i := range rapid.IntRange(1, 3).Draw(t, "deployments") {
		b.AddDeployment(string(rune('a'+i)), tmpl, 2)
	}
	b.AddEvent(model.Event{Kind: model.KernelPanic})
	b.AddEvent(model.Event{Kind: model.Maintenance, Parallel: 1})
	b.Slots = rapid.IntRange(1, 8).Draw(t, "slots")
	if rapid.IntRange(0, 3).Draw(t, "wide") == 0 {
		b.Slots = rapid.IntRange(model.MaxObjects+1, 320).Draw(t, "wide slots")
	}
	u, _, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// randomState draws an arbitrary (not necessarily reachable) state of u.
func randomState(t *rapid.T, u *model.Universe, monitors int) *model.State {
	s := model.NewState(u, monitors)
	for i := range s.Nodes {
		// NotReady, Ready, Unhealthy or deleted (model.NodeDeleted).
		s.Nodes[i].Status = model.NodeStatus(rapid.IntRange(0, 3).Draw(t, "status"))
	}
	for i := range s.Pods {
		ph := model.Phase(rapid.IntRange(0, 4).Draw(t, "phase"))
		if ph == model.Free {
			continue
		}
		s.Pods[i] = model.PodState{Phase: ph, WasRunning: ph == model.Terminating && rapid.Bool().Draw(t, "was"),
			Node: uint16(rapid.IntRange(0, len(u.Nodes)).Draw(t, "node")), Owner: uint8(rapid.IntRange(0, len(u.Deployments)).Draw(t, "owner")),
			RS: uint8(rapid.IntRange(0, 1).Draw(t, "rs")), Template: 0, Pattern: uint8(rapid.IntRange(0, 3).Draw(t, "pattern")),
			CPU: int32(rapid.IntRange(-100, 100000).Draw(t, "cpu")), Memory: int32(rapid.IntRange(0, 300).Draw(t, "mem"))}
		if ph == model.Pending && rapid.IntRange(0, 3).Draw(t, "nominate") == 0 {
			// A nominated pod is Pending and unbound (model.PodState).
			s.Pods[i].Node = 0
			s.Pods[i].NominatedNode = uint16(rapid.IntRange(1, len(u.Nodes)).Draw(t, "nominated"))
		}
		if rapid.IntRange(0, 3).Draw(t, "stateful") == 0 {
			s.Pods[i].Ordinal = uint8(rapid.IntRange(1, model.MaxOrdinal+1).Draw(t, "ordinal"))
		}
		if ph == model.Running {
			// Only a Running pod carries a readiness other than Available.
			s.Pods[i].Readiness = model.Readiness(rapid.IntRange(0, 2).Draw(t, "readiness"))
		}
		if ph == model.Terminating || ph == model.Failed {
			// A failed pod of a Job with a podFailurePolicy carries its
			// DisruptionTarget condition and whether its containers ran.
			s.Pods[i].Failure = model.PodFailureFacts(rapid.IntRange(0, 3).Draw(t, "failure"))
		}
		if rapid.IntRange(0, 3).Draw(t, "restarted") == 0 {
			s.Pods[i].Restarts = uint8(rapid.IntRange(0, model.MaxRestarts).Draw(t, "restarts"))
		}
	}
	for d := range s.Deps {
		s.Deps[d] = model.DeploymentState{Active: rapid.Bool().Draw(t, "active"), Replicas: int16(rapid.IntRange(0, 500).Draw(t, "replicas")),
			HPA: uint8(rapid.IntRange(0, 3).Draw(t, "hpa")), Cur: uint8(rapid.IntRange(0, 1).Draw(t, "cur"))}
		s.Deps[d].RS[1].Template = uint8(rapid.IntRange(0, 2).Draw(t, "rstemplate"))
		if rapid.IntRange(0, 3).Draw(t, "annotated") == 0 {
			s.Deps[d].DesiredReplicas = int16(rapid.IntRange(0, 500).Draw(t, "desiredReplicas"))
			s.Deps[d].MaxReplicas[rapid.IntRange(0, 1).Draw(t, "maxSlot")] = int16(rapid.IntRange(0, 600).Draw(t, "maxReplicas"))
		}
		s.Deps[d].NewRSOlder = rapid.Bool().Draw(t, "newRSOlder")
		if rapid.IntRange(0, 3).Draw(t, "job") == 0 {
			ds := &s.Deps[d]
			ds.JobSucceeded = int16(rapid.IntRange(0, model.MaxJobCount).Draw(t, "succeeded"))
			ds.JobFailed = int16(rapid.IntRange(0, model.MaxJobCount).Draw(t, "failed"))
			ds.JobFinished = model.JobCondition(rapid.IntRange(0, 2).Draw(t, "finished"))
		}
	}
	ids, most := rapid.IntRange(0, 7), 4
	if u.WideRefs() {
		// Pod slots and nodes past a byte (the node-controller queue
		// holds nodes).
		ids, most = rapid.IntRange(0, max(len(s.Pods), len(s.Nodes))-1), 300
	}
	for q := range s.Queues {
		for _, id := range rapid.SliceOfNDistinct(ids, 0, most, rapid.ID[int]).Draw(t, "queue") {
			s.Enqueue(model.Queue(q), id)
		}
	}
	s.DeschedulerPending = rapid.Bool().Draw(t, "ds")
	s.Init = uint8(rapid.IntRange(0, 2).Draw(t, "init"))
	for i := range s.EventVars {
		s.EventVars[i] = uint8(rapid.IntRange(0, 3).Draw(t, "ev"))
	}
	if u.WideNodes() {
		// A maintenance past node 255 (its index takes two bytes).
		for _, e := range u.Events {
			if e.Kind == model.Maintenance {
				model.SetMaintenanceNext(s.EventVars[e.VarOffset:], u.MaintenanceIndexWidth(), rapid.IntRange(0, len(u.Nodes)).Draw(t, "maintenance next"))
			}
		}
	}
	for i := range s.Monitors {
		s.Monitors[i] = uint8(rapid.IntRange(0, 255).Draw(t, "mon"))
	}
	if rapid.Bool().Draw(t, "failed") {
		s.Fail(model.Failure(rapid.IntRange(1, 5).Draw(t, "failure")), rapid.IntRange(0, max(9, len(s.Pods), len(s.Nodes))).Draw(t, "arg"))
	}
	return s
}

// TestEncodingRoundTrip: decoding an encoding gives the state back, and
// two states have equal encodings iff they are equal.
func TestEncodingRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u := universe(t)
		monitors := rapid.IntRange(0, 3).Draw(t, "monitors")
		s := randomState(t, u, monitors)
		enc := s.AppendEncoding(u, nil)
		back, err := model.DecodeState(u, monitors, enc)
		if err != nil {
			t.Fatal(err)
		}
		opts := cmp.Options{cmpopts.EquateEmpty(), cmpopts.IgnoreUnexported(model.State{})}
		if diff := cmp.Diff(s, back, opts); diff != "" {
			t.Fatalf("round trip (-want +got):\n%s", diff)
		}
		other := randomState(t, u, monitors)
		same := cmp.Equal(s, other, opts)
		if same != (string(enc) == string(other.AppendEncoding(u, nil))) {
			t.Fatalf("equal states %v but equal encodings %v", same, !same)
		}
	})
}

// TestDecodeRejectsGarbage: truncated or extended encodings are errors,
// never panics.
func TestDecodeRejectsGarbage(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u := universe(t)
		s := randomState(t, u, 1)
		enc := s.AppendEncoding(u, nil)
		cut := rapid.IntRange(0, len(enc)-1).Draw(t, "cut")
		if _, err := model.DecodeState(u, 1, enc[:cut]); err == nil {
			t.Fatalf("decoded a truncated encoding (%d of %d bytes)", cut, len(enc))
		}
		if _, err := model.DecodeState(u, 1, append(enc, 0)); err == nil {
			t.Fatal("decoded an encoding with a trailing byte")
		}
	})
}

// TestQueueSemantics: FIFO with de-duplication of pending ids.
func TestQueueSemantics(t *testing.T) {
	s := &model.State{}
	for _, id := range []int{3, 1, 3, 2, 1} {
		s.Enqueue(model.KubeletQueue, id)
	}
	var got []int
	for {
		id, ok := s.Dequeue(model.KubeletQueue)
		if !ok {
			break
		}
		got = append(got, id)
	}
	if diff := cmp.Diff([]int{3, 1, 2}, got); diff != "" {
		t.Fatal(diff)
	}
	s.Enqueue(model.KubeletQueue, 3) // no longer pending: queued again
	if s.Empty(model.KubeletQueue) {
		t.Fatal("re-enqueue after dequeue was dropped")
	}
}

// TestTxEnumeratesEveryChoice: the System's enumeration of Choose calls
// visits every combination once, in depth-first order.
func TestTxEnumeratesEveryChoice(t *testing.T) {
	tx := model.NewTx(&model.Universe{})
	tx.Begin(nil, false)
	var got [][2]int
	for {
		a := tx.Choose(2)
		b := 0
		if a == 1 {
			b = tx.Choose(3) // the second choice exists on one branch only
		}
		got = append(got, [2]int{a, b})
		if !tx.Advance() {
			break
		}
		tx.Restart(false)
	}
	want := [][2]int{{0, 0}, {1, 0}, {1, 1}, {1, 2}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatal(diff)
	}
}
