package model

import (
	"bytes"
	"encoding/binary"
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
			if rapid.IntRange(0, 3).Draw(t, "stateful") == 0 {
				p.Ordinal = uint8(rapid.IntRange(1, MaxOrdinal+1).Draw(t, "ordinal"))
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

// TestPodRuns: the encoding with runs reads back the pods it wrote, is
// a function of the pods (re-encoding the decoded pods gives the same
// bytes), and is never longer than the pod-by-pod encoding, on pods
// built from stretches that repeat earlier pods in every shape, broken
// stretches and lone pods.
func TestPodRuns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u := &Universe{Templates: []PodTemplate{{CPU: 100, Memory: 64}, {CPU: 250, Memory: 128}}}
		u.wideNodes = rapid.Bool().Draw(t, "wideNodes")
		maxNode := 255
		if u.wideNodes {
			maxNode = MaxNodes
		}
		requests := templateRequests(u)
		n := rapid.IntRange(1, 300).Draw(t, "slots")
		pods := make([]PodState, 0, n)
		for len(pods) < n {
			switch rapid.IntRange(0, 3).Draw(t, "stretch") {
			case 0, 1: // repeat an earlier pod with a shape
				period := rapid.IntRange(1, 5).Draw(t, "period")
				delta := rapid.IntRange(0, 1).Draw(t, "delta")
				if period > len(pods) {
					continue
				}
				for range rapid.IntRange(1, 12).Draw(t, "length") {
					if len(pods) == n {
						break
					}
					p := pods[len(pods)-period]
					if delta == 1 && p.Node != 0 && int(p.Node) < maxNode {
						p.Node++
					}
					pods = append(pods, p)
				}
			case 2: // Free slots
				for range rapid.IntRange(1, 6).Draw(t, "frees") {
					if len(pods) < n {
						pods = append(pods, PodState{})
					}
				}
			default: // a pod of its own
				tmpl := uint8(rapid.IntRange(0, 1).Draw(t, "template"))
				p := PodState{Phase: Phase(rapid.IntRange(1, 4).Draw(t, "phase")), Owner: uint8(rapid.IntRange(1, 3).Draw(t, "owner")),
					Template: tmpl, Node: uint16(rapid.IntRange(0, maxNode).Draw(t, "node")),
					CPU: int32(u.Templates[tmpl].CPU), Memory: int32(u.Templates[tmpl].Memory)}
				if p.Node == 0 && rapid.IntRange(0, 3).Draw(t, "nominated") == 0 {
					p.NominatedNode = uint16(rapid.IntRange(1, maxNode).Draw(t, "nominatedNode"))
				}
				if rapid.IntRange(0, 3).Draw(t, "stateful") == 0 {
					p.Ordinal = uint8(rapid.IntRange(1, 3).Draw(t, "ordinal"))
				}
				if rapid.IntRange(0, 3).Draw(t, "usage") == 0 {
					p.CPU = int32(rapid.IntRange(0, 5000).Draw(t, "cpu"))
				}
				pods = append(pods, p)
			}
		}
		if got, want := appendRunsInto(pods, requests, u.wideNodes), referencePodRuns(pods, requests, u.wideNodes); !bytes.Equal(got, want) {
			t.Fatalf("runs chosen differ from the plain greedy choice:\n%x\n%x", got, want)
		}
		enc := appendPodRuns(make([]byte, 19*len(pods)+1), 0, pods, requests, u.wideNodes)
		plain := appendPods(make([]byte, 19*len(pods)+1), 0, pods, requests, u.wideNodes)
		if enc > plain {
			t.Fatalf("%d bytes with runs, %d without", enc, plain)
		}
		b := appendRunsInto(pods, requests, u.wideNodes)
		back := make([]PodState, len(pods))
		end, err := decodePodRuns(back, b, 0, u, newPodHeads(u))
		if err != nil || end != len(b) {
			t.Fatalf("decode: %v, %d of %d bytes", err, end, len(b))
		}
		for i := range pods {
			if back[i] != pods[i] {
				t.Fatalf("pod %d decoded as %+v, want %+v", i, back[i], pods[i])
			}
		}
		if again := appendRunsInto(back, requests, u.wideNodes); !bytes.Equal(again, b) {
			t.Fatal("re-encoding the decoded pods gives other bytes")
		}
		if _, err := decodePodRuns(make([]PodState, len(pods)+1), b, 0, u, newPodHeads(u)); err == nil {
			t.Fatal("the pods of one slot fewer decoded as a whole state's")
		}
	})
}

// referencePodRuns is appendPodRuns' greedy choice written plainly: at
// each slot, every shape's run measured, the longest taken (the first
// shape on a tie) when it covers minPodRun pods.
func referencePodRuns(pods []PodState, requests *[256][2]int64, wide bool) []byte {
	b := make([]byte, 19*len(pods)+1)
	n := 0
	for i := 0; i < len(pods); {
		best, bestPeriod, bestDelta := 0, 0, 0
		for x := 0; ; x++ {
			period, delta, ok := runShape(x)
			if !ok {
				break
			}
			if period > i {
				continue
			}
			if k := runLength(pods, i, period, delta); k > best {
				best, bestPeriod, bestDelta = k, period, delta
			}
		}
		if best >= minPodRun {
			b[n], b[n+1] = podRun, byte(bestPeriod|bestDelta<<4)
			n += 2
			n += binary.PutUvarint(b[n:], uint64(best))
			i += best
			continue
		}
		n = appendPods(b, n, pods[i:i+1], requests, wide)
		i++
	}
	return b[:n]
}

// appendRunsInto returns the encoding with runs of pods.
func appendRunsInto(pods []PodState, requests *[256][2]int64, wide bool) []byte {
	b := make([]byte, 19*len(pods)+1)
	return b[:appendPodRuns(b, 0, pods, requests, wide)]
}

// TestSameButNode: the word compare that leaves Node out agrees with
// comparing the pods with their nodes cleared, on pairs that mostly
// differ in one field or none.
func TestSameButNode(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var base *PodState // b's fields mostly repeat a's
		field := func(name string, hi, of int) int {
			if base != nil && rapid.IntRange(0, 5).Draw(t, name+" kept") > 0 {
				return of
			}
			return rapid.IntRange(0, hi).Draw(t, name)
		}
		draw := func() PodState {
			var o PodState
			if base != nil {
				o = *base
			}
			return PodState{Phase: Phase(field("phase", 2, int(o.Phase))), WasRunning: field("was", 1, b2i(o.WasRunning)) == 1,
				Owner: uint8(field("owner", 1, int(o.Owner))), RS: uint8(field("rs", 1, int(o.RS))),
				Template: uint8(field("template", 1, int(o.Template))), Pattern: uint8(field("pattern", 1, int(o.Pattern))),
				Node: uint16(field("node", 300, int(o.Node))), NominatedNode: uint16(field("nominated", 1, int(o.NominatedNode))),
				Ordinal: uint8(field("ordinal", 1, int(o.Ordinal))), Readiness: Readiness(field("readiness", 2, int(o.Readiness))),
				Failure: PodFailureFacts(field("failure", 3, int(o.Failure))), Restarts: uint8(field("restarts", 2, int(o.Restarts))),
				CPU: int32(field("cpu", 2, int(o.CPU))), Memory: int32(field("memory", 2, int(o.Memory)))}
		}
		a := draw()
		base = &a
		b := draw()
		x, y := a, b
		x.Node, y.Node = 0, 0
		if got := sameButNode(&a, &b); got != (x == y) {
			t.Fatalf("sameButNode(%+v, %+v) = %v", a, b, got)
		}
	})
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
