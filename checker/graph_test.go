package checker

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// labelledGraph is a toy System over ints: an explicit edge list with
// marks. It is the subject of the property tests below.
type labelledGraph struct {
	n     int
	init  []int
	adj   [][]graphEdge
	bad   []bool // invariant "not bad"
	stuck []bool // end condition "not stuck"
}

type graphEdge struct {
	to    int
	marks uint32
}

func (g *labelledGraph) Initial(emit func(int)) {
	for _, i := range g.init {
		emit(i)
	}
}

func (g *labelledGraph) Next(s int, emit func(Step, int)) {
	for k, e := range g.adj[s] {
		emit(Step{Choice: uint32(k), Marks: e.marks}, e.to)
	}
}

func (g *labelledGraph) AppendEncoding(dst []byte, s int) []byte {
	return binary.AppendUvarint(dst, uint64(s))
}

var errBadGraphState = errors.New("bad graph state")

func (g *labelledGraph) Decode(enc []byte) (int, error) {
	v, n := binary.Uvarint(enc)
	if n <= 0 || n != len(enc) || v >= uint64(g.n) {
		return 0, errBadGraphState
	}
	return int(v), nil
}

func (g *labelledGraph) props(require uint32) Properties[int] {
	return Properties[int]{
		Invariants:    []Invariant[int]{{Name: "good", Holds: func(s int) bool { return !g.bad[s] }}},
		EndConditions: []EndCondition[int]{{Name: "unstuck", Holds: func(s int) bool { return !g.stuck[s] }}},
		Cycles:        []Cycle{{Name: "loop", Require: require}},
	}
}

// drawGraph draws a random small labelled graph; acyclic graphs only have
// edges from lower to higher nodes.
func drawGraph(t *rapid.T, acyclic bool) *labelledGraph {
	n := rapid.IntRange(1, 12).Draw(t, "n")
	g := &labelledGraph{n: n, adj: make([][]graphEdge, n), bad: make([]bool, n), stuck: make([]bool, n)}
	g.init = rapid.SliceOfN(rapid.IntRange(0, n-1), 1, 3).Draw(t, "init")
	edges := rapid.IntRange(0, 3*n).Draw(t, "edges")
	for range edges {
		a := rapid.IntRange(0, n-1).Draw(t, "from")
		b := rapid.IntRange(0, n-1).Draw(t, "to")
		if acyclic {
			if a == b {
				continue
			}
			a, b = min(a, b), max(a, b)
		}
		m := rapid.Uint32Range(0, 7).Draw(t, "marks")
		g.adj[a] = append(g.adj[a], graphEdge{to: b, marks: m})
	}
	for i := range n {
		g.bad[i] = rapid.IntRange(0, 5).Draw(t, "bad") == 0
		g.stuck[i] = rapid.Bool().Draw(t, "stuck")
	}
	return g
}

// referenceGraph is a deliberately simple explorer: BFS distances, and
// cycles from a reachability matrix.
type referenceGraph struct {
	reachable    int
	dist         []int // -1: unreachable
	badDist      int   // shortest distance to a bad state, -1 if none
	stuckDist    int   // shortest distance to a stuck deadlock, -1 if none
	cycleMarks   []uint32
	hasCycleNode []bool
}

func explore(g *labelledGraph) referenceGraph {
	r := referenceGraph{dist: make([]int, g.n), badDist: -1, stuckDist: -1}
	for i := range r.dist {
		r.dist[i] = -1
	}
	var queue []int
	for _, i := range g.init {
		if r.dist[i] < 0 {
			r.dist[i] = 0
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		r.reachable++
		if g.bad[v] && r.badDist < 0 {
			r.badDist = r.dist[v]
		}
		if len(g.adj[v]) == 0 && g.stuck[v] && r.stuckDist < 0 {
			r.stuckDist = r.dist[v]
		}
		for _, e := range g.adj[v] {
			if r.dist[e.to] < 0 {
				r.dist[e.to] = r.dist[v] + 1
				queue = append(queue, e.to)
			}
		}
	}
	// reach[a][b]: b reachable from a in one or more steps.
	reach := make([][]bool, g.n)
	for a := range reach {
		reach[a] = make([]bool, g.n)
		for _, e := range g.adj[a] {
			reach[a][e.to] = true
		}
	}
	for k := range g.n {
		for a := range g.n {
			for b := range g.n {
				if reach[a][k] && reach[k][b] {
					reach[a][b] = true
				}
			}
		}
	}
	// Marks available on closed walks through node a: edges x->y with
	// a->x, x->y, y->a all connected (x and y in a's component).
	r.cycleMarks = make([]uint32, g.n)
	r.hasCycleNode = make([]bool, g.n)
	for a := range g.n {
		for x := range g.n {
			inComp := x == a || (reach[a][x] && reach[x][a])
			if !inComp {
				continue
			}
			for _, e := range g.adj[x] {
				y := e.to
				if (y == a || (reach[a][y] && reach[y][a])) && reach[y][x] || y == x {
					r.cycleMarks[a] |= e.marks
					r.hasCycleNode[a] = true
				}
			}
		}
	}
	return r
}

// shortestLasso is the least distance to a reachable node on a cycle whose
// marks cover require, or -1.
func (r referenceGraph) shortestLasso(require uint32) int {
	best := -1
	for a, d := range r.dist {
		if d >= 0 && r.hasCycleNode[a] && r.cycleMarks[a]&require == require && (best < 0 || d < best) {
			best = d
		}
	}
	return best
}

// fataler is the part of testing.TB and *rapid.T the helpers need.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

func checkGraph(t fataler, g *labelledGraph, require uint32, opts Options) Result[int] {
	t.Helper()
	opts.CollectAll = true
	res, err := Check(context.Background(), System[int](g), g.props(require), opts)
	if err != nil {
		t.Fatalf("Check(%+v): %v", opts, err)
	}
	return res
}

func expectVerdict(t fataler, what string, p PropertyResult[int], wantDist int, bfs bool) {
	t.Helper()
	switch {
	case wantDist < 0 && p.Verdict != Holds:
		t.Fatalf("%s: got %v, want holds", what, p)
	case wantDist >= 0 && p.Verdict != Violated:
		t.Fatalf("%s: got %v, want violated at depth %d", what, p, wantDist)
	case wantDist >= 0 && bfs && p.Trace.LoopStart < 0 && len(p.Trace.Steps) != wantDist:
		t.Fatalf("%s: trace length %d, want shortest %d", what, len(p.Trace.Steps), wantDist)
	case wantDist >= 0 && p.Trace.LoopStart >= 0 && p.Trace.LoopStart != wantDist:
		t.Fatalf("%s: lasso prefix %d, want shortest %d", what, p.Trace.LoopStart, wantDist)
	}
}

func TestRandomGraphsAgainstReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawGraph(t, rapid.Bool().Draw(t, "acyclic"))
		require := rapid.Uint32Range(0, 7).Draw(t, "require")
		ref := explore(g)
		for _, strategy := range []Strategy{BFS, DFS} {
			for _, workers := range []int{1, 2, 4, 8} {
				if strategy == DFS && workers > 1 {
					continue
				}
				opts := Options{Strategy: strategy, Workers: workers}
				res := checkGraph(t, g, require, opts)
				what := fmt.Sprintf("%v/%d workers", strategy, workers)
				if res.Stats.States != int64(ref.reachable) {
					t.Fatalf("%s: %d states, reference %d", what, res.Stats.States, ref.reachable)
				}
				if !res.Complete {
					t.Fatalf("%s: exact exhaustive run not complete", what)
				}
				expectVerdict(t, what+" invariant", res.Properties[0], ref.badDist, strategy == BFS)
				expectVerdict(t, what+" end", res.Properties[1], ref.stuckDist, strategy == BFS)
				expectVerdict(t, what+" cycle", res.Properties[2], ref.shortestLasso(require), true)
			}
		}
		// Hash compaction (128- and 64-bit) stores the same states and
		// finds the same violations; what holds is only Unknown.
		for _, short := range []bool{false, true} {
			for _, workers := range []int{1, 3} {
				opts := Options{Storage: HashCompaction, Fingerprint64: short, Workers: workers}
				res := checkGraph(t, g, require, opts)
				what := fmt.Sprintf("hash-compaction (64-bit %v)/%d workers", short, workers)
				if res.Stats.States != int64(ref.reachable) {
					t.Fatalf("%s: %d states, reference %d", what, res.Stats.States, ref.reachable)
				}
				for i, want := range []int{ref.badDist, ref.stuckDist, ref.shortestLasso(require)} {
					if p := res.Properties[i]; want >= 0 {
						expectVerdict(t, what+" "+p.Kind, p, want, true)
					} else if p.Verdict != Unknown {
						t.Fatalf("%s: %v, want unknown", what, p)
					}
				}
			}
		}
	})
}

func TestDAGsHaveNoCycles(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawGraph(t, true)
		res := checkGraph(t, g, 0, Options{Workers: rapid.IntRange(1, 3).Draw(t, "workers")})
		if p := res.Properties[2]; p.Verdict != Holds {
			t.Fatalf("cycle on a DAG: %v", p)
		}
	})
}

// TestPlantedLassos adds a reachable cycle carrying the required marks to a
// random DAG; it must always be found.
func TestPlantedLassos(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawGraph(t, true)
		require := rapid.Uint32Range(1, 7).Draw(t, "require")
		// Pick a node reachable from an initial state and plant a loop of
		// fresh nodes through it whose edges carry the required bits.
		ref := explore(g)
		var reachable []int
		for v, d := range ref.dist {
			if d >= 0 {
				reachable = append(reachable, v)
			}
		}
		at := rapid.SampledFrom(reachable).Draw(t, "at")
		length := rapid.IntRange(1, 4).Draw(t, "length")
		prev := at
		for i := range length {
			next := at
			if i < length-1 {
				next = g.n
				g.n++
				g.adj = append(g.adj, nil)
				g.bad, g.stuck = append(g.bad, false), append(g.stuck, false)
			}
			g.adj[prev] = append(g.adj[prev], graphEdge{to: next, marks: require})
			prev = next
		}
		res := checkGraph(t, g, require, Options{Workers: rapid.IntRange(1, 3).Draw(t, "workers")})
		p := res.Properties[2]
		if p.Verdict != Violated {
			t.Fatalf("planted lasso not found: %v", p)
		}
		if want := explore(g).shortestLasso(require); p.Trace.LoopStart != want {
			t.Fatalf("lasso prefix %d, want %d", p.Trace.LoopStart, want)
		}
	})
}

func TestStopAtFirstViolationIsDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawGraph(t, false)
		props := g.props(0)
		props.Cycles = nil
		var want []Verdict
		for _, workers := range []int{1, 2, 4} {
			res, err := Check(context.Background(), System[int](g), props, Options{Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			var got []Verdict
			for _, p := range res.Properties {
				got = append(got, p.Verdict)
				if p.Verdict == Unknown && p.Reason != ReasonStopped {
					t.Fatalf("unexpected reason %v", p.Reason)
				}
			}
			if want == nil {
				want = got
			} else if !slices.Equal(got, want) {
				t.Fatalf("%d workers: verdicts %v, sequential %v", workers, got, want)
			}
		}
	})
}
