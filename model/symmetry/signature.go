package symmetry

import (
	"bytes"
	"encoding/binary"
	"sort"

	"github.com/kivi-go/kivi/model"
)

// notQueued is a node's queue position when it is not in the
// node-controller queue (queues hold at most 250 items).
const notQueued = 0xFF

// signatures returns, for every node of the blocks, the bytes that order
// it within its block: everything a future step can read of the node and
// that a permutation carries along with it. Fields have fixed widths, so
// equal signatures mean equal contents:
//
//	status, kernel-panic and maintenance memory, position in the
//	node-controller queue, whether a kernel-panic failure names the node,
//	then for each bound pod in slot order: slot, phase|wasRunning|rs,
//	owner, template, pattern, CPU and memory usage (4 bytes each).
//
// With pods fixed (podKeys nil) pod slots are part of the signature: two
// nodes tie only when neither holds a pod. With pods permuted the node
// carries the sorted multiset of its pods' content keys instead (podKey:
// no slot, no node), so the signature does not depend on pod slots and
// two nodes tie exactly when swapping them, together with a matching of
// their pods, is the identity on the state.
func (c *Canonicalizer) signatures(s *model.State, blocks [][]int, podKeys [][]byte) [][]byte {
	sigs := make([][]byte, len(s.Nodes))
	for _, block := range blocks {
		for _, n := range block {
			sig := make([]byte, 0, 16)
			sig = append(sig, byte(s.Nodes[n].Status))
			sig = c.layout.appendNode(sig, s, n)
			sig = append(sig, queuePosition(s.Queues[model.NodeControllerQueue], n))
			failed := byte(0)
			if s.Failed == model.FailKernelPanic && int(s.FailedArg) == n {
				failed = 1
			}
			sig = append(sig, failed)
			sigs[n] = sig
		}
	}
	if podKeys != nil {
		return appendPodMultisets(sigs, s, podKeys)
	}
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Phase == model.Free || p.Node == 0 {
			continue
		}
		n := int(p.Node) - 1
		if n >= len(sigs) || sigs[n] == nil {
			continue
		}
		h := byte(p.Phase) | p.RS<<3
		if p.WasRunning {
			h |= 1 << 2
		}
		sig := append(sigs[n], byte(i), h, p.Owner, p.Template, p.Pattern)
		sig = binary.BigEndian.AppendUint32(sig, uint32(p.CPU))
		sigs[n] = binary.BigEndian.AppendUint32(sig, uint32(p.Memory))
	}
	return sigs
}

func queuePosition(q []uint8, n int) byte {
	for i, x := range q {
		if int(x) == n {
			return byte(i)
		}
	}
	return notQueued
}

// appendPodMultisets appends to each node's signature the count and the
// sorted content keys of the pods bound to it.
func appendPodMultisets(sigs [][]byte, s *model.State, podKeys [][]byte) [][]byte {
	onNode := make([][][]byte, len(sigs))
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Phase == model.Free || p.Node == 0 {
			continue
		}
		n := int(p.Node) - 1
		if n < len(sigs) && sigs[n] != nil {
			onNode[n] = append(onNode[n], podKeys[i])
		}
	}
	for n, keys := range onNode {
		if sigs[n] == nil {
			continue
		}
		sort.Slice(keys, func(a, b int) bool { return bytes.Compare(keys[a], keys[b]) < 0 })
		sigs[n] = append(sigs[n], byte(len(keys)))
		for _, k := range keys {
			sigs[n] = append(sigs[n], k...)
		}
	}
	return sigs
}
