package scheduler

import (
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// TestDecisionMemo: a long-lived cycle answers every question of long
// runs of changed states as the reference does. The changes are the
// ones that keep a decision key (swapping two pod slots, changing a
// pod's CPU usage: the memo must answer from what it remembered) and the
// smallest ones that change it (one bound pod starting to terminate or
// moving to another node or being rejected at admission, a pod of another
// owner or template, a node's status: the memo must not), so that a key that misses an input of the
// cycle answers a question with the answer to another.
func TestDecisionMemo(t *testing.T) {
	var decider cycle
	pr := defaultProfile()
	rapid.Check(t, func(t *rapid.T) {
		u, s := genCluster(t)
		for round := range rapid.IntRange(20, 120).Draw(t, "rounds") {
			if round > 0 {
				changeForMemo(t, u, s)
			}
			for pod := range s.Pods {
				if p := &s.Pods[pod]; p.Phase != model.Pending || p.Node != 0 {
					continue
				}
				want := referenceHosts(u, s, pod)
				if got := decider.hosts(&pr, u, s, pod); !slices.Equal(got, want) {
					t.Fatalf("round %d pod %d: hosts %v, want %v\n%s", round, pod+1, got, want, Explain(u, s, pod))
				}
			}
		}
	})
}

// changeForMemo makes one change to s (see TestDecisionMemo).
func changeForMemo(t *rapid.T, u *model.Universe, s *model.State) {
	i := rapid.IntRange(0, len(s.Pods)-1).Draw(t, "pod")
	p := &s.Pods[i]
	switch rapid.IntRange(0, 10).Draw(t, "change") {
	case 0, 7:
		j := rapid.IntRange(0, len(s.Pods)-1).Draw(t, "other")
		s.Pods[i], s.Pods[j] = s.Pods[j], s.Pods[i]
	case 1:
		p.CPU += 3
	case 2, 8, 9:
		if p.Node != 0 && p.Phase != model.Free {
			p.Phase = model.Terminating
		}
	case 3:
		if p.Phase == model.Terminating {
			p.Phase = model.Running
		}
	case 10:
		// Rejected at admission: it holds its requests in the model's
		// cycle, no host port.
		if p.Phase != model.Free && p.Node != 0 {
			p.Phase = model.Failed
		}
	case 4:
		if p.Phase != model.Free && p.Node != 0 {
			p.Node = uint16(rapid.IntRange(1, len(u.Nodes)).Draw(t, "node"))
		}
	case 5:
		p.Owner = uint8(rapid.IntRange(0, len(u.Deployments)).Draw(t, "owner"))
		p.Template = uint8(rapid.IntRange(0, len(u.Templates)-1).Draw(t, "template"))
	default:
		n := rapid.IntRange(0, len(s.Nodes)-1).Draw(t, "node")
		s.Nodes[n].Status = rapid.SampledFrom([]model.NodeStatus{model.Ready, model.NotReady, model.Unhealthy}).Draw(t, "status")
		s.Nodes[n].Cordoned = rapid.Bool().Draw(t, "cordoned")
	}
}

// TestDecisionMemoTable: the table on its own, against a map. A hit is
// always the answer stored last for that key, a key just stored is
// found, and growing loses no entry (the two keys of a set go to the two
// sets it splits into).
func TestDecisionMemoTable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u := &model.Universe{Nodes: make([]model.Node, 6)}
		var m decisionMemo
		keyLen := rapid.IntRange(1, 24).Draw(t, "keyLen")
		want := map[string][]int{}
		for range rapid.IntRange(1, 2000).Draw(t, "ops") {
			key := make([]byte, keyLen)
			key[0] = byte(rapid.IntRange(0, 255).Draw(t, "key"))
			key[keyLen-1] |= byte(rapid.IntRange(0, 3).Draw(t, "tail"))
			got, hit := m.find(u, key, nil)
			if w, ok := want[string(key)]; hit && (!ok || !slices.Equal(got, w)) {
				t.Fatalf("key %x: found %v, stored %v (stored: %v)", key, got, w, ok)
			}
			if hit {
				continue
			}
			top := rapid.SliceOfN(rapid.IntRange(0, 5), 0, 6).Draw(t, "top")
			m.store(u, key, top)
			want[string(key)] = top
			if got, hit := m.find(u, key, nil); !hit || !slices.Equal(got, top) {
				t.Fatalf("key %x just stored: found %v (%v), want %v", key, got, hit, top)
			}
			if m.slots < 1024 && rapid.IntRange(0, 20).Draw(t, "grow") == 0 {
				before := m.held()
				m.grow()
				if after := m.held(); !maps.Equal(after, before) {
					t.Fatalf("growing to %d slots: held %d keys, now %d", m.slots, len(before), len(after))
				}
				for k := range before {
					if got, hit := m.find(u, []byte(k), nil); !hit || !slices.Equal(got, want[k]) {
						t.Fatalf("growing to %d slots: key %x found %v (%v), stored %v", m.slots, k, got, hit, want[k])
					}
				}
			}
		}
	})
}

// held is the set of keys the memo holds.
func (m *decisionMemo) held() map[string]bool {
	out := map[string]bool{}
	for i, l := range m.lens {
		if l != 0 {
			out[string(m.keys[i*m.keyLen:][:m.keyLen])] = true
		}
	}
	return out
}
