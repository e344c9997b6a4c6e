package stsdiff

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kivi-go/kivi/controllers/statefulset"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// Templates is the number of pod templates (images v1..v3) a Case uses.
const Templates = 3

// Shape is the StatefulSet's revisions: its ControllerRevisions, status
// and spec template.
type Shape int

const (
	// Steady: one revision, v1, current and update; spec v1.
	Steady Shape = iota
	// Rolling: revisions v1 and v2, current v1, update v2; spec v2 (a
	// rolling update in progress).
	Rolling
	// Applied: one revision, v1; spec v2 (a new template applied: the
	// sync creates revision v2).
	Applied
	// Rollback: revisions v1 and v2, current v1, update v2; spec v1 again.
	Rollback
	// Third: revisions v1 and v2, current v1, update v2; spec v3 (a third
	// template mid-rollout).
	Third
	shapes
)

func (s Shape) String() string {
	return [...]string{"steady", "rolling", "applied", "rollback", "third template"}[s]
}

// Spec is the template of the Shape's spec, and Current and Update the
// templates of status.currentRevision and status.updateRevision.
func (s Shape) Spec() int {
	switch s {
	case Steady, Rollback:
		return 0
	case Rolling, Applied:
		return 1
	}
	return 2
}

// TwoRevisions: the Shape has revisions v1 and v2, and pods of both.
func (s Shape) TwoRevisions() bool { return s == Rolling || s == Rollback || s == Third }

// Phase is a pod's status.phase in a Case.
type Phase int

const (
	Pending Phase = iota
	Running
	Failed
)

func (p Phase) String() string { return [...]string{"Pending", "Running", "Failed"}[p] }

// Pod is one pod of a Case.
type Pod struct {
	Ordinal int
	// Template is its revision: 0 (v1) or 1 (v2).
	Template int
	Phase    Phase
	// Unready is a Running pod whose Ready condition is False:
	// model.PodNotReady.
	Unready bool
	// Terminating: its deletionTimestamp is set.
	Terminating bool
}

func (p Pod) String() string {
	s := fmt.Sprintf("web-%d v%d %s", p.Ordinal, p.Template+1, p.Phase)
	if p.Unready {
		s += " (not Ready)"
	}
	if p.Terminating {
		s += " Terminating"
	}
	return s
}

// Case is one sync of a StatefulSet.
type Case struct {
	Replicas, Start int
	Parallel        bool
	OnDelete        bool
	// Partition is the RollingUpdate's partition.
	Partition int
	// MaxUnavailable is the RollingUpdate's maxUnavailable, nil when not
	// given (then the feature gate is off upstream).
	MaxUnavailable *model.IntOrPercent
	Shape          Shape
	Pods           []Pod
	// RolledBackCurrent is a counterfactual for upstream only: with Shape
	// Rollback, status.currentRevision is v2, the revision rolled back
	// from, as the model holds it (classify.go).
	RolledBackCurrent bool
}

func (c *Case) String() string {
	var b strings.Builder
	policy := "OrderedReady"
	if c.Parallel {
		policy = "Parallel"
	}
	strategy := "OnDelete"
	if !c.OnDelete {
		strategy = fmt.Sprintf("RollingUpdate partition %d", c.Partition)
		if c.MaxUnavailable != nil {
			strategy += " maxUnavailable " + ios(*c.MaxUnavailable)
		}
	}
	fmt.Fprintf(&b, "replicas %d start %d %s %s, %s (spec v%d)", c.Replicas, c.Start, policy, strategy, c.Shape, c.Shape.Spec()+1)
	if c.RolledBackCurrent {
		b.WriteString(", upstream's currentRevision v2")
	}
	b.WriteString("; pods:\n")
	for _, p := range c.Pods {
		fmt.Fprintf(&b, "  %s\n", p)
	}
	return b.String()
}

func ios(v model.IntOrPercent) string {
	if v.Percent {
		return fmt.Sprintf("%d%%", v.Value)
	}
	return fmt.Sprint(v.Value)
}

// Result is what one sync did: the pods it created, by ordinal, with
// their template (revision), and the ordinals of the pods it deleted.
type Result struct {
	Created map[int]int
	Deleted []int
}

// Equal: the same creations and deletions.
func (r Result) Equal(o Result) bool {
	return maps.Equal(r.Created, o.Created) && slices.Equal(r.Deleted, o.Deleted)
}

func (r Result) String() string {
	var parts []string
	for _, o := range slices.Sorted(maps.Keys(r.Created)) {
		parts = append(parts, fmt.Sprintf("create web-%d v%d", o, r.Created[o]+1))
	}
	for _, o := range r.Deleted {
		parts = append(parts, fmt.Sprintf("delete web-%d", o))
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// Plant changes the model's universe or state before its sync: the planted
// bugs of TestPlantedBugs. Nil plants nothing.
type Plant func(u *model.Universe, s *model.State)

// Model runs the model's Sync on c.
func (c *Case) Model(plant Plant) (Result, error) {
	u, s, err := c.modelState()
	if err != nil {
		return Result{}, err
	}
	if plant != nil {
		plant(u, s)
	}
	before := map[int]model.PodState{}
	for _, p := range s.Pods {
		if p.Phase != model.Free {
			before[p.OrdinalOf()] = p
		}
	}
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	statefulset.Sync(tx, s, 0)
	if s.Failed != model.NoFailure {
		return Result{}, fmt.Errorf("model failed: %d (%d)", s.Failed, s.FailedArg)
	}
	r := Result{Created: map[int]int{}}
	after := map[int]model.PodState{}
	for _, p := range s.Pods {
		if p.Phase == model.Free {
			continue
		}
		o := p.OrdinalOf()
		after[o] = p
		if _, ok := before[o]; !ok {
			r.Created[o] = int(p.Template)
		}
	}
	for _, o := range slices.Sorted(maps.Keys(before)) {
		if before[o].Phase == model.Terminating {
			continue
		}
		if p, ok := after[o]; !ok || p.Phase == model.Terminating {
			r.Deleted = append(r.Deleted, o)
		}
	}
	return r, nil
}

// modelState builds the Case's universe and state: templates v1..v3, the
// revision v1 in ReplicaSet slot 0 and v2 in slot 1, RS[Cur] the update
// revision of the Case's status (Sync itself moves it to the spec's
// template, as getStatefulSetRevisions does).
func (c *Case) modelState() (*model.Universe, *model.State, error) {
	b := build.New()
	b.AddNodes(1, build.Node().CPU(1000).Mem(1000).MaxPods(1000))
	var tmpl [Templates]int
	for i := range tmpl {
		tmpl[i] = b.AddTemplate(build.Template(fmt.Sprint("v", i+1)).Requests(1, 1).Label("app", "web"))
	}
	d := b.AddStatefulSet("web", tmpl[c.Shape.Spec()], c.Replicas)
	cfg := b.Config(d)
	cfg.StatefulSet = model.StatefulSetSpec{Partition: c.Partition, OrdinalsStart: c.Start}
	if c.Parallel {
		cfg.StatefulSet.PodManagement = model.Parallel
	}
	if c.OnDelete {
		cfg.Strategy = model.OnDelete
	}
	if c.MaxUnavailable != nil {
		cfg.MaxUnavailable, cfg.StatefulSet.MaxUnavailableSet = *c.MaxUnavailable, true
	}
	b.Slots = len(c.Pods) + c.Replicas + 1
	u, s, err := b.Build(0)
	if err != nil {
		return nil, nil, err
	}
	ds := &s.Deps[d]
	ds.RS = [2]model.ReplicaSetState{{Template: uint8(tmpl[0] + 1)}}
	ds.Cur = 0
	if c.Shape.TwoRevisions() {
		ds.RS[1].Template = uint8(tmpl[1] + 1)
		ds.Cur = 1
	}
	for i, p := range c.Pods {
		ps := model.PodState{Phase: model.Pending, Owner: uint8(d + 1), RS: uint8(p.Template), Template: uint8(tmpl[p.Template]),
			Ordinal: uint8(p.Ordinal + 1), CPU: 1, Memory: 1}
		switch p.Phase {
		case Running:
			ps.Phase, ps.Node = model.Running, 1
			if p.Unready {
				ps.Readiness = model.PodNotReady
			}
		case Failed:
			ps.Phase, ps.Node = model.Failed, 1
		}
		if p.Terminating {
			ps.WasRunning = ps.Phase == model.Running
			ps.Phase = model.Terminating
		}
		s.Pods[i] = ps
	}
	s.Init = model.InitMain
	return u, s, nil
}
