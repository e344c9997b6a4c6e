package reduction_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/model"
	"pgregory.net/rapid"
)

// indexedJobVariant is an Indexed Job run on three alike nodes of two
// CPUs (pods of one CPU) with an event that deletes its pods, so that
// indexes fail, are recreated and finish in every order.
type indexedJobVariant struct {
	name string
	// spec is the Job's spec past completionMode; extra, more objects
	// (a ResourceQuota); events, the intents file's events.
	spec, extra, events string
	// nodes and cpu: how many nodes of how many CPUs (3 of 2 when 0).
	nodes, cpu int
	// nonIndexed: the Job is NonIndexed, for the pod-slot symmetry of
	// Job pods alone.
	nonIndexed bool
}

var indexedJobVariants = []indexedJobVariant{
	{name: "per-index-maintenance", spec: `
  completions: 5
  parallelism: 2
  backoffLimitPerIndex: 1
  maxFailedIndexes: 1`, events: `
- {kind: maintenance, parallel: 1, order: any, when: afterStable}`},
	// An exit code the application may give fails the index at once;
	// the podFailurePolicy makes podReplacementPolicy Failed, so a
	// terminating pod's index waits for it and the parallelism is taken
	// by never-started indexes meanwhile.
	{name: "fail-index-node-failure", spec: `
  completions: 4
  parallelism: 3
  backoffLimitPerIndex: 2
  podFailurePolicy:
    rules:
    - action: FailIndex
      onExitCodes: {operator: In, values: [42]}`, events: `
- {kind: nodeFailure, node: n1, when: afterStable}`},
	// The quota admits two pods of three: creation stops at the refusal,
	// lowest pending index first, and failed indexes wait in turn.
	{name: "quota-drain", spec: `
  completions: 4
  parallelism: 3
  backoffLimitPerIndex: 1`, extra: `
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: pods}
spec: {hard: {pods: "2"}}`, events: `
- {kind: drain, node: n2, when: afterStable}`},
	// The eviction's failure is ignored (DisruptionTarget): the index
	// goes back to idle, with no failure counted, below busy ones.
	{name: "ignore-drain", spec: `
  completions: 5
  parallelism: 2
  backoffLimitPerIndex: 1
  podFailurePolicy:
    rules:
    - action: Ignore
      onPodConditions: [{type: DisruptionTarget}]`, events: `
- {kind: drain, node: n1, when: afterStable}`},
	// podReplacementPolicy TerminatingOrFailed: a pod terminating on a
	// node that is not Ready is replaced at once, and the index has two
	// pods until the node is back.
	{name: "per-index-node-failure", spec: `
  completions: 4
  parallelism: 2
  backoffLimitPerIndex: 1`, events: `
- {kind: nodeFailure, node: n2, when: afterStable}`},
	// Plain backoffLimit: failures are counted for the Job, not per
	// index, and no index ever fails.
	{name: "backoff-limit-kernel-panic", spec: `
  completions: 4
  parallelism: 2
  backoffLimit: 1`, events: `
- {kind: kernelPanic, when: afterStable}`},
}

// successPolicyVariant names succeeded indexes: its indexes keep their
// values.
var successPolicyVariant = indexedJobVariant{name: "success-policy-indexes", spec: `
  completions: 4
  parallelism: 2
  backoffLimitPerIndex: 1
  successPolicy:
    rules:
    - {succeededIndexes: "0,2"}`, events: `
- {kind: maintenance, parallel: 1, order: any, when: afterStable}`}

// indexedJobProblem builds v's problem with the intents job_completes
// and pod_always_schedulable.
func indexedJobProblem(t testing.TB, v indexedJobVariant) *kivi.Problem {
	t.Helper()
	manifests := `apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  completionMode: ` + map[bool]string{false: "Indexed", true: "NonIndexed"}[v.nonIndexed] + v.spec + `
  template:
    metadata: {labels: {app: batch}}
    spec:
      restartPolicy: Never
      containers: [{name: work, resources: {requests: {cpu: "1", memory: 1Gi}}}]
` + v.extra + "\n"
	count, cpu := 3, 2
	if v.nodes > 0 {
		count, cpu = v.nodes, v.cpu
	}
	nodes := jobNodes(count, cpu)
	intents := "intents:\n- name: job_completes\n  params: {deployment: batch}\n- name: pod_always_schedulable\nevents:" + v.events + "\n"
	c, _, err := kivi.LoadManifests([]kivi.InputFile{{Name: "job.yaml", Data: []byte(manifests)}},
		&kivi.InputFile{Name: "nodes.yaml", Data: []byte(nodes)}, &kivi.InputFile{Name: "intents.yaml", Data: []byte(intents)})
	if err != nil {
		t.Fatal(err)
	}
	c.Name = "indexed-job/" + v.name
	p, err := kivi.NewProblem(c, kivi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runningIndexedJobProblem starts from a running cluster's dump (kivi
// verify --current-placement) in which an Indexed Job of five indexes,
// two at a time, runs its indexes 3 and 4 while 0 to 2 wait below them:
// when one of the running pods fails, its index waits behind index 0, so
// the busy indexes may not come first in any order here.
func runningIndexedJobProblem(t testing.TB) *kivi.Problem {
	t.Helper()
	pod := func(name, index, node string) string {
		return `- apiVersion: v1
  kind: Pod
  metadata:
    name: ` + name + `
    namespace: default
    labels: {app: batch, batch.kubernetes.io/job-completion-index: "` + index + `"}
    ownerReferences: [{apiVersion: batch/v1, kind: Job, name: batch, controller: true}]
  spec:
    nodeName: ` + node + `
    containers: [{name: work, resources: {requests: {cpu: "1", memory: 1Gi}}}]
  status: {phase: Running}
`
	}
	dump := `apiVersion: v1
kind: List
items:
- apiVersion: batch/v1
  kind: Job
  metadata: {name: batch, namespace: default}
  spec:
    completionMode: Indexed
    completions: 5
    parallelism: 2
    backoffLimitPerIndex: 1
    template:
      metadata: {labels: {app: batch}}
      spec:
        restartPolicy: Never
        containers: [{name: work, resources: {requests: {cpu: "1", memory: 1Gi}}}]
  status: {active: 2}
` + pod("batch-3-a", "3", "n1") + pod("batch-4-b", "4", "n2")
	nodes := jobNodes(3, 2)
	intents := "intents:\n- name: job_completes\n  params: {deployment: batch}\nevents:\n- {kind: nodeFailure, node: n1, when: afterStable}\n"
	c, _, err := kivi.LoadClusterDump([]kivi.InputFile{{Name: "dump.yaml", Data: []byte(dump)}},
		&kivi.InputFile{Name: "nodes.yaml", Data: []byte(nodes)}, &kivi.InputFile{Name: "intents.yaml", Data: []byte(intents)})
	if err != nil {
		t.Fatal(err)
	}
	c.Name = "indexed-job/running-dump"
	p, err := kivi.NewProblem(c, kivi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// removalsTogether: a NonIndexed Job whose two pods a maintenance leaves
// Terminating on a node that is not Ready, one that ran and one that did
// not; the node's return removes both in one step, and whether the one
// that ran was killed with exit code 137 (its FailJob rule) must not
// depend on which slot comes first (model/tx.go, Tx.beforeJobPodRemovals).
var removalsTogether = indexedJobVariant{name: "removals-together", nonIndexed: true, nodes: 2, cpu: 2, spec: `
  completions: 2
  parallelism: 3
  backoffLimit: 1
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes: {operator: In, values: [137]}`, events: `
- {kind: maintenance, parallel: 1, order: any, when: afterStable}
- {kind: drain, node: n2, when: afterStable}`}

// jobNodes is a NodeList of count nodes n1, n2, … of cpu CPUs and 8Gi.
func jobNodes(count, cpu int) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: NodeList\nitems:\n")
	for n := 1; n <= count; n++ {
		fmt.Fprintf(&b, "- {apiVersion: v1, kind: Node, metadata: {name: n%d}, status: {allocatable: {cpu: \"%d\", memory: 8Gi}}}\n", n, cpu)
	}
	return b.String()
}

// indexedJobClusters are the variants for the symmetry property tests
// (symmetricClusters).
func indexedJobClusters(t testing.TB) []symCluster {
	var out []symCluster
	for _, v := range append(slices.Clone(indexedJobVariants), successPolicyVariant, removalsTogether) {
		out = append(out, symCluster{"indexed-job/" + v.name, indexedJobProblem(t, v)})
	}
	return append(out, symCluster{"indexed-job/running-dump", runningIndexedJobProblem(t)})
}

// TestSymmetrySameVerdictsWithIndexedJobs: relabelling completion
// indexes keeps every verdict and counterexample length of the full
// search, and merges states; with a successPolicy that names indexes the
// Job keeps them and the decision says so.
func TestSymmetrySameVerdictsWithIndexedJobs(t *testing.T) {
	for _, v := range indexedJobVariants {
		p := indexedJobProblem(t, v)
		on, off := compareVerdicts(t, p)
		t.Logf("%s: %d states reduced, %d full", v.name, on, off)
		if on >= off {
			t.Errorf("%s: symmetry merged nothing (%d states, %d without)", v.name, on, off)
		}
	}
	p := indexedJobProblem(t, successPolicyVariant)
	compareVerdicts(t, p)
	found := false
	for _, d := range p.System.Symmetry.Analysis().Decisions {
		found = found || d.Rule == "SucceededIndexes"
	}
	if !found {
		t.Errorf("%s: no SucceededIndexes decision: %+v", successPolicyVariant.name, p.System.Symmetry.Analysis().Decisions)
	}
}

// permuteIndexes returns s with Job d's completion indexes relabelled by
// label (old index → new), pods and status bytes alike.
func permuteIndexes(u *model.Universe, s *model.State, d int, label []int) *model.State {
	t := s.Clone()
	ds := &t.Deps[d]
	n := u.Configs[ds.Config].Job.Completions
	b := make([]byte, n)
	zero := true
	for k := range n {
		b[label[k]] = model.JobIndex(&s.Deps[d], k)
		zero = zero && b[label[k]] == 0
	}
	ds.JobIndexes = string(b)
	if zero {
		ds.JobIndexes = ""
	}
	for i := range t.Pods {
		if p := &t.Pods[i]; int(p.Owner) == d+1 && p.Ordinal != 0 {
			p.Ordinal = uint8(label[p.Ordinal-1] + 1)
		}
	}
	return t
}

// orderKeepingRelabelling draws a relabelling of Job d's indexes in s
// that keeps the order of the unfinished ones (an index is finished once
// it succeeded or failed and no pod of it is left), the dumb way: a
// random permutation of the labels, the unfinished indexes' labels then
// sorted among themselves.
func orderKeepingRelabelling(r *rand.Rand, s *model.State, d, n int) []int {
	held := make([]bool, n)
	for i := range s.Pods {
		if p := &s.Pods[i]; int(p.Owner) == d+1 && p.Ordinal != 0 {
			held[p.Ordinal-1] = true
		}
	}
	label := r.Perm(n)
	var unfinished, labels []int
	for k := range n {
		st := model.JobIndex(&s.Deps[d], k)
		if held[k] || st != model.IndexSucceeded && st != model.IndexFailed {
			unfinished = append(unfinished, k)
			labels = append(labels, label[k])
		}
	}
	slices.Sort(labels)
	for i, k := range unfinished {
		label[k] = labels[i]
	}
	return label
}

// TestIndexRelabellingIsCanonical: on the reachable states of every
// variant, each relabelling of the indexes that keeps the unfinished
// ones' order has the state's canonical form, and states whose finished
// or unfinished indexes differ in more than that do not (the number of
// canonical forms is the number of classes of the dumb key: the
// unfinished indexes' statuses and pods in order, the finished ones'
// statuses as a multiset, up to the node and pod-slot symmetry).
func TestIndexRelabellingIsCanonical(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 1))
	for _, v := range append(slices.Clone(indexedJobVariants), successPolicyVariant) {
		p := indexedJobProblem(t, v)
		sys := p.System
		c := sys.Symmetry
		relabels := v.name != successPolicyVariant.name
		seen := map[string]bool{}
		var queue []*model.State
		sys.Initial(func(s *model.State) { queue = append(queue, s.Clone()) })
		checked, moved := 0, 0
		for len(queue) > 0 && len(seen) < 3000 {
			s := queue[0]
			queue = queue[1:]
			k := string(c.AppendCanonical(nil, s))
			if seen[k] {
				continue
			}
			seen[k] = true
			n := sys.U.Configs[s.Deps[0].Config].Job.Completions
			for range 4 {
				label := orderKeepingRelabelling(r, s, 0, n)
				x := permuteIndexes(sys.U, s, 0, label)
				same := string(c.AppendCanonical(nil, x)) == k
				if relabels && !same {
					t.Fatalf("%s: a relabelling %v of the indexes that keeps the unfinished ones' order has another canonical form\nstate:\n%s\nrelabelled:\n%s",
						v.name, label, model.Describe(sys.U, s), model.Describe(sys.U, x))
				}
				if !slices.Equal(encode(sys.U, x), encode(sys.U, s)) {
					checked++
					if same {
						moved++
					}
				}
			}
			sys.Next(s, func(_ checker.Step, x *model.State) { queue = append(queue, x.Clone()) })
		}
		t.Logf("%s: %d canonical states, %d relabelled states differ from theirs, %d of them merged", v.name, len(seen), checked, moved)
		if relabels && checked == 0 {
			t.Errorf("%s: no relabelling changed a state: the test compared nothing", v.name)
		}
		if !relabels && moved > 0 {
			t.Errorf("%s: a successPolicy names indexes, yet %d relabelled states share their canonical form", v.name, moved)
		}
	}
}

// TestIndexRelabellingKeepsUnfinishedOrder: two states that differ only
// in which of two unfinished indexes waits with a failure counted have
// different canonical forms (the Job controller recreates the lowest
// pending index first), while the same two states with those indexes
// finished, one succeeded and one failed, have one.
func TestIndexRelabellingKeepsUnfinishedOrder(t *testing.T) {
	p := indexedJobProblem(t, indexedJobVariants[0])
	sys := p.System
	c := sys.Symmetry
	base := sys.Init.Clone()
	n := sys.U.Configs[base.Deps[0].Config].Job.Completions
	status := func(st ...model.JobIndexState) *model.State {
		s := base.Clone()
		for k, v := range st {
			model.SetJobIndex(&s.Deps[0], n, k, v)
		}
		return s
	}
	key := func(s *model.State) string { return string(c.AppendCanonical(nil, s)) }
	if key(status(1, 0)) == key(status(0, 1)) {
		t.Error("index 0 with a failure counted and index 1 with none share a canonical form with the converse: the lowest pending index is recreated first")
	}
	if key(status(model.IndexSucceeded, model.IndexFailed)) != key(status(model.IndexFailed, model.IndexSucceeded)) {
		t.Error("finished indexes 0 and 1 (one succeeded, one failed) have two canonical forms")
	}
	if key(status(model.IndexSucceeded)) != key(status(0, 0, 0, model.IndexSucceeded)) {
		t.Error("index 0 succeeded and index 3 succeeded have two canonical forms")
	}
}

// idleController is a custom controller that never steps and declares
// no symmetry fact.
type idleController struct{}

func (idleController) Name() string                               { return "idle" }
func (idleController) Enabled(*model.Universe, *model.State) bool { return false }
func (idleController) Step(*model.Tx, *model.State)               {}
func (idleController) SymmetryFacts(*model.Universe) []model.SymmetryFact {
	return nil
}

// TestCustomControllerKeepsIndexes: a custom controller may read
// completion indexes by value, so with one the indexes keep their values
// (the node symmetry it declares nothing against stays on).
func TestCustomControllerKeepsIndexes(t *testing.T) {
	plain := indexedJobProblem(t, indexedJobVariants[0])
	p, err := plain.With(compose.Options{Controllers: []model.Process{idleController{}}})
	if err != nil {
		t.Fatal(err)
	}
	c := p.System.Symmetry
	if c == nil || len(c.Analysis().Classes) != 1 {
		t.Fatalf("node symmetry is off with a controller that declares no fact: %+v", c)
	}
	found := false
	for _, d := range c.Analysis().Decisions {
		found = found || d.Rule == "CustomControllerJobIndexes"
	}
	if !found {
		t.Errorf("no CustomControllerJobIndexes decision: %+v", c.Analysis().Decisions)
	}
	s := p.System.Init.Clone()
	n := p.System.U.Configs[s.Deps[0].Config].Job.Completions
	model.SetJobIndex(&s.Deps[0], n, 0, model.IndexSucceeded)
	x := permuteIndexes(p.System.U, s, 0, []int{4, 0, 1, 2, 3})
	if string(c.AppendCanonical(nil, s)) == string(c.AppendCanonical(nil, x)) {
		t.Error("with a custom controller, index 0 and index 4 succeeded share a canonical form")
	}
	if pc := plain.System.Symmetry; string(pc.AppendCanonical(nil, s)) != string(pc.AppendCanonical(nil, x)) {
		t.Error("without one, index 0 and index 4 succeeded have two canonical forms")
	}
}

// indexRelabellings calls f with every relabelling of s's completion
// indexes that keeps the order of each relabelled Job's unfinished
// indexes (the identity included), the dumb way: every permutation of
// the indexes, filtered. Jobs whose indexes keep their values (a
// successPolicy naming succeededIndexes, a custom controller) are left
// alone.
func indexRelabellings(sys *compose.System, s *model.State, f func(*model.State)) {
	custom := false
	for _, d := range sys.Symmetry.Analysis().Decisions {
		custom = custom || d.Rule == "CustomControllerJobIndexes"
	}
	states := []*model.State{s}
	for d := range sys.U.Deployments {
		spec := &sys.U.Configs[s.Deps[d].Config].Job
		if custom || !sys.U.IsJob(d) || !spec.Indexed {
			continue
		}
		byValue := false
		for _, r := range spec.SuccessRules[:spec.SuccessRuleCount] {
			byValue = byValue || r.HasIndexes
		}
		if byValue {
			continue
		}
		n := spec.Completions
		var next []*model.State
		for _, x := range states {
			held := make([]bool, n)
			for i := range x.Pods {
				if p := &x.Pods[i]; int(p.Owner) == d+1 && p.Ordinal != 0 {
					held[p.Ordinal-1] = true
				}
			}
			unfinished := func(k int) bool {
				st := model.JobIndex(&x.Deps[d], k)
				return held[k] || st != model.IndexSucceeded && st != model.IndexFailed
			}
			permutations(n, [][]int{identityPerm(n)}, func(label []int) {
				last := -1
				for k := range n {
					if unfinished(k) {
						if label[k] < last {
							return
						}
						last = label[k]
					}
				}
				next = append(next, permuteIndexes(sys.U, x, d, label))
			})
		}
		states = next
	}
	for _, x := range states {
		f(x)
	}
}

// identityPerm is 0, 1, …, n−1.
func identityPerm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// randomIndexedJob draws an Indexed Job variant: completions, parallelism,
// per-index backoff, maxFailedIndexes, a podFailurePolicy, a quota and an
// event that deletes pods.
func randomIndexedJob(rt *rapid.T) indexedJobVariant {
	completions := rapid.IntRange(2, 5).Draw(rt, "completions")
	parallelism := rapid.IntRange(1, 3).Draw(rt, "parallelism")
	spec := fmt.Sprintf("\n  completions: %d\n  parallelism: %d", completions, parallelism)
	perIndex := rapid.IntRange(-1, 2).Draw(rt, "backoffLimitPerIndex")
	if perIndex >= 0 {
		spec += fmt.Sprintf("\n  backoffLimitPerIndex: %d", perIndex)
		if m := rapid.IntRange(-1, 1).Draw(rt, "maxFailedIndexes"); m >= 0 {
			spec += fmt.Sprintf("\n  maxFailedIndexes: %d", m)
		}
	} else {
		spec += fmt.Sprintf("\n  backoffLimit: %d", rapid.IntRange(0, 2).Draw(rt, "backoffLimit"))
	}
	policies := []string{"", `
  podFailurePolicy:
    rules:
    - action: Ignore
      onPodConditions: [{type: DisruptionTarget}]`, `
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes: {operator: In, values: [137]}`}
	if perIndex >= 0 {
		policies = append(policies, `
  podFailurePolicy:
    rules:
    - action: FailIndex
      onExitCodes: {operator: In, values: [42]}`)
	}
	spec += rapid.SampledFrom(policies).Draw(rt, "podFailurePolicy")
	extra := ""
	if rapid.IntRange(0, 3).Draw(rt, "quota") == 0 {
		extra = fmt.Sprintf("\n---\napiVersion: v1\nkind: ResourceQuota\nmetadata: {name: pods}\nspec: {hard: {pods: \"%d\"}}", rapid.IntRange(1, 3).Draw(rt, "quota pods"))
	}
	kinds := []string{
		"\n- {kind: nodeFailure, node: n1, when: afterStable}",
		"\n- {kind: drain, node: n2, when: afterStable}",
		"\n- {kind: kernelPanic, when: afterStable}",
		"\n- {kind: maintenance, parallel: 1, order: any, when: afterStable}",
		"\n- {kind: nodeFailure, node: n1}",
	}
	events := rapid.SampledFrom(kinds).Draw(rt, "event")
	if rapid.IntRange(0, 2).Draw(rt, "two events") == 0 {
		events += rapid.SampledFrom(kinds[:3]).Draw(rt, "second event")
	}
	nodes := rapid.IntRange(2, 3).Draw(rt, "nodes")
	return indexedJobVariant{name: "random", spec: spec, extra: extra, events: events, nodes: nodes, cpu: rapid.IntRange(1, 2).Draw(rt, "cpu")}
}

// TestIndexedJobSymmetryRandomConfigs: on drawn Indexed Job variants the
// reduced search has the full search's verdicts and shortest invariant
// counterexamples, and on its reachable states a state and its canonical
// form step to the same canonical keys (the engine explores
// representatives, and a counterexample's replay matches those keys).
func TestIndexedJobSymmetryRandomConfigs(t *testing.T) {
	checks := 40
	if testing.Short() {
		checks = 10
	}
	rapid.Check(t, func(rt *rapid.T) {
		v := randomIndexedJob(rt)
		if checks--; checks < 0 {
			// rapid draws 100 variants unless -rapid.checks says
			// otherwise; a few dozen cover the draws.
			return
		}
		p := indexedJobProblem(t, v)
		sys := p.System
		if sys.Symmetry == nil || sys.Symmetry.Trivial() {
			rt.Fatalf("no symmetry for %+v", v)
		}
		compareVerdicts(t, p)
		if s, a, b := stepsApart(sys, 1500); s != nil {
			rt.Fatalf("%+v: a state and its canonical form step to %d and %d orbits\nstate:\n%s\ncanonical form:\n%s",
				v, a, b, model.Describe(sys.U, s), model.Describe(sys.U, sys.Symmetry.Canonical(s)))
		}
	})
}
