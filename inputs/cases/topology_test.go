package cases_test

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/inputs/cases"
	"github.com/kivi-go/kivi/model"
)

// typeBound is a node type of the scaling template with its bounds.
type typeBound struct {
	name     string
	min, max int
}

// topology is what Kivi's case generator gives case X at scale s.
type topology struct {
	section string
	nodes   func(s int) int
	slots   func(s int) int
	// replicas is the deployment's spec; running the pods on node i
	// (0-based) at the start; free Kivi's cpuLeft of node i.
	replicas func(s int) int
	running  func(s, i int) int
	free     func(s, i int, cn bool) int64
	// hpa is the HPA's min and max (nil: no HPA).
	hpa     func(s int) (int, int)
	created bool
	types   func(s int, cn bool) []typeBound
	perNode int
}

func zero(int, int) int             { return 0 }
func full(int, int, bool) int64     { return 64 }
func each(n int) func(s, i int) int { return func(int, int) int { return n } }
func ceilDiv(a, b int) int          { return (a + b - 1) / b }
func c3Nodes(s int) int             { return 2*(s/2) + 1 }
func c5Split(s int) (t1, t2, t3 int) {
	t1, t2 = ceilDiv(3*s, 5), ceilDiv(s, 5)
	return t1, t2, max(0, s-t1-t2)
}
func one(name string, min int) func(int, bool) []typeBound {
	return func(s int, _ bool) []typeBound { return []typeBound{{name, min, s}} }
}

var topologies = map[string]topology{
	"c1": {section: "Kivi's case definitions C1: N = s nodes, 2N+5 pods, spec max(1, ⌊N/5⌋), HPA(50, spec, 2N)",
		nodes: func(s int) int { return s }, slots: func(s int) int { return 2*s + 5 },
		replicas: func(s int) int { return max(1, s/5) }, running: zero, free: full,
		hpa:   func(s int) (int, int) { return max(1, s/5), 2 * s },
		types: one("node", 0), perNode: 7},
	"c2": {section: "Kivi's case definitions C2: N = s nodes {cpuLeft 56, numPod 1}, N+3 pods, spec N, HPA(50, N, N+2)",
		nodes: func(s int) int { return s }, slots: func(s int) int { return s + 3 },
		replicas: func(s int) int { return s }, running: each(1),
		free:    func(int, int, bool) int64 { return 56 },
		hpa:     func(s int) (int, int) { return s, s + 2 },
		created: true, types: one("zone-1", 0), perNode: 7},
	"c3": {section: "Kivi's case definitions C3: N' = 2⌊s/2⌋+1 nodes, middle one {cpuLeft 56, numPod 1}, others {48, 2}; 2N' pods; spec 2N'−1; HPA(91, 2N'−1, 2N')",
		nodes: c3Nodes, slots: func(s int) int { return 2 * c3Nodes(s) },
		replicas: func(s int) int { return 2*c3Nodes(s) - 1 },
		running: func(s, i int) int {
			if i == c3Nodes(s)/2 {
				return 1
			}
			return 2
		},
		free: func(s, i int, _ bool) int64 {
			if i == c3Nodes(s)/2 {
				return 56
			}
			return 48
		},
		hpa:     func(s int) (int, int) { return 2*c3Nodes(s) - 1, 2 * c3Nodes(s) },
		created: true,
		types: func(s int, _ bool) []typeBound {
			if c3Nodes(s) == 1 {
				return []typeBound{{"zone-1", 0, s}}
			}
			return []typeBound{{"zone-1", 0, s}, {"zone-2", 0, s}}
		}, perNode: 7},
	"c4": {section: "Kivi's case definitions C4: N = s empty nodes, 2N+2 pods, spec 2N+1, no HPA; scaling 2..s nodes, ≤ 4 pods/node",
		nodes: func(s int) int { return s }, slots: func(s int) int { return 2*s + 2 },
		replicas: func(s int) int { return 2*s + 1 }, running: zero, free: full,
		types: one("node", 2), perNode: 4},
	"c5": {section: "Kivi's case definitions C5: t1 = ⌈3s/5⌉ {cpuLeft 4, numPod 1}, t2 = ⌈s/5⌉ {40, 3}, t3 = max(0, s−t1−t2) {32, 4}; P+3 pods; spec P",
		nodes:    func(s int) int { t1, t2, t3 := c5Split(s); return t1 + t2 + t3 },
		slots:    func(s int) int { t1, t2, t3 := c5Split(s); return t1 + 3*t2 + 4*t3 + 3 },
		replicas: func(s int) int { t1, t2, t3 := c5Split(s); return t1 + 3*t2 + 4*t3 },
		running: func(s, i int) int {
			t1, t2, _ := c5Split(s)
			switch {
			case i < t1:
				return 1
			case i < t1+t2:
				return 3
			}
			return 4
		},
		free: func(s, i int, cn bool) int64 {
			t1, t2, _ := c5Split(s)
			switch {
			case i < t1 && cn:
				return 56
			case i < t1:
				return 4
			case i < t1+t2:
				return 40
			}
			return 32
		},
		created: true,
		types: func(s int, cn bool) []typeBound {
			if cn {
				return []typeBound{{"big", 1, s}}
			}
			return []typeBound{{"small", 1, s}, {"big", 1, s}}
		}, perNode: 7},
	"c6": {section: "Kivi's case definitions C6: N = s nodes {cpuLeft 56, numPod 1}, N+5 pods, spec N; scaling 2..s nodes, ≤ 4 pods/node",
		nodes: func(s int) int { return s }, slots: func(s int) int { return s + 5 },
		replicas: func(s int) int { return s }, running: each(1),
		free:    func(int, int, bool) int64 { return 56 },
		created: true, types: one("node", 2), perNode: 4},
	"c7": {section: "Kivi's case definitions C7: node 1 tainted, nodes 2..N not; N pods; spec N (the N pods Kivi creates of its 5N)",
		nodes: func(s int) int { return s }, slots: func(s int) int { return s },
		replicas: func(s int) int { return s }, running: zero, free: full,
		types: func(s int, cn bool) []typeBound {
			switch {
			case cn:
				return []typeBound{{"untainted", 0, s}}
			case s == 1:
				return []typeBound{{"tainted", 0, s}}
			}
			return []typeBound{{"tainted", 0, s}, {"untainted", 0, s}}
		}, perNode: 7},
	"c8": {section: "Kivi's case definitions C8: ⌈s/5⌉ on-demand and s−⌈s/5⌉ spot nodes, 2s pods, spec 2s",
		nodes: func(s int) int { return s }, slots: func(s int) int { return 2 * s },
		replicas: func(s int) int { return 2 * s }, running: zero, free: full,
		types: func(s int, _ bool) []typeBound {
			if s-ceilDiv(s, 5) == 0 {
				return []typeBound{{"on-demand", 0, s}}
			}
			return []typeBound{{"on-demand", 0, s}, {"spot", 0, s}}
		}, perNode: 7},
}

// TestTopology builds every case at scales 1..6, both variants, and
// compares node, pod-slot, replica and placement counts with Kivi's case definitions,
// and the scaling-template bounds with Kivi's scaling search.
func TestTopology(t *testing.T) {
	for _, in := range cases.List() {
		want, ok := topologies[in.ID]
		if !ok {
			t.Fatalf("%s: no expected topology", in.ID)
		}
		for s := 1; s <= 6; s++ {
			for _, cn := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/s=%d/cn=%v", in.ID, s, cn), func(t *testing.T) {
					t.Logf("source: %s", want.section)
					c, err := cases.Get(in.ID, s, cn)
					if err != nil {
						t.Fatal(err)
					}
					u, st, err := c.Build()
					if err != nil {
						t.Fatalf("Build: %v", err)
					}
					if got := len(u.Nodes); got != want.nodes(s) {
						t.Errorf("nodes = %d, want %d", got, want.nodes(s))
					}
					if u.PodSlots != want.slots(s) {
						t.Errorf("pod slots = %d, want %d", u.PodSlots, want.slots(s))
					}
					if len(st.Deps) != 1 {
						t.Fatalf("deployments = %d, want 1", len(st.Deps))
					}
					if got := int(st.Deps[0].Replicas); got != want.replicas(s) {
						t.Errorf("spec replicas = %d, want %d", got, want.replicas(s))
					}
					if st.Deps[0].Active != want.created {
						t.Errorf("deployment active = %v, want %v", st.Deps[0].Active, want.created)
					}
					for i := range u.Nodes {
						on := 0
						for _, p := range st.Pods {
							if p.Phase == model.Running && p.NodeOf() == i {
								on++
							}
						}
						if on != want.running(s, i) {
							t.Errorf("node %s runs %d pods, want %d", u.Nodes[i].Name, on, want.running(s, i))
						}
						if u.Nodes[i].Name != fmt.Sprint(i+1) {
							t.Errorf("node %d is named %q, want its position", i, u.Nodes[i].Name)
						}
						free := u.Allocatable(i).CPU - u.Requested(st, i).CPU
						if free != want.free(s, i, cn) {
							t.Errorf("node %s has %d CPU free (Kivi's cpuLeft), want %d", u.Nodes[i].Name, free, want.free(s, i, cn))
						}
					}
					checkHPA(t, c, want, s)
					var types []typeBound
					for _, nt := range c.NodeTypes {
						types = append(types, typeBound{nt.Name, nt.Min, nt.Max})
					}
					if fmt.Sprint(types) != fmt.Sprint(want.types(s, cn)) {
						t.Errorf("node types = %v, want %v", types, want.types(s, cn))
					}
					d := c.Deployments[0]
					if d.MinReplicas != 0 || d.MaxReplicas != 8*s || d.MaxPodsPerNode != want.perNode {
						t.Errorf("deployment search bounds = %d..%d, ≤ %d/node; want 0..%d, ≤ %d/node",
							d.MinReplicas, d.MaxReplicas, d.MaxPodsPerNode, 8*s, want.perNode)
					}
				})
			}
		}
	}
}

// checkHPA compares the HPA bounds of the original topology with
// Kivi's case definitions. model.Cluster.Build derives the bounds from HPA.Factor even
// for the original topology (it should only in BuildSetup), so the check
// builds a copy without the factor; the factor itself must be
// Kivi's scaling search HPAfactor 2.
func checkHPA(t *testing.T, c *model.Cluster, want topology, s int) {
	t.Helper()
	h := c.Deployments[0].HPA
	if want.hpa == nil {
		if h != nil {
			t.Errorf("deployment has an HPA, want none")
		}
		return
	}
	if h == nil {
		t.Fatalf("deployment has no HPA")
	}
	if h.Factor != 2 {
		t.Errorf("HPA factor = %d, want 2", h.Factor)
	}
	cp := *c
	cp.Deployments = append([]model.DeploymentDecl(nil), c.Deployments...)
	hc := *h
	hc.Factor = 0
	cp.Deployments[0].HPA = &hc
	u, _, err := cp.Build()
	if err != nil {
		t.Fatal(err)
	}
	wantMin, wantMax := want.hpa(s)
	if got := u.HPAs[0]; got.Min != wantMin || got.Max != wantMax {
		t.Errorf("HPA %d..%d, want %d..%d", got.Min, got.Max, wantMin, wantMax)
	}
}
