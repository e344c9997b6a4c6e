package hpadiff

import (
	"flag"
	"fmt"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/controllers/hpa"
	"github.com/kivi-go/kivi/fidelity/walk"
	"github.com/kivi-go/kivi/model"
)

// Random runs per source and their length (walk.Sources).
var (
	walksPerSource = flag.Int("walks", 40, "random runs per source of TestReplayRandomRuns")
	walkSteps      = flag.Int("walksteps", 200, "steps per random run of TestReplayRandomRuns")
)

// inRange reports whether an HPA is one a Case states: one CPU
// Utilization Resource metric, the legacy normalisation (no
// spec.behavior).
func inRange(u *model.Universe, spec *model.HPA) bool {
	if spec.Behavior != nil || len(spec.Metrics) != 1 || model.HasUnknownHPAMetric(u) {
		return false
	}
	m := spec.Metrics[0]
	return m.Kind == model.MetricKind(0) && m.Resource == model.CPU && m.Target == model.Utilization
}

// synced returns the deployments an HPA step from pre to post evaluated:
// the HPA queue's items it took, or, with no queue to drain, the
// deployments whose scale-down a window holds (a sync period passing,
// whose memory ages first: aged).
func synced(pre, post *model.State) (ds []int, aged bool) {
	if !pre.Empty(model.HPAQueue) && pre.ControllerQueuesEmpty() {
		taken := len(pre.Queues[model.HPAQueue]) - len(post.Queues[model.HPAQueue])
		for _, d := range pre.Queues[model.HPAQueue][:max(taken, 0)] {
			ds = append(ds, int(d))
		}
		return ds, false
	}
	for d := range pre.Deps {
		if pre.Deps[d].HPAHeld {
			ds = append(ds, d)
		}
	}
	return ds, true
}

// walkHPACase is deployment d's HPA sync on s as a Case: its spec, the
// current replicas, its memory (aged by one period when a period passes
// first) and its pods in the calculator's kinds.
func walkHPACase(u *model.Universe, s *model.State, d int, aged bool) *Case {
	ds := &s.Deps[d]
	spec := &u.HPAs[ds.HPA-1]
	c := &Case{Current: int(ds.Replicas), Min: spec.Min, Max: spec.Max, TargetPercent: int(spec.Metrics[0].Value),
		TolerancePercent: spec.TolerancePercent, WindowSyncs: spec.ScaleDownStabilizationSyncs, Seen: ds.HPASeen}
	if w := spec.ScaleDownStabilizationSyncs; w > 0 {
		win := slices.Clone(ds.HPAWindow[:w+1])
		if aged {
			hpa.Advance(win)
		}
		for age, r := range win {
			if r > 0 {
				c.Recs = append(c.Recs, Rec{Age: age, Replicas: int(r)})
			}
		}
	}
	for i := range s.Pods {
		p := &s.Pods[i]
		if int(p.Owner) != d+1 {
			continue
		}
		t := &u.Templates[p.Template]
		request := t.MetricRequest(model.CPU)
		pod := Pod{Request: request, Usage: int64(p.CPU), Overhead: t.CPU - request}
		switch {
		case p.Phase == model.Pending:
			pod.Kind = Pending
		case p.Phase == model.Terminating:
			pod.Kind = Terminating
		case p.Phase == model.Running && p.Readiness == model.PodNotReady:
			pod.Kind = NotReady
		case p.Phase == model.Running:
			pod.Kind = Ready
		default:
			continue // Failed or Succeeded: no pod the HPA lists
		}
		c.Pods = append(c.Pods, pod)
	}
	return c
}

// hpaTally counts the HPA syncs of a source's runs.
type hpaTally struct {
	runs, steps, syncs, agree int
	// outside: syncs of an HPA a Case does not state (memory or
	// AverageValue metrics, several metrics, spec.behavior).
	outside int
	// unready, windowed: compared syncs with a Pending or not-Ready pod,
	// and of an HPA with a downscale stabilisation window.
	unready, windowed int
	// classes: disagreements by Classes' names.
	classes map[string]int
}

func (h *hpaTally) String() string {
	return fmt.Sprintf("%d runs, %d HPA steps, %d syncs compared (%d with an unready pod, %d with a window): %d agree, classified %v; %d syncs of HPAs outside the driver's range",
		h.runs, h.steps, h.syncs, h.unready, h.windowed, h.agree, h.classes, h.outside)
}

func (h *hpaTally) add(o *hpaTally) {
	h.runs += o.runs
	h.steps += o.steps
	h.syncs += o.syncs
	h.agree += o.agree
	h.outside += o.outside
	h.unready += o.unready
	h.windowed += o.windowed
	for k, v := range o.classes {
		h.classes[k] += v
	}
}

// TestReplayRandomRuns replays every HPA sync of random runs of the
// incident library, the worked example and the realistic shapes
// (walk.Sources) through the real replica calculator and normalisation
// (RealEval): the replica count the model writes must be upstream's for
// the same current count, metrics, requests, readiness and memory, or
// its disagreement must belong to Classes.
func TestReplayRandomRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("random runs take a while")
	}
	sources, err := walk.Sources()
	if err != nil {
		t.Fatal(err)
	}
	total := &hpaTally{classes: map[string]int{}}
	for _, src := range sources {
		t.Run(src.Name, func(t *testing.T) {
			p, err := src.Problem()
			if err != nil {
				t.Fatal(err)
			}
			u := p.System.U
			tally := &hpaTally{classes: map[string]int{}, runs: *walksPerSource}
			err = src.Runs(p, *walksPerSource, *walkSteps, func(st walk.Step) error {
				if p.System.ActorName(st.Pick) != "HPA" {
					return nil
				}
				tally.steps++
				for _, m := range replayHPAStep(u, st, tally) {
					t.Errorf("%s: %s", st.Where(), m)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s", src.Name, tally)
			if len(u.HPAs) > 0 && tally.syncs+tally.outside == 0 {
				t.Errorf("%s: no HPA sync in %d random runs while its input has an HPA: the replay checks nothing", src.Name, *walksPerSource)
			}
			total.add(tally)
		})
	}
	t.Logf("all sources: %s", total)
}

// replayHPAStep compares every sync of an HPA step and returns the
// unexplained disagreements.
func replayHPAStep(u *model.Universe, st walk.Step, tally *hpaTally) []string {
	ds, aged := synced(st.Pre, st.Post)
	var problems []string
	for _, d := range ds {
		dep := &st.Pre.Deps[d]
		if !dep.Active || dep.HPA == 0 {
			continue
		}
		if !inRange(u, &u.HPAs[dep.HPA-1]) {
			tally.outside++
			continue
		}
		tally.syncs++
		c := walkHPACase(u, st.Pre, d, aged)
		if c.has(Pending) || c.has(NotReady) {
			tally.unready++
		}
		if c.WindowSyncs > 0 {
			tally.windowed++
		}
		wrote := int(st.Post.Deps[d].Replicas)
		same := func(c *Case) bool { return wrote == RealEval(c) }
		if same(c) {
			tally.agree++
			continue
		}
		if class := Classify(c, EvalSame(ModelEval)); class != "" && ModelEval(c) == wrote {
			tally.classes[class]++
			continue
		}
		problems = append(problems, fmt.Sprintf("deployment %s: the model writes %d replicas, upstream %d\n%s",
			u.Deployments[d].Name, wrote, RealEval(c), c))
	}
	return problems
}
