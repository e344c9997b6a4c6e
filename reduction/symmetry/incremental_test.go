package symmetry

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// intervalCanonicalizer draws a canonicaliser that planFrom serves:
// pods move, no per-node event memory, classes that are intervals of
// node indices.
func intervalCanonicalizer(t *rapid.T) *Canonicalizer {
	N := rapid.IntRange(1, 24).Draw(t, "nodes")
	c := &Canonicalizer{layout: nodeMemory{nodes: N, width: 1}, pods: true}
	for lo := 0; lo < N; {
		hi := rapid.IntRange(lo+1, N).Draw(t, "class end")
		if hi-lo > 1 {
			c.classes = append(c.classes, nodeIndices(hi)[lo:])
		}
		lo = hi
	}
	c.kubeletSet = rapid.Bool().Draw(t, "kubeletSet")
	c.taintSet = rapid.Bool().Draw(t, "taintSet")
	c.incremental = c.incrementalApplies()
	return c
}

// randomPod draws a pod's content like randomState's (no odd values).
func randomPod(t *rapid.T, N int) model.PodState {
	var p model.PodState
	p.Phase = model.Phase(rapid.IntRange(0, 4).Draw(t, "phase"))
	if p.Phase == model.Free {
		return p
	}
	p.Node = uint16(rapid.IntRange(0, N).Draw(t, "node"))
	if p.Node == 0 && rapid.IntRange(0, 3).Draw(t, "nominate") == 0 {
		p.NominatedNode = uint16(rapid.IntRange(1, N).Draw(t, "nominated"))
	}
	p.Owner = uint8(rapid.IntRange(0, 2).Draw(t, "owner"))
	p.RS = uint8(rapid.IntRange(0, 1).Draw(t, "rs"))
	p.WasRunning = rapid.Bool().Draw(t, "wasRunning")
	p.Template = uint8(rapid.IntRange(0, 1).Draw(t, "template"))
	p.Ordinal = uint8(rapid.IntRange(0, 1).Draw(t, "ordinal"))
	p.Readiness = model.Readiness(rapid.IntRange(0, 1).Draw(t, "readiness"))
	p.CPU = int32(rapid.SampledFrom([]int{0, 100, -1}).Draw(t, "cpu"))
	p.Memory = int32(rapid.SampledFrom([]int{0, 100}).Draw(t, "memory"))
	return p
}

// mutate draws a successor of s: a few pods changed, queue items taken
// from the front, appended, removed or swapped, node states changed,
// and now and then a change planFrom leaves to planOrbits.
func mutate(t *rapid.T, s *model.State) *model.State {
	u := s.Clone()
	N, S := len(u.Nodes), len(u.Pods)
	for range rapid.IntRange(0, 3).Draw(t, "pods changed") {
		if S > 0 {
			u.Pods[rapid.IntRange(0, S-1).Draw(t, "pod")] = randomPod(t, N)
		}
	}
	for _, q := range podQueues {
		items := u.Queues[q]
		switch rapid.IntRange(0, 6).Draw(t, "queue op") {
		case 0:
			if len(items) > 0 {
				items = items[rapid.IntRange(1, len(items)).Draw(t, "popped"):]
			}
		case 1:
			if S > 0 {
				items = append(items, uint16(rapid.IntRange(0, S-1).Draw(t, "pushed")))
			}
		case 2:
			if len(items) > 0 {
				i := rapid.IntRange(0, len(items)-1).Draw(t, "removed")
				items = slices.Delete(slices.Clone(items), i, i+1)
			}
		case 3:
			if len(items) > 1 {
				items = slices.Clone(items)
				i := rapid.IntRange(0, len(items)-2).Draw(t, "swapped")
				items[i], items[i+1] = items[i+1], items[i]
			}
		case 4:
			items = nil
		}
		u.Queues[q] = items
	}
	for range rapid.IntRange(0, 1).Draw(t, "nodes changed") {
		n := rapid.IntRange(0, N-1).Draw(t, "node")
		u.Nodes[n].Status = model.NodeStatus(rapid.IntRange(0, 1).Draw(t, "status"))
		u.Nodes[n].Cordoned = rapid.Bool().Draw(t, "cordoned")
	}
	if rapid.IntRange(0, 9).Draw(t, "rare change") == 0 {
		u.Failed = model.Failure(rapid.IntRange(0, 2).Draw(t, "failed"))
		u.FailedArg = uint16(rapid.IntRange(0, max(S, N)).Draw(t, "failedArg"))
	}
	return u
}

// TestIncrementalPlanMatchesFull: on successors of canonical states,
// planFrom, when it applies, gives planOrbits' permutations, queue
// sorting and orbits exactly, and AppendRepresentativeOf the bytes of
// AppendRepresentative.
func TestIncrementalPlanMatchesFull(t *testing.T) {
	var applied, tried int
	rapid.Check(t, func(t *rapid.T) {
		c := intervalCanonicalizer(t)
		c.u = &model.Universe{}
		w := new(scratch)
		for range 3 {
			s := randomState(t, c)
			if rapid.Bool().Draw(t, "plain") {
				// Mostly reachable-looking states: no odd values.
				for i := range s.Pods {
					s.Pods[i] = randomPod(t, len(s.Nodes))
				}
				s.Failed, s.FailedArg = model.NoFailure, 0
			}
			parent := c.Canonical(s).Clone()
			labels := c.NodeOrbits(parent, nil)
			c.Expanding(parent, labels)
			p := c.parent
			c.prepare(p)
			for range 3 {
				u := mutate(t, parent)
				tried++
				orbits := slices.Clone(identityOrbits(w, len(u.Nodes)))
				var perm, podPerm []int
				var sortKQ, moved, ok bool
				if p.usable {
					perm, podPerm, sortKQ, moved, ok = c.planFrom(w, p, u, orbits)
				}
				perm, podPerm = slices.Clone(perm), slices.Clone(podPerm)
				if ok {
					applied++
					wantOrbits := slices.Clone(identityOrbits(w, len(u.Nodes)))
					wantPerm, wantPodPerm, wantKQ, wantMoved := c.planOrbits(w, u, wantOrbits)
					if moved != wantMoved || moved && sortKQ != wantKQ {
						t.Fatalf("moved %v sortKQ %v, full plan %v %v", moved, sortKQ, wantMoved, wantKQ)
					}
					if !slices.Equal(full(perm, len(u.Nodes)), full(wantPerm, len(u.Nodes))) {
						t.Fatalf("node permutation %v, full plan %v", perm, wantPerm)
					}
					if !slices.Equal(full(podPerm, len(u.Pods)), full(wantPodPerm, len(u.Pods))) {
						fp, fw := full(podPerm, len(u.Pods)), full(wantPodPerm, len(u.Pods))
						for i := range fp {
							if fp[i] != fw[i] {
								t.Logf("slot %d: %v -> %d want %d key %x parent %+v mark %d", i, u.Pods[i], fp[i], fw[i], p.key(i), parent.Pods[i], p.mark[i])
							}
						}
						t.Logf("changed %v moving %v queues %v / %v failed %v %v", p.changed, p.moving, parent.Queues, u.Queues, u.Failed, u.FailedArg)
						t.Fatalf("pod permutation %v, full plan %v", podPerm, wantPodPerm)
					}
					if !slices.Equal(orbits, wantOrbits) {
						t.Fatalf("orbits %v, full plan %v", orbits, wantOrbits)
					}
				}
				key, enc := c.AppendRepresentativeOf(nil, nil, u, parent)
				wantKey, wantEnc := c.AppendRepresentative(nil, nil, u)
				if string(key) != string(wantKey) || string(enc) != string(wantEnc) {
					t.Fatalf("AppendRepresentativeOf differs from AppendRepresentative (ok %v usable %v):\n%x\n%x\n%x\n%x", ok, p.usable, key, wantKey, enc, wantEnc)
				}
			}
		}
	})
	t.Logf("planFrom applied to %d of %d successors", applied, tried)
	if applied < tried/4 {
		t.Fatalf("planFrom applied to %d of %d successors only", applied, tried)
	}
}

// full extends a plan's permutation (nil: identity; shorter: the rest
// stays) to n items.
func full(perm []int, n int) []int {
	out := slices.Clone(perm)
	for i := len(out); i < n; i++ {
		out = append(out, i)
	}
	return out
}
