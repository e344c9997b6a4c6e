package rolloutdiff

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/controllers/deployment"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// Templates is the number of pod templates (images v1..v4) a Case uses.
const Templates = 4

// Set is one ReplicaSet of a Case.
type Set struct {
	// Template is the pod template, 0..Templates-1 (image v1..v4).
	Template int
	Replicas int
	// Available of its pods are Running (and Ready); the other
	// Replicas − Available are Pending.
	Available int
	// MaxReplicas is its max-replicas annotation.
	MaxReplicas int
	// Slot is the model's ReplicaSet slot that holds it. The model has
	// two: two sets in one slot are merged revisions, the slot having the
	// newer one's template and annotations.
	Slot int
}

// Case is one sync of a Deployment.
type Case struct {
	Recreate bool
	// Paused is spec.paused: the sync only scales the sets there are.
	Paused bool
	// MaxSurge and MaxUnavailable are the RollingUpdate fenceposts.
	MaxSurge, MaxUnavailable model.IntOrPercent
	// Template is the deployment's pod template now.
	Template int
	// Spec is spec.replicas; Desired the desired-replicas annotation every
	// set carries (spec.replicas at the controller's last scale).
	Spec, Desired int
	// Sets in creation order, the oldest first.
	Sets []Set
	// Current is the model's current slot: the set of the deployment's
	// template, or the one that had the template last.
	Current int
}

func (c *Case) String() string {
	var b strings.Builder
	strategy := fmt.Sprintf("RollingUpdate maxSurge %s maxUnavailable %s", ios(c.MaxSurge), ios(c.MaxUnavailable))
	if c.Recreate {
		strategy = "Recreate"
	}
	if c.Paused {
		strategy += ", paused"
	}
	fmt.Fprintf(&b, "%s, template v%d, spec %d, desired-replicas %d, current slot %d; sets, oldest first:\n",
		strategy, c.Template+1, c.Spec, c.Desired, c.Current)
	for _, s := range c.Sets {
		fmt.Fprintf(&b, "  %s\n", s)
	}
	return b.String()
}

func (s Set) String() string {
	return fmt.Sprintf("v%d replicas %d available %d max-replicas %d (slot %d)", s.Template+1, s.Replicas, s.Available, s.MaxReplicas, s.Slot)
}

func ios(v model.IntOrPercent) string {
	if v.Percent {
		return fmt.Sprintf("%d%%", v.Value)
	}
	return fmt.Sprint(v.Value)
}

// Out is one ReplicaSet after a sync: its replicas and, when it is active
// (replicas > 0), its desired-replicas and max-replicas annotations.
type Out struct {
	Replicas, Desired, Max int
}

// Result is every ReplicaSet after a sync, by pod template.
type Result map[int]Out

func (r Result) String() string {
	var b strings.Builder
	for i, t := range slices.Sorted(maps.Keys(r)) {
		if i > 0 {
			b.WriteString(", ")
		}
		o := r[t]
		fmt.Fprintf(&b, "v%d: %d", t+1, o.Replicas)
		if o.Replicas > 0 {
			fmt.Fprintf(&b, " (%d/%d)", o.Desired, o.Max)
		}
	}
	return b.String()
}

// slotSets returns the sets of model slot k, oldest first.
func (c *Case) slotSets(k int) []Set {
	var out []Set
	for _, s := range c.Sets {
		if s.Slot == k {
			out = append(out, s)
		}
	}
	return out
}

// newestIndex returns the index in Sets of the newest set of slot k, or -1.
func (c *Case) newestIndex(k int) int {
	n := -1
	for i, s := range c.Sets {
		if s.Slot == k {
			n = i
		}
	}
	return n
}

// Plant changes the model's state before its sync: the planted bugs of
// TestPlantedBugs. Nil plants nothing.
type Plant func(u *model.Universe, s *model.State)

// Model runs the model's sync on c: ScaleReplicaSets, the deployment
// controller's part of syncDeployment, with the older revisions merged
// where upstream would create a third ReplicaSet
// (model.Options.MergeOldRevisions: the approximation class
// ThirdRevision measures).
func (c *Case) Model(plant Plant) (Result, error) {
	r, bound, err := c.sync(plant, true)
	if err == nil && bound {
		err = fmt.Errorf("model reached the bound of ReplicaSet revisions under MergeOldRevisions")
	}
	return r, err
}

// ModelAsRun runs the model's sync on c with the options of a run's
// default: bound reports that the sync reached the model's bound of two
// ReplicaSets per Deployment (the run's verdicts would be Unknown), and
// then the Result is nil.
func (c *Case) ModelAsRun() (r Result, bound bool, err error) {
	return c.sync(nil, false)
}

func (c *Case) sync(plant Plant, merge bool) (Result, bool, error) {
	u, s, err := c.modelState()
	if err != nil {
		return nil, false, err
	}
	u.Options.MergeOldRevisions = merge
	if plant != nil {
		plant(u, s)
	}
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	deployment.ScaleReplicaSets(tx, s, 0)
	if s.Failed == model.FailBound && model.Bound(s.FailedArg) == model.BoundReplicaSetRevisions {
		return nil, true, nil
	}
	if s.Failed != model.NoFailure {
		return nil, false, fmt.Errorf("model failed: %d (%d)", s.Failed, s.FailedArg)
	}
	ds := &s.Deps[0]
	a := ds.Annotations(u)
	r := Result{}
	for k := range ds.RS {
		if ds.RS[k].Template == 0 {
			continue
		}
		o := Out{Replicas: int(ds.RS[k].Replicas)}
		if o.Replicas > 0 {
			o.Desired, o.Max = a.Desired, a.Max[k]
		}
		r[int(ds.RS[k].Template)-1] = o
	}
	return r, false, nil
}

// modelState builds the Case's universe and state.
func (c *Case) modelState() (*model.Universe, *model.State, error) {
	b := build.New()
	b.AddNodes(1, build.Node().CPU(1000).Mem(1000).MaxPods(1000))
	var tmpl [Templates]int
	for i := range tmpl {
		tmpl[i] = b.AddTemplate(build.Template(fmt.Sprint("v", i+1)).Requests(1, 1))
	}
	b.AddDeployment("web", tmpl[c.Template], c.Spec)
	if c.Paused {
		// Its sets are the Case's, set below.
		b.Paused(0, true)
	}
	cfg := &b.U.Configs[0]
	cfg.MaxSurge, cfg.MaxUnavailable = c.MaxSurge, c.MaxUnavailable
	if c.Recreate {
		cfg.Strategy = model.Recreate
	}
	b.Slots = 1
	for _, s := range c.Sets {
		b.Slots += s.Replicas
	}
	u, s, err := b.Build(0)
	if err != nil {
		return nil, nil, err
	}
	ds := &s.Deps[0]
	ds.RS = [2]model.ReplicaSetState{}
	ds.Cur = uint8(c.Current)
	a := model.ReplicasAnnotations{Desired: c.Desired}
	var created [2]int
	pod := 0
	for k := range ds.RS {
		n := c.newestIndex(k)
		created[k] = n
		if n < 0 {
			continue
		}
		newest := c.Sets[n]
		ds.RS[k].Template = uint8(tmpl[newest.Template] + 1)
		a.Max[k] = newest.MaxReplicas
		for _, set := range c.slotSets(k) {
			ds.RS[k].Replicas += int16(set.Replicas)
			for i := range set.Replicas {
				p := model.PodState{Phase: model.Pending, Owner: 1, RS: uint8(k), Template: uint8(tmpl[set.Template]), CPU: 1, Memory: 1}
				if i < set.Available {
					p.Phase, p.Node = model.Running, 1
				}
				s.Pods[pod] = p
				pod++
			}
		}
	}
	other := 1 - c.Current
	ds.NewRSOlder = created[other] >= 0 && created[c.Current] < created[other]
	ds.SetAnnotations(u, a)
	s.Init = model.InitMain
	return u, s, nil
}
