package model

import (
	"encoding/binary"
	"fmt"
)

// Pod runs. A state of a large cluster holds hundreds of pods, and its
// canonical form (reduction/symmetry) sorts them by content and then by
// node, so long stretches of pods repeat an earlier pod: Free slots,
// replicas one per node (node, node+1, …), replicas two per node (node,
// node, node+1, node+1, …). In a universe of more pod slots than
// MaxObjects (podRuns), the encoding writes such a stretch as one run
// token instead of pod by pod:
//
//	podRun, shape (period | delta<<4), count (uvarint)
//
// the next count pods each equal to the pod period slots before it, with
// its Node increased by delta (0 or 1; 1 only from a bound pod). The
// encoder chooses runs greedily from the first slot on: at each slot the
// longest run of the shapes runShape lists (the first on a tie), when it
// covers at least minPodRun pods, else the pod itself. The choice is a
// function of the pods, so equal states still encode equally, and the
// decoder expands runs back into the same pods, so different states
// encode differently. Smaller universes encode pod by pod, byte for byte
// as without runs, and keep the incremental encoding of derived states
// (derive.go), which runs would defeat: a changed pod ends or splits the
// runs around it.

// podRun announces a run: a non-zero byte without bit 4, which every pod
// header has, and other than nominatedPrefix and ordinalPrefix.
const podRun = 0x02

// minPodRun is the fewest pods a run token stands for.
const minPodRun = 3

// runShape returns the x-th shape the encoder tries (period, delta), and
// false past the last.
func runShape(x int) (period, delta int, ok bool) {
	switch x {
	case 0:
		return 1, 0, true // identical pods: Free slots, a node's replicas
	case 1:
		return 1, 1, true // one replica per node
	case 2:
		return 2, 1, true // two replicas per node
	case 3:
		return 2, 0, true
	case 4:
		return 3, 1, true
	case 5:
		return 4, 1, true
	}
	return 0, 0, false
}

// repeats reports whether p is q with its Node increased by delta.
func repeats(p, q *PodState, delta int) bool {
	if p.Node != q.Node+uint16(delta) || delta == 1 && q.Node == 0 {
		return false
	}
	return sameButNode(p, q)
}

// runLength returns how many pods from slot i on repeat, each, the pod
// period slots before it with delta.
func runLength(pods []PodState, i, period, delta int) int {
	k := 0
	for j := i; j < len(pods) && repeats(&pods[j], &pods[j-period], delta); j++ {
		k++
	}
	return k
}

// appendPodRuns writes the pods' encodings, with runs, into b from n on
// and returns the new length; b has room for every pod's longest
// encoding (a run takes fewer bytes than its pods).
func appendPodRuns(b []byte, n int, pods []PodState, requests *[256][2]int64, wide bool) int {
	for i := 0; i < len(pods); {
		best, bestPeriod, bestDelta := longestRun(pods, i)
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
	return n
}

// longestRun is the longest run from slot i of the shapes runShape
// lists, the first shape on a tie: appendPodRuns' greedy choice. A shape
// is measured only when slot i repeats under it (most slots start no run
// of any shape), and (2, 0) not after a run of (1, 0): pods that equal
// the pod before them equal the pod two before from the second on, so a
// (2, 0) run that went past the (1, 0) run would extend it; it is no
// longer, and the first shape wins the tie.
func longestRun(pods []PodState, i int) (best, period, delta int) {
	identical := 0 // the (1, 0) run's length
	for x := 0; ; x++ {
		p, d, ok := runShape(x)
		if !ok {
			return best, period, delta
		}
		if p > i || p == 2 && d == 0 && identical > 0 || !repeats(&pods[i], &pods[i-p], d) {
			continue
		}
		k := runLength(pods, i, p, d)
		if x == 0 {
			identical = k
		}
		if k > best {
			best, period, delta = k, p, d
		}
	}
}

// decodePodRuns reads what appendPodRuns wrote from enc at k into pods
// and returns where the pods end.
func decodePodRuns(pods []PodState, enc []byte, k int, u *Universe, heads *podHeads) (int, error) {
	var off [1]uint32
	for i := 0; i < len(pods); {
		if k >= len(enc) {
			return k, fmt.Errorf("decode state: pod %d: %w", i+1, ErrInvalid)
		}
		if enc[k] != podRun {
			var err error
			if k, err = decodePods(pods[i:i+1], off[:], enc, k, u, heads); err != nil {
				return k, fmt.Errorf("decode state: pod %d: %w", i+1, err)
			}
			i++
			continue
		}
		r := reader{b: enc, off: k + 1}
		shape := r.byte()
		count := r.uvarint()
		period, delta := int(shape&15), int(shape>>4)
		if r.err != nil || period < 1 || period > i || delta > 1 || count < minPodRun || count > uint64(len(pods)-i) {
			return r.off, fmt.Errorf("decode state: pod %d: run of shape %#x and %d pods: %w", i+1, shape, count, ErrInvalid)
		}
		if delta == 0 {
			// pods[j] = pods[j-period] over the run: the stretch from one
			// period before the run is periodic, and each copy doubles it.
			for done, end := i, i+int(count); done < end; {
				done += copy(pods[done:end], pods[i-period:done])
			}
		} else {
			for j := i; j < i+int(count); j++ {
				p := pods[j-period]
				if p.Node == 0 || p.Node == ^uint16(0) {
					return r.off, fmt.Errorf("decode state: pod %d: a run's next node after node %d: %w", j+1, p.Node, ErrInvalid)
				}
				p.Node++
				pods[j] = p
			}
		}
		i += int(count)
		k = r.off
	}
	return k, nil
}

// appendNodeRuns appends the nodes' bytes (NodeState.Byte) as runs of
// equal bytes (appendRuns): the nodes of a large cluster are mostly in
// one state.
func appendNodeRuns(dst []byte, nodes []NodeState) []byte {
	return appendRuns(dst, nodes, NodeState.Byte)
}

// nodeRuns reads what appendNodeRuns wrote into nodes, which must be
// filled exactly.
func (r *reader) nodeRuns(nodes []NodeState) {
	r.runs(len(nodes), func(i int, b byte) { nodes[i] = nodeStateOf(b) })
}

// appendByteRuns appends x as runs of equal bytes (appendRuns).
func appendByteRuns(dst, x []byte) []byte {
	return appendRuns(dst, x, func(b byte) byte { return b })
}

// byteRuns reads what appendByteRuns wrote into x, which must be filled
// exactly.
func (r *reader) byteRuns(x []byte) {
	r.runs(len(x), func(i int, b byte) { x[i] = b })
}

// appendRuns appends the bytes byteOf(x[0]), …, byteOf(x[n-1]) as runs
// of equal bytes, each its byte and its length as a uvarint (at most 3
// bytes per element). byteOf must be one to one, so that equal elements
// are equal bytes; runs are maximal, so equal contents encode equally.
func appendRuns[T comparable](dst []byte, x []T, byteOf func(T) byte) []byte {
	for i := 0; i < len(x); {
		j := i + 1
		for j < len(x) && x[j] == x[i] {
			j++
		}
		dst = append(dst, byteOf(x[i]))
		dst = binary.AppendUvarint(dst, uint64(j-i))
		i = j
	}
	return dst
}

// runs reads what appendRuns wrote for n bytes, giving each to set.
func (r *reader) runs(n int, set func(i int, b byte)) {
	for i := 0; i < n && r.err == nil; {
		b := r.byte()
		k := r.uvarint()
		if r.err != nil || k == 0 || k > uint64(n-i) {
			r.err = ErrInvalid
			return
		}
		for range k {
			set(i, b)
			i++
		}
	}
}
