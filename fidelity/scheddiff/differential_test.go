package scheddiff

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/fidelity/classify"
	"github.com/kivi-go/kivi/model"
)

var (
	snapshots = flag.Int("snapshots", 10000, "random snapshots TestDifferential compares (rapid checks)")
	examples  = flag.Bool("examples", false, "TestMinimalExamples: find and shrink a minimal snapshot for every disagreement class")
)

// shared is one framework for every test of the package: building it
// starts informers.
var shared struct {
	once sync.Once
	r    *Real
	err  error
}

func realScheduler(t testing.TB) *Real {
	t.Helper()
	shared.once.Do(func() { shared.r, shared.err = NewReal() })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.r
}

// withChecks runs n rapid checks (classify.Checks).
func withChecks(t *testing.T, n int) { classify.Checks(t, n, 0) }

// report renders a disagreement for humans.
func report(s *Snapshot, v Verdict) string {
	return fmt.Sprintf("class %s\n%smodel: %s\n%sreal:  %s\n%s", v.Class, s, v.Model, v.Model.Detail, v.Real, v.Real.Detail)
}

// TestDifferential compares the model with kube-scheduler on -snapshots
// random snapshots: every disagreement must belong to a known class. rapid
// shrinks an unexplained one to a minimal snapshot before reporting it.
// The counts per class are logged (go test -v).
func TestDifferential(t *testing.T) {
	r := realScheduler(t)
	withChecks(t, *snapshots)
	counts, covered := map[string]int{}, map[string]int{}
	total := 0
	rapid.Check(t, func(rt *rapid.T) {
		s := Generate(rt)
		v, err := Classify(r, s)
		if err != nil {
			rt.Fatal(err)
		}
		if v.Class == Unexplained {
			rt.Fatalf("a disagreement no known class explains:\n%s", report(s, v))
		}
		total++
		counts[v.Class]++
		// What the comparison exercised, judged on the real answer.
		switch len(v.Real.Feasible) {
		case 0:
			covered["no feasible node"]++
		case 1:
			covered["one feasible node"]++
		default:
			covered["two or more feasible nodes (scores compared)"]++
		}
		if strings.Contains(v.Real.Detail, "PodTopologySpread: ") {
			covered["a node rejected by a DoNotSchedule constraint"]++
		}
		if strings.Contains(v.Real.Detail, "NodePorts: ") {
			covered["a node rejected by NodePorts"]++
			if s.Pending.Ports.HostNetwork {
				covered["a node rejected by NodePorts for a hostNetwork pod"]++
			}
			if s.Pending.Ports.onAddress() {
				covered["a node rejected by NodePorts, the pod binding one address"]++
			}
		}
		if len(s.Pending.Spread) > 0 && len(v.Real.Feasible) > 1 {
			covered["own spread constraints, scores compared"]++
		}
		if !s.KiviInput && s.usesKey(model.KiviHostnameKey) {
			// Read as manifests, `hostname` is an ordinary key no node
			// carries on either side.
			covered["`hostname` key without Kivi's alias"]++
		}
		if s.KiviInput && s.usesKey(model.KiviHostnameKey) {
			covered["`hostname` key with Kivi's alias"]++
		}
		if s.Pending.readsNodeName(false) {
			covered["node affinity matchFields, required"]++
		}
		if s.Pending.readsNodeName(true) && len(v.Real.Feasible) > 1 {
			covered["node affinity matchFields, preferred, scores compared"]++
		}
		for _, f := range s.features() {
			if f.scored && len(v.Real.Feasible) < 2 {
				continue
			}
			covered[f.name]++
		}
	})
	agree := counts[""]
	delete(counts, "")
	var b strings.Builder
	fmt.Fprintf(&b, "%d comparisons: %d agree, %d disagree\n", total, agree, total-agree)
	for _, c := range slices.Sorted(maps.Keys(counts)) {
		fmt.Fprintf(&b, "  %-60s %6d\n", c, counts[c])
	}
	// Per class: the disagreements it explains alone, and those it
	// explains together with other classes.
	b.WriteString("per class (alone / with others):\n")
	for _, c := range Classes {
		alone, with := counts[c.Name], 0
		for k, n := range counts {
			if k != c.Name && slices.Contains(strings.Split(k, "+"), c.Name) {
				with += n
			}
		}
		fmt.Fprintf(&b, "  %-40s %6d / %6d\n", c.Name, alone, with)
	}
	b.WriteString("coverage:\n")
	for _, c := range slices.Sorted(maps.Keys(covered)) {
		fmt.Fprintf(&b, "  %-60s %6d\n", c, covered[c])
	}
	t.Log(b.String())
	// A comparison that never reaches a feature would say nothing about
	// it; the generator is built to hit every one.
	if total >= 1000 {
		for _, c := range append([]string{"no feasible node", "one feasible node", "two or more feasible nodes (scores compared)",
			"a node rejected by a DoNotSchedule constraint", "own spread constraints, scores compared", "`hostname` key without Kivi's alias",
			"`hostname` key with Kivi's alias", "a node rejected by NodePorts", "a node rejected by NodePorts for a hostNetwork pod",
			"a node rejected by NodePorts, the pod binding one address", "node affinity matchFields, required",
			"node affinity matchFields, preferred, scores compared"}, featureNames()...) {
			if covered[c] == 0 {
				t.Errorf("no snapshot with %s in %d", c, total)
			}
		}
	}
}

// TestScoreWeights pins the real profile the comparison runs against:
// the default score plugins and weights of kube-scheduler v1.36 (the model
// has all but ImageLocality).
func TestScoreWeights(t *testing.T) {
	got := realScheduler(t).ScoreWeights()
	want := map[string]int32{"TaintToleration": 3, "NodeAffinity": 2, "NodeResourcesFit": 1, "PodTopologySpread": 2,
		"InterPodAffinity": 2, "NodeResourcesBalancedAllocation": 1, ImageLocality: 1}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("score plugin %s: weight %d, want %d (all: %v)", p, got[p], w, got)
		}
	}
}

// node is a small node for the hand-written cases.
func node(labels map[string]string) Node {
	return Node{Labels: labels, MilliCPU: 4000, MemMiB: 4096, MaxPods: 110, Ready: true}
}

// downNode is a small node that is not Ready, handled as down says.
func downNode(down NodeDown) Node {
	return Node{Labels: map[string]string{}, MilliCPU: 4000, MemMiB: 4096, MaxPods: 110, Down: down}
}

// tolerating is the pending pod with tolerations tols.
func tolerating(tols ...model.Toleration) Pending {
	p := pending()
	p.Tolerations = tols
	return p
}

// explicit are requests with no missing value.
var explicit = Requests{MilliCPU: 100, MemMiB: 128}

func pending() Pending {
	return Pending{Labels: map[string]string{appLabel: incomingApp, hashLabel: incomingHash}, Req: explicit}
}

// TestKnownClasses runs one hand-written snapshot per known or former
// divergence and checks that both schedulers are run and agree, or
// disagree as documented, with the real answer the case is about (the
// feasible and top nodes), so that the classifier's cases are exercised
// whatever the random draw. Every class but image-locality-not-modelled is
// closed: its example now agrees.
func TestKnownClasses(t *testing.T) {
	r := realScheduler(t)
	two := []Node{node(map[string]string{ZoneKey: "z1"}), node(map[string]string{ZoneKey: "z2"})}
	web := func(n int, aff, anti *model.PodAffinityDecl) Pod {
		return Pod{Node: n, Labels: map[string]string{appLabel: "web"}, Req: explicit, PodAffinity: aff, PodAntiAffinity: anti}
	}
	term := func(key, app string) model.PodAffinityTermDecl {
		return model.PodAffinityTermDecl{TopologyKey: key, LabelSelector: &model.Selector{MatchLabels: map[string]string{appLabel: app}}}
	}
	required := func(ts ...model.PodAffinityTermDecl) *model.PodAffinityDecl {
		return &model.PodAffinityDecl{Required: ts}
	}
	cases := []struct {
		name          string
		s             Snapshot
		want          string
		feasible, top []string // the real answer, nil: not checked
	}{
		{"agreement", Snapshot{Nodes: two, Pending: pending()}, "", nil, nil},
		// A Kivi input's nodes carry the `hostname` alias on both sides.
		{"hostname alias", Snapshot{Nodes: two, KiviInput: true, Pending: func() Pending {
			p := pending()
			p.NodeSelector = map[string]string{model.KiviHostnameKey: "n1"}
			return p
		}()}, "", []string{"n1"}, []string{"n1"}},
		// The same pod read from manifests: no node has `hostname`, on
		// either side, so both reject every node.
		{"hostname key without the alias", Snapshot{Nodes: two, Pending: func() Pending {
			p := pending()
			p.NodeSelector = map[string]string{model.KiviHostnameKey: "n1"}
			return p
		}()}, "", []string{}, []string{}},
		{"empty required term", Snapshot{Nodes: two, Pending: func() Pending {
			p := pending()
			p.Required = []model.Selector{{}}
			return p
		}()}, "", []string{}, []string{}},
		// The not-Ready n2 carries the not-ready taints, which {Exists}
		// tolerates.
		{"not-ready tolerated", Snapshot{Nodes: []Node{two[0], {Labels: map[string]string{}, MilliCPU: 4000, MemMiB: 4096, MaxPods: 110}},
			Pending: func() Pending {
				p := pending()
				p.Tolerations = []model.Toleration{{Operator: "Exists"}}
				return p
			}()}, "", []string{"n1", "n2"}, nil},
		// A pod tolerating the unreachable NoSchedule taint (the
		// DefaultTolerationSeconds plugin gives it the NoExecute one):
		// n2 stopped reporting, so it carries the unreachable taints.
		{"unreachable tolerated", Snapshot{Nodes: []Node{two[0], downNode(DownUnreachable)}, Pending: tolerating(
			model.Toleration{Key: model.TaintNodeUnreachable, Operator: "Exists", Effect: model.NoSchedule})}, "", []string{"n1", "n2"}, nil},
		// The same pod and a node that reports NotReady: the not-ready
		// taints, which it does not tolerate.
		{"not-ready untolerated", Snapshot{Nodes: []Node{two[0], downNode(DownNotReady)}, Pending: tolerating(
			model.Toleration{Key: model.TaintNodeUnreachable, Operator: "Exists", Effect: model.NoSchedule})}, "", []string{"n1"}, nil},
		// A pod tolerating the not-ready NoSchedule taint but not its
		// NoExecute one (a toleration with a value keeps the default one
		// off): n2's NoExecute taint is held back by the zone states, so
		// only the NoSchedule one is there.
		{"not-ready NoExecute held back", Snapshot{Nodes: []Node{two[0], downNode(DownNotReadyHeld)}, Pending: tolerating(
			model.Toleration{Key: model.TaintNodeNotReady, Operator: "Exists", Effect: model.NoSchedule},
			model.Toleration{Key: model.TaintNodeNotReady, Operator: "Equal", Value: "a"})}, "", []string{"n1", "n2"}, nil},
		{"balanced allocation", Snapshot{Nodes: []Node{
			// LeastAllocated ties (75 on both), BalancedAllocation prefers
			// n1, where the pod takes a quarter of both resources; the
			// model scores BalancedAllocation too, so both pick n1.
			{Labels: map[string]string{}, MilliCPU: 2000, MemMiB: 2048, MaxPods: 110, Ready: true},
			{Labels: map[string]string{}, MilliCPU: 1250, MemMiB: 5120, MaxPods: 110, Ready: true}},
			Pending: Pending{Labels: pending().Labels, Req: Requests{MilliCPU: 500, MemMiB: 512}}}, "", nil, []string{"n1"}},
		// A pod without requests is scored as 100m/200Mi: n2, with more
		// memory, scores higher (85 to 87).
		{"missing requests", Snapshot{Nodes: []Node{
			{Labels: map[string]string{}, MilliCPU: 1000, MemMiB: 1024, MaxPods: 110, Ready: true},
			{Labels: map[string]string{}, MilliCPU: 1000, MemMiB: 1280, MaxPods: 110, Ready: true}},
			Pending: Pending{Labels: pending().Labels}}, "", nil, []string{"n2"}},
		// A preferred term with an invalid value: NodeAffinity's PreScore
		// fails, the pod is placed nowhere.
		{"invalid value in a preferred term", Snapshot{Nodes: two, Pending: func() Pending {
			p := pending()
			p.Preferred = []model.PreferredTerm{{Weight: 1, Term: model.Selector{MatchExpressions: []model.Requirement{
				{Key: DiskKey, Operator: model.OpIn, Values: []string{InvalidValue}}}}}}
			return p
		}()}, "", []string{}, []string{}},
		// A required term with an invalid value matches no node, even
		// the one labelled with that value.
		{"invalid value in a required term", Snapshot{Nodes: []Node{node(map[string]string{DiskKey: InvalidValue}), two[1]}, Pending: func() Pending {
			p := pending()
			p.Required = []model.Selector{{MatchExpressions: []model.Requirement{{Key: DiskKey, Operator: model.OpIn, Values: []string{InvalidValue}}}}}
			return p
		}()}, "", []string{}, []string{}},
		{"required pod anti-affinity", Snapshot{Nodes: two, Existing: []Pod{web(0, nil, nil)}, Pending: func() Pending {
			p := pending()
			p.PodAntiAffinity = required(term(model.HostnameKey, "web"))
			return p
		}()}, "", []string{"n2"}, []string{"n2"}},
		// The existing pod's anti-affinity keeps the incoming pod out of
		// its zone.
		{"existing pod's anti-affinity", Snapshot{Nodes: two, Existing: []Pod{web(1, nil, required(term(ZoneKey, incomingApp)))},
			Pending: pending()}, "", []string{"n1"}, []string{"n1"}},
		{"required pod affinity", Snapshot{Nodes: two, Existing: []Pod{web(1, nil, nil)}, Pending: func() Pending {
			p := pending()
			p.PodAffinity = required(term(ZoneKey, "web"))
			return p
		}()}, "", []string{"n2"}, []string{"n2"}},
		// Preferred affinity to the web pod outweighs LeastAllocated's
		// preference for the empty node.
		{"preferred pod affinity", Snapshot{Nodes: two, Existing: []Pod{web(0, nil, nil)}, Pending: func() Pending {
			p := pending()
			p.PodAffinity = &model.PodAffinityDecl{Preferred: []model.WeightedPodAffinityTermDecl{{Weight: 5, Term: term(ZoneKey, "web")}}}
			return p
		}()}, "", []string{"n1", "n2"}, []string{"n1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := Classify(r, &c.s)
			if err != nil {
				t.Fatal(err)
			}
			if v.Class != c.want {
				t.Errorf("class %q, want %q\n%s", v.Class, c.want, report(&c.s, v))
			}
			real := func(xs []string) []string { return append([]string{}, xs...) }
			if c.feasible != nil && !slices.Equal(real(v.Real.Feasible), c.feasible) {
				t.Errorf("real feasible %v, want %v\n%s", v.Real.Feasible, c.feasible, report(&c.s, v))
			}
			if c.top != nil && !slices.Equal(real(v.Real.Top), c.top) {
				t.Errorf("real top %v, want %v\n%s", v.Real.Top, c.top, report(&c.s, v))
			}
		})
	}
}

// recorder is a rapid.TB that keeps what rapid reports instead of failing
// the test: TestMinimalExamples wants rapid's shrinking of a property that
// fails on purpose.
type recorder struct {
	name   string
	lines  []string
	failed bool
}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return r.name }
func (r *recorder) Logf(format string, args ...any) {
	r.lines = append(r.lines, fmt.Sprintf(format, args...))
}
func (r *recorder) Log(args ...any)      { r.lines = append(r.lines, fmt.Sprint(args...)) }
func (r *recorder) Skipf(string, ...any) {}
func (r *recorder) Skip(...any)          {}
func (r *recorder) SkipNow()             {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	r.Logf(format, args...)
}
func (r *recorder) Error(args ...any) { r.failed = true; r.Log(args...) }
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
}
func (r *recorder) Fatal(args ...any) { r.Error(args...) }
func (r *recorder) FailNow()          { r.failed = true }
func (r *recorder) Fail()             { r.failed = true }
func (r *recorder) Failed() bool      { return r.failed }

// TestMinimalExamples (with -examples) finds, for every class, a random
// snapshot whose disagreement belongs to it, lets rapid shrink it to a
// minimal one and logs it: the write-ups in docs/divergences.md come from
// its output (go test -run MinimalExamples -examples -v).
func TestMinimalExamples(t *testing.T) {
	if !*examples {
		t.Skip("needs -examples")
	}
	r := realScheduler(t)
	withChecks(t, *snapshots)
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		t.Fatal(err)
	}
	classes := []string{}
	for _, c := range Classes {
		classes = append(classes, c.Name)
	}
	for _, class := range classes {
		rec := &recorder{name: t.Name() + "/" + class}
		rapid.Check(rec, func(rt *rapid.T) {
			s := Generate(rt)
			v, err := Classify(r, s)
			if err != nil {
				rt.Fatal(err)
			}
			if v.Class == class {
				rt.Fatalf("minimal example:\n%s", report(s, v))
			}
		})
		if !rec.failed {
			t.Logf("class %s: no example in %d snapshots", class, *snapshots)
			continue
		}
		var out []string
		for _, l := range rec.lines {
			if strings.HasPrefix(l, "minimal example:") {
				out = append(out, l)
			}
		}
		t.Logf("class %s:\n%s", class, strings.Join(out, "\n"))
	}
}

// TestLabelKeysValidation: the model rejects a snapshot's matchLabelKeys
// and mismatchLabelKeys (model.LabelKeysError, from Compile) exactly when
// the API server rejects a pod that carries them, validated after its pod
// strategy merged them.
func TestLabelKeysValidation(t *testing.T) {
	withChecks(t, 2000)
	rejected := 0
	rapid.Check(t, func(rt *rapid.T) {
		s := GenerateAny(rt)
		real := s.Rejections()
		_, _, _, err := s.ToModel()
		var lk *model.LabelKeysError
		if model := errors.As(err, &lk); model != (len(real) > 0) {
			rt.Fatalf("the model says %v, the API server %v:\n%s", err, real, s)
		}
		if err != nil && lk == nil {
			rt.Fatalf("ToModel: %v", err)
		}
		if len(real) > 0 {
			rejected++
		}
	})
	t.Logf("%d snapshots rejected for their label keys", rejected)
}
