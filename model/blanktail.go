package model

import "encoding/binary"

// BlankTail returns where the trailing run of zero pods of pods begins
// (PodState{}: Free slots with nothing in them), len(pods) when the last
// pod is not zero. New pods take the lowest Free slot, so most states
// end in such a run, and the symmetry reduction leaves it out of its
// sorts. It reads the pods as memory, eight bytes at a time from the end
// (samePodBytes' view): a pod is zero when all its bytes are, its padding
// byte included, which nothing writes; were it not zero, the run would
// only end early.
func BlankTail(pods []PodState) int {
	b := podBytesOf(pods)
	i := len(b)
	for i >= 8 && binary.LittleEndian.Uint64(b[i-8:i]) == 0 {
		i -= 8
	}
	for i > 0 && b[i-1] == 0 {
		i--
	}
	// b[i-1] is the last byte that is not zero: its pod is the last
	// one that is not zero.
	return (i + podBytes - 1) / podBytes
}
