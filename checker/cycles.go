package checker

// graph is the explored state graph in compressed sparse row form, built
// after exploration from the edges recorded for cycle properties. Vertices
// are dense indices: base[shard] + local.
type graph struct {
	base   []int32 // per shard, first dense index
	n      int
	edges  []edge
	start  []int32 // out-edges of v are order[start[v]:start[v+1]]
	order  []int32 // edge indices grouped by source
	adj    []int32 // adj[i]: the dense target of edge order[i]
	roots  []int32 // initial states
	dist   []int32 // BFS distance from a root, -1 if unreached (nil until needed: bfs)
	via    []int32 // BFS tree: edge that reached v, -1 for roots
	comp   []int32 // strongly connected component of v
	ncomps int
}

func (g *graph) dense(id stateID) int32 { return g.base[id.shard()] + int32(id.local()) }

func buildGraph(v *visitedSet, edges []edge) *graph {
	g := &graph{base: make([]int32, len(v.shards)), edges: edges}
	for i := range v.shards {
		g.base[i] = int32(g.n)
		g.n += int(v.shards[i].n)
	}
	for i := range v.shards {
		s := &v.shards[i]
		for local := 0; local < int(s.n); local++ {
			if s.parents.at(local).isRoot() {
				g.roots = append(g.roots, g.base[i]+int32(local))
			}
		}
	}
	g.start = make([]int32, g.n+1)
	for _, e := range edges {
		g.start[g.dense(e.src)+1]++
	}
	for i := 1; i <= g.n; i++ {
		g.start[i] += g.start[i-1]
	}
	fill := append([]int32(nil), g.start[:g.n]...)
	g.order = make([]int32, len(edges))
	g.adj = make([]int32, len(edges))
	for i, e := range edges {
		s := g.dense(e.src)
		g.order[fill[s]] = int32(i)
		g.adj[fill[s]] = g.dense(e.dst)
		fill[s]++
	}
	g.tarjan()
	return g
}

// bfs computes shortest distances from the initial states.
func (g *graph) bfs() {
	g.dist = make([]int32, g.n)
	g.via = make([]int32, g.n)
	for i := range g.dist {
		g.dist[i], g.via[i] = -1, -1
	}
	queue := make([]int32, 0, len(g.roots))
	for _, r := range g.roots {
		g.dist[r] = 0
		queue = append(queue, r)
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for i := g.start[v]; i < g.start[v+1]; i++ {
			if w := g.adj[i]; g.dist[w] < 0 {
				g.dist[w] = g.dist[v] + 1
				g.via[w] = g.order[i]
				queue = append(queue, w)
			}
		}
	}
}

// tarjan labels strongly connected components, iteratively (explicit call
// stack) so deep graphs cannot overflow the goroutine stack. Indices start
// at 1 (0 = unvisited, the zeroed array), and a visited vertex is on the
// stack exactly while it has no component yet.
func (g *graph) tarjan() {
	index := make([]int32, g.n)
	low := make([]int32, g.n)
	g.comp = make([]int32, g.n)
	for i := range g.comp {
		g.comp[i] = -1
	}
	type frame struct{ v, next int32 }
	var calls []frame
	var stack []int32
	counter := int32(1)
	for root := int32(0); root < int32(g.n); root++ {
		if index[root] != 0 {
			continue
		}
		calls = append(calls, frame{v: root, next: g.start[root]})
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, root)
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			v := f.v
			if f.next < g.start[v+1] {
				w := g.adj[f.next]
				f.next++
				if index[w] == 0 {
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					calls = append(calls, frame{v: w, next: g.start[w]})
				} else if g.comp[w] < 0 {
					low[v] = min(low[v], index[w])
				}
				continue
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				p := calls[len(calls)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					g.comp[w] = int32(g.ncomps)
					if w == v {
						break
					}
				}
				g.ncomps++
			}
		}
	}
}

// lasso is a cycle counterexample as graph edges: prefix from a root to
// the loop's first state, then the loop.
type lasso struct {
	root   int32
	prefix []int32
	loop   []int32
}

// findLasso looks for a reachable cycle whose edges' marks cover require.
// Inside one strongly connected component every edge lies on a closed walk
// through any chosen set of its edges, so a component qualifies iff the
// union of the marks of its internal edges covers require; the one closest
// to an initial state gives the shortest prefix.
func (g *graph) findLasso(require uint32) (lasso, bool) {
	marks := make([]uint32, g.ncomps)
	cyclic := make([]bool, g.ncomps)
	qualifies := false
	for v := range int32(g.n) {
		c := g.comp[v]
		for i := g.start[v]; i < g.start[v+1]; i++ {
			if g.comp[g.adj[i]] == c {
				marks[c] |= g.edges[g.order[i]].marks
				cyclic[c] = true
				qualifies = qualifies || marks[c]&require == require
			}
		}
	}
	if !qualifies {
		return lasso{}, false
	}
	if g.dist == nil {
		g.bfs() // distances only when some component qualifies
	}
	best, bestDist := int32(-1), int32(-1)
	bestComp := int32(-1)
	for v := int32(0); v < int32(g.n); v++ {
		c := g.comp[v]
		if !cyclic[c] || marks[c]&require != require || g.dist[v] < 0 {
			continue
		}
		if bestDist < 0 || g.dist[v] < bestDist {
			best, bestDist, bestComp = v, g.dist[v], c
		}
	}
	if best < 0 {
		return lasso{}, false
	}
	var l lasso
	// Prefix: BFS tree path from a root to best.
	for v := best; g.via[v] >= 0; v = g.dense(g.edges[g.via[v]].src) {
		l.prefix = append(l.prefix, g.via[v])
	}
	for i, j := 0, len(l.prefix)-1; i < j; i, j = i+1, j-1 {
		l.prefix[i], l.prefix[j] = l.prefix[j], l.prefix[i]
	}
	if len(l.prefix) > 0 {
		l.root = g.dense(g.edges[l.prefix[0]].src)
	} else {
		l.root = best
	}
	// Loop: visit, for each missing required bit, an internal edge that
	// carries it, then return to best.
	cur, missing := best, require
	for first := true; missing != 0 || first; first = false {
		target := int32(-1)
		for ei, e := range g.edges {
			s := g.dense(e.src)
			if g.comp[s] != bestComp || g.comp[g.dense(e.dst)] != bestComp {
				continue
			}
			if (missing == 0 && s == cur) || (missing != 0 && e.marks&missing != 0) {
				target = int32(ei)
				break
			}
		}
		path := g.pathWithin(cur, g.dense(g.edges[target].src), bestComp)
		path = append(path, target)
		for _, ei := range path {
			missing &^= g.edges[ei].marks
		}
		l.loop = append(l.loop, path...)
		cur = g.dense(g.edges[target].dst)
	}
	l.loop = append(l.loop, g.pathWithin(cur, best, bestComp)...)
	return l, true
}

// pathWithin is a shortest edge path from a to b inside component c.
func (g *graph) pathWithin(a, b, c int32) []int32 {
	if a == b {
		return nil
	}
	prev := map[int32]int32{a: -1}
	queue := []int32{a}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for i := g.start[v]; i < g.start[v+1]; i++ {
			w, ei := g.adj[i], g.order[i]
			if g.comp[w] != c {
				continue
			}
			if _, seen := prev[w]; seen {
				continue
			}
			prev[w] = ei
			if w == b {
				var path []int32
				for x := b; x != a; x = g.dense(g.edges[prev[x]].src) {
					path = append(path, prev[x])
				}
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path
			}
			queue = append(queue, w)
		}
	}
	panic("checker: strongly connected component is not strongly connected")
}
