package kivi_test

import (
	"os"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/model"
)

// jobOutcome is Job batch's status in one reachable state.
type jobOutcome struct {
	cond                model.JobCondition
	succeeded, active   int
	succeededIndexes    []int
	completions, failed int
}

// reachableJobOutcomes explores every state of the input (no reduction)
// and returns the status of its first workload, a Job, in each.
func reachableJobOutcomes(t *testing.T, manifests, nodes, intents string) []jobOutcome {
	t.Helper()
	c, _, err := kivi.LoadManifests([]kivi.InputFile{{Name: "job.yaml", Data: []byte(manifests)}},
		&kivi.InputFile{Name: "nodes.yaml", Data: []byte(nodes)}, &kivi.InputFile{Name: "intents.yaml", Data: []byte(intents)})
	if err != nil {
		t.Fatal(err)
	}
	p, err := kivi.NewProblem(c, kivi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sys := p.System
	var frontier []*model.State
	sys.Initial(func(s *model.State) { frontier = append(frontier, s.Clone()) })
	seen := map[string]bool{}
	var out []jobOutcome
	for len(frontier) > 0 {
		s := frontier[0]
		frontier = frontier[1:]
		if k := string(s.AppendEncoding(sys.U, nil)); seen[k] {
			continue
		} else {
			seen[k] = true
		}
		if len(seen) > 200_000 {
			t.Fatal("more than 200 000 states")
		}
		ds := &s.Deps[0]
		spec := &sys.U.Configs[ds.Config].Job
		o := jobOutcome{cond: ds.JobFinished, completions: spec.Completions, active: model.CountJob(sys.U, s, 0).Active}
		for k := range spec.Completions {
			switch model.JobIndex(ds, k) {
			case model.IndexSucceeded:
				o.succeededIndexes = append(o.succeededIndexes, k)
			case model.IndexFailed:
				o.failed++
			}
		}
		o.succeeded = len(o.succeededIndexes)
		out = append(out, o)
		for _, ts := range sys.StepsByActor(s) {
			frontier = append(frontier, ts...)
		}
	}
	return out
}

// TestJobSuccessPolicyWebsiteExample is the Kubernetes documentation's
// successPolicy example (ten indexes, rule: one of indexes 0, 2 and 3):
// the Job is Complete as soon as one of them succeeded, its other pods
// deleted first, with most indexes never succeeded; it is never Complete
// without one of them; and job_completes holds.
func TestJobSuccessPolicyWebsiteExample(t *testing.T) {
	manifest, err := os.ReadFile("inputs/manifest/testdata/realworld/kubernetes-website/controllers_job-success-policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const intents = "intents:\n- name: job_completes\n  params: {deployment: job-success}\n"
	nodes := strings.ReplaceAll(twoFourCPUNodes, `cpu: "4"`, `cpu: "8"`)
	early, met := 0, 0
	for _, o := range reachableJobOutcomes(t, string(manifest), nodes, intents) {
		if o.cond != model.JobComplete && o.cond != model.JobSuccessCriteriaMet {
			continue
		}
		met++
		if o.active > 0 {
			t.Fatalf("%v with %d active pods: a met success policy deletes them", o.cond, o.active)
		}
		matched := false
		for _, k := range o.succeededIndexes {
			matched = matched || k == 0 || k == 2 || k == 3
		}
		if !matched && o.succeeded < o.completions {
			t.Fatalf("%v with succeeded indexes %v: the rule needs one of 0, 2, 3", o.cond, o.succeededIndexes)
		}
		if o.cond == model.JobComplete && o.succeeded < o.completions {
			early++
		}
	}
	if early == 0 || met == 0 {
		t.Fatalf("no state Complete before every index succeeded (%d with the success criteria met)", met)
	}
	rep := verifyManifests(t, string(manifest), nodes, intents, true)
	if r := rep.Result("job_completes"); r == nil || r.Verdict != checker.Holds {
		t.Fatalf("job_completes: %+v, want holds", r)
	}
}

// TestJobSuccessPolicyAfterFailures: an Indexed Job of three indexes with
// backoffLimitPerIndex 0 and a successPolicy of any two succeeded indexes,
// and a drain that may evict one of its pods (its index then fails). Two
// indexes succeeding first complete it, the third index's pod deleted;
// an index failing first fails it once the other two succeeded, as
// upstream's sync evaluates the failure criteria (FailedIndexes: every
// index succeeded or failed) before the success policy.
func TestJobSuccessPolicyAfterFailures(t *testing.T) {
	const policy = `
  successPolicy:
    rules:
    - succeededCount: 2`
	var completeEarly, failedAfterTwo bool
	for _, o := range reachableJobOutcomes(t, indexedJob(policy), twoFourCPUNodes, drainA) {
		switch {
		case o.cond == model.JobComplete && o.succeeded == 2:
			completeEarly = true
		case o.cond == model.JobFailedIndexes && o.succeeded == 2:
			failedAfterTwo = true
		case o.cond == model.JobComplete && o.failed > 0:
			t.Fatalf("Complete with %d failed indexes and %d succeeded", o.failed, o.succeeded)
		}
	}
	if !completeEarly || !failedAfterTwo {
		t.Fatalf("Complete with two indexes: %v; Failed (FailedIndexes) with two succeeded: %v; want both", completeEarly, failedAfterTwo)
	}
}
