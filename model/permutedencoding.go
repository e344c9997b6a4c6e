package model

import (
	"encoding/binary"
	"unsafe"
)

// PermutedPods are the pods of a state given as a rearrangement of
// another state's (a symmetry's canonical form, reduction/symmetry):
// slot j holds Src[Order[j]] for j < len(Order) and Src[j] beyond, with
// every node reference (Node, NominatedNode) v below len(Rename) read as
// Rename[v]. Order nil leaves the slots in place; Rename nil, the nodes.
type PermutedPods struct {
	Src    []PodState
	Order  []int
	Rename []uint16
	// FreeTail: the slots from len(Order) on are Free.
	FreeTail bool
	// buf holds the rearranged pods where the encoding needs them laid
	// out (a universe whose pods encode as runs), order Order with the
	// slots past it spelled out.
	buf   []PodState
	order []int
	// usage holds, for the templates below 16 (the only ones the common
	// pod layout packs), the CPU and memory requests as the eight bytes
	// of a pod's usage that equal them, of the requests table usageOf;
	// usageFits: every one of them fits those bytes.
	usage     [16]uint64
	usageFits bool
	usageOf   *[256][2]int64
}

// AppendEncodingPermuted appends the encoding of s with its pods those
// of p, to dst: what AppendEncoding appends for a copy of s whose Pods
// are p's rearrangement, without building that copy. s.Pods is not read.
func (s *State) AppendEncodingPermuted(u *Universe, dst []byte, p *PermutedPods) []byte {
	dst = s.appendHead(u, dst, len(p.Src))
	requests := u.templateRequests
	if requests == nil {
		requests = templateRequests(u)
	}
	b := dst[:cap(dst)]
	var n int
	switch {
	case u.podRuns:
		// Runs compare neighbouring pods: lay them out first.
		n = appendPodRuns(b, len(dst), p.layOut(), requests, u.wideNodes)
	case u.wideNodes:
		n = appendPods(b, len(dst), p.layOut(), requests, true)
	default:
		n = p.appendNarrow(b, len(dst), requests)
	}
	return s.appendTail(u, b[:n])
}

// layOut returns p's pods as a slice (in p.buf).
func (p *PermutedPods) layOut() []PodState {
	pods := append(p.buf[:0], p.Src...)
	p.buf = pods
	for j, i := range p.Order {
		pods[j] = p.Src[i]
	}
	for j := range pods {
		q := &pods[j]
		q.Node = p.rename(q.Node)
		q.NominatedNode = p.rename(q.NominatedNode)
	}
	return pods
}

func (p *PermutedPods) rename(v uint16) uint16 {
	if int(v) < len(p.Rename) {
		return p.Rename[v]
	}
	return v
}

// appendNarrow is appendPods over p's rearrangement in a universe whose
// nodes take one byte: the common pod (appendPods' fast path) is told
// and written from its three words, its node renamed; every other pod
// goes through appendPod on a renamed copy.
func (p *PermutedPods) appendNarrow(b []byte, n int, requests *[256][2]int64) int {
	if p.usageOf != requests {
		p.usageOf, p.usageFits = requests, true
		for t := range p.usage {
			cpu, mem := requests[t][0], requests[t][1]
			p.usage[t] = uint64(uint32(cpu)) | uint64(uint32(mem))<<32
			p.usageFits = p.usageFits && int64(int32(cpu)) == cpu && int64(int32(mem)) == mem
		}
	}
	if !p.usageFits {
		// A request no pod's usage can equal: no pod is common.
		return appendPods(b, n, p.layOut(), requests, false)
	}
	src, order, rename := p.Src, p.Order, p.Rename
	// The writes go through a pointer: b has room for 25 bytes a pod
	// (appendHead).
	_ = b[n+25*len(src)]
	out := unsafe.Pointer(unsafe.SliceData(b))
	end := len(order)
	if !p.FreeTail && end < len(src) {
		// The slots past Order stay: spell them out, so that the loops
		// read every slot from an order.
		order = append(p.order[:0], order...)
		for j := len(order); j < len(src); j++ {
			order = append(order, j)
		}
		p.order = order
		end = len(src)
	}
	for j := 0; ; j++ {
		// The common pods in a loop without calls, which keeps its
		// values in registers; the others one by one here.
		if j, n = p.appendCommon(out, n, order, j); j == end {
			break
		}
		q := src[order[j]]
		if int(q.Node) < len(rename) {
			q.Node = rename[q.Node]
		}
		if int(q.NominatedNode) < len(rename) {
			q.NominatedNode = rename[q.NominatedNode]
		}
		n = appendPod(b, n, &q, &requests[q.Template], false)
	}
	// A Free slot is one zero byte.
	clear(b[n : n+len(src)-end])
	return n + len(src) - end
}

// appendCommon writes the pods of slots j, j+1, ... (slot k holding
// p.Src[order[k]]) at out+n while they are Free or common (appendPods'
// fast path), and returns the slot it stopped at (len(order) when done)
// and the new length.
func (p *PermutedPods) appendCommon(out unsafe.Pointer, n int, order []int, j int) (int, int) {
	src, rename := p.Src, p.Rename
	usage := &p.usage
	// Owner's and Template's high nibbles and Pattern: zero in the
	// common pod.
	const notPacked = 0xF0<<16 | 0xF0<<32 | 0xFF<<40
	for ; j < len(order); j++ {
		pod := (*[podBytes]byte)(unsafe.Pointer(&src[order[j]]))
		head := binary.LittleEndian.Uint64(pod[:8])
		if byte(head) == byte(Free) {
			*(*byte)(unsafe.Add(out, n)) = 0
			n++
			continue
		}
		tmpl := head >> 32 & 15
		// The fields after Node (nominated node, ordinal, readiness,
		// failure facts and the zero padding) are zero, and the usage
		// is the template's requests.
		if head&notPacked != 0 || binary.LittleEndian.Uint64(pod[8:16]) != 0 ||
			binary.LittleEndian.Uint64(pod[16:]) != usage[tmpl] {
			break
		}
		node := uint16(head >> 48)
		if int(node) < len(rename) {
			node = rename[node]
		}
		// appendPods' fast path: the header (phase, wasRunning from
		// byte 1, RS from byte 3, the layout's flags), the node, the
		// owner and template packed (bytes 2 and 4), in one 4-byte
		// store of which 3 bytes count.
		w := uint32(head&3|head>>6&4|head>>21&0x7F8) | 1<<4 | 1<<6 | 1<<7 |
			uint32(node)<<8 | uint32(head>>12&0xF0|tmpl)<<16
		binary.LittleEndian.PutUint32((*[4]byte)(unsafe.Add(out, n))[:], w)
		n += 3
	}
	return j, n
}
