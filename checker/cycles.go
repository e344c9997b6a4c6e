package checker

import (
	"math"
	"sort"
)

// graph is the explored state graph in compressed sparse row form, built
// after exploration from the edges recorded for cycle properties. Vertices
// are dense indices: base[shard] + local, for the states that may have
// edges (limit per shard). An edge is named by its position in the rows;
// each recorded edge is held once: its worker's list is consumed, chunk by
// chunk, while the rows are filled.
type graph struct {
	base  []int32  // per shard, first dense index
	limit []uint32 // per shard, vertices (states stored while recording)
	n     int
	start []uint32 // out-edges of v are the positions start[v]..start[v+1]-1
	adj   []int32  // dense target of each edge
	ord   []uint32 // ordinal of each edge's step
	marks []uint32 // marks of each edge's step
	roots []int32  // initial states
	// mem holds the arrays above and the scratch below outside the Go
	// heap (the visited set's), so that they are returned when the run
	// ends and their garbage does not set the collector's pace.
	mem *offHeap
	// Tarjan's index and low link, reused afterwards as BFS distance from
	// a root (noPos: unreached) and tree edge (noPos for roots).
	index, low []uint32
	bfsDone    bool
	comp       []int32 // strongly connected component of v
	ncomps     int
	prev       []uint32 // pathWithin's scratch, noPos when unused
	m          *meter
	// ordered: vertices are considered in the order the breadth-first
	// search from the roots reaches them (order), not by dense index.
	// Dense indices follow the state ids, which depend on which worker
	// stored a state; the search order depends only on the graph, the
	// roots' order and each row's order (the successors' emission order).
	// For a sequential BFS run the two orders coincide.
	ordered bool
	order   chunkList[int32]
}

const noPos = math.MaxUint32

// Limits of the dense indices: a graph beyond them is not analysed (the
// cycle properties are Unknown/ReasonMemory) rather than overflowing.
const (
	maxGraphVertices = math.MaxInt32 - 1
	maxGraphEdges    = math.MaxUint32 - 1
)

// Bytes the analysis needs beyond the recorded edges: per edge (target,
// ordinal, marks) and per vertex (row start, Tarjan's index, low link and
// component, its two stacks at their deepest, pathWithin's scratch). The
// memory budget charges them during exploration already (see
// engine.memoryInUse), so an analysis that fits the budget was planned
// for.
const (
	graphEdgeBytes   = 12
	graphVertexBytes = 4 + 4 + 4 + 4 + 8 + 4 + 4
)

// meter charges the analysis to the run's deadline, cancellation and
// memory budget: check is called every meterEvery steps and on every
// allocation, with the bytes the analysis holds, and returns ReasonNone to
// go on. Once it returns another reason the analysis is abandoned with it.
type meter struct {
	check  func(held int64) Reason
	steps  int
	held   int64 // graph arrays and scratch
	edges  int64 // bytes of recorded edges not consumed yet
	reason Reason
}

const meterEvery = 1 << 16

func (m *meter) ok() bool { return m.reason == ReasonNone }

// step counts one unit of work; false means: abandon.
func (m *meter) step() bool {
	m.steps++
	if m.steps%meterEvery != 0 || m.reason != ReasonNone {
		return m.reason == ReasonNone
	}
	return m.poll(0)
}

// alloc charges n more bytes; false means: abandon (do not allocate).
func (m *meter) alloc(n int64) bool {
	m.held += n
	return m.poll(0)
}

// poll checks now, with extra bytes of scratch held besides m.held.
func (m *meter) poll(extra int64) bool {
	if m.reason == ReasonNone {
		m.reason = m.check(m.held + m.edges + extra)
	}
	return m.reason == ReasonNone
}

func (g *graph) dense(id stateID) int32 { return g.base[id.shard()] + int32(id.local()) }

// buildGraph puts the workers' recorded edges into rows, releasing their
// chunks as it goes. limit gives, per shard, how many states may have
// edges. It returns nil when the meter stopped it.
func buildGraph(v *visitedSet, lists []*edgeList, limit []uint32, ordered bool, m *meter) *graph {
	g := &graph{base: make([]int32, len(v.shards)), limit: limit, m: m, ordered: ordered, mem: v.mem}
	for i := range v.shards {
		g.base[i] = int32(min(g.n, maxGraphVertices))
		g.n += int(limit[i])
	}
	total := 0
	for _, l := range lists {
		total += l.len()
		m.edges += int64(l.len()) * edgeBytes
	}
	if g.n > maxGraphVertices || uint64(total) > maxGraphEdges {
		m.reason = ReasonMemory
		return nil
	}
	if !m.alloc(int64(g.n+1)*4 + int64(total)*graphEdgeBytes) {
		return nil
	}
	// Count out-edges per source in start[v], turn the counts into row
	// ends, then place the edges from the last to the first, moving each
	// row's end down to its start: no cursor array, and each row keeps
	// the recording order.
	g.start = allocSlice[uint32](g.mem, g.n+1)
	for _, l := range lists {
		for _, c := range l.chunks {
			for _, e := range c {
				g.start[g.dense(e.src)]++
				if !m.step() {
					return nil
				}
			}
		}
	}
	sum := uint32(0)
	for i := range g.n {
		sum += g.start[i]
		g.start[i] = sum
	}
	g.start[g.n] = sum
	g.adj = allocSlice[int32](g.mem, total)
	g.ord = allocSlice[uint32](g.mem, total)
	g.marks = allocSlice[uint32](g.mem, total)
	for li := len(lists) - 1; li >= 0; li-- {
		l := lists[li]
		for k := len(l.chunks) - 1; k >= 0; k-- {
			c := l.chunks[k]
			for j := len(c) - 1; j >= 0; j-- {
				e := c[j]
				s := g.dense(e.src)
				g.start[s]--
				p := g.start[s]
				g.adj[p], g.ord[p], g.marks[p] = g.dense(e.dst), e.ordinal, e.marks
				if !m.step() {
					return nil
				}
			}
			m.edges -= int64(len(c)) * edgeBytes
			l.freeChunk(k)
		}
		l.release()
	}
	for i := range v.shards {
		s := &v.shards[i]
		for local := range int(limit[i]) {
			if s.parents.at(local).isRoot() {
				g.roots = append(g.roots, g.base[i]+int32(local))
			}
		}
	}
	if !m.alloc(int64(len(g.roots)) * 4) {
		return nil
	}
	if !g.tarjan() {
		return nil
	}
	return g
}

// srcOf is the dense source of the edge at position p.
func (g *graph) srcOf(p uint32) int32 {
	return int32(sort.Search(g.n, func(v int) bool { return g.start[v+1] > p }))
}

// bfs computes shortest distances from the initial states (in index) and
// the tree edges that reach them (in low); false: abandoned.
func (g *graph) bfs() bool {
	dist, via := g.index, g.low
	for i := range dist {
		dist[i], via[i] = noPos, noPos
	}
	g.bfsDone = true
	queue := chunkList[int32]{mem: g.mem}
	for _, r := range g.roots {
		if dist[r] == noPos {
			dist[r] = 0
			queue.push(r)
		}
	}
	for head := 0; head < queue.len(); head++ {
		v := *queue.at(head)
		for i := g.start[v]; i < g.start[v+1]; i++ {
			if w := g.adj[i]; dist[w] == noPos {
				dist[w] = dist[v] + 1
				via[w] = i
				queue.push(w)
			}
		}
		if !g.m.step() || head%meterEvery == 0 && !g.m.poll(queue.bytes()) {
			queue.release()
			return false
		}
	}
	if g.ordered {
		if !g.m.alloc(queue.bytes()) {
			queue.release()
			return false
		}
		g.order = queue
	} else {
		queue.release()
	}
	return true
}

// vertices calls yield with every vertex (in an ordered graph: every one
// the breadth-first search reached) in the order choices are made in,
// until it returns false.
func (g *graph) vertices(yield func(int32) bool) {
	if g.ordered {
		for i := range g.order.len() {
			if !yield(*g.order.at(i)) {
				return
			}
		}
		return
	}
	for v := range int32(g.n) {
		if !yield(v) {
			return
		}
	}
}

// tarjan labels strongly connected components, iteratively (explicit call
// stack) so deep graphs cannot overflow the goroutine stack. Indices start
// at 1 (0 = unvisited, the zeroed array), and a visited vertex is on the
// stack exactly while it has no component yet. False: abandoned.
func (g *graph) tarjan() bool {
	if !g.m.alloc(int64(g.n) * 12) {
		return false
	}
	index := allocSlice[uint32](g.mem, g.n)
	low := allocSlice[uint32](g.mem, g.n)
	g.index, g.low = index, low
	g.comp = allocSlice[int32](g.mem, g.n)
	for i := range g.comp {
		g.comp[i] = -1
	}
	type frame struct {
		v    int32
		next uint32
	}
	calls := chunkList[frame]{mem: g.mem}
	stack := chunkList[int32]{mem: g.mem}
	defer calls.release()
	defer stack.release()
	scratch := func() int64 { return calls.bytes() + stack.bytes() }
	counter := uint32(1)
	for root := int32(0); root < int32(g.n); root++ {
		if index[root] != 0 {
			continue
		}
		calls.push(frame{v: root, next: g.start[root]})
		index[root], low[root] = counter, counter
		counter++
		stack.push(root)
		for calls.len() > 0 {
			if g.m.steps++; g.m.steps%meterEvery == 0 && !g.m.poll(scratch()) {
				return false
			}
			f := calls.at(calls.len() - 1)
			v := f.v
			if f.next < g.start[v+1] {
				w := g.adj[f.next]
				f.next++
				if index[w] == 0 {
					index[w], low[w] = counter, counter
					counter++
					stack.push(w)
					calls.push(frame{v: w, next: g.start[w]})
				} else if g.comp[w] < 0 {
					low[v] = min(low[v], index[w])
				}
				continue
			}
			calls.truncate(calls.len() - 1)
			if calls.len() > 0 {
				p := calls.at(calls.len() - 1).v
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				for {
					w := *stack.at(stack.len() - 1)
					stack.truncate(stack.len() - 1)
					g.comp[w] = int32(g.ncomps)
					if w == v {
						break
					}
				}
				g.ncomps++
			}
		}
	}
	return true
}

// lasso is a cycle counterexample as edge positions: prefix from a root
// to the loop's first state, then the loop.
type lasso struct {
	root   int32
	prefix []uint32
	loop   []uint32
}

// findLasso looks for a reachable cycle whose edges' marks cover require.
// Inside one strongly connected component every edge lies on a closed walk
// through any chosen set of its edges, so a component qualifies iff the
// union of the marks of its internal edges covers require; the one closest
// to an initial state gives the shortest prefix. ok is false when there is
// none, or when the meter stopped the search (g.m.reason).
func (g *graph) findLasso(require uint32) (l lasso, ok bool) {
	if !g.m.alloc(int64(g.ncomps) * 5) {
		return l, false
	}
	defer func() { g.m.held -= int64(g.ncomps) * 5 }()
	marks := make([]uint32, g.ncomps)
	cyclic := make([]bool, g.ncomps)
	qualifies := false
	for v := range int32(g.n) {
		c := g.comp[v]
		for i := g.start[v]; i < g.start[v+1]; i++ {
			if g.comp[g.adj[i]] == c {
				marks[c] |= g.marks[i]
				cyclic[c] = true
				qualifies = qualifies || marks[c]&require == require
			}
			if !g.m.step() {
				return l, false
			}
		}
	}
	if !qualifies {
		return l, false
	}
	if !g.bfsDone && !g.bfs() { // distances only when some component qualifies
		return l, false
	}
	dist, via := g.index, g.low
	best, bestDist := int32(-1), uint32(noPos)
	bestComp := int32(-1)
	for v := range g.vertices {
		c := g.comp[v]
		if !cyclic[c] || marks[c]&require != require || dist[v] == noPos {
			continue
		}
		if dist[v] < bestDist {
			best, bestDist, bestComp = v, dist[v], c
		}
	}
	if best < 0 {
		return l, false
	}
	// Prefix: BFS tree path from a root to best.
	for v := best; via[v] != noPos; v = g.srcOf(via[v]) {
		l.prefix = append(l.prefix, via[v])
	}
	for i, j := 0, len(l.prefix)-1; i < j; i, j = i+1, j-1 {
		l.prefix[i], l.prefix[j] = l.prefix[j], l.prefix[i]
	}
	if len(l.prefix) > 0 {
		l.root = g.srcOf(l.prefix[0])
	} else {
		l.root = best
	}
	// Loop: visit, for each missing required bit, an internal edge that
	// carries it, then return to best.
	cur, missing := best, require
	for first := true; missing != 0 || first; first = false {
		target, src := uint32(noPos), int32(-1)
		stopped := false
		for v := range g.vertices {
			if g.comp[v] != bestComp {
				continue
			}
			for i := g.start[v]; i < g.start[v+1]; i++ {
				if !g.m.step() {
					stopped = true
					break
				}
				if g.comp[g.adj[i]] != bestComp {
					continue
				}
				if (missing == 0 && v == cur) || (missing != 0 && g.marks[i]&missing != 0) {
					target, src = i, v
					break
				}
			}
			if stopped || src >= 0 {
				break
			}
		}
		if stopped {
			return l, false
		}
		path, ok := g.pathWithin(cur, src, bestComp)
		if !ok {
			return l, false
		}
		path = append(path, target)
		for _, p := range path {
			missing &^= g.marks[p]
		}
		l.loop = append(l.loop, path...)
		cur = g.adj[target]
	}
	path, ok := g.pathWithin(cur, best, bestComp)
	if !ok {
		return l, false
	}
	l.loop = append(l.loop, path...)
	return l, true
}

// pathWithin is a shortest edge path from a to b inside component c.
func (g *graph) pathWithin(a, b, c int32) ([]uint32, bool) {
	if a == b {
		return nil, true
	}
	if g.prev == nil {
		if !g.m.alloc(int64(g.n) * 4) {
			return nil, false
		}
		g.prev = allocSlice[uint32](g.mem, g.n)
		for i := range g.prev {
			g.prev[i] = noPos
		}
	}
	queue := chunkList[int32]{mem: g.mem}
	queue.push(a)
	defer func() {
		for i := range queue.len() {
			g.prev[*queue.at(i)] = noPos
		}
		queue.release()
	}()
	for head := 0; head < queue.len(); head++ {
		v := *queue.at(head)
		for i := g.start[v]; i < g.start[v+1]; i++ {
			if !g.m.step() || head%meterEvery == 0 && !g.m.poll(queue.bytes()) {
				return nil, false
			}
			w := g.adj[i]
			if g.comp[w] != c || w == a || g.prev[w] != noPos {
				continue
			}
			g.prev[w] = i
			queue.push(w)
			if w == b {
				var path []uint32
				for x := b; x != a; x = g.srcOf(g.prev[x]) {
					path = append(path, g.prev[x])
				}
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path, true
			}
		}
	}
	panic("checker: strongly connected component is not strongly connected")
}
