package model

import "bytes"

// Incremental encoding. A successor differs from the state it was derived
// from in a few pods, and pods are the bulk of an encoding, so the
// successor's encoding copies the encoded bytes of every pod equal to
// the one its origin was decoded with instead of encoding it again.
//
// The bytes copied are those of the encoding the origin was decoded from,
// and a pod is compared with the pod that encoding holds (a copy the
// decoder keeps), not with the origin's current pod: a pod equal to it
// encodes to exactly those bytes whatever was done to the origin since.
// What the origin must not do while a state derived from it is encoded is
// be decoded again, which would replace the record.

// decodeRecord is what DecodeInto keeps of the encoding it decoded: the
// bytes, the pods they hold, and where each pod's bytes start (off[i];
// off[len(pods)] is where the pods end), for universe u; u is nil when
// there is no record.
type decodeRecord struct {
	u    *Universe
	enc  []byte
	pods []PodState
	off  []uint32
}

// DeriveInto makes dst a copy of s, like CopyTo, whose encoding may reuse
// the encoding s was decoded from (AppendEncoding) as long as s is not
// decoded again: the System derives each successor from the state it
// expands and encodes it before the next one.
func (s *State) DeriveInto(dst *State) {
	s.CopyTo(dst)
	if s.decoded.u != nil {
		dst.origin = s
	}
}

// appendPodsFrom is appendPods for a state derived from a decoded origin
// o: runs of pods equal to the pods o was decoded with are copied from
// o's encoding.
func appendPodsFrom(b []byte, n int, pods []PodState, o *decodeRecord, requests *[256][2]int64, wide bool) int {
	was := o.pods[:len(pods)]
	now, then := podBytesOf(pods), podBytesOf(was)
	same := false // pods[i] is known to be equal to was[i]
	for i := 0; i < len(pods); {
		// A step changes a few pods: skip equal blocks of pods with one
		// memory compare each, then go pod by pod.
		j := i
		if same {
			j++
		}
		for j+podBlock <= len(pods) && bytes.Equal(now[j*podBytes:(j+podBlock)*podBytes], then[j*podBytes:(j+podBlock)*podBytes]) {
			j += podBlock
		}
		for j < len(pods) && samePodBytes(&pods[j], &was[j]) {
			j++
		}
		if j > i {
			n += copy(b[n:], o.enc[o.off[i]:o.off[j]])
			i, same = j, false
			continue
		}
		// A permuted state differs in runs of pods: encode each run
		// in one call.
		for j++; j < len(pods) && !samePodBytes(&pods[j], &was[j]); j++ {
		}
		n = appendPods(b, n, pods[i:j], requests, wide)
		i, same = j, true
	}
	return n
}

// podBlock is how many pods appendPodsFrom compares at once.
const podBlock = 16
