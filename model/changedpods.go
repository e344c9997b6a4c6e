package model

import (
	"bytes"
	"unsafe"
)

// DerivedFrom returns the state s was derived from (DeriveInto,
// DeriveCopyInto), nil when it was not: a successor the System built
// from the state it expands names that state. The symmetry reduction
// finds a successor's canonical form from its canonical parent's.
func (s *State) DerivedFrom() *State { return s.origin }

// AppendChangedPods appends to dst the slots whose pods differ between a
// and b (as memory, samePodBytes' view), in slot order, up to the shorter
// of the two: blocks of equal pods are skipped with one memory compare
// each, as a step changes a few pods.
func AppendChangedPods(dst []uint16, a, b []PodState) []uint16 {
	n := min(len(a), len(b))
	pa, pb := podBytesOf(a[:n]), podBytesOf(b[:n])
	for i := 0; i < n; {
		if i+podBlock <= n && bytes.Equal(pa[i*podBytes:(i+podBlock)*podBytes], pb[i*podBytes:(i+podBlock)*podBytes]) {
			i += podBlock
			continue
		}
		end := min(i+podBlock, n)
		for ; i < end; i++ {
			if !samePodBytes(&a[i], &b[i]) {
				dst = append(dst, uint16(i))
			}
		}
	}
	return dst
}

// SameButNodes reports whether a and b are equal in every field but the
// node they are bound and nominated to, whether each has a nominated node
// apart: pods that differ only in where they are.
func SameButNodes(a, b *PodState) bool {
	return sameButNode(a, b) || a.NominatedNode != 0 && b.NominatedNode != 0 && sameButNominated(a, b)
}

// sameButNominated is sameButNode for two pods with nominated nodes.
func sameButNominated(a, b *PodState) bool {
	c := *b
	c.Node, c.NominatedNode = a.Node, a.NominatedNode
	return samePodBytes(a, &c)
}

// SameNodeStates reports whether a and b hold equal node states, compared
// as memory.
func SameNodeStates(a, b []NodeState) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 {
		return true
	}
	const size = int(unsafe.Sizeof(NodeState{}))
	return bytes.Equal(unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), len(a)*size), unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), len(b)*size))
}
