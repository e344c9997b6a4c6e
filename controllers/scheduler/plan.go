package scheduler

import (
	"math"

	"github.com/kivi-go/kivi/model"
)

// plan is the part of a scheduling cycle that depends only on the
// universe: per template, its spread constraints resolved with the label
// values of every node and their offsets into the cycle's count buffers.
// The search runs millions of cycles on one universe; a cycle builds the
// plan on its first use of a universe instead of resolving the same
// constraints and label lookups for every pod.
type plan struct {
	u         *model.Universe
	templates []templatePlan
	// reserved[n] is node n's reservation, the start of its requested
	// resources; requests[t] is what a pod of template t adds to its
	// node's (one pod).
	reserved, requests []model.Resources
	// nonZero: some template's scored requests differ from its requests
	// (nonzero.go); scoredRequests[t] is then what a pod of template t
	// adds to its node's scored requests.
	nonZero        bool
	scoredRequests []model.Resources
	// reservedScalar is every node's scalar reservation, laid out as
	// cycle.scalarUsed, and insufficient[k] is NodeResourcesFit's reason
	// for scalar resource k; both nil without scalar resources.
	reservedScalar []int64
	insufficient   []string
	// interPod[t] is InterPodAffinity's plan for incoming pods of
	// template t (nil when no template has inter-pod affinity), over the
	// pair tables interPodTabs.
	interPod     []*interPodPlan
	interPodTabs interPodTables
	// interPodBare[t] is the plan for bare incoming pods of template t,
	// interPod[t]'s unless revisions.
	interPodBare []*interPodPlan
	// revisions: some selector merges pod-template-hash
	// (model.Universe.HasRevisionMatch), so what matches a pod depends on
	// its owner.
	revisions bool
	// preempts: some pod of the universe may preempt
	// (model.Universe.CanPreempt), so pods may be nominated to nodes.
	preempts bool
	// logPlus2[k] is math.Log(k+2) for every topology size k a cycle can
	// see (0..nodes): the spread score's weights, looked up, not computed.
	logPlus2 []float64
	// weights[k] is score plugin k's weight in the profile (0: it does
	// not run) and fit NodeResourcesFit's scoring (profileconfig.go).
	weights [numScores]int64
	fit     fitScoring
	// spreadFilterOff and interPodFilterOff: the profile disables
	// PodTopologySpread's or InterPodAffinity's filter.
	spreadFilterOff, interPodFilterOff bool
	// balanced are NodeResourcesBalancedAllocation's resources when the
	// profile sets others than cpu and memory (nil: those two, scored by
	// balancedChange).
	balanced []fitResource
}

// templatePlan holds the constraint sets of one template's pods: a
// template without constraints gets kube-scheduler's system defaults, but
// only for pods with an owner, because DefaultSelector is empty for bare
// pods (buildDefaultConstraints).
type templatePlan struct {
	bare, owned constraintSet
}

// constraintSet is the resolved constraints of one kind of pod: the hard
// (DoNotSchedule) ones first, then the soft (ScheduleAnyway) ones; either
// the template's own constraints or the system defaults, never both.
type constraintSet struct {
	all  []constraint
	hard int
	// counted[t] lists the rows of the constraints whose selector matches
	// pods of template t that have the incoming pod's owner (or, for a
	// bare incoming pod, none), foreign[t] those matching pods of template
	// t of any other owner. They differ only under ownerMatters: the
	// system defaults, whose selector is the owner's ReplicaSet's, or a
	// merged pod-template-hash (constraint.revision).
	counted, foreign [][]int
	ownerMatters     bool
	// values is the number of cycle.dom entries the constraints use.
	values int
	// softDefault: the soft constraints are the system defaults, which do
	// not require nodes to carry every key.
	softDefault bool
	// hardKeys[n] and softKeys[n] report whether node n carries the key of
	// every hard, respectively every soft, constraint.
	hardKeys, softKeys []bool
}

// planFor returns the plan of u, building it when the cycle last ran on
// another universe.
func (c *cycle) planFor(u *model.Universe) *plan {
	if c.plan == nil || c.plan.u != u {
		c.plan = newPlan(u)
	}
	return c.plan
}

// newPlan resolves the constraints of every template of u
// (filterTopologySpreadConstraints, buildDefaultConstraints).
func newPlan(u *model.Universe) *plan {
	pl := &plan{u: u, templates: make([]templatePlan, len(u.Templates)),
		reserved: make([]model.Resources, len(u.Nodes)), requests: make([]model.Resources, len(u.Templates))}
	for n := range u.Nodes {
		node := &u.Nodes[n]
		pl.reserved[n] = model.Resources{CPU: node.ReservedCPU, Memory: node.ReservedMemory, Pods: node.ReservedPods}
	}
	pl.reservedScalar = u.ScalarReservedOnNodes(nil)
	for _, name := range u.ScalarResources {
		pl.insufficient = append(pl.insufficient, "Insufficient "+name)
	}
	pl.revisions = u.HasRevisionMatch()
	pl.interPod, pl.interPodBare, pl.interPodTabs = newInterPodPlans(u)
	pl.preempts = u.CanPreempt()
	pl.resolveProfile(u)
	pl.logPlus2 = make([]float64, len(u.Nodes)+1)
	for k := range pl.logPlus2 {
		pl.logPlus2[k] = math.Log(float64(k) + 2)
	}
	for tmpl := range u.Templates {
		t := &u.Templates[tmpl]
		pl.requests[tmpl] = model.Resources{CPU: t.CPU, Memory: t.Memory, Pods: 1}
		cpu, mem := scoredRequests(t)
		pl.scoredRequests = append(pl.scoredRequests, model.Resources{CPU: cpu, Memory: mem, Pods: 1})
		pl.nonZero = pl.nonZero || cpu != t.CPU || mem != t.Memory
		own := func(owned bool) ([]constraint, int) {
			var ks []constraint
			for i := range t.Spread {
				if sc := &t.Spread[i]; sc.When == model.DoNotSchedule {
					ks = append(ks, fromSpec(u, t, sc, tmpl, owned))
				}
			}
			hard := len(ks)
			for i := range t.Spread {
				if sc := &t.Spread[i]; sc.When == model.ScheduleAnyway {
					ks = append(ks, fromSpec(u, t, sc, tmpl, owned))
				}
			}
			return ks, hard
		}
		tp := &pl.templates[tmpl]
		bare, hard := own(false)
		tp.bare = newConstraintSet(u, tmpl, bare, hard, false)
		tp.owned = tp.bare
		if u.HasRevisionMatch() {
			// An owned pod's selectors may merge its pod-template-hash.
			owned, hard := own(true)
			tp.owned = newConstraintSet(u, tmpl, owned, hard, false)
		}
		if len(t.Spread) == 0 {
			defaults, hard, system := profileDefaults(u, t)
			tp.owned = newConstraintSet(u, tmpl, defaults, hard, system)
		}
	}
	return pl
}

// newConstraintSet numbers the constraints' rows and domain offsets, lists
// the constraints counting each template's pods for pods of template tmpl,
// and records which nodes carry every key.
func newConstraintSet(u *model.Universe, tmpl int, all []constraint, hard int, softDefault bool) constraintSet {
	cs := constraintSet{all: all, hard: hard, softDefault: softDefault,
		counted: make([][]int, len(u.Templates)), foreign: make([][]int, len(u.Templates))}
	for i := range all {
		all[i].off, all[i].row = cs.values, i
		cs.values += all[i].values
		cs.ownerMatters = cs.ownerMatters || all[i].spec == nil || all[i].revision
		for t := range cs.counted {
			if all[i].counts(t, tmpl, true) {
				cs.counted[t] = append(cs.counted[t], i)
			}
			if all[i].counts(t, tmpl, false) {
				cs.foreign[t] = append(cs.foreign[t], i)
			}
		}
	}
	cs.hardKeys = carriesKeys(u, all[:hard])
	cs.softKeys = carriesKeys(u, all[hard:])
	return cs
}

// carriesKeys reports per node whether it carries the key of every
// constraint of ks.
func carriesKeys(u *model.Universe, ks []constraint) []bool {
	has := make([]bool, len(u.Nodes))
	for n := range has {
		has[n] = true
		for i := range ks {
			if ks[i].value(n) == 0 {
				has[n] = false
				break
			}
		}
	}
	return has
}

// of returns the constraint set of pod p.
func (tp *templatePlan) of(p *model.PodState) *constraintSet {
	if p.Owner != 0 {
		return &tp.owned
	}
	return &tp.bare
}
