package hpa

import "github.com/kivi-go/kivi/model"

// Component is the HPA's trace component (Kivi's text).
const Component = "horizontal-pod-autoscaler"

// HPA is the horizontal pod autoscaler process. It drains the HPA queue
// while the core controllers are quiet; with a downscale stabilisation
// window it also re-syncs a deployment whose scale-down the window holds
// back, once the cluster is quiescent (a sync period passes for every
// HPA at once).
type HPA struct{ model.ClusterWide }

// New returns the HPA process.
func New() *HPA { return &HPA{} }

// Name is Kivi's process name.
func (*HPA) Name() string { return "HPA" }

// Enabled: the HPA queue has work and the node-controller, scheduler,
// kubelet and deployment queues are empty (Kivi's Q4-empty clause; its
// clock clause is dropped, docs/model.md), or the cluster is quiescent
// (Q5-empty) and some deployment's window holds a scale-down back, or a
// metric outside the model could change some deployment's count
// (environment.go), or one of the HPAs of a workload that several scale
// would move its count (ambiguous.go).
func (*HPA) Enabled(u *model.Universe, s *model.State) bool {
	return draining(s) || (s.ControllerAndHPAQueuesEmpty() && (heldCount(u, s) > 0 || environmentMoves(u, s) || anyBoundsMove(u, s)))
}

func draining(s *model.State) bool { return !s.Empty(model.HPAQueue) && s.ControllerQueuesEmpty() }

// heldCount is the number of deployments whose last evaluation the
// window held back (HPAHeld is only ever set with a window), or, under an
// HPA with behavior, whose memory ages (waiting).
func heldCount(u *model.Universe, s *model.State) int {
	behavior := model.HasHPABehavior(u)
	n := 0
	for d := range s.Deps {
		if s.Deps[d].HPAHeld || (behavior && waiting(u, &s.Deps[d])) {
			n++
		}
	}
	return n
}

// Step drains the HPA queue. A rescale enqueues the deployment, which
// makes the guard false and ends the step. With nothing queued, it is one
// sync period passing for every HPA at once (syncPeriod).
func (h *HPA) Step(tx *model.Tx, s *model.State) {
	if !draining(s) {
		syncPeriod(tx, s)
		return
	}
	for draining(s) {
		d, _ := s.Dequeue(model.HPAQueue)
		if d >= len(s.Deps) {
			s.Fail(model.FailInternal, d)
			return
		}
		reconcile(tx, s, d)
	}
}

// syncPeriod is one 15 s sync period passing: the memory of every
// deployment whose HPA holds a scale-down back or remembers a scale event
// (heldCount) moves on by one period, then each of them is evaluated.
//
// Kubernetes' HPAs share the wall clock: every one is synced once a
// period, so their memories age together, and a period cannot pass for
// one HPA while another's stands still. The model has no clock
// (docs/model.md): time passes only while the cluster is quiescent,
// where this step competes with the events. Taking it n times in a row is
// n sync periods without a change; taking an event first is that event
// happening inside the period. Evaluations that a queue item triggers
// belong to the current period, so no time passes while controllers are
// busy, as everywhere else in the model.
//
// The evaluations read each deployment's own pods and memory only, so
// their order changes nothing but the order in which the rescaled
// deployments reach the deployment controller; the HPA controller's
// workers sync concurrently, so every order of those is a successor.
func syncPeriod(tx *model.Tx, s *model.State) {
	var buf, bufBounds [8]int
	due, bounds := buf[:0], bufBounds[:0]
	for d := range s.Deps {
		switch ds := &s.Deps[d]; {
		case boundsMove(tx.U, ds):
			bounds = append(bounds, d)
		case ds.HPAHeld || waiting(tx.U, ds) || readsEnvironment(tx.U, ds):
			due = append(due, d)
		}
	}
	var origs []model.DeploymentState
	if model.HasUnknownHPAMetric(tx.U) {
		origs = make([]model.DeploymentState, len(due))
		for i, d := range due {
			origs[i] = s.Deps[d]
		}
	}
	for _, d := range due {
		if !ageMemory(tx.U, &s.Deps[d]) {
			s.Fail(model.FailInternal, d)
			return
		}
	}
	// A workload that several HPAs scale moves in this period, so every
	// combination of the others' outcomes is a change.
	envs := periodEnvironments(tx, s, due, origs, len(bounds) > 0)
	if tx.Tracing() {
		tx.Log(Component, "Sync period passed, re-evaluating %s", dueNames(tx.U, append(append([]int(nil), due...), bounds...)))
	}
	queued := len(s.Queues[model.DeploymentQueue])
	for i, d := range due {
		sync(tx, s, d, envs[i], true)
	}
	for _, d := range bounds {
		syncAmbiguous(tx, s, d, &tx.U.HPAs[s.Deps[d].HPA-1], true)
	}
	chooseQueueOrder(tx, s, queued)
}

// dueNames names the workloads a sync period re-evaluates.
func dueNames(u *model.Universe, due []int) string {
	names := ""
	for i, d := range due {
		if i > 0 {
			names += ", "
		}
		names += u.KindWord(d, false) + " " + u.Deployments[d].Name
	}
	return names
}

// chooseQueueOrder branches over the orders of the deployments enqueued
// past the first queued items of the deployment queue: the rescales of
// one sync period, which concurrent HPA workers may write in any order.
func chooseQueueOrder(tx *model.Tx, s *model.State, queued int) {
	q := s.Queues[model.DeploymentQueue]
	if len(q)-queued < 2 {
		return
	}
	for i := queued; i < len(q)-1; i++ {
		j := i + tx.Choose(len(q)-i)
		q[i], q[j] = q[j], q[i]
	}
}

// window is deployment ds's stabilisation memory under its HPA: the
// current and the ScaleDownStabilizationSyncs previous periods, or nil
// without a window (or without an HPA).
func window(u *model.Universe, ds *model.DeploymentState) []int16 {
	if ds.HPA == 0 {
		return nil
	}
	w := u.HPAs[ds.HPA-1].ScaleDownStabilizationSyncs
	if w <= 0 {
		return nil
	}
	return ds.HPAWindow[:w+1]
}

// reconcile is one HPA sync of deployment d (reconcileAutoscaler),
// branching over what the metrics outside the model give.
func reconcile(tx *model.Tx, s *model.State, d int) {
	sync(tx, s, d, choiceEnvironment(tx, s, d), true)
}

// sync is one HPA sync of deployment d, the metrics outside the model
// giving env. A live sync logs and enqueues the rescaled deployment;
// one that is not only computes the deployment's new state
// (syncEnvironments).
func sync(tx *model.Tx, s *model.State, d int, env environment, live bool) {
	ds := &s.Deps[d]
	if !ds.Active || ds.HPA == 0 {
		return
	}
	spec := &tx.U.HPAs[ds.HPA-1]
	if len(spec.Ambiguous) > 0 {
		if live {
			syncAmbiguous(tx, s, d, spec, false)
		}
		return
	}
	if sharedSelectorNow(s, spec) {
		syncSharedSelector(tx, s, d, spec, live)
		return
	}
	tracing := live && tx.Tracing()
	if tracing {
		traceEnvironment(tx, s, d, spec, env)
	}
	if spec.Behavior != nil {
		reconcileWithBehavior(tx, s, d, spec, env, live)
		return
	}
	current := int(ds.Replicas)
	win := window(tx.U, ds)
	if win != nil && !ds.HPASeen {
		// recordInitialRecommendation: the first sync seeds the memory
		// with the current count, before the entry cases.
		ds.HPASeen = true
		Record(win, current, spec.Max)
	}
	r := recommend(tx.U, s, d, spec, current, win, env)
	ds.HPAHeld = r.Held
	if r.Held && tracing {
		tx.Log(Component, "%s %s: scale-down stabilization, recommendation %d, highest recent recommendation %d",
			tx.U.KindWord(d, true), tx.U.Deployments[d].Name, r.Proposal, r.Stabilized)
	}
	if !r.OK || r.Desired == current {
		return
	}
	ds.Replicas = int16(r.Desired)
	if !live {
		return
	}
	s.Enqueue(model.DeploymentQueue, d)
	if tracing {
		others, pods := othersListed(tx.U, s, d, spec)
		tx.Log(Component, "Scaling %s %s from %d to %d replicas"+others, append([]any{tx.U.KindWord(d, false), tx.U.Deployments[d].Name, current, r.Desired}, pods...)...)
	}
}

// Recommendation is the outcome of one HPA evaluation.
type Recommendation struct {
	// Desired is the replica count the HPA scales to.
	Desired int
	// OK is false when there is no recommendation (invalid metrics).
	OK bool
	// Proposal is the largest metric proposal and Stabilized the
	// maximum over it and the window (both 0 when an entry case
	// decided without metrics).
	Proposal, Stabilized int
	// Held: the window raised the proposal (ScaleDownStabilized).
	Held bool
}

// Recommend evaluates deployment d at current spec replicas: the entry
// cases, the metrics, then the stabilisation over win (nil = no window;
// the proposal is recorded in it) and the legacy normalisation.
func Recommend(u *model.Universe, s *model.State, d int, spec *model.HPA, current int, win []int16) Recommendation {
	return recommend(u, s, d, spec, current, win, noEnvironment)
}

// recommend is Recommend with the metrics outside the model giving env.
func recommend(u *model.Universe, s *model.State, d int, spec *model.HPA, current int, win []int16, env environment) Recommendation {
	b := Bounds{Min: spec.Min, Max: spec.Max}
	if desired, decided := EntryCase(current, b); decided {
		return Recommendation{Desired: desired, OK: true}
	}
	proposal, ok := propose(u, s, d, spec, current, env)
	if !ok {
		return Recommendation{Desired: current}
	}
	stabilized := proposal
	if win != nil {
		stabilized = Stabilize(win, proposal, spec.Max)
	}
	return Recommendation{Desired: Normalize(current, stabilized, b), OK: true, Proposal: proposal,
		Stabilized: stabilized, Held: stabilized > proposal}
}

// propose is computeReplicasForMetrics for deployment d at current
// replicas: the largest metric proposal, ok false without one. The
// metrics outside the model give env: one proposal of their largest
// valid recommendation, and one invalid proposal when some failed.
func propose(u *model.Universe, s *model.State, d int, spec *model.HPA, current int, env environment) (int, bool) {
	// Stack buffers for the common sizes (a larger deployment or more
	// metrics spill to the heap).
	var proposalBuf [4]Proposal
	var readyBuf, unreadyBuf [64]Sample
	proposals := proposalBuf[:0]
	tol := Tolerances(spec)
	for _, m := range spec.Metrics {
		switch {
		case m.Kind == model.InvalidMetric:
			proposals = append(proposals, Proposal{})
			continue
		case m.Kind.Unknown():
			continue
		case m.Target == model.Utilization && missingRequest(u, s, d, spec, m.Resource):
			// Upstream's calculator refuses the metric: a container
			// lacks the request.
			proposals = append(proposals, Proposal{})
			continue
		}
		pods := groupPods(u, s, d, spec, m.Resource, Pods{Ready: readyBuf[:0], Unready: unreadyBuf[:0]})
		switch m.Target {
		case model.Utilization:
			proposals = append(proposals, UtilizationReplicas(current, m.Value, tol, pods))
		case model.AverageValue:
			proposals = append(proposals, averageValueReplicas(current, m.Value, MetricScale(m.Resource), tol, pods))
		}
	}
	if env.value >= 0 {
		proposals = append(proposals, Proposal{Replicas: env.value, Valid: true})
	}
	if env.failed {
		proposals = append(proposals, Proposal{})
	}
	return CombineProposals(current, proposals)
}
