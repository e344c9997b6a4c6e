package model

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"
)

// TestPodFastPath: the encoder's and the decoder's fast paths for the
// common pod write and read exactly what the general appendPod and
// decodePod do, for pods drawn to hit both paths (small and large owners
// and templates, patterns, usage equal to the requests or not).
func TestPodFastPath(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 20).Draw(t, "templates")
		u := &Universe{Templates: make([]PodTemplate, n)}
		// A wide universe (more nodes than a byte numbers) writes nodes
		// on two bytes and takes no fast path.
		u.wideNodes = rapid.Bool().Draw(t, "wideNodes")
		maxNode := 255
		if u.wideNodes {
			maxNode = MaxNodes
		}
		for i := range u.Templates {
			u.Templates[i].CPU = int64(rapid.IntRange(0, 4000).Draw(t, "cpu"))
			u.Templates[i].Memory = int64(rapid.IntRange(0, 4000).Draw(t, "mem"))
		}
		requests := templateRequests(u)
		pods := make([]PodState, rapid.IntRange(1, 30).Draw(t, "pods"))
		for i := range pods {
			if rapid.IntRange(0, 4).Draw(t, "free") == 0 {
				continue
			}
			tmpl := uint8(rapid.IntRange(0, n-1).Draw(t, "template"))
			p := PodState{Phase: Phase(rapid.IntRange(1, 4).Draw(t, "phase")), WasRunning: rapid.Bool().Draw(t, "was"),
				Node: uint16(rapid.IntRange(0, maxNode).Draw(t, "node")), Owner: uint8(rapid.IntRange(0, 20).Draw(t, "owner")),
				RS: uint8(rapid.IntRange(0, 1).Draw(t, "rs")), Template: tmpl}
			if p.Node == 0 && rapid.IntRange(0, 3).Draw(t, "nominated") == 0 {
				p.NominatedNode = uint16(rapid.IntRange(1, maxNode).Draw(t, "nominatedNode"))
			}
			if rapid.IntRange(0, 3).Draw(t, "pattern") == 0 {
				p.Pattern = uint8(rapid.IntRange(1, 5).Draw(t, "patternIndex"))
			}
			p.CPU, p.Memory = int32(u.Templates[tmpl].CPU), int32(u.Templates[tmpl].Memory)
			if rapid.IntRange(0, 2).Draw(t, "usage") == 0 {
				p.CPU = int32(rapid.IntRange(-5, 5000).Draw(t, "cpuUsage"))
			}
			pods[i] = p
		}
		fast := make([]byte, 19*len(pods)+1)
		end := appendPods(fast, 0, pods, requests, u.wideNodes)
		fast = fast[:end]
		var general []byte
		for i := range pods {
			b := make([]byte, 19)
			k := 1
			if pods[i].Phase != Free {
				k = appendPod(b, 0, &pods[i], &requests[pods[i].Template], u.wideNodes)
			}
			general = append(general, b[:k]...)
		}
		if !bytes.Equal(fast, general) {
			t.Fatalf("fast path %x, general %x", fast, general)
		}
		back := make([]PodState, len(pods))
		off := make([]uint32, len(pods))
		k, err := decodePods(back, off, fast, 0, u, newPodHeads(u))
		if err != nil || k != len(fast) {
			t.Fatalf("decode: %v, %d of %d bytes", err, k, len(fast))
		}
		for i := range pods {
			if back[i] != pods[i] {
				t.Fatalf("pod %d decoded as %+v, want %+v", i, back[i], pods[i])
			}
			if pods[i].Phase == Free {
				continue
			}
			var p PodState
			if _, err := decodePod(&p, fast, int(off[i]), u); err != nil || p != pods[i] {
				t.Fatalf("pod %d: the general decoder reads %+v (%v), want %+v", i, p, err, pods[i])
			}
		}
	})
}
