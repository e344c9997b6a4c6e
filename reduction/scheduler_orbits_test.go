package reduction_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/controllers/scheduler"
	"github.com/kivi-go/kivi/model"
)

// TestSchedulerOncePerOrbit: the scheduler filters and scores the nodes
// of an orbit once (controllers/scheduler, orbitshortcut.go); from every
// reachable state of the symmetric clusters, the successors up to
// symmetry are exactly, in order, those of a scheduler that evaluates
// every node (Scheduler.EveryNode).
func TestSchedulerOncePerOrbit(t *testing.T) {
	clusters := symmetricClusters(t)
	rapid.Check(t, func(rt *rapid.T) {
		cl := rapid.SampledFrom(clusters).Draw(rt, "cluster")
		sys := cl.p.System
		ref := everyNode(sys)
		s := walk(rt, sys)
		got, want := upToSymmetry(sys, s), upToSymmetry(ref, s)
		if len(got) != len(want) {
			rt.Fatalf("%s: %d successors up to symmetry, %d evaluating every node\nstate:\n%s", cl.name, len(got), len(want), model.Describe(sys.U, s))
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				rt.Fatalf("%s: successor %d differs from the one evaluating every node\nstate:\n%s", cl.name, i, model.Describe(sys.U, s))
			}
		}
	})
}

// everyNode is sys with a scheduler that evaluates every node.
func everyNode(sys *compose.System) *compose.System {
	ref := sys.ForWorker()
	replaced := false
	for i := range ref.Actors {
		if _, ok := ref.Actors[i].Process.(scheduler.Scheduler); ok {
			ref.Actors[i].Process = scheduler.Scheduler{EveryNode: true}
			replaced = true
		}
	}
	if !replaced {
		panic("no scheduler among the actors")
	}
	return ref
}

// upToSymmetry returns the encodings of s's successors up to symmetry, in
// the order the system emits them, each with its step.
func upToSymmetry(sys *compose.System, s *model.State) [][]byte {
	var out [][]byte
	sys.CheckerSystem().(checker.SymmetricSuccessors[*model.State]).NextUpToSymmetry(s, func(st checker.Step, t *model.State) {
		enc := binary.AppendUvarint(nil, uint64(st.Actor))
		enc = binary.AppendUvarint(enc, uint64(st.Choice))
		enc = binary.AppendUvarint(enc, uint64(st.Marks))
		out = append(out, t.AppendEncoding(sys.U, enc))
	})
	return out
}
