package rsdiff

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/fidelity/walk"
	"github.com/kivi-go/kivi/model"
)

// Random runs per source and their length (walk.Sources).
var (
	walksPerSource = flag.Int("walks", 40, "random runs per source of TestReplayRandomRuns")
	walkSteps      = flag.Int("walksteps", 200, "steps per random run of TestReplayRandomRuns")
)

// scaleDown is the pods one deployment-controller step deletes from one
// ReplicaSet slot: deployment d, slot rs, the pod slots.
type scaleDown struct {
	d, rs int
	pods  []int
}

// scaleDowns returns the deletions of a step from pre to post by
// ReplicaSet: the pods of a Deployment active in pre and no longer in
// post (a StatefulSet's or a Job's pods have no ReplicaSet).
func scaleDowns(u *model.Universe, pre, post *model.State) []scaleDown {
	var out []scaleDown
	for i := range pre.Pods {
		p, q := &pre.Pods[i], &post.Pods[i]
		if p.Owner == 0 || u.Deployments[p.Owner-1].Kind != model.KindDeployment || !p.Active() ||
			(q.Owner == p.Owner && q.RS == p.RS && q.Active()) {
			continue
		}
		d, rs := int(p.Owner)-1, int(p.RS)
		k := slices.IndexFunc(out, func(x scaleDown) bool { return x.d == d && x.rs == rs })
		if k < 0 {
			out = append(out, scaleDown{d: d, rs: rs})
			k = len(out) - 1
		}
		out[k].pods = append(out[k].pods, i)
	}
	return out
}

// walkCase is the Case of scale-down sd on state s: the active pods of
// its deployment (every ReplicaSet's, upstream's relatedPods), in slot
// order, and the Case index of every slot. The pods of gone are left out
// (deleted by the same step before: see replayScaleDown).
func walkCase(s *model.State, sd scaleDown, gone []int) (*Case, map[int]int) {
	c := &Case{Delete: len(sd.pods)}
	index := map[int]int{}
	for i := range s.Pods {
		p := &s.Pods[i]
		if int(p.Owner) != sd.d+1 || !p.Active() || slices.Contains(gone, i) {
			continue
		}
		pod := Pod{Set: Sibling, Node: int(p.Node), Running: p.Phase == model.Running}
		if int(p.RS) == sd.rs {
			pod.Set = Victim
		}
		pod.Unready = pod.Running && !p.Ready()
		c.Nodes = max(c.Nodes, pod.Node)
		index[i] = len(c.Pods)
		c.Pods = append(c.Pods, pod)
	}
	return c, index
}

// walkTally counts the scale-downs of a source's runs.
type walkTally struct {
	runs, steps, scaleDowns, deleted int
	// branched: the model had more than one branch over tied pods;
	// twoSets: the step deleted from both ReplicaSets of a deployment,
	// the second set ranked after the first's deletions.
	branched, twoSets int
	disagree          int
	// overshoot: deployment steps after which a ReplicaSet has more
	// active pods than its replicas (overshoots).
	overshoot int
}

func (w *walkTally) String() string {
	return fmt.Sprintf("%d runs, %d deployment steps, %d scale-downs (%d pods deleted; %d with tied branches, %d after the other set's deletions in the same step), %d disagree",
		w.runs, w.steps, w.scaleDowns, w.deleted, w.branched, w.twoSets, w.disagree)
}

func (w *walkTally) add(o *walkTally) {
	w.runs += o.runs
	w.steps += o.steps
	w.scaleDowns += o.scaleDowns
	w.deleted += o.deleted
	w.branched += o.branched
	w.twoSets += o.twoSets
	w.disagree += o.disagree
	w.overshoot += o.overshoot
}

// TestReplayRandomRuns replays every scale-down of random runs of the
// incident library, the worked example and the realistic shapes
// (walk.Sources) through the ReplicaSet controller's getPodsToDelete: for
// every deployment-controller step that deletes pods, the pods it deletes
// from a ReplicaSet must be exactly upstream's pick once they get one
// container restart (steered, as in compare), and upstream's pick with
// every untracked key equal (tied) must be, up to pods the model holds
// identical, one of the branches the model takes at that state. There is
// no class to fall into (classes is empty): every scale-down must agree.
func TestReplayRandomRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("random runs take a while")
	}
	sources, err := walk.Sources()
	if err != nil {
		t.Fatal(err)
	}
	total := &walkTally{}
	for _, src := range sources {
		t.Run(src.Name, func(t *testing.T) {
			p, err := src.Problem()
			if err != nil {
				t.Fatal(err)
			}
			tally := &walkTally{runs: *walksPerSource}
			err = src.Runs(p, *walksPerSource, *walkSteps, func(st walk.Step) error {
				if !isDeployment(p, st.Pick) {
					return nil
				}
				tally.steps++
				if overshoots(p.System.U, st.Post) {
					tally.overshoot++
				}
				for _, m := range replayStep(p, st, tally) {
					t.Errorf("%s: %s", st.Where(), m)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s", src.Name, tally)
			if tally.overshoot > 0 && tally.scaleDowns == 0 {
				t.Errorf("%s: no scale-down in %d random runs while %d deployment steps left a ReplicaSet above its replicas: the replay checks nothing", src.Name, *walksPerSource, tally.overshoot)
			}
			total.add(tally)
		})
	}
	t.Logf("all sources: %s", total)
}

// overshoots reports whether a ReplicaSet of a Deployment of s has more
// active pods than its spec.replicas: the pods a scale-down has to
// delete.
func overshoots(u *model.Universe, s *model.State) bool {
	for d := range s.Deps {
		if u.Deployments[d].Kind != model.KindDeployment {
			continue
		}
		for rs, set := range s.Deps[d].RS {
			n := 0
			for i := range s.Pods {
				if p := &s.Pods[i]; int(p.Owner) == d+1 && int(p.RS) == rs && p.Active() {
					n++
				}
			}
			if n > int(set.Replicas) {
				return true
			}
		}
	}
	return false
}

// isDeployment reports whether step is the deployment controller's.
func isDeployment(p *kivi.Problem, step checker.Step) bool {
	return p.System.ActorName(step) == "Deployment"
}

// replayStep checks every scale-down of st and returns the
// disagreements.
func replayStep(p *kivi.Problem, st walk.Step, tally *walkTally) []string {
	sds := scaleDowns(p.System.U, st.Pre, st.Post)
	var problems []string
	for _, sd := range sds {
		tally.scaleDowns++
		tally.deleted += len(sd.pods)
		// Another set of the same deployment the step deleted from: the
		// deployment controller may have ranked this set before those
		// deletions or after them, as two syncs of the ReplicaSet
		// controller would.
		var others []int
		for _, o := range sds {
			if o.d == sd.d && o.rs != sd.rs {
				others = append(others, o.pods...)
			}
		}
		detail := replayScaleDown(p, st, sd, nil, tally)
		if detail != "" && len(others) > 0 {
			if replayScaleDown(p, st, sd, others, tally) == "" {
				tally.twoSets++
				detail = ""
			}
		}
		if detail != "" {
			tally.disagree++
			problems = append(problems, detail)
		}
	}
	return problems
}

// replayScaleDown compares scale-down sd of st with upstream on st.Pre
// without the pods of gone, and returns "" or what differs.
func replayScaleDown(p *kivi.Problem, st walk.Step, sd scaleDown, gone []int, tally *walkTally) string {
	c, index := walkCase(st.Pre, sd, gone)
	branch := make([]int, len(sd.pods))
	for k, i := range sd.pods {
		branch[k] = index[i]
	}
	slices.Sort(branch)
	order := st.Rand().Perm(len(c.Pods))
	if got := c.Upstream(getPodsToDelete, order, branch); !slices.Equal(got, branch) {
		return fmt.Sprintf("steered: deployment %d rs %d: the model deletes %v, upstream with those pods restarted %v\n%s",
			sd.d, sd.rs, branch, got, c)
	}
	// The model's branches at this state: the same scale-down by every
	// alternative step of the deployment controller.
	sigs := map[string]bool{}
	for _, alt := range st.Alternatives {
		if !isDeployment(p, alt) {
			continue
		}
		post, _, err := p.System.Replay(st.Pre, alt)
		if err != nil {
			return err.Error()
		}
		for _, o := range scaleDowns(p.System.U, st.Pre, post) {
			if o.d != sd.d || o.rs != sd.rs || len(o.pods) != len(sd.pods) {
				continue
			}
			b := make([]int, len(o.pods))
			for k, i := range o.pods {
				b[k] = index[i]
			}
			sigs[c.signature(b)] = true
		}
	}
	if len(sigs) > 1 {
		tally.branched++
	}
	if got := c.Upstream(getPodsToDelete, order, nil); !sigs[c.signature(got)] {
		return fmt.Sprintf("tied: deployment %d rs %d: upstream deletes %v [%s]; the model's branches %s\n%s",
			sd.d, sd.rs, got, c.signature(got), strings.Join(slices.Sorted(maps.Keys(sigs)), " | "), c)
	}
	return ""
}
