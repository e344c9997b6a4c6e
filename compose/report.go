package compose

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/report"
)

func newReport(p *Problem, res checker.Result[*model.State], elapsed time.Duration) *report.Report {
	r := &report.Report{Name: p.Name, Stats: res.Stats, Elapsed: elapsed, Complete: res.Complete}
	internal := map[string]string{}
	for _, in := range p.Intents {
		internal[in.Name] = in.Internal
	}
	// A monitor intent yields an invariant and an end condition of the
	// same name: merge them into one result, the violated one winning.
	index := map[string]int{}
	for _, pr := range res.Properties {
		ir := report.IntentResult{Name: pr.Name, Internal: internal[pr.Name], Kind: pr.Kind, Verdict: pr.Verdict,
			Reason: pr.Reason, Explanation: pr.Explanation}
		if ir.Internal == "" {
			ir.Internal = pr.Name
		}
		if pr.Trace != nil {
			ir.Trace = renderTrace(p.System, pr.Trace, !p.noSnapshots)
		}
		if i, ok := index[pr.Name]; ok {
			prev := &r.Results[i]
			if better(ir.Verdict, prev.Verdict) {
				*prev = ir
			}
			continue
		}
		index[pr.Name] = len(r.Results)
		r.Results = append(r.Results, ir)
	}
	applyBound(r)
	applyInternal(r)
	r.Hints = hints(p.System.U, p.System.Init, r)
	r.Assumptions = assumptions(p.System.U)
	if a := hpaLoad(p.System.U, p.System.Init); a != "" {
		r.Assumptions = append(r.Assumptions, a)
	}
	return r
}

// assumptions are the choices of the run that narrow what a verdict
// covers (report.Report.Assumptions).
func assumptions(u *model.Universe) []string {
	out := slices.Clone(u.Assumptions)
	if u.Options.FirstInOrder && firstCreations(u) >= 2 {
		out = append(out, "the Deployments are created in the order written, as one `kubectl apply -f` creates them (--apply-in-order); other creation orders were not explored")
	}
	if u.ReadinessAssumed() {
		out = append(out, "every pod is Ready and Available as soon as it runs: readiness probes, readiness gates and minReadySeconds pass at once (--ready-at-start); the windows in which a Running pod is not yet Ready were not explored")
	}
	if n := u.Options.CronJobRuns; n > 0 && hasAllowCronJob(u) {
		runs, periods := "one run", "before the next schedule time"
		if n > 1 {
			runs, periods = fmt.Sprintf("%d runs", n), fmt.Sprintf("within %d schedule periods", n)
		}
		out = append(out, fmt.Sprintf("a CronJob with concurrencyPolicy Allow has at most %s active at once, each finishing %s (--cronjob-runs %d); runs piling up beyond that were not explored", runs, periods, n))
	}
	if u.Options.MergeOldRevisions && changesTemplates(u) {
		out = append(out, "a Deployment whose pod template changes while two older revisions still have pods rolls out of them as one ReplicaSet (--merge-old-revisions): Kubernetes keeps a ReplicaSet per revision, scales the oldest down first and shares a scaling event among them by size, which was not explored")
	}
	if a := memoryPressureAssumption(u); a != "" {
		out = append(out, a)
	}
	if every, toFind, listed := u.SchedulerScoresEveryNode(); !every {
		setting := "its default"
		if p := u.Scheduler.PercentageOfNodesToScore; p != 0 {
			setting = fmt.Sprintf("%d", p)
		}
		out = append(out, fmt.Sprintf("kube-scheduler finds a best node among all feasible ones; with %d nodes it scores only the first %d feasible nodes it finds (percentageOfNodesToScore: %s) and may bind a pod to a node that is best only among those, which was not explored; a KubeSchedulerConfiguration with percentageOfNodesToScore: 100, given with -f, makes it exact", listed, toFind, setting))
	}
	return out
}

// hasAllowCronJob reports whether u has a CronJob with concurrencyPolicy
// Allow that may fire.
func hasAllowCronJob(u *model.Universe) bool {
	for _, cj := range u.CronJobs {
		if cj.Policy == model.AllowConcurrent && !cj.Suspend {
			return true
		}
	}
	return false
}

// changesTemplates: some event changes a Deployment's pod template while
// the controllers run (a new ReplicaSet revision).
func changesTemplates(u *model.Universe) bool {
	for i := range u.Events {
		switch u.Events[i].Kind {
		case model.ApplyDeployment, model.RolloutRestart, model.RolloutUndo:
			return true
		}
	}
	return false
}

// firstCreations counts the Deployments created before the controllers
// start.
func firstCreations(u *model.Universe) int {
	n := 0
	for i := range u.Events {
		if e := &u.Events[i]; e.Slot == model.First && e.Kind == model.CreateTargetDeployment {
			n++
		}
	}
	return n
}

// hints says what makes u's state space large when a budget ended the
// run with an intent unsettled (report.Report.Hints): the creation
// orders of the Deployments created before the controllers start, an
// HPA's memory of past sync periods, and the events that may interleave
// with the first rollout, an Indexed Job's unfinished indexes (init is
// the initial state, nil if unknown).
func hints(u *model.Universe, init *model.State, r *report.Report) []string {
	if !budgetEnded(r) {
		return nil
	}
	var first, main []string
	for i := range u.Events {
		e := &u.Events[i]
		switch {
		case e.Slot == model.First && e.Kind == model.CreateTargetDeployment:
			first = append(first, u.Deployments[e.Deployment].Name)
		case e.Slot == model.Main && e.Kind != model.KernelPanic && e.Kind != model.CreateTargetDeployment:
			main = append(main, e.Kind.String())
		}
	}
	var out []string
	if n := len(first); n >= 4 && !u.Options.FirstInOrder {
		orders := "more than a million"
		if f := factorial(n); f <= 1_000_000 {
			orders = fmt.Sprintf("%d", f)
		}
		out = append(out, fmt.Sprintf("the %d Deployments are created before the controllers start in every order (%s orders), and each order places their pods differently; the quick pass creates them in the order written, and --apply-in-order makes the whole search do so", n, orders))
	}
	if u.HasReadiness() {
		out = append(out, "pods with a readiness probe, a readiness gate or minReadySeconds become Ready one at a time whenever the cluster is quiet, in every order, and every controller that reads readiness (rolling updates, disruption budgets, the HPA) may act in between; --ready-at-start assumes they are Ready as they start")
	}
	if model.HasHPABehavior(u) || model.WindowSlots(u) > 0 {
		out = append(out, "an HPA remembers recommendations or scale events over several sync periods (a stabilization window or `behavior`), and in every quiet state a period may pass or not")
	}
	if len(u.Nodes) >= 200 || u.PodSlots >= 500 {
		out = append(out, fmt.Sprintf("every state holds %d nodes and %d pod slots, so each costs more to store and to canonicalise (docs/performance.md, \"At cluster size\")", len(u.Nodes), u.PodSlots))
	}
	if len(main) > 0 {
		out = append(out, fmt.Sprintf("%d event(s) (%s) may happen at any step of the first rollout; written `when: afterStable`, an event waits until the cluster has settled", len(main), strings.Join(main, ", ")))
	}
	if h := indexedJobHint(u, init); h != "" {
		out = append(out, h)
	}
	for i := range u.Events {
		e := &u.Events[i]
		if e.Kind != model.Maintenance {
			continue
		}
		if e.Parallel >= 2 && len(u.Nodes) > e.Parallel {
			out = append(out, fmt.Sprintf("a maintenance takes up to %d of the %d nodes down at once, and every order in which they go down, come back and have their pods replaced in between is explored; a smaller `parallel` makes the search smaller", e.Parallel, len(u.Nodes)))
			break
		}
		if len(u.Nodes) >= largeMaintenance {
			out = append(out, fmt.Sprintf("a maintenance takes each of the %d nodes down and back in turn, so one run of it is at least %d steps long, and every place its evicted pods may take in between is explored; a maintenance of a few nodes of each kind (a smaller cluster of the same node types) is a much smaller search", len(u.Nodes), 2*len(u.Nodes)))
			break
		}
	}
	return out
}

// indexedJobHint names the first Indexed Job of init that runs more
// completion indexes than its parallelism, at least indexedJobHintWidth
// at a time: the unfinished indexes keep their identity in the state
// (reduction/symmetry relabels only the finished ones).
func indexedJobHint(u *model.Universe, init *model.State) string {
	if init == nil {
		return ""
	}
	for d := range u.Deployments {
		if !u.IsJob(d) {
			continue
		}
		ds := &init.Deps[d]
		spec := &u.Configs[ds.Config].Job
		par := int(ds.Replicas)
		if !spec.Indexed || par < indexedJobHintWidth || spec.Completions <= par {
			continue
		}
		return fmt.Sprintf("Indexed Job %s runs %d completion indexes %d at a time, and which unfinished index runs where, and how often each has failed, is part of the state: finished indexes are interchangeable, unfinished ones are not (the Job controller creates the lowest pending index first, and enqueues the pods it creates in index order); fewer completions or a smaller parallelism make the search smaller",
			u.Deployments[d].Name, spec.Completions, par)
	}
	return ""
}

// indexedJobHintWidth is the parallelism from which an Indexed Job is
// named as a cause of a large search.
const indexedJobHintWidth = 4

// largeMaintenance is the cluster size from which a one-at-a-time
// maintenance is named as a cause of a large search: its runs are twice
// as many steps long as the nodes, deeper than a search usually reaches
// within seconds.
const largeMaintenance = 20

// budgetEnded: a budget (time, memory, states, depth) left an intent
// unsettled.
func budgetEnded(r *report.Report) bool {
	for _, x := range r.Unknown() {
		switch x.Reason {
		case checker.ReasonTimeout, checker.ReasonMemory, checker.ReasonStateBound, checker.ReasonDepthBound:
			if x.Bound == "" {
				return true
			}
		}
	}
	return false
}

// tiesHint is the hint of a run whose quick pass explored its whole space
// without a violation and whose exhaustive search a budget ended: what
// the exhaustive search adds is mostly the scheduler's ties.
func tiesHint(quick report.Phase) string {
	return fmt.Sprintf("the scheduler may bind a pod to any node with the top score (Kubernetes picks one of them at random), and the exhaustive search follows every such choice; the quick pass, with one choice per tie and the Deployments created in the order written, explored all of its %d states without a violation", quick.Stats.States)
}

// sizeHint is the hint of a run a budget ended when no particular cause
// stands out: what the search branches over, and the cluster's size.
func sizeHint(u *model.Universe) string {
	events := 0
	for i := range u.Events {
		if u.Events[i].Kind != model.CreateTargetDeployment {
			events++
		}
	}
	what := "every tie of the scheduler among equally good nodes and every order of the controllers' steps"
	if events > 0 {
		what += fmt.Sprintf(", and every moment of %s", plural(events, "event"))
	}
	return fmt.Sprintf("no single cause stands out: the search follows %s, over %s, %s and %s; a larger budget (--timeout, --max-states, --max-memory) or fewer events per run let it finish",
		what, plural(len(u.Nodes), "node"), plural(len(u.Deployments), "workload"), plural(u.PodSlots, "pod slot"))
}

// plural is "1 node", "3 nodes".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// factorial is n!, saturating past a billion.
func factorial(n int) int {
	f := 1
	for i := 2; i <= n && f <= 1_000_000_000; i++ {
		f *= i
	}
	return f
}

// applyBound takes the model_bound pseudo-property out of the results:
// when a state reached a bound, every result that is not violated becomes
// Unknown with the bound as its reason (a violation's trace never passes
// through such a state, which has no successors, so violations stand).
func applyBound(r *report.Report) {
	i := slices.IndexFunc(r.Results, func(x report.IntentResult) bool { return x.Name == ModelBound })
	if i < 0 {
		return
	}
	b := r.Results[i]
	r.Results = slices.Delete(r.Results, i, i+1)
	if b.Verdict != checker.Violated {
		return
	}
	r.Bound, r.BoundTrace = b.Explanation, b.Trace
	r.Complete = false
	for k := range r.Results {
		if x := &r.Results[k]; x.Verdict != checker.Violated {
			x.Verdict, x.Bound = checker.Unknown, r.Bound
		}
	}
}

// better orders verdicts for merging: Violated > Unknown > Holds.
func better(a, b checker.Verdict) bool {
	rank := func(v checker.Verdict) int {
		switch v {
		case checker.Violated:
			return 2
		case checker.Unknown:
			return 1
		}
		return 0
	}
	return rank(a) > rank(b)
}

// renderTrace renders t's steps, with the cluster snapshots when
// snapshots is set.
func renderTrace(sys *System, t *checker.Trace[*model.State], snapshots bool) *report.Trace {
	out := &report.Trace{LoopStart: t.LoopStart}
	for _, st := range t.Steps {
		// The lines come with the snapshots (snapshotTrace).
		out.Steps = append(out.Steps, report.TraceStep{Actor: sys.ActorName(st.Step)})
	}
	last := t.Initial
	if n := len(t.Steps); n > 0 {
		last = t.Steps[n-1].State
	}
	if last != nil {
		out.Final = model.Describe(sys.U, last)
	}
	snapshotTrace(sys, t, out, snapshots)
	return out
}
