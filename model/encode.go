package model

import (
	"encoding/binary"
	"fmt"
	"slices"
	"unsafe"
)

// Encoding layout (canonical: equal states have equal bytes and vice
// versa, for one Universe and monitor count):
//
//	flags byte: bit0 DeschedulerPending, bits1-2 Init, bits 3-5 Atomic
//	Failed, FailedArg (an index: one byte, or two little-endian bytes
//	        when the universe has more pod slots than MaxObjects: wideRefs)
//	nodes:  one byte each (NodeState.Byte: the status, and 0x20 when
//	        cordoned: models without a drain encode as before); in a
//	        universe of more nodes than MaxObjects, runs of equal bytes
//	        as (byte, count as a uvarint) pairs (appendNodeRuns)
//	pods:   one byte each for a Free slot (0); otherwise a header byte
//	        (phase | wasRunning<<2 | rs<<3 | 1<<4 | hasPattern<<5 |
//	        usageIsRequest<<6 | packedOwner<<7), the node (index+1: one
//	        byte, or two little-endian bytes when the universe has more
//	        nodes than MaxObjects: wideNodes), the owner and
//	        template (one byte owner<<4|template when both are below 16),
//	        the pattern index when non-zero, and the CPU and memory usage as
//	        zigzag varints unless they equal the template's requests. A
//	        running pod of a small cluster thus takes 3 bytes. A pod
//	        with a nominated node is preceded by nominatedPrefix and the
//	        node (index+1, as wide as the pod's node): bytes that no other pod pays, so models
//	        where no pod preempts encode as without nominations. A
//	        StatefulSet pod's ordinal follows as ordinalPrefix and the
//	        byte PodState.Ordinal, before the header; a Running pod
//	        that is not Ready and Available (readiness.go) then as
//	        readinessPrefix and the byte PodState.Readiness: universes
//	        whose templates delay no readiness encode as without it; a
//	        pod of a Job with a podFailurePolicy that carries failure
//	        facts then as failurePrefix and the byte PodState.Failure;
//	        a pod whose containers restarted (in a universe that counts
//	        restarts, TracksRestarts) then as restartsPrefix and the byte
//	        PodState.Restarts.
//	        In a universe of more pod slots than MaxObjects, a run token
//	        (podRun, podruns.go) stands for a stretch of pods that repeat
//	        earlier ones.
//	deps:   flags (active | cur<<1 | hpaSeen<<2 | hpaHeld<<3 |
//	        annotated<<4 | newRSOlder<<5 | quotaRefused<<6), hpa, config,
//	        QuotaRefused when its flag is set, replicas (varint),
//	        then per ReplicaSet template and replicas (varint), then, only
//	        when annotated (a stored replicas annotation is not 0: a
//	        deployment rolling out), DesiredReplicas and both MaxReplicas
//	        (varints), then, only when some HPA has a downscale
//	        stabilisation window, the WindowSlots entries of HPAWindow
//	        (uvarints): models without one encode exactly as before;
//	        then, only when some HPA has behavior (HasHPABehavior), the
//	        length of HPAMemory as a uvarint and its bytes; then, only
//	        when some Job is Indexed, the length of JobIndexes as a
//	        uvarint and its bytes
//	queues: length then items, for each queue (in a wide universe the
//	        length as a uvarint, then the items as runs of ids in
//	        arithmetic progression, queueruns.go)
//	event vars, monitors: raw bytes (their lengths are fixed by the
//	        Universe and the System); in a universe of more nodes than
//	        MaxObjects the event vars, which hold per-node memory, as
//	        runs of equal bytes (appendByteRuns)

// AppendEncoding appends the canonical encoding of s, a state of u, to dst.
func (s *State) AppendEncoding(u *Universe, dst []byte) []byte {
	dst = s.appendHead(u, dst, len(s.Pods))
	// The pods, the bulk of a state, are written by index into the
	// capacity appendHead grew.
	requests := u.templateRequests
	if requests == nil {
		requests = templateRequests(u)
	}
	b := dst[:cap(dst)]
	var n int
	if u.podRuns {
		n = appendPodRuns(b, len(dst), s.Pods, requests, u.wideNodes)
	} else if o := s.origin; o != nil && o.decoded.u == u && len(o.decoded.pods) == len(s.Pods) {
		n = appendPodsFrom(b, len(dst), s.Pods, &o.decoded, requests, u.wideNodes)
	} else {
		n = appendPods(b, len(dst), s.Pods, requests, u.wideNodes)
	}
	return s.appendTail(u, b[:n])
}

// appendHead grows dst for the encoding of s with pods pod slots, and
// appends its parts before the pods: flags, failure and nodes.
func (s *State) appendHead(u *Universe, dst []byte, pods int) []byte {
	// One capacity check for the whole encoding (a node takes at most 3
	// bytes, a pod 25, a deployment 3+10+2·6+3·3+3·WindowSlots+8): the appends
	// here and in appendTail then never reallocate, and the writes by
	// index stay in it.
	slots := WindowSlots(u)
	behavior := HasHPABehavior(u)
	memory := 0
	if behavior {
		for i := range s.Deps {
			memory += 2 + len(s.Deps[i].HPAMemory)
		}
	}
	if u.indexedJobs {
		for i := range s.Deps {
			memory += 3 + len(s.Deps[i].JobIndexes)
		}
	}
	dst = slices.Grow(dst, 5+3*len(s.Nodes)+25*pods+(42+3*slots)*len(s.Deps)+memory+
		3*len(s.Queues)+maxQueueTokenBytes*s.queueItems()+3*len(s.EventVars)+len(s.Monitors))
	var flags byte
	if s.DeschedulerPending {
		flags |= 1
	}
	flags |= s.Init<<1 | s.Atomic<<3
	dst = append(dst, flags, byte(s.Failed))
	dst = appendRef(dst, s.FailedArg, u.wideRefs)
	if u.wideNodes {
		dst = appendNodeRuns(dst, s.Nodes)
	} else {
		// By index into the capacity grown above.
		at := len(dst)
		dst = dst[:at+len(s.Nodes)]
		out := dst[at:]
		for i, n := range s.Nodes {
			out[i] = n.Byte()
		}
	}
	return dst
}

// appendTail appends the parts of s's encoding after the pods, into the
// capacity appendHead grew: deployments, queues, event and monitor
// memory.
func (s *State) appendTail(u *Universe, dst []byte) []byte {
	slots := WindowSlots(u)
	behavior := HasHPABehavior(u)
	for i := range s.Deps {
		d := &s.Deps[i]
		f := d.Cur << 1
		if d.Active {
			f |= 1
		}
		if d.HPASeen {
			f |= 1 << 2
		}
		if d.HPAHeld {
			f |= 1 << 3
		}
		annotated := d.DesiredReplicas != 0 || d.MaxReplicas != [2]int16{}
		if annotated {
			f |= 1 << 4
		}
		if d.NewRSOlder {
			f |= 1 << 5
		}
		if d.QuotaRefused != 0 {
			f |= 1 << 6
		}
		// A Job's status: bytes only a Job that has moved pays.
		job := d.JobSucceeded|d.JobFailed != 0 || d.JobFinished != JobRunning
		if job {
			f |= 1 << 7
		}
		dst = append(dst, f, d.HPA, d.Config)
		if d.QuotaRefused != 0 {
			dst = append(dst, d.QuotaRefused)
		}
		if job {
			dst = binary.AppendUvarint(dst, uint64(uint16(d.JobSucceeded)))
			dst = binary.AppendUvarint(dst, uint64(uint16(d.JobFailed)))
			dst = append(dst, byte(d.JobFinished))
		}
		dst = binary.AppendVarint(dst, int64(d.Replicas))
		if u.lastApplied {
			omits := byte(0)
			if d.LastAppliedOmitsReplicas {
				omits = 1
			}
			dst = append(dst, omits)
		}
		if u.pausable {
			paused := byte(0)
			if d.Paused {
				paused = 1
			}
			if d.LastAppliedSetsPaused {
				paused |= 2
			}
			dst = append(dst, paused)
		}
		for r := range d.RS {
			dst = append(dst, d.RS[r].Template)
			dst = binary.AppendVarint(dst, int64(d.RS[r].Replicas))
		}
		if annotated {
			dst = binary.AppendVarint(dst, int64(d.DesiredReplicas))
			for _, m := range d.MaxReplicas {
				dst = binary.AppendVarint(dst, int64(m))
			}
		}
		for k := range slots {
			dst = binary.AppendUvarint(dst, uint64(uint16(d.HPAWindow[k])))
		}
		if behavior {
			dst = binary.AppendUvarint(dst, uint64(len(d.HPAMemory)))
			dst = append(dst, d.HPAMemory...)
		}
		if u.indexedJobs {
			dst = binary.AppendUvarint(dst, uint64(len(d.JobIndexes)))
			dst = append(dst, d.JobIndexes...)
		}
	}
	// The rest is written by index too (appendHead grew the capacity).
	b, n := dst[:cap(dst)], len(dst)
	for q := range s.Queues {
		items := s.Queues[q]
		if u.wideRefs {
			n += binary.PutUvarint(b[n:], uint64(len(items)))
			n = putQueueRuns(b, n, items)
			continue
		}
		b[n] = byte(len(items))
		n++
		for _, x := range items {
			b[n] = byte(x)
			n++
		}
	}
	if u.wideNodes {
		// Per-node event memory: mostly equal bytes (podruns.go).
		n = len(appendByteRuns(b[:n], s.EventVars))
	} else {
		n += copy(b[n:], s.EventVars)
	}
	n += copy(b[n:], s.Monitors)
	return b[:n]
}

// appendPods writes the pods' encodings into b from n on and returns the
// new length; b has room for the longest encodings plus one byte. The
// common pod (Running or Pending with a small owner and template, no
// pattern, usage equal to its requests) takes a fast path: one 4-byte
// store of which 3 bytes count (the next write overwrites the fourth).
// Every other pod goes through appendPod, the general encoder, whose
// output the fast path must equal (TestPodFastPath). wide: the universe
// has more nodes than a byte refers to (wideNodes), and every pod goes
// through appendPod.
func appendPods(b []byte, n int, pods []PodState, requests *[256][2]int64, wide bool) int {
	for i := range pods {
		p := &pods[i]
		if p.Phase == Free {
			b[n] = 0
			n++
			continue
		}
		req := &requests[p.Template]
		if !wide && p.Owner|p.Template < 16 && p.Pattern == 0 && p.NominatedNode|uint16(p.Ordinal)|uint16(p.Readiness)|uint16(p.Failure)|uint16(p.Restarts) == 0 && int64(p.CPU) == req[0] && int64(p.Memory) == req[1] {
			h := uint32(p.Phase&3) | uint32(p.RS)<<3 | 1<<4 | 1<<6 | 1<<7
			if p.WasRunning {
				h |= 1 << 2
			}
			binary.LittleEndian.PutUint32(b[n:], h|uint32(p.Node)<<8|uint32(p.Owner<<4|p.Template)<<16)
			n += 3
			continue
		}
		n = appendPod(b, n, p, req, wide)
	}
	return n
}

// appendPod writes one non-Free pod's encoding into b at n (the layout
// above) and returns the new length; req is its template's requests and
// wide says whether nodes take two bytes (wideNodes).
func appendPod(b []byte, n int, p *PodState, req *[2]int64, wide bool) int {
	if p.NominatedNode != 0 {
		b[n] = nominatedPrefix
		n = putNode(b, n+1, p.NominatedNode, wide)
	}
	if p.Ordinal != 0 {
		b[n], b[n+1] = ordinalPrefix, p.Ordinal
		n += 2
	}
	if p.Readiness != 0 {
		b[n], b[n+1] = readinessPrefix, byte(p.Readiness)
		n += 2
	}
	if p.Failure != 0 {
		b[n], b[n+1] = failurePrefix, byte(p.Failure)
		n += 2
	}
	if p.Restarts != 0 {
		b[n], b[n+1] = restartsPrefix, p.Restarts
		n += 2
	}
	h := byte(p.Phase&3) | p.RS<<3 | 1<<4
	if p.WasRunning {
		h |= 1 << 2
	}
	if p.Pattern != 0 {
		h |= 1 << 5
	}
	defaultUsage := int64(p.CPU) == req[0] && int64(p.Memory) == req[1]
	if defaultUsage {
		h |= 1 << 6
	}
	if p.Owner < 16 && p.Template < 16 {
		b[n] = h | 1<<7
		n = putNode(b, n+1, p.Node, wide)
		b[n] = p.Owner<<4 | p.Template
		n++
	} else {
		b[n] = h
		n = putNode(b, n+1, p.Node, wide)
		b[n], b[n+1] = p.Owner, p.Template
		n += 2
	}
	if p.Pattern != 0 {
		b[n] = p.Pattern
		n++
	}
	if !defaultUsage {
		n += binary.PutVarint(b[n:], int64(p.CPU))
		n += binary.PutVarint(b[n:], int64(p.Memory))
	}
	return n
}

// putNode writes a node reference (index+1, 0 = none) into b at n: one
// byte, or two little-endian bytes when wide (wideNodes).
func putNode(b []byte, n int, v uint16, wide bool) int {
	if wide {
		binary.LittleEndian.PutUint16(b[n:], v)
		return n + 2
	}
	b[n] = byte(v)
	return n + 1
}

// nominatedPrefix announces a pod's nominated node in its encoding: a
// non-zero byte without bit 4, which every pod header has, so it is
// neither a Free slot nor a header.
const nominatedPrefix = 0x01

// ordinalPrefix announces a StatefulSet pod's ordinal (PodState.Ordinal),
// after the nominated node if any: like nominatedPrefix, a byte that is
// neither a Free slot, a header nor podRun, paid only by StatefulSet pods.
const ordinalPrefix = 0x03

// readinessPrefix announces a pod's readiness (PodState.Readiness) when
// it is not PodAvailable, after the ordinal if any: a byte that is
// neither a Free slot, a header, podRun nor another prefix, paid only by
// pods that are not yet Ready or Available.
const readinessPrefix = 0x04

// failurePrefix announces a pod's failure facts (PodState.Failure) when
// it has any, after the readiness if any: a byte that is neither a Free
// slot, a header, podRun nor another prefix, paid only by the deleted
// pods of Jobs with a podFailurePolicy.
const failurePrefix = 0x05

// restartsPrefix announces a pod's restart count (PodState.Restarts) when
// it is not 0, after the failure facts if any: a byte that is neither a
// Free slot, a header, podRun nor another prefix, paid only by pods whose
// containers restarted.
const restartsPrefix = 0x06

// templateRequests lists every template's CPU and memory requests: the
// usage a pod's encoding leaves out when it equals them. It is indexed by
// a pod's uint8 template, so no index is out of range.
func templateRequests(u *Universe) *[256][2]int64 {
	out := new([256][2]int64)
	for i := range min(len(u.Templates), 256) {
		cpu, mem := u.Templates[i].StartUsage()
		out[i] = [2]int64{int64(cpu), int64(mem)}
	}
	return out
}

func (s *State) queueItems() int {
	n := 0
	for q := range s.Queues {
		n += len(s.Queues[q])
	}
	return n
}

// DecodeState rebuilds a State of universe u (with the given monitor
// memory size) from its encoding.
func DecodeState(u *Universe, monitors int, enc []byte) (*State, error) {
	s := &State{}
	if err := DecodeInto(s, u, monitors, enc); err != nil {
		return nil, err
	}
	return s, nil
}

// DecodeInto is DecodeState reusing dst's slices.
func DecodeInto(s *State, u *Universe, monitors int, enc []byte) error {
	r := reader{b: enc}
	flags := r.byte()
	s.DeschedulerPending = flags&1 != 0
	s.Init = flags >> 1 & 3
	s.Atomic = flags >> 3 & 7
	s.Failed = Failure(r.byte())
	s.FailedArg = r.ref(u.wideRefs)
	s.Nodes = resize(s.Nodes, len(u.Nodes))
	if u.wideNodes {
		r.nodeRuns(s.Nodes)
	} else {
		for i, b := range r.bytes(len(s.Nodes)) {
			s.Nodes[i] = nodeStateOf(b)
		}
	}
	s.Pods = resize(s.Pods, u.PodSlots)
	rec := &s.decoded
	rec.u = nil // no record until the whole encoding is read
	s.origin = nil
	rec.off = resize(rec.off, len(s.Pods)+1)
	heads := u.podHeads
	if heads == nil {
		heads = newPodHeads(u)
	}
	var err error
	if u.podRuns {
		// No per-pod offsets: a derived state's encoding is not
		// incremental with runs (podruns.go).
		r.off, err = decodePodRuns(s.Pods, enc, r.off, u, heads)
	} else {
		r.off, err = decodePods(s.Pods, rec.off, enc, r.off, u, heads)
	}
	if err != nil {
		return err
	}
	rec.off[len(s.Pods)] = uint32(r.off)
	s.Deps = resize(s.Deps, len(u.Deployments))
	slots := WindowSlots(u)
	behavior := HasHPABehavior(u)
	for i := range s.Deps {
		f := r.byte()
		d := DeploymentState{Active: f&1 != 0, Cur: f >> 1 & 1, HPASeen: f&(1<<2) != 0, HPAHeld: f&(1<<3) != 0,
			NewRSOlder: f&(1<<5) != 0}
		d.HPA, d.Config = r.byte(), r.byte()
		if f&(1<<6) != 0 {
			d.QuotaRefused = r.byte()
		}
		if f&(1<<7) != 0 {
			d.JobSucceeded, d.JobFailed = int16(r.uvarint()), int16(r.uvarint())
			d.JobFinished = JobCondition(r.byte())
		}
		d.Replicas = int16(r.varint())
		if u.lastApplied {
			d.LastAppliedOmitsReplicas = r.byte() != 0
		}
		if u.pausable {
			paused := r.byte()
			d.Paused, d.LastAppliedSetsPaused = paused&1 != 0, paused&2 != 0
		}
		for k := range d.RS {
			d.RS[k].Template = r.byte()
			d.RS[k].Replicas = int16(r.varint())
		}
		if f&(1<<4) != 0 {
			d.DesiredReplicas = int16(r.varint())
			for k := range d.MaxReplicas {
				d.MaxReplicas[k] = int16(r.varint())
			}
		}
		for k := range slots {
			d.HPAWindow[k] = int16(r.uvarint())
		}
		if behavior {
			n := r.uvarint()
			if n > uint64(len(enc)) {
				return fmt.Errorf("decode state: HPA memory of %d bytes: %w", n, ErrInvalid)
			}
			d.HPAMemory = string(r.bytes(int(n)))
		}
		if u.indexedJobs {
			n := r.uvarint()
			if n > uint64(len(enc)) {
				return fmt.Errorf("decode state: %d job indexes: %w", n, ErrInvalid)
			}
			d.JobIndexes = string(r.bytes(int(n)))
		}
		s.Deps[i] = d
	}
	for q := range s.Queues {
		items := s.Queues[q][:0]
		if u.wideRefs {
			n := r.uvarint()
			if n > MaxPodSlots+MaxNodes {
				return fmt.Errorf("decode state: queue of %d items: %w", n, ErrInvalid)
			}
			items = r.queueRuns(items, int(n))
		} else {
			for _, x := range r.bytes(int(r.byte())) {
				items = append(items, uint16(x))
			}
		}
		s.Queues[q] = items
	}
	if u.wideNodes {
		s.EventVars = resize(s.EventVars, u.NumEventVars)
		r.byteRuns(s.EventVars)
	} else {
		s.EventVars = append(s.EventVars[:0], r.bytes(u.NumEventVars)...)
	}
	s.Monitors = append(s.Monitors[:0], r.bytes(monitors)...)
	if r.err != nil || r.off != len(enc) {
		return fmt.Errorf("decode state: %d of %d bytes read: %w", r.off, len(enc), ErrInvalid)
	}
	rec.u = u
	rec.enc = append(rec.enc[:0:cap(rec.enc)], enc...)
	rec.pods = append(rec.pods[:0], s.Pods...)
	return nil
}

// decodePods reads the pods from enc at k into pods, recording where each
// starts in off, and returns where they end. The common pod (appendPods'
// fast path: 3 bytes, packed owner and template, no pattern, usage equal
// to the requests) is read in place, its first eight bytes written as one
// word looked up from its bytes (podHeads); the others by decodePod.
func decodePods(pods []PodState, off []uint32, enc []byte, k int, u *Universe, heads *podHeads) (int, error) {
	off = off[:len(pods)]
	templates := len(u.Templates)
	wide := u.wideNodes
	base := unsafe.Pointer(unsafe.SliceData(enc))
	for i := range pods {
		off[i] = uint32(k)
		if k+3 <= len(enc) && !wide {
			// In bounds (just checked): read through a pointer, which
			// slicing enc would recompute with its checks.
			e := (*[3]byte)(unsafe.Add(base, k))
			h, ot := e[0], e[2]
			if h == 0 {
				pods[i] = PodState{}
				k++
				continue
			}
			if h&0xE0 == 0xC0 && int(ot&15) < templates {
				// The nominated node, ordinal, readiness and failure
				// facts are zero, the usage is the template's requests.
				setPodWords(&pods[i], heads.byHeader[h]|uint64(e[1])<<48|heads.byOwnerTemplate[ot], heads.usage[ot])
				k += 3
				continue
			}
		} else if k < len(enc) && enc[k] == 0 {
			pods[i] = PodState{}
			k++
			continue
		}
		if k >= len(enc) {
			return k, fmt.Errorf("decode state: pod %d: %w", i+1, ErrInvalid)
		}
		var err error
		if k, err = decodePod(&pods[i], enc, k, u); err != nil {
			return k, fmt.Errorf("decode state: pod %d: %w", i+1, err)
		}
	}
	return k, nil
}

// podHeads are decodePods' tables for the common pod: the parts of its
// first eight bytes (setPodHead's word) that its header byte and its
// packed owner-template byte determine, and its usage (the template's
// requests) by the latter, as the last eight bytes of a pod
// (setPodWords).
type podHeads struct {
	byHeader        [256]uint64 // Phase, WasRunning, RS: bytes 0, 1, 3
	byOwnerTemplate [256]uint64 // Owner, Template: bytes 2, 4
	usage           [256]uint64 // CPU, Memory: bytes 16-19, 20-23
}

func newPodHeads(u *Universe) *podHeads {
	t := new(podHeads)
	for b := range 256 {
		t.byHeader[b] = uint64(phaseOf(byte(b))) | uint64(b>>2&1)<<8 | uint64(b>>3&1)<<24
		owner, tmpl := b>>4, b&15
		t.byOwnerTemplate[b] = uint64(owner)<<16 | uint64(tmpl)<<32
		if tmpl < len(u.Templates) {
			cpu, mem := u.Templates[tmpl].StartUsage()
			t.usage[b] = uint64(uint32(cpu)) | uint64(uint32(mem))<<32
		}
	}
	return t
}

// decodePod reads one non-Free pod from enc at k (the general layout)
// and returns where it ends.
func decodePod(p *PodState, enc []byte, k int, u *Universe) (int, error) {
	r := reader{b: enc, off: k}
	h := r.byte()
	var nominated uint16
	if h == nominatedPrefix {
		if nominated = r.node(u.wideNodes); nominated == 0 {
			return r.off, fmt.Errorf("nominated node 0: %w", ErrInvalid)
		}
		h = r.byte()
	}
	var ordinal uint8
	if h == ordinalPrefix {
		if ordinal = r.byte(); ordinal == 0 {
			return r.off, fmt.Errorf("ordinal 0: %w", ErrInvalid)
		}
		h = r.byte()
	}
	var readiness Readiness
	if h == readinessPrefix {
		if readiness = Readiness(r.byte()); readiness == PodAvailable || readiness > PodReadyNotAvailable {
			return r.off, fmt.Errorf("readiness %d: %w", readiness, ErrInvalid)
		}
		h = r.byte()
	}
	var failure PodFailureFacts
	if h == failurePrefix {
		if failure = PodFailureFacts(r.byte()); failure == 0 || failure > allPodFailureFacts {
			return r.off, fmt.Errorf("failure facts %d: %w", failure, ErrInvalid)
		}
		h = r.byte()
	}
	var restarts uint8
	if h == restartsPrefix {
		if restarts = r.byte(); restarts == 0 {
			return r.off, fmt.Errorf("restart count 0 written out: %w", ErrInvalid)
		}
		h = r.byte()
	}
	if h == 0 {
		return r.off, fmt.Errorf("free slot read as a pod: %w", ErrInvalid)
	}
	if h&(1<<4) == 0 {
		return r.off, fmt.Errorf("pod header %#x: %w", h, ErrInvalid)
	}
	*p = PodState{Phase: phaseOf(h), WasRunning: h&(1<<2) != 0, RS: h >> 3 & 1, NominatedNode: nominated, Ordinal: ordinal, Readiness: readiness, Failure: failure, Restarts: restarts}
	p.Node = r.node(u.wideNodes)
	if h&(1<<7) != 0 {
		ot := r.byte()
		p.Owner, p.Template = ot>>4, ot&15
	} else {
		p.Owner, p.Template = r.byte(), r.byte()
	}
	if h&(1<<5) != 0 {
		p.Pattern = r.byte()
	}
	if int(p.Template) >= len(u.Templates) {
		return r.off, fmt.Errorf("template %d of %d: %w", p.Template, len(u.Templates), ErrInvalid)
	}
	if h&(1<<6) != 0 {
		t := &u.Templates[p.Template]
		p.CPU, p.Memory = t.StartUsage()
	} else {
		p.CPU = int32(r.varint())
		p.Memory = int32(r.varint())
	}
	if r.err != nil {
		return r.off, r.err
	}
	return r.off, nil
}

func resize[T any](x []T, n int) []T {
	if cap(x) >= n {
		return x[:n]
	}
	return make([]T, n)
}

type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) byte() byte {
	if r.off >= len(r.b) {
		r.err = ErrInvalid
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

// appendRef appends an index of a pod slot (or of a node or monitor,
// which FailedArg may hold): one byte unless the universe has more pod
// slots than that refers to (Universe.wideRefs).
func appendRef(dst []byte, v uint16, wide bool) []byte {
	if wide {
		return binary.LittleEndian.AppendUint16(dst, v)
	}
	return append(dst, byte(v))
}

// ref reads what appendRef wrote.
func (r *reader) ref(wide bool) uint16 {
	if !wide {
		return uint16(r.byte())
	}
	b := r.bytes(2)
	if len(b) < 2 {
		return 0
	}
	return binary.LittleEndian.Uint16(b)
}

// node reads what putNode wrote.
func (r *reader) node(wide bool) uint16 {
	if !wide {
		return uint16(r.byte())
	}
	return r.ref(true)
}

func (r *reader) bytes(n int) []byte {
	if r.off+n > len(r.b) {
		r.err = ErrInvalid
		r.off = len(r.b)
		return nil
	}
	x := r.b[r.off : r.off+n]
	r.off += n
	return x
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b[min(r.off, len(r.b)):])
	if n <= 0 {
		r.err = ErrInvalid
		return 0
	}
	r.off += n
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b[min(r.off, len(r.b)):])
	if n <= 0 {
		r.err = ErrInvalid
		return 0
	}
	r.off += n
	return v
}

// phaseOf reads the phase of a non-Free pod's header byte: its two low
// bits, where 0 stands for Failed (a Free slot is the byte 0 alone).
func phaseOf(h byte) Phase {
	if ph := Phase(h & 3); ph != Free {
		return ph
	}
	return Failed
}
