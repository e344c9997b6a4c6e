package lifecyclediff

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/fidelity/walk"
	"github.com/kivi-go/kivi/model"
)

// Random runs per source and their length (walk.Sources); -short draws
// fewer.
var (
	walksPerSource = flag.Int("walks", 24, "random runs per source of TestReplayRandomRuns (8 with -short)")
	walkSteps      = flag.Int("walksteps", 150, "steps per random run of TestReplayRandomRuns")
)

// The node lifecycle's actors (nodelifecycle.NodeController and
// TaintManager's process names).
const (
	nodeControllerActor = "NodeController"
	taintManagerActor   = "TaintManager"
	// kubeletActor starts pods: upstream's taint eviction controller
	// judges every pod update, the model's taint manager only the pods
	// the kubelet queues for it.
	kubeletActor = "Kubelet"
)

// walkView is the snapshot a step is compared on, as a Case: the
// model's nodes that exist and the pods bound to them, with the Case
// index of each (-1: left out).
type walkView struct {
	c     *Case
	nodes []int // model node → Case node
	pods  []int // model pod slot → Case pod
}

// condition is the Ready condition upstream reads for model node n: True
// while the node lifecycle controller has not seen it down (a node that
// just failed, within the node-monitor grace period), else the
// condition the model decided for it (key: in at, else in decided),
// Unknown where it decided none (the model reads such a node
// unreachable).
func condition(at, decided *model.State, n int) Condition {
	st := at.Nodes[n].Status
	if !st.SeenNotReady(slices.Contains(at.Queues[model.NodeControllerQueue], uint16(n))) {
		return ConditionTrue
	}
	k, ok := st.NodeDownCondition()
	if !ok && decided != nil {
		k, ok = decided.Nodes[n].Status.NodeDownCondition()
	}
	if ok && k == 0 {
		return ConditionFalse
	}
	return ConditionUnknown
}

// apiTaints are the node lifecycle controller's taints node status st
// has put on the Node object: both taints of its decided key once its
// NoExecute taint is placed, the NoSchedule one while the zone states
// hold that back.
func apiTaints(st model.NodeStatus) []Taint {
	k, ok := st.NodeDownCondition()
	if !ok || st.Health() == model.Ready {
		return nil
	}
	out := []Taint{{Key: model.NodeDownTaints[k], Effect: "NoSchedule"}}
	if _, tainted := st.NodeDownTaint(); tainted {
		out = append(out, Taint{Key: model.NodeDownTaints[k], Effect: "NoExecute"})
	}
	return out
}

// newWalkView builds the Case of state at: every node that exists, with
// its zone, its own taints, the node lifecycle controller's taints it
// carries in the API (those of apiStatus where given, a node's status
// before an event changed it, else at's), its Ready condition
// (condition), the out-of-service taint an event put; every pod bound to
// one of them, Pending, Running, Terminating or Failed, with its
// template's tolerations as written.
func newWalkView(u *model.Universe, at, decided *model.State, apiStatus map[int]model.NodeStatus) *walkView {
	v := &walkView{c: &Case{}, nodes: make([]int, len(at.Nodes)), pods: make([]int, len(at.Pods))}
	for n := range at.Nodes {
		v.nodes[n] = -1
		if at.Nodes[n].Deleted() {
			continue
		}
		node := Node{Zone: u.Zones.Of[n], ExcludeDisruption: u.Zones.Excluded[n], Ready: condition(at, decided, n),
			OutOfService: u.OutOfServiceByEvent(at, n)}
		for _, t := range u.Nodes[n].Taints {
			node.Taints = append(node.Taints, Taint{Key: t.Key, Value: t.Value, Effect: string(t.Effect)})
		}
		st, ok := apiStatus[n]
		if !ok {
			st = at.Nodes[n].Status
		}
		node.Taints = append(node.Taints, apiTaints(st)...)
		v.nodes[n] = len(v.c.Nodes)
		v.c.Nodes = append(v.c.Nodes, node)
	}
	for i := range at.Pods {
		v.pods[i] = -1
		p := &at.Pods[i]
		if p.Node == 0 || v.nodes[p.Node-1] < 0 {
			continue
		}
		pod := Pod{Node: v.nodes[p.Node-1]}
		switch p.Phase {
		case model.Pending:
			pod.Phase = Pending
		case model.Running:
			pod.Phase = Running
		case model.Terminating:
			pod.Phase = Terminating
		case model.Failed:
			pod.Phase = Failed
		default:
			continue
		}
		for _, t := range u.Templates[p.Template].Tolerations {
			pod.Tolerations = append(pod.Tolerations, Toleration{Key: t.Key, Operator: t.Operator, Value: t.Value,
				Effect: string(t.Effect), Seconds: t.TolerationSeconds})
		}
		v.pods[i] = len(v.c.Pods)
		v.c.Pods = append(v.c.Pods, pod)
	}
	return v
}

// judge is the model's taint manager's verdict on pod p in s
// (nodelifecycle's processPod): against the NoExecute taints of its node
// with the out-of-service taint an event put, or its not-ready or
// unreachable taint, or (a Running pod) its own.
func judge(u *model.Universe, s *model.State, p int) PodAnswer {
	pod := &s.Pods[p]
	if pod.Node == 0 || pod.Phase != model.Pending && pod.Phase != model.Running {
		return PodAnswer{}
	}
	n := int(pod.Node) - 1
	fit := &u.Templates[pod.Template].Fit[n]
	var t model.NoExecuteToleration
	switch k, down := s.Nodes[n].Status.NodeDownTaint(); {
	case u.OutOfServiceByEvent(s, n):
		t = u.OutOfServiceEviction(s, int(pod.Template), n)
	case down:
		t = fit.NodeDown[k]
	case pod.Phase == model.Running:
		t = fit.NoExecuteTaints
	}
	switch t.Eviction {
	case model.EvictedAtOnce:
		return PodAnswer{Eviction: AtOnce}
	case model.EvictedLater:
		return PodAnswer{Eviction: Later, Seconds: t.Seconds}
	}
	return PodAnswer{}
}

// lifecycleChanged reports whether node n's NoExecute taints of the
// node lifecycle (its not-ready or unreachable taint, held back or
// placed, and the operator's out-of-service taint) differ between pre
// and post.
func lifecycleChanged(u *model.Universe, pre, post *model.State, n int) bool {
	a, b := pre.Nodes[n].Status, post.Nodes[n].Status
	ka, oka := a.NodeDownTaint()
	kb, okb := b.NodeDownTaint()
	return oka != okb || oka && ka != kb || a.TaintIsQueued() != b.TaintIsQueued() ||
		u.OutOfServiceByEvent(pre, n) != u.OutOfServiceByEvent(post, n)
}

// lcTally counts the node lifecycle decisions of a source's runs.
type lcTally struct {
	runs, steps int
	// nodeDecisions: a node tainted, its taint held back, lifted or
	// removed (outOfService counts the operator's out-of-service taints,
	// whose decisions are their pods'); podDecisions: a pod's fate
	// compared (evicted at once, later, kept, force-deleted).
	nodeDecisions, podDecisions                  int
	tainted, held, lifted, removed, outOfService int
	atOnce, later, kept, forced                  int
	agree                                        int
	// branches: the other branches of the node controller or the taint
	// manager at a step's state, compared too.
	branches int
	// unexplored: a node tainted unreachable (or held back without a
	// key) whose not-ready branch the model does not explore, upstream
	// run with its condition False.
	unexplored int
	// classes: decisions that disagree, by class.
	classes map[string]int
}

func newTally() *lcTally { return &lcTally{classes: map[string]int{}} }

func (w *lcTally) String() string {
	var cl []string
	for _, k := range slices.Sorted(maps.Keys(w.classes)) {
		cl = append(cl, fmt.Sprintf("%s %d", k, w.classes[k]))
	}
	return fmt.Sprintf("%d runs, %d node lifecycle steps (and %d other branches): %d node decisions (%d tainted, %d held back, %d lifted, %d removed; %d out-of-service taints), %d pod decisions (%d at once, %d later, %d kept, %d force-deleted); %d agree, %d nodes' not-ready branch checked by presence; classified: [%s]",
		w.runs, w.steps, w.branches, w.nodeDecisions, w.tainted, w.held, w.lifted, w.removed, w.outOfService,
		w.podDecisions, w.atOnce, w.later, w.kept, w.forced, w.agree, w.unexplored, strings.Join(cl, ", "))
}

func (w *lcTally) add(o *lcTally) {
	w.runs += o.runs
	w.steps += o.steps
	w.nodeDecisions += o.nodeDecisions
	w.podDecisions += o.podDecisions
	w.tainted += o.tainted
	w.held += o.held
	w.lifted += o.lifted
	w.removed += o.removed
	w.outOfService += o.outOfService
	w.atOnce += o.atOnce
	w.later += o.later
	w.kept += o.kept
	w.forced += o.forced
	w.agree += o.agree
	w.unexplored += o.unexplored
	w.branches += o.branches
	for k, v := range o.classes {
		w.classes[k] += v
	}
}

// TestReplayRandomRuns replays the node lifecycle's decisions along
// random runs of the incident library, the worked example and the
// realistic shapes (walk.Sources) through the real node lifecycle, taint
// eviction and pod garbage collection controllers (Upstream.Run): on
// every step of the node controller, of the taint manager, and of an
// event that changes a node's NoExecute taint (a node Ready again, an
// operator's out-of-service taint), the Case of the state the decision is
// made on is run upstream, and what the model did must be what upstream
// does: the not-ready or unreachable NoExecute taint it places, holds
// back (zone states) or removes (the master disruption mode, a node Ready
// again), each pod of the nodes concerned evicted at once, later (with
// the same seconds) or kept, and the terminating pods the pod garbage
// collector force-deletes. A disagreement is kept only in a named class
// of classify.go that explains it (replayClass); any other fails.
func TestReplayRandomRuns(t *testing.T) {
	runs := *walksPerSource
	if testing.Short() && runs > 8 {
		runs = 8
	}
	sources, err := walk.Sources()
	if err != nil {
		t.Fatal(err)
	}
	up := newUpstream(t)
	total := newTally()
	for _, src := range sources {
		t.Run(src.Name, func(t *testing.T) {
			tally, problems, err := replaySource(t.Context(), up, src, runs, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range problems {
				t.Error(m)
			}
			if tally != nil {
				t.Logf("%s: %s", src.Name, tally)
				total.add(tally)
			}
		})
	}
	t.Logf("all sources: %s", total)
	if runs >= 24 && (total.tainted == 0 || total.held == 0 || total.later == 0 || total.atOnce == 0 || total.kept == 0) {
		t.Errorf("a kind of decision was never replayed: %s", total)
	}
}

// replaySource replays runs random runs of src (with plant in its
// universe, normally nil) and returns their tally and unexplained
// disagreements; a nil tally: src has no taint eviction to replay.
func replaySource(ctx context.Context, up *Upstream, src walk.Source, runs int, plant Plant) (*lcTally, []string, error) {
	p, err := src.Problem()
	if err != nil {
		return nil, nil, err
	}
	u := p.System.U
	if u.Options.KiviLifecycle || !model.TaintEvictionRuns(u) {
		return nil, nil, nil
	}
	// The cases read the input (zones, taints, tolerations) from a
	// universe no bug is planted in.
	input := u
	if plant != nil {
		q, err := src.Problem()
		if err != nil {
			return nil, nil, err
		}
		input = q.System.U
		plant(u, nil)
	}
	tally := newTally()
	tally.runs = runs
	var problems []string
	err = src.Runs(p, runs, *walkSteps, func(st walk.Step) error {
		found, err := replayLifecycleStep(ctx, up, p, input, st, tally)
		for _, m := range found {
			problems = append(problems, st.Where()+": "+m)
		}
		return err
	})
	return tally, problems, err
}

// TestReplayPlantedBugs plants the model bugs of TestPlantedBugs that
// live in the universe (a template's compiled tolerations, the zones) in
// the sources' problems and walks 24 runs of each, source after source,
// until one meets an unexplained disagreement: each must, so the replay
// can fail. The planted state (every node that is not Ready tainted
// unreachable) is left out: a run starts with every node Ready.
func TestReplayPlantedBugs(t *testing.T) {
	if testing.Short() {
		t.Skip("random runs of every source, once per planted bug")
	}
	sources, err := walk.Sources()
	if err != nil {
		t.Fatal(err)
	}
	up := newUpstream(t)
	for name, plant := range plantedBugs() {
		if name == "every node that is not Ready tainted unreachable" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			for _, src := range sources {
				_, problems, err := replaySource(t.Context(), up, src, 24, plant)
				if err != nil {
					t.Fatalf("%s: %v", src.Name, err)
				}
				if len(problems) > 0 {
					t.Logf("caught %d times in %s", len(problems), src.Name)
					return
				}
			}
			t.Fatal("the planted bug was never caught")
		})
	}
}

// replayLifecycleStep compares the node lifecycle decisions of st with
// upstream, and those of every other branch of the node controller or
// the taint manager at its state (another queued pod taken, another key
// or node chosen), and returns the unexplained disagreements. The cases
// read the input from the universe input (p's, unless a bug is planted
// there).
func replayLifecycleStep(ctx context.Context, up *Upstream, p *kivi.Problem, input *model.Universe, st walk.Step, tally *lcTally) ([]string, error) {
	runs := map[string]Result{}
	problems, relevant, err := replayBranch(ctx, up, p, input, st, tally, runs)
	if err != nil || !relevant {
		return problems, err
	}
	tally.steps++
	actor := p.System.ActorName(st.Pick)
	if actor != nodeControllerActor && actor != taintManagerActor {
		return problems, nil
	}
	for _, alt := range st.Alternatives {
		if alt == st.Pick || p.System.ActorName(alt) != actor {
			continue
		}
		post, _, err := p.System.Replay(st.Pre, alt)
		if err != nil {
			return nil, err
		}
		b := st
		b.Pick, b.Post = alt, post
		tally.branches++
		more, _, err := replayBranch(ctx, up, p, input, b, tally, runs)
		if err != nil {
			return nil, err
		}
		for _, m := range more {
			problems = append(problems, "another branch: "+m)
		}
	}
	return problems, nil
}

// replayBranch compares the decisions of the step from st.Pre to st.Post
// (relevant: it is the node lifecycle's). runs holds upstream's answers
// to the cases of the step's state, by case.
func replayBranch(ctx context.Context, up *Upstream, p *kivi.Problem, input *model.Universe, st walk.Step, tally *lcTally, runs map[string]Result) (problems []string, relevant bool, err error) {
	u := p.System.U
	actor := p.System.ActorName(st.Pick)
	var changed []int
	for n := range st.Pre.Nodes {
		if lifecycleChanged(u, st.Pre, st.Post, n) {
			changed = append(changed, n)
		}
	}
	var view *walkView
	switch {
	case actor == nodeControllerActor:
		view = newWalkView(input, st.Pre, st.Post, nil)
	case actor == taintManagerActor:
		// The taint manager judges the taints the nodes carry now: the
		// node controller's pending work (a node seen down and not yet
		// tainted, a zone that now lets a held node be tainted) is its
		// next step's.
		view = newWalkView(input, st.Pre, st.Post, nil)
		view.c.TaintEvictionOnly = true
	case slices.ContainsFunc(changed, func(n int) bool { return u.OutOfServiceByEvent(st.Post, n) && !u.OutOfServiceByEvent(st.Pre, n) }):
		// The operator's out-of-service taint: the taint eviction
		// controller and the pod garbage collector react to it.
		view = newWalkView(input, st.Post, nil, nil)
		view.c.TaintEvictionOnly = true
	case actor == kubeletActor:
		started := startedPods(st)
		if len(started) == 0 {
			return nil, false, nil
		}
		view = newWalkView(input, st.Post, nil, nil)
		view.c.TaintEvictionOnly = true
		if !view.onNoExecute(started) {
			return nil, false, nil
		}
		got, err := upstreamOf(ctx, up, runs, view, st)
		if err != nil {
			return nil, true, err
		}
		cmp := &comparison{u: u, st: st, actor: actor, view: view, up: got, tally: tally}
		cmp.started(started)
		return cmp.problems, true, nil
	case len(changed) > 0:
		// An event changed a node (made it Ready again, deleted it): the
		// node lifecycle controller reacts to the world after it, the
		// Node object still carrying the taints it had put.
		api := map[int]model.NodeStatus{}
		for _, n := range changed {
			api[n] = st.Pre.Nodes[n].Status
		}
		view = newWalkView(input, st.Post, nil, api)
	default:
		return nil, false, nil
	}
	got, err := upstreamOf(ctx, up, runs, view, st)
	if err != nil {
		return nil, true, err
	}
	cmp := &comparison{u: u, st: st, actor: actor, view: view, up: got, tally: tally}
	cmp.nodes(changed)
	cmp.pods(changed)
	if actor == nodeControllerActor {
		if err := cmp.unexploredNotReady(ctx, up, p, changed); err != nil {
			return nil, true, err
		}
	}
	return cmp.problems, true, nil
}

// upstreamOf returns upstream's answer to the case of view, run once per
// case among the branches of one state (runs holds the answers by case).
func upstreamOf(ctx context.Context, up *Upstream, runs map[string]Result, view *walkView, st walk.Step) (Result, error) {
	key := view.c.String()
	if got, ok := runs[key]; ok {
		return got, nil
	}
	got, err := up.Run(ctx, view.c)
	if err != nil {
		return got, fmt.Errorf("%s: upstream: %v\n%s", st.Where(), err, view.c)
	}
	runs[key] = got
	return got, nil
}

// comparison is one step's model decisions against upstream's answer.
type comparison struct {
	u        *model.Universe
	st       walk.Step
	actor    string
	view     *walkView
	up       Result
	tally    *lcTally
	problems []string
}

func (c *comparison) fail(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf("%s step: ", c.actor)+fmt.Sprintf(format, args...)+"\n"+c.view.c.String()+"upstream:\n"+c.up.String())
}

// nodes compares the NoExecute taints of the nodes whose lifecycle status
// the step changed, and of the nodes the node controller handled.
func (c *comparison) nodes(changed []int) {
	handled := slices.Clone(changed)
	if c.actor == nodeControllerActor {
		for _, n := range c.st.Pre.Queues[model.NodeControllerQueue] {
			if !slices.Contains(handled, int(n)) {
				handled = append(handled, int(n))
			}
		}
	}
	for _, n := range handled {
		i := c.view.nodes[n]
		if i < 0 || c.st.Post.Nodes[n].Deleted() {
			continue
		}
		pre, post := c.st.Pre.Nodes[n].Status, c.st.Post.Nodes[n].Status
		var want []string
		k, tainted := post.NodeDownTaint()
		if tainted {
			want = []string{model.NodeDownTaints[k]}
		}
		_, wasTainted := pre.NodeDownTaint()
		switch {
		case c.u.OutOfServiceByEvent(c.st.Post, n) && !c.u.OutOfServiceByEvent(c.st.Pre, n):
			// The operator's taint, no controller's decision: the
			// decisions are its pods' (pods).
			c.tally.outOfService++
			continue
		case tainted && !wasTainted:
			c.tally.tainted++
		case !tainted && wasTainted && post.Health() == model.Ready:
			c.tally.removed++
		case !tainted && wasTainted:
			c.tally.lifted++
		case post.TaintIsQueued():
			c.tally.held++
		case post.Health() == model.Ready:
			continue // Ready again before the controller handled it
		}
		c.tally.nodeDecisions++
		if got := c.up.Nodes[i].NoExecute; !slices.Equal(got, want) {
			c.fail("node %s (%s → %s): the model's NoExecute taints %v, upstream's %v", c.u.Nodes[n].Name, pre, post, want, got)
			continue
		}
		// The NoSchedule taint of a node the controller has handled, as
		// the scheduler reads it (an undecided held node: unreachable).
		var noSchedule []string
		if k, _, ok := post.LifecycleTaints(); ok && (tainted || post.TaintIsQueued()) {
			noSchedule = []string{model.NodeDownTaints[k]}
		}
		if got := c.up.Nodes[i].NoSchedule; !slices.Equal(got, noSchedule) {
			c.fail("node %s (%s → %s): the model's NoSchedule taints %v, upstream's %v", c.u.Nodes[n].Name, pre, post, noSchedule, got)
			continue
		}
		c.tally.agree++
	}
}

// pods compares the fate of the pods the step judged: those it evicted,
// the one the taint manager took from its queue, and every pod of a node
// the step changed or the node controller handled. The model's fate of a
// pod it did not evict is its taint manager's verdict where the pod is
// queued for it (judge), else kept.
func (c *comparison) pods(changed []int) {
	u, pre, post := c.u, c.st.Pre, c.st.Post
	nodes := slices.Clone(changed)
	if c.actor == nodeControllerActor {
		for _, n := range pre.Queues[model.NodeControllerQueue] {
			nodes = append(nodes, int(n))
		}
	}
	var taken []int
	if c.actor == taintManagerActor {
		for _, x := range pre.Queues[model.TaintManagerQueue] {
			if !slices.Contains(post.Queues[model.TaintManagerQueue], x) {
				taken = append(taken, int(x))
			}
		}
	}
	for i := range pre.Pods {
		a, b := &pre.Pods[i], &post.Pods[i]
		evicted := (a.Phase == model.Pending || a.Phase == model.Running) && b.Phase == model.Terminating && a.Node == b.Node
		onNode := a.Node != 0 && slices.Contains(nodes, int(a.Node)-1)
		if !evicted && !onNode && !slices.Contains(taken, i) {
			continue
		}
		j := c.view.pods[i]
		if j < 0 {
			continue
		}
		if evicted && c.actor != nodeControllerActor && c.actor != taintManagerActor {
			continue // another controller's deletion
		}
		var want PodAnswer
		switch {
		case evicted && c.actor == taintManagerActor:
			// Its timer fired, or it went at once; an eviction of a pod
			// the model's own verdict keeps is one at once.
			if want = judge(u, pre, i); want.Eviction == Never {
				want.Eviction = AtOnce
			}
		case evicted:
			want = PodAnswer{Eviction: AtOnce}
		case slices.Contains(post.Queues[model.TaintManagerQueue], uint16(i)):
			want = judge(u, post, i)
		}
		got := c.up.Pods[j]
		phase := c.view.c.Pods[j].Phase
		if phase == Terminating {
			// Its eviction is no decision (TerminatingPod); whether the
			// pod garbage collector force-deletes it is.
			want.Eviction, want.Seconds = got.Eviction, got.Seconds
			want.ForceDeleted = forceDeleted(u, post, i)
		} else {
			want.ForceDeleted = got.ForceDeleted // decided after its eviction, by the kubelet's step
		}
		c.tally.podDecisions++
		c.count(want)
		if got == want {
			c.tally.agree++
			continue
		}
		if class := c.replayClass(i, j, want, got); class != "" {
			c.tally.classes[class]++
			continue
		}
		c.fail("pod %s on node %s (%s → %s): the model's fate %s, upstream's %s", podName(u, pre, i), u.Nodes[a.Node-1].Name, a.Phase, b.Phase, want, got)
	}
}

// startedPods are the pods the step from st.Pre to st.Post started on
// their node.
func startedPods(st walk.Step) []int {
	var out []int
	for i := range st.Pre.Pods {
		a, b := &st.Pre.Pods[i], &st.Post.Pods[i]
		if a.Phase == model.Pending && b.Phase == model.Running && a.Node != 0 && a.Node == b.Node {
			out = append(out, i)
		}
	}
	return out
}

// onNoExecute reports whether one of the model's pods sits on a node
// that carries a NoExecute taint in the view.
func (v *walkView) onNoExecute(pods []int) bool {
	for _, i := range pods {
		j := v.pods[i]
		if j < 0 {
			continue
		}
		for _, t := range v.c.Nodes[v.c.Pods[j].Node].Taints {
			if t.Effect == string(model.NoExecute) {
				return true
			}
		}
	}
	return false
}

// started compares, for every pod the kubelet started in the step, the
// taint eviction controller's verdict with the model's: a pod the
// kubelet queued for the taint manager gets that manager's verdict
// (judge), one it did not queue is kept.
func (c *comparison) started(pods []int) {
	post := c.st.Post
	for _, i := range pods {
		j := c.view.pods[i]
		if j < 0 {
			continue
		}
		var want PodAnswer
		if slices.Contains(post.Queues[model.TaintManagerQueue], uint16(i)) {
			want = judge(c.u, post, i)
		}
		got := c.up.Pods[j]
		want.ForceDeleted = got.ForceDeleted // the pod garbage collector's, not the kubelet's
		c.tally.podDecisions++
		c.count(want)
		if got == want {
			c.tally.agree++
			continue
		}
		c.fail("pod %s started on node %s: the model's fate %s, upstream's %s", podName(c.u, post, i), c.u.Nodes[post.Pods[i].Node-1].Name, want, got)
	}
}

// forceDeleted reports whether the model's pod garbage collector removes
// pod i of s (model.ForceDeletedOutOfService), queued for the kubelet's
// step that runs it.
func forceDeleted(u *model.Universe, s *model.State, i int) bool {
	return s.Pods[i].Phase == model.Terminating && model.ForceDeletedOutOfService(u, s, &s.Pods[i])
}

func (c *comparison) count(a PodAnswer) {
	switch a.Eviction {
	case AtOnce:
		c.tally.atOnce++
	case Later:
		c.tally.later++
	default:
		c.tally.kept++
	}
	if a.ForceDeleted {
		c.tally.forced++
	}
}

// replayClass names the known class (classify.go) of a disagreement on
// pod i (Case pod j), "" for none:
//   - TerminalPod: a Failed pod upstream's taint eviction controller
//     deletes (processPodOnNode reads no phase); the model's Failed pods
//     are the pod garbage collector's.
//   - KubeletRejects: a bound Pending pod on a Ready node with a
//     NoExecute taint of its own it does not tolerate, which upstream's
//     taint eviction controller deletes and the model's kubelet rejects
//     at admission; counterfactual: Running, upstream's answer is then
//     the model's taint manager's verdict on it.
func (c *comparison) replayClass(i, j int, want, got PodAnswer) string {
	pod := c.view.c.Pods[j]
	node := c.view.c.Nodes[pod.Node]
	switch {
	case pod.Phase == Failed && want.Eviction == Never && got.ForceDeleted == want.ForceDeleted:
		return TerminalPod
	case pod.Phase == Pending && node.Ready == ConditionTrue && want.Eviction == Never && got.Eviction == AtOnce:
		s := c.st.Pre.Clone()
		s.Pods[i].Phase = model.Running
		if judge(c.u, s, i) == (PodAnswer{Eviction: AtOnce}) {
			return KubeletRejects
		}
	}
	return ""
}

// unexploredNotReady checks the nodes the node controller's step gave the
// unreachable key (or held back without a key, which reads as
// unreachable) with no branch of the not-ready one: the model claims
// the key decides no pod's eviction at once or at all there
// (taintDecides). Upstream runs the view again with each such node's
// condition False, and its pods' evictions must be the same by presence
// (DownTaintUnexplored: only the key and the seconds of a later eviction
// differ).
func (c *comparison) unexploredNotReady(ctx context.Context, up *Upstream, p *kivi.Problem, changed []int) error {
	var nodes []int
	for _, n := range changed {
		pre, post := c.st.Pre.Nodes[n].Status, c.st.Post.Nodes[n].Status
		k, ok := post.NodeDownCondition()
		_, had := pre.NodeDownCondition()
		// Decided unreachable now, or held back undecided (read
		// unreachable).
		unreachable := ok && k == 1 && !had || !ok && post.TaintIsQueued() && !pre.TaintIsQueued()
		if unreachable && post.Health() != model.Ready && !c.explored(p, n) {
			nodes = append(nodes, n)
		}
	}
	if len(nodes) == 0 {
		return nil
	}
	d := *c.view.c
	d.Nodes = slices.Clone(d.Nodes)
	for _, n := range nodes {
		d.Nodes[c.view.nodes[n]].Ready = ConditionFalse
	}
	other, err := up.Run(ctx, &d)
	if err != nil {
		return err
	}
	for _, n := range nodes {
		c.tally.unexplored++
		for i := range c.st.Pre.Pods {
			j := c.view.pods[i]
			if j < 0 || c.view.c.Pods[j].Node != c.view.nodes[n] {
				continue
			}
			if ph := c.view.c.Pods[j].Phase; ph != Pending && ph != Running {
				continue
			}
			a, b := c.up.Pods[j], other.Pods[j]
			if a.Eviction != b.Eviction {
				c.fail("node %s tainted unreachable, its not-ready branch unexplored: pod %s upstream %s unreachable, %s not-ready",
					c.u.Nodes[n].Name, podName(c.u, c.st.Pre, i), a, b)
				continue
			}
			if a != b {
				c.tally.classes[DownTaintUnexplored]++
			}
		}
	}
	return nil
}

// explored reports whether a branch of the node controller at the step's
// state gives node n the not-ready key.
func (c *comparison) explored(p *kivi.Problem, n int) bool {
	for _, alt := range c.st.Alternatives {
		if p.System.ActorName(alt) != nodeControllerActor {
			continue
		}
		post, _, err := p.System.Replay(c.st.Pre, alt)
		if err != nil {
			continue
		}
		if k, ok := post.Nodes[n].Status.NodeDownCondition(); ok && k == 0 {
			return true
		}
	}
	return false
}

// podName names pod slot i of s in a message: its slot and template.
func podName(u *model.Universe, s *model.State, i int) string {
	return fmt.Sprintf("slot %d (%s)", i, u.Templates[s.Pods[i].Template].Name)
}
