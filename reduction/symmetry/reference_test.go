package symmetry

import (
	"bytes"
	"encoding/binary"
	"slices"
	"sort"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// The canonicaliser's plan compared with a dumb reference on arbitrary
// states (not only reachable ones, and with queues holding ids out of
// range, duplicates, Free slots bound to nodes): the reference builds the
// pod keys and node signatures as the byte strings the package doc
// describes and sorts with sort.SliceStable, so the fast path's ranks,
// hash table and counting sorts must give exactly its permutations.

// referenceKey is pod slot i's content key as bytes (sortKey's layout).
func referenceKey(s *model.State, i int, kubeletSet, taintSet bool) []byte {
	p := &s.Pods[i]
	var b []byte
	if p.Phase == model.Free {
		b = append(b, freeFlag, 0, 0, 0, 0)
	} else {
		f := byte(p.Failure)
		if p.WasRunning {
			f |= 1 << 3
		}
		h := byte(p.Phase) | p.RS<<3
		if p.NominatedNode != 0 {
			h |= 1 << 4
		}
		h |= byte(p.Readiness) << 5
		b = append(b, f, h, p.Owner, p.Template, p.Pattern)
	}
	b = binary.BigEndian.AppendUint32(b, uint32(p.CPU)^1<<31)
	b = binary.BigEndian.AppendUint32(b, uint32(p.Memory)^1<<31)
	var high []byte // the positions' high bytes follow their low bytes
	for k, q := range podQueues {
		pos := notQueued<<8 | notQueued
		if j := slices.Index(s.Queues[q], uint16(i)); j >= 0 {
			pos = j
			if k == 1 && kubeletSet || k == 2 && taintSet {
				pos = kubeletQueued
			}
			if k == 0 {
				pos = referenceRunStart(s, j)
			}
		}
		b = append(b, byte(pos))
		high = append(high, byte(pos>>8))
	}
	b = append(b, p.Ordinal)
	b = append(b, high...)
	failed := byte(0)
	if s.Failed == model.FailNoFeasibleNode && int(s.FailedArg) == i {
		failed = 1
	}
	return append(b, failed, p.Restarts)
}

// referenceTwins reports whether slots a and b hold pods both nominated
// and equal but for the node.
func referenceTwins(s *model.State, a, b uint16) bool {
	if int(a) >= len(s.Pods) || int(b) >= len(s.Pods) {
		return false
	}
	x, y := s.Pods[a], s.Pods[b]
	if x.NominatedNode == 0 || y.NominatedNode == 0 {
		return false
	}
	x.NominatedNode, y.NominatedNode = 0, 0
	return x == y
}

// referenceRunStart is the first position of the run of nominated twins
// of the scheduling queue that holds position j.
func referenceRunStart(s *model.State, j int) int {
	q := s.Queues[model.SchedulerQueue]
	for j > 0 && referenceTwins(s, q[j-1], q[j]) {
		j--
	}
	return j
}

// referenceRunsSorted reports whether every run of nominated twins of
// the scheduling queue is in slot order.
func referenceRunsSorted(s *model.State) bool {
	q := s.Queues[model.SchedulerQueue]
	for j := 1; j < len(q); j++ {
		if referenceTwins(s, q[j-1], q[j]) && q[j-1] > q[j] {
			return false
		}
	}
	return true
}

// referenceSignature is node n's signature with full key bytes.
func referenceSignature(c *Canonicalizer, s *model.State, n int) []byte {
	b := []byte{s.Nodes[n].Byte()}
	for _, off := range c.layout.panics {
		b = append(b, s.EventVars[off+2*n], s.EventVars[off+2*n+1])
	}
	for _, off := range c.layout.maints { // a maintenance's program counter of the node
		b = append(b, s.EventVars[off+n])
	}
	pos := notQueued<<8 | notQueued
	if j := slices.Index(s.Queues[model.NodeControllerQueue], uint16(n)); j >= 0 {
		pos = j
	}
	if len(s.Nodes) >= notQueued { // positions past a byte: two bytes
		b = append(b, byte(pos>>8))
	}
	failed := byte(0)
	if s.Failed == model.FailKernelPanic && int(s.FailedArg) == n {
		failed = 1
	}
	b = append(b, byte(pos), failed)
	var on []int
	for i := range s.Pods {
		if p := &s.Pods[i]; p.Phase != model.Free && (int(p.Node) == n+1 || p.Node == 0 && int(p.NominatedNode) == n+1) {
			on = append(on, i)
		}
	}
	if !c.pods {
		for _, i := range on {
			p := &s.Pods[i]
			h := byte(p.Phase) | p.RS<<3
			if p.WasRunning {
				h |= 1 << 2
			}
			if p.NominatedNode != 0 {
				h |= 1 << 4
			}
			h |= byte(p.Readiness) << 5
			if len(s.Pods) > 256 {
				b = append(b, byte(i>>8))
			}
			b = append(b, byte(i), h, p.Owner, p.Template, p.Pattern, p.Ordinal, byte(p.Failure), p.Restarts)
			b = binary.BigEndian.AppendUint32(b, uint32(p.CPU))
			b = binary.BigEndian.AppendUint32(b, uint32(p.Memory))
		}
		return b
	}
	var keys [][]byte
	for _, i := range on {
		keys = append(keys, referenceKey(s, i, c.kubeletSet, c.taintSet))
	}
	slices.SortFunc(keys, bytes.Compare)
	b = append(b, byte(len(keys)))
	for _, k := range keys {
		b = append(b, k...)
	}
	return b
}

// referencePlan returns the node and pod permutations (identity when
// nothing moves) that make s canonical.
func referencePlan(c *Canonicalizer, s *model.State) (perm, podPerm []int) {
	perm = identityInto(nil, len(s.Nodes))
	for _, block := range referenceMovable(c, s) {
		order := slices.Clone(block)
		sort.SliceStable(order, func(a, b int) bool {
			return bytes.Compare(referenceSignature(c, s, order[a]), referenceSignature(c, s, order[b])) < 0
		})
		for i, old := range order {
			perm[old] = block[i]
		}
	}
	// Each domain's blocks sorted, then the domains in the order of
	// their sorted signatures, each taking the next domain's places.
	for _, g := range c.domains {
		type domain struct {
			sorted [][]int
			sigs   [][]byte
		}
		ds := make([]domain, len(g.blocks))
		for d, blocks := range g.blocks {
			for _, block := range blocks {
				order := slices.Clone(block)
				sort.SliceStable(order, func(a, b int) bool {
					return bytes.Compare(referenceSignature(c, s, order[a]), referenceSignature(c, s, order[b])) < 0
				})
				ds[d].sorted = append(ds[d].sorted, order)
				for _, n := range order {
					ds[d].sigs = append(ds[d].sigs, referenceSignature(c, s, n))
				}
			}
		}
		sort.SliceStable(ds, func(a, b int) bool {
			for i := range ds[a].sigs {
				if r := bytes.Compare(ds[a].sigs[i], ds[b].sigs[i]); r != 0 {
					return r < 0
				}
			}
			return false
		})
		for to, d := range ds {
			for k, order := range d.sorted {
				for i, old := range order {
					perm[old] = g.blocks[to][k][i]
				}
			}
		}
	}
	podPerm = identityInto(nil, len(s.Pods))
	if !c.pods {
		return perm, podPerm
	}
	newNode := func(i int) int {
		n := int(s.Pods[i].Node)
		if n == 0 {
			n = int(s.Pods[i].NominatedNode)
		}
		if n != 0 && n <= len(perm) {
			n = perm[n-1] + 1
		}
		return n
	}
	order := identityInto(nil, len(s.Pods))
	sort.SliceStable(order, func(a, b int) bool {
		i, j := order[a], order[b]
		if c := bytes.Compare(referenceKey(s, i, c.kubeletSet, c.taintSet), referenceKey(s, j, c.kubeletSet, c.taintSet)); c != 0 {
			return c < 0
		}
		return newNode(i) < newNode(j)
	})
	for i, old := range order {
		podPerm[old] = i
	}
	return perm, podPerm
}

// referenceMovable is Movable as the package doc states it: each class
// cut to the nodes below every written-order maintenance's next index
// (a maintenance in any order pins nothing), blocks of one node left
// out.
func referenceMovable(c *Canonicalizer, s *model.State) [][]int {
	var blocks [][]int
	for _, cl := range c.classes {
		var block []int
		for _, n := range cl {
			reached := true
			for _, off := range c.layout.next {
				if n >= model.MaintenanceNext(s.EventVars[off:], c.layout.width) {
					reached = false
				}
			}
			if reached {
				block = append(block, n)
			}
		}
		if len(block) > 1 {
			blocks = append(blocks, block)
		}
	}
	return blocks
}

// referenceKubelet sorts q stably by the first appearance of each pod's
// owner, then by pod id.
func referenceKubelet(q []uint16, pods []model.PodState) []uint16 {
	q = slices.Clone(q)
	first := map[uint8]int{}
	for i, p := range q {
		if _, ok := first[ownerOf(pods, p)]; !ok {
			first[ownerOf(pods, p)] = i
		}
	}
	sort.SliceStable(q, func(i, j int) bool {
		a, b := first[ownerOf(pods, q[i])], first[ownerOf(pods, q[j])]
		if a != b {
			return a < b
		}
		return q[i] < q[j]
	})
	return q
}

// randomCanonicalizer draws node classes, event memory and the pod
// switches (the plan reads nothing else of a Canonicalizer).
func randomCanonicalizer(t *rapid.T) *Canonicalizer {
	N := rapid.IntRange(1, 30).Draw(t, "nodes")
	if rapid.IntRange(0, 9).Draw(t, "wide nodes") == 0 {
		// More nodes than a byte numbers: two-byte orbit labels and
		// node-controller queue positions.
		N = rapid.IntRange(255, 300).Draw(t, "nodes past a byte")
	}
	// A maintenance index takes two bytes past MaxObjects nodes: drawn
	// at any size here.
	width := rapid.IntRange(1, 2).Draw(t, "maintenance index width")
	c := &Canonicalizer{layout: nodeMemory{nodes: N, width: width}}
	off := 0
	for range rapid.IntRange(0, 2).Draw(t, "panics") {
		c.layout.panics = append(c.layout.panics, off)
		off += 2 * N
	}
	for range rapid.IntRange(0, 2).Draw(t, "maints") {
		if rapid.Bool().Draw(t, "any order") {
			// model.AnyOrder: the program counters alone.
			c.layout.maints = append(c.layout.maints, off)
			off += N
			continue
		}
		c.layout.next = append(c.layout.next, off)
		c.layout.maints = append(c.layout.maints, off+width)
		off += width + N
	}
	classOf := rapid.SliceOfN(rapid.IntRange(0, 2), N, N).Draw(t, "classOf")
	// Topology domains (domains.go), without a maintenance in the
	// written order, as the analysis builds them: D domains of blocks of
	// equal sizes, drawn from nodes in random places; the rest form the
	// classes.
	if len(c.layout.next) == 0 && N >= 2 && rapid.Bool().Draw(t, "domains") {
		D := rapid.IntRange(2, min(3, N)).Draw(t, "domain count")
		sizes := rapid.SliceOfN(rapid.IntRange(1, 3), 1, 3).Filter(func(x []int) bool {
			sum := 0
			for _, v := range x {
				sum += v
			}
			return D*sum <= N
		}).Draw(t, "block sizes")
		nodes := rapid.Permutation(nodeIndices(N)).Draw(t, "domain nodes")
		var g domainGroup
		at := 0
		for range D {
			var blocks [][]int
			for _, size := range sizes {
				block := slices.Clone(nodes[at : at+size])
				slices.Sort(block)
				at += size
				blocks = append(blocks, block)
				for _, n := range block {
					classOf[n] = -1
				}
			}
			g.blocks = append(g.blocks, blocks)
		}
		slices.SortFunc(g.blocks, func(a, b [][]int) int { return a[0][0] - b[0][0] })
		c.domains = []domainGroup{g}
	}
	for k := range 3 {
		var cl []int
		for n, x := range classOf {
			if x == k {
				cl = append(cl, n)
			}
		}
		if len(cl) > 1 {
			c.classes = append(c.classes, cl)
		}
	}
	c.pods = rapid.Bool().Draw(t, "pods")
	c.kubeletSet = rapid.Bool().Draw(t, "kubeletSet")
	c.taintSet = rapid.Bool().Draw(t, "taintSet")
	return c
}

// randomState draws a state for c: few distinct values per field, so
// that keys and signatures tie often, and sometimes values no reachable
// state has.
func randomState(t *rapid.T, c *Canonicalizer) *model.State {
	N := c.layout.nodes
	P := rapid.IntRange(0, 100).Draw(t, "slots")
	wide := rapid.IntRange(0, 4).Draw(t, "wide") == 0
	if wide {
		// More slots than a byte numbers, and often more distinct
		// contents than ranks hold (referenceOverflows).
		P = rapid.IntRange(257, 320).Draw(t, "wide slots")
	}
	s := &model.State{Nodes: make([]model.NodeState, N), Pods: make([]model.PodState, P)}
	for n := range s.Nodes {
		s.Nodes[n].Status = model.NodeStatus(rapid.IntRange(0, 1).Draw(t, "status"))
		s.Nodes[n].Cordoned = rapid.IntRange(0, 3).Draw(t, "cordoned") == 0
	}
	odd := rapid.Bool().Draw(t, "odd")
	distinct := wide && rapid.Bool().Draw(t, "distinct")
	for i := range s.Pods {
		p := &s.Pods[i]
		p.Phase = model.Phase(rapid.IntRange(0, 4).Draw(t, "phase"))
		if p.Phase == model.Free && !odd {
			continue
		}
		p.Node = uint16(rapid.IntRange(0, N).Draw(t, "node"))
		if odd && rapid.IntRange(0, 9).Draw(t, "wild") == 0 {
			p.Node = uint16(rapid.IntRange(0, N+300).Draw(t, "wildNode"))
		}
		if (p.Node == 0 || odd) && rapid.IntRange(0, 3).Draw(t, "nominate") == 0 {
			p.NominatedNode = uint16(rapid.IntRange(1, N).Draw(t, "nominated"))
		}
		p.Owner = uint8(rapid.IntRange(0, 2).Draw(t, "owner"))
		p.RS = uint8(rapid.IntRange(0, 1).Draw(t, "rs"))
		p.WasRunning = rapid.Bool().Draw(t, "wasRunning")
		p.Template = uint8(rapid.IntRange(0, 1).Draw(t, "template"))
		p.Pattern = uint8(rapid.IntRange(0, 1).Draw(t, "pattern"))
		p.Ordinal = uint8(rapid.IntRange(0, 2).Draw(t, "ordinal"))
		p.Readiness = model.Readiness(rapid.IntRange(0, 2).Draw(t, "readiness"))
		p.Failure = model.PodFailureFacts(rapid.IntRange(0, 7).Draw(t, "failure facts"))
		p.Restarts = uint8(rapid.SampledFrom([]int{0, 0, 1, model.MaxRestarts}).Draw(t, "restarts"))
		p.CPU = int32(rapid.SampledFrom([]int{0, 100, -1, 1 << 20}).Draw(t, "cpu"))
		if distinct {
			p.CPU = int32(1000 + i) // a content of its own
		}
		p.Memory = int32(rapid.SampledFrom([]int{0, 100, -1}).Draw(t, "memory"))
	}
	hi := P
	if odd {
		hi = P + 3
	}
	ids := rapid.IntRange(0, max(hi-1, 0))
	for _, q := range podQueues {
		if hi > 0 {
			least, most := 0, 8
			if wide && rapid.IntRange(0, 3).Draw(t, "long queue") == 0 {
				least, most = 250, 280 // positions past a byte
			}
			s.Queues[q] = toItems(rapid.SliceOfN(ids, least, most).Draw(t, "queue"))
		}
	}
	s.Queues[model.NodeControllerQueue] = toItems(rapid.SliceOfN(rapid.IntRange(0, N), 0, 3).Draw(t, "ncq"))
	if N > 250 && rapid.Bool().Draw(t, "long node queue") {
		// Positions past a byte (each node at most once, as Enqueue keeps it).
		s.Queues[model.NodeControllerQueue] = toItems(rapid.Permutation(nodeIndices(N)).Draw(t, "ncq order"))
	}
	vars := 2*N*len(c.layout.panics) + N*len(c.layout.maints) + c.layout.width*len(c.layout.next)
	s.EventVars = toBytes(rapid.SliceOfN(rapid.IntRange(0, 3), vars, vars).Draw(t, "vars"))
	for _, off := range c.layout.next {
		model.SetMaintenanceNext(s.EventVars[off:], c.layout.width, rapid.IntRange(0, N).Draw(t, "reached"))
	}
	s.Failed = model.Failure(rapid.IntRange(0, 2).Draw(t, "failed"))
	s.FailedArg = uint16(rapid.IntRange(0, max(P, N)).Draw(t, "failedArg"))
	if P >= 3 && rapid.IntRange(0, 2).Draw(t, "twins") == 0 {
		// A run of pods alike but for their nominated node in the
		// scheduling queue (model.NominatedTwins), in any order.
		first := rapid.IntRange(0, P-3).Draw(t, "twin")
		k := rapid.IntRange(2, min(4, P-first)).Draw(t, "twin count")
		run := rapid.Permutation(nodeIndices(k)).Draw(t, "twin order")
		at := rapid.IntRange(0, len(s.Queues[model.SchedulerQueue])).Draw(t, "twin place")
		items := make([]uint16, k)
		for i := range k {
			p := &s.Pods[first+i]
			*p = s.Pods[first]
			if p.Phase == model.Free {
				p.Phase = model.Pending
			}
			p.NominatedNode = uint16(rapid.IntRange(1, N).Draw(t, "twin nominated"))
			items[i] = uint16(first + run[i])
		}
		q := slices.DeleteFunc(slices.Clone(s.Queues[model.SchedulerQueue]), func(x uint16) bool { return int(x) >= first && int(x) < first+k })
		at = min(at, len(q))
		s.Queues[model.SchedulerQueue] = slices.Concat(q[:at], items, q[at:])
	}
	return s
}

func nodeIndices(n int) []int {
	x := make([]int, n)
	for i := range x {
		x[i] = i
	}
	return x
}

func toItems(x []int) []uint16 {
	b := make([]uint16, len(x))
	for i, v := range x {
		b[i] = uint16(v)
	}
	return b
}

func toBytes(x []int) []uint8 {
	b := make([]uint8, len(x))
	for i, v := range x {
		b[i] = uint8(v)
	}
	return b
}

// referenceOverflows reports whether s is beyond what the canonicaliser's
// node signatures hold (podRanks), with pods permuted and nodes to sort:
// a node holding more than 255 pods.
func referenceOverflows(c *Canonicalizer, s *model.State) bool {
	if !c.pods {
		return false
	}
	on := map[int]int{}
	for i := range s.Pods {
		if n := int(refNode(&s.Pods[i])); n != 0 {
			on[n]++ // Free slots with a node too (no reachable state has one)
		}
	}
	if len(c.Movable(s)) > 0 {
		for _, k := range on {
			if k > 255 {
				return true
			}
		}
	}
	return false
}

// TestPlanMatchesReference: plan's permutations are the reference's, its
// kubelet order is the reference's, and NodeOrbits ties exactly the
// nodes of a block whose reference signatures are equal.
func TestPlanMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := randomCanonicalizer(t)
		w := new(scratch)
		for range 3 { // reuse the scratch buffers across states
			s := randomState(t, c)
			wantPerm, wantPodPerm := referencePlan(c, s)
			if referenceOverflows(c, s) {
				// The state stays as it is: no plan, no orbits.
				if perm, podPerm, _, moved := c.plan(w, s); moved || perm != nil || podPerm != nil {
					t.Fatalf("a state beyond the ranks moved: %v %v", perm, podPerm)
				}
				if orbits := c.NodeOrbits(s, nil); !slices.Equal(orbits, identityInto(nil, len(s.Nodes))) {
					t.Fatalf("a state beyond the ranks has orbits %v", orbits)
				}
				continue
			}
			perm, podPerm, sortKQ, moved := c.plan(w, s)
			if perm == nil {
				perm = identityInto(nil, len(s.Nodes))
			}
			if podPerm == nil {
				podPerm = identityInto(nil, len(s.Pods))
			}
			podPerm = slices.Clone(podPerm)
			for i := len(podPerm); i < len(s.Pods); i++ {
				podPerm = append(podPerm, i) // a blank tail stays
			}
			if !slices.Equal(perm, wantPerm) {
				t.Fatalf("node permutation %v, reference %v", perm, wantPerm)
			}
			if !slices.Equal(podPerm, wantPodPerm) {
				t.Fatalf("pod permutation %v, reference %v", podPerm, wantPodPerm)
			}
			kq := s.Queues[model.KubeletQueue]
			if want := c.kubeletSet && len(kq) > 1; sortKQ != want && moved {
				t.Fatalf("sortKQ %v, want %v", sortKQ, want)
			}
			identity := slices.Equal(perm, identityInto(nil, len(s.Nodes))) && slices.Equal(podPerm, identityInto(nil, len(s.Pods)))
			tq := s.Queues[model.TaintManagerQueue]
			if want := !identity || (c.kubeletSet && !slices.Equal(kq, referenceKubelet(kq, s.Pods))) || (c.taintSet && !slices.IsSorted(tq)) ||
				(c.pods && !referenceRunsSorted(s)); moved != want {
				t.Fatalf("moved %v, want %v", moved, want)
			}
			got := slices.Clone(kq)
			sortKubelet(got, s.Pods)
			if want := referenceKubelet(kq, s.Pods); !slices.Equal(got, want) {
				t.Fatalf("kubelet queue %v sorted to %v, reference %v", kq, got, want)
			}
			if got, want := c.Movable(s), referenceMovable(c, s); !slices.EqualFunc(got, want, slices.Equal[[]int]) {
				t.Fatalf("movable blocks %v, reference %v", got, want)
			}
			orbits := c.NodeOrbits(s, nil)
			for _, block := range c.appendDomainBlocks(referenceMovable(c, s)) {
				for i, n := range block {
					want := n
					for _, m := range block[:i] {
						if bytes.Equal(referenceSignature(c, s, m), referenceSignature(c, s, n)) {
							want = m
							break
						}
					}
					if orbits[n] != want {
						t.Fatalf("node %d in orbit %d, reference %d", n, orbits[n], want)
					}
				}
			}
		}
	})
}

// TestRepresentativeCarriesItsOrbits: AppendRepresentative's key is
// AppendCanonical's, its encoding is the key followed by the node orbits
// of the canonical state as NodeOrbits computes them on that state, and
// SplitRepresentative takes them apart again.
func TestRepresentativeCarriesItsOrbits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := randomCanonicalizer(t)
		c.u = &model.Universe{} // for the encodings
		for range 3 {           // reuse the canonicaliser's buffers across states
			s := randomState(t, c)
			prefix := []byte{7}
			key, enc := c.AppendRepresentative(slices.Clone(prefix), slices.Clone(prefix), s)
			if want := c.AppendCanonical(slices.Clone(prefix), s); !bytes.Equal(key, want) {
				t.Fatalf("key %x, AppendCanonical %x", key, want)
			}
			state, labels, err := c.SplitRepresentative(enc[1:], nil)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(state, key[1:]) {
				t.Fatalf("representative's state %x, key %x", state, key[1:])
			}
			canonical := c.Canonical(s)
			if want := c.NodeOrbits(canonical, nil); !slices.Equal(labels, want) {
				t.Fatalf("orbits carried %v, NodeOrbits of the canonical state %v", labels, want)
			}
		}
	})
}

// TestSplitRepresentativeRejectsBadOrbits: a label must name the node or
// one before it, and the encoding must hold one per node.
func TestSplitRepresentativeRejectsBadOrbits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := randomCanonicalizer(t)
		n := c.layout.nodes
		if n > 256 {
			// Labels as runs (orbitruns.go): one node labelled by a later
			// node, or the runs cut short.
			labels := make([]uint16, n)
			for i := range labels {
				labels[i] = uint16(i)
			}
			i := rapid.IntRange(0, n-2).Draw(t, "node")
			labels[i] = uint16(i + 1)
			if _, _, err := c.SplitRepresentative(appendOrbitRuns([]byte{1, 2, 3}, labels), nil); err == nil {
				t.Fatalf("label %d of node %d accepted", i+1, i)
			}
			labels[i] = uint16(i)
			good := appendOrbitRuns([]byte{1, 2, 3}, labels)
			if _, _, err := c.SplitRepresentative(good[:len(good)-1], nil); err == nil {
				t.Fatal("orbits without their length accepted")
			}
			if _, _, err := c.SplitRepresentative(appendOrbitRuns([]byte{1, 2, 3}, labels[:n-1]), nil); err == nil {
				t.Fatalf("the orbits of %d nodes accepted for %d", n-1, n)
			}
			return
		}
		if _, _, err := c.SplitRepresentative(make([]byte, n-1), nil); err == nil {
			t.Fatalf("%d bytes accepted for %d nodes", n-1, n)
		}
		bad := make([]byte, n)
		// The label i+1 of node i must fit a byte.
		i := rapid.IntRange(0, min(n-1, 254)).Draw(t, "node")
		bad[i] = byte(i + 1)
		if _, _, err := c.SplitRepresentative(bad, nil); err == nil {
			t.Fatalf("label %d of node %d accepted", i+1, i)
		}
	})
}

// TestWideRanksOrderNodes: in a state with more than 256 distinct pod
// contents, node signatures write ranks on two bytes, so a node whose pod
// ranks 261st sorts after one whose pod ranks 5th (one byte each, both
// would read 5 and tie).
func TestWideRanksOrderNodes(t *testing.T) {
	c := &Canonicalizer{layout: nodeMemory{nodes: 2, width: 1}, classes: [][]int{{0, 1}}, pods: true}
	s := &model.State{Nodes: make([]model.NodeState, 2), Pods: make([]model.PodState, 300)}
	for i := range s.Pods {
		s.Pods[i] = model.PodState{Phase: model.Running, Owner: 1, CPU: int32(i)}
	}
	s.Pods[261].Node, s.Pods[5].Node = 1, 2
	wantPerm, wantPodPerm := referencePlan(c, s)
	if !slices.Equal(wantPerm, []int{1, 0}) {
		t.Fatalf("reference node permutation %v, want the nodes swapped", wantPerm)
	}
	perm, podPerm, _, _ := c.plan(new(scratch), s)
	if podPerm == nil {
		podPerm = identityInto(nil, len(s.Pods)) // the pods stay
	}
	if !slices.Equal(perm, wantPerm) || !slices.Equal(podPerm, wantPodPerm) {
		t.Fatalf("plan %v %v, reference %v %v", perm, podPerm, wantPerm, wantPodPerm)
	}
}

// TestOrbitRuns: labels written as runs read back exactly, after any
// state encoding, for labels of every kind (own, as the node before, an
// earlier node's).
func TestOrbitRuns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 400).Draw(t, "nodes")
		labels := make([]uint16, n)
		for i := range labels {
			switch rapid.IntRange(0, 3).Draw(t, "kind"); {
			case i == 0:
			case rapid.IntRange(0, 2).Draw(t, "same") == 0:
				labels[i] = labels[i-1]
				continue
			case rapid.IntRange(0, 4).Draw(t, "earlier") == 0:
				labels[i] = uint16(rapid.IntRange(0, i).Draw(t, "label"))
				continue
			}
			labels[i] = uint16(i)
		}
		prefix := []byte(rapid.StringN(0, 20, -1).Draw(t, "state"))
		enc := appendOrbitRuns(append([]byte(nil), prefix...), labels)
		got := make([]int, n)
		state, err := splitOrbitRuns(enc, n, got)
		if err != nil || !bytes.Equal(state, prefix) {
			t.Fatalf("split: %v, state %x, want %x", err, state, prefix)
		}
		for i := range labels {
			if got[i] != int(labels[i]) {
				t.Fatalf("node %d: label %d, want %d", i, got[i], labels[i])
			}
		}
	})
}

// TestContentKeysTellPodsApart: two slots outside every queue have equal
// content keys exactly when their pods are equal but for the node they
// refer to (whether one is nominated is content), and a Free slot's key
// sorts after every pod's: equal keys are what lets the canonical form
// and the node orbits treat two pods as interchangeable, so a field left
// out of the key, or two fields sharing its bits, would merge nodes that
// differ.
func TestContentKeysTellPodsApart(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := &model.State{Pods: make([]model.PodState, 2)}
		for i := range s.Pods {
			p := &s.Pods[i]
			p.Phase = model.Phase(rapid.IntRange(0, 4).Draw(t, "phase"))
			if p.Phase == model.Free {
				continue
			}
			p.Node = uint16(rapid.IntRange(0, 3).Draw(t, "node"))
			if p.Node == 0 && rapid.Bool().Draw(t, "nominate") {
				p.NominatedNode = uint16(rapid.IntRange(1, 3).Draw(t, "nominated"))
			}
			p.Owner = uint8(rapid.IntRange(0, 255).Draw(t, "owner"))
			p.RS = uint8(rapid.IntRange(0, 1).Draw(t, "rs"))
			p.WasRunning = rapid.Bool().Draw(t, "wasRunning")
			p.Template = uint8(rapid.IntRange(0, 255).Draw(t, "template"))
			p.Pattern = uint8(rapid.IntRange(0, 255).Draw(t, "pattern"))
			p.Ordinal = uint8(rapid.IntRange(0, 255).Draw(t, "ordinal"))
			p.Readiness = model.Readiness(rapid.IntRange(0, 2).Draw(t, "readiness"))
			p.Failure = model.PodFailureFacts(rapid.IntRange(0, 7).Draw(t, "failure facts"))
			p.Restarts = uint8(rapid.IntRange(0, model.MaxRestarts).Draw(t, "restarts"))
			p.CPU = int32(rapid.Int32().Draw(t, "cpu"))
			p.Memory = int32(rapid.Int32().Draw(t, "memory"))
		}
		if rapid.IntRange(0, 3).Draw(t, "alike") > 0 && s.Pods[0].Phase != model.Free {
			// The second pod is the first on another node, with at most
			// one field changed: where a collision would show.
			other := s.Pods[1]
			s.Pods[1] = s.Pods[0]
			p := &s.Pods[1]
			if p.NominatedNode == 0 {
				p.Node = uint16(rapid.IntRange(0, 3).Draw(t, "other node"))
			}
			switch rapid.IntRange(0, 12).Draw(t, "changed field") {
			case 0:
				p.Phase = other.Phase
			case 1:
				p.Owner = other.Owner
			case 2:
				p.RS = other.RS
			case 3:
				p.WasRunning = other.WasRunning
			case 4:
				p.Template = other.Template
			case 5:
				p.Pattern = other.Pattern
			case 6:
				p.Ordinal = other.Ordinal
			case 7:
				p.Readiness = other.Readiness
			case 8:
				p.Failure = other.Failure
			case 9:
				p.CPU = other.CPU
			case 10:
				p.Memory = other.Memory
			case 11:
				p.Node, p.NominatedNode = other.Node, other.NominatedNode
			case 12:
				p.Restarts = other.Restarts
			}
		}
		keys, _ := podSortKeys(nil, s, 2, false, false)
		strip := func(p model.PodState) model.PodState {
			p.Node = 0
			if p.NominatedNode != 0 {
				p.NominatedNode = 1
			}
			return p
		}
		if same := strip(s.Pods[0]) == strip(s.Pods[1]); keys[0].sameContent(&keys[1]) != same {
			t.Fatalf("pods %+v and %+v: equal keys %v, equal pods %v", s.Pods[0], s.Pods[1], keys[0].sameContent(&keys[1]), same)
		}
		for i := range 2 {
			if free := s.Pods[i].Phase == model.Free; keys[i].free() != free {
				t.Fatalf("pod %+v: free key %v", s.Pods[i], keys[i].free())
			}
			if j := 1 - i; s.Pods[i].Phase == model.Free && s.Pods[j].Phase != model.Free && !keys[j].less(&keys[i]) {
				t.Fatalf("a Free slot's key sorts before pod %+v's", s.Pods[j])
			}
		}
	})
}
