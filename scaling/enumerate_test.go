package scaling

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// bounds parses "0..3,0..3" node types and "0..24/7,1..5/7" deployments
// (min..max/maxPodsPerNode) for tests.
func parseBounds(t *testing.T, nodes, deps string) Bounds {
	t.Helper()
	var b Bounds
	rng := func(s string) (int, int) {
		lo, hi, ok := strings.Cut(s, "..")
		a, err1 := strconv.Atoi(lo)
		z, err2 := strconv.Atoi(hi)
		if !ok || err1 != nil || err2 != nil {
			t.Fatalf("bad range %q", s)
		}
		return a, z
	}
	for i, r := range strings.Split(nodes, ",") {
		lo, hi := rng(r)
		b.NodeTypes = append(b.NodeTypes, TypeBounds{Name: fmt.Sprintf("t%d", i), Min: lo, Max: hi})
	}
	for i, r := range strings.Split(deps, ",") {
		r, per, _ := strings.Cut(r, "/")
		lo, hi := rng(r)
		p, _ := strconv.Atoi(per)
		b.Deployments = append(b.Deployments, DeploymentBounds{Name: fmt.Sprintf("d%d", i), Min: lo, Max: hi, MaxPodsPerNode: p})
	}
	return b
}

func indexOf(setups []Setup, text string) int {
	for i, s := range setups {
		if s.String() == text {
			return i
		}
	}
	return -1
}

// TestKiviFailurePositions: the position of each built-in case's first
// failing setup in the order must be the number of setups Kivi verified
// (Kivi's scaling search: "C1 3, C2 2, C3 58, C4 5, C5 2, C6 2, C7 2, C8 70"),
// with the bounds of Kivi's scaling search and the types of Kivi's case definitions.
func TestKiviFailurePositions(t *testing.T) {
	for _, tc := range []struct {
		name, nodes, deps string
		failing           string
		position, total   int
	}{
		{"C1", "0..3", "0..24/7", "{node type 0: 1, deployment type 0: 3}", 3, 36},
		{"C2", "0..3", "0..24/7", "{node type 0: 1, deployment type 0: 2}", 2, 36},
		{"C3", "0..3,0..3", "0..24/7", "{node type 0: 1, node type 1: 2, deployment type 0: 3}", 58, 264},
		{"C4", "2..3", "0..24/4", "{node type 0: 2, deployment type 0: 5}", 5, 20},
		{"C5", "1..3,1..3", "0..24/7", "{node type 0: 1, node type 1: 1, deployment type 0: 2}", 2, 192},
		{"C6", "2..3", "0..24/4", "{node type 0: 2, deployment type 0: 2}", 2, 20},
		{"C7", "0..3,0..3", "0..24/7", "{node type 0: 1, node type 1: 0, deployment type 0: 1}", 2, 264},
		{"C8", "0..3,0..3", "0..24/7", "{node type 0: 1, node type 1: 2, deployment type 0: 6}", 70, 264},
	} {
		setups, err := Enumerate(parseBounds(t, tc.nodes, tc.deps), EnumerateOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := indexOf(setups, tc.failing) + 1; got != tc.position {
			t.Errorf("%s: %s is setup %d, Kivi verified %d setups", tc.name, tc.failing, got, tc.position)
		}
		if len(setups) != tc.total {
			t.Errorf("%s: %d setups, want %d", tc.name, len(setups), tc.total)
		}
	}
}

// TestFloatKey: with two deployment types Kivi's float key (Kivi's scaling search
// §4.2) is not the integer pair (N, D): the order must follow the float
// key literally — with N = 1 the key of (2,2) is 1.004 but that of (1,3)
// and (3,1) is 1.0039999999999998 (checked with Python), so (2,2), which
// the walk collects between them, comes after both.
func TestFloatKey(t *testing.T) {
	b := parseBounds(t, "0..2,0..3", "0..9/7,0..9/7")
	dfs, err := collect(b, EnumerateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	setups, err := Enumerate(b, EnumerateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(setups); i++ {
		if setups[i-1].kiviKey() > setups[i].kiviKey() {
			t.Fatalf("setups %d, %d out of float-key order: %s, %s", i, i+1, setups[i-1], setups[i])
		}
	}
	ints := append([]Setup(nil), dfs...)
	sort.SliceStable(ints, func(i, j int) bool {
		if ints[i].TotalNodes() != ints[j].TotalNodes() {
			return ints[i].TotalNodes() < ints[j].TotalNodes()
		}
		return ints[i].TotalReplicas() < ints[j].TotalReplicas()
	})
	same := len(ints) == len(setups)
	for i := range ints {
		same = same && ints[i].Equal(setups[i])
	}
	if same {
		t.Error("the float key gave the integer (N, D) order: the test no longer shows the rounding")
	}
	pos := func(text string) int { return indexOf(setups, text) }
	a13, a22, a31 := pos("{node type 0: 1, node type 1: 0, deployment type 0: 1, deployment type 1: 3}"),
		pos("{node type 0: 1, node type 1: 0, deployment type 0: 2, deployment type 1: 2}"),
		pos("{node type 0: 1, node type 1: 0, deployment type 0: 3, deployment type 1: 1}")
	if !(a13 < a31 && a31 < a22) {
		t.Errorf("positions (1,3) %d, (3,1) %d, (2,2) %d: want (1,3) < (3,1) < (2,2)", a13, a31, a22)
	}
}

// TestBoundRules checks the caps of Kivi's scaling search on every setup of a
// range of bounds: ≤ ConfidentNodes per type, ≥ 1 node, ≥ 1 replica,
// each deployment ≤ ConfidentPodsPerNode·N and ≤ MaxPodsPerNode·N, and
// the counts within min..max; and that no setup is listed twice.
func TestBoundRules(t *testing.T) {
	for _, tc := range []struct {
		nodes, deps string
		opts        EnumerateOptions
	}{
		{"0..9", "0..100/7", EnumerateOptions{}},
		{"0..9", "0..100/7", EnumerateOptions{ConfidentNodes: 2, ConfidentPodsPerNode: 3}},
		{"1..2,0..8", "3..40/2,0..5/9", EnumerateOptions{}},
		{"0..3", "0..40/9", EnumerateOptions{FastFind: 1}},
	} {
		b := parseBounds(t, tc.nodes, tc.deps)
		setups, err := Enumerate(b, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		o, _ := tc.opts.withDefaults()
		seen := map[string]bool{}
		for _, s := range setups {
			n := s.TotalNodes()
			if n == 0 || s.TotalReplicas() == 0 || seen[s.String()] {
				t.Errorf("%s %s: %s empty or repeated", tc.nodes, tc.deps, s)
			}
			seen[s.String()] = true
			for i, c := range s.Nodes {
				if c < b.NodeTypes[i].Min || c > b.NodeTypes[i].Max || c > o.ConfidentNodes {
					t.Errorf("%s: node type %d out of bounds", s, i)
				}
			}
			for k, c := range s.Replicas {
				d := b.Deployments[k]
				if c < d.Min || c > d.Max || c > o.ConfidentPodsPerNode*n || c > d.MaxPodsPerNode*n {
					t.Errorf("%s: deployment %d out of bounds", s, k)
				}
				if o.FastFind == 1 && c > 7 && c%2 == 0 {
					t.Errorf("%s: fast find 1 skips even counts above 7", s)
				}
			}
		}
	}
}

// TestBoundErrors: bad bounds are refused with the type and field named.
func TestBoundErrors(t *testing.T) {
	for _, tc := range []struct {
		b    Bounds
		want string
	}{
		{Bounds{Deployments: []DeploymentBounds{{Name: "web", Max: 3}}}, "nodeTypes: none declared"},
		{Bounds{NodeTypes: []TypeBounds{{Name: "big", Max: 3}}}, "deployments: none declared"},
		{Bounds{NodeTypes: []TypeBounds{{Name: "big", Min: 4, Max: 3}}, Deployments: []DeploymentBounds{{Name: "web", Max: 3}}}, "nodeTypes[0] (big).min 4 > max 3"},
		{Bounds{NodeTypes: []TypeBounds{{Name: "big", Max: 3}, {Name: "small"}}, Deployments: []DeploymentBounds{{Name: "web", Max: 3}}}, "nodeTypes[1] (small).max 0: zero capacity"},
		{Bounds{NodeTypes: []TypeBounds{{Name: "big", Min: -1, Max: 3}}, Deployments: []DeploymentBounds{{Name: "web", Max: 3}}}, "nodeTypes[0] (big).min -1: must not be negative"},
		{Bounds{NodeTypes: []TypeBounds{{Name: "big", Max: 3}}, Deployments: []DeploymentBounds{{Name: "web", Min: 5, Max: 3}}}, "deployments[0] (web).minReplicas 5 > maxReplicas 3"},
		{Bounds{NodeTypes: []TypeBounds{{Name: "big", Max: 3}}, Deployments: []DeploymentBounds{{Name: "web"}}}, "deployments[0] (web).maxReplicas 0: zero capacity"},
		{Bounds{NodeTypes: []TypeBounds{{Name: "big", Max: 3}}, Deployments: []DeploymentBounds{{Name: "web", Max: 3, MaxPodsPerNode: -2}}}, "deployments[0] (web).maxPodsPerNode -2"},
	} {
		_, err := Enumerate(tc.b, EnumerateOptions{})
		if err == nil || !errors.Is(err, ErrBounds) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.b, err, tc.want)
		}
	}
	// Bounds that admit no setup: 2 nodes at most, 20 replicas at least.
	_, err := Enumerate(parseBounds(t, "0..2", "20..30/7"), EnumerateOptions{})
	if !errors.Is(err, ErrNoSetups) {
		t.Errorf("no setup: %v", err)
	}
}
