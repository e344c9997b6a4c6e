package jobdiff

import (
	"context"
	"maps"
	"math"
	"slices"
	"testing"

	"k8s.io/utils/ptr"
	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// genIndexedCase draws an Indexed Job and its pods:
//   - completions 1..5, parallelism 0..4, suspended in one case of eight;
//   - backoffLimitPerIndex 0..2 in two cases of three (backoffLimit then
//     unset, MaxInt32, in three of four, else 0..3), with
//     maxFailedIndexes 0..completions in one of two; else backoffLimit
//     0..3;
//   - each index completed and gone (one in five), failed and recorded
//     (one in six, with backoffLimitPerIndex), or with one pod (one in
//     two, drawn as genCase draws a pod, its index failure count
//     0..backoffLimitPerIndex), or none;
//   - 1..2 failed pods gone in one case of three, the failures a second
//     old in one case of four;
//   - with backoffLimitPerIndex, in one case of three a podFailurePolicy
//     of 1..3 rules (Count, FailIndex, FailJob or Ignore; on exit codes
//     or on DisruptionTarget), else podReplacementPolicy Failed in one
//     of four;
//   - in three cases of four, no more active pods than the Job wants.
//
// A failed pod already counted (its finalizer gone) whose index's
// failures reach backoffLimitPerIndex has its index failed: the sync
// that counted it recorded it.
func genIndexedCase(t *rapid.T) *Case {
	n := rapid.IntRange(1, 5).Draw(t, "completions")
	c := &Case{
		Indexed:       true,
		Completions:   &n,
		Parallelism:   rapid.IntRange(0, 4).Draw(t, "parallelism"),
		BackoffLimit:  rapid.IntRange(0, 3).Draw(t, "backoffLimit"),
		Suspend:       rapid.IntRange(0, 7).Draw(t, "suspend") == 0,
		RecentFailure: rapid.IntRange(0, 3).Draw(t, "recentFailure") == 0,
	}
	if rapid.IntRange(0, 2).Draw(t, "failedGone") == 0 {
		c.Failed = rapid.IntRange(1, 2).Draw(t, "failed")
	}
	limit := -1
	if rapid.IntRange(0, 2).Draw(t, "perIndex") > 0 {
		limit = rapid.IntRange(0, 2).Draw(t, "backoffLimitPerIndex")
		c.PerIndex = &limit
		if rapid.IntRange(0, 3).Draw(t, "backoffLimitSet") > 0 {
			c.BackoffLimit = math.MaxInt32
		}
		if rapid.Bool().Draw(t, "maxFailedIndexesSet") {
			m := rapid.IntRange(0, n).Draw(t, "maxFailedIndexes")
			c.MaxFailedIndexes = &m
		}
		if rapid.IntRange(0, 2).Draw(t, "policy") == 0 {
			c.HasPolicy = true
			for range rapid.IntRange(1, 3).Draw(t, "rules") {
				r := Rule{Action: rapid.SampledFrom([]string{"Count", "FailIndex", "FailJob", "Ignore"}).Draw(t, "action")}
				if rapid.Bool().Draw(t, "onExitCodes") {
					r.ExitCodes = []int32{rapid.SampledFrom([]int32{1, 42, 137}).Draw(t, "code")}
				} else {
					r.OnDisruptionTarget = true
				}
				c.Policy = append(c.Policy, r)
			}
		}
	}
	if !c.HasPolicy {
		c.ReplaceOnlyFailed = rapid.IntRange(0, 3).Draw(t, "replaceOnlyFailed") == 0
	}
	for k := range n {
		switch rapid.IntRange(0, 59).Draw(t, "index") / 6 {
		case 0, 1:
			c.CompletedIndexes = append(c.CompletedIndexes, k)
			continue
		case 2:
			if c.PerIndex != nil {
				c.FailedIndexes = append(c.FailedIndexes, k)
				continue
			}
		case 3, 4, 5, 6, 7:
		default:
			continue
		}
		p := genPod(t, c, true)
		p.Index = k
		if c.PerIndex != nil {
			if p.Tracking == Uncounted && c.failedPod(p) {
				// Upstream lists a failed pod as uncounted only as it
				// removes its finalizer, which it delays for the one pod
				// of a pending index.
				p.Tracking = New
			}
			p.IndexFailures = rapid.IntRange(0, limit).Draw(t, "indexFailures")
			if p.Tracking == Counted && c.failedPod(p) && p.IndexFailures >= limit {
				c.FailedIndexes = append(c.FailedIndexes, k)
			}
		}
		c.Pods = append(c.Pods, p)
	}
	c.Succeeded = len(c.CompletedIndexes)
	if rapid.IntRange(0, 2).Draw(t, "successPolicy") == 0 {
		c.SuccessRules = genSuccessRules(t, n)
	}
	if rapid.IntRange(0, 3).Draw(t, "surplus") > 0 {
		c = c.withoutSurplus()
	}
	return c
}

// genSuccessRules draws 1..3 successPolicy rules valid for n
// completions: a set of indexes (one to n of them) in two cases of three,
// a count in two of three (at least one of the two; 0..n, at most the
// rule's indexes).
func genSuccessRules(t *rapid.T, n int) []SuccessRule {
	var rules []SuccessRule
	for range rapid.IntRange(1, 3).Draw(t, "successRules") {
		var r SuccessRule
		kind := rapid.IntRange(0, 2).Draw(t, "successRuleKind")
		limit := n
		if kind != 2 {
			r.HasIndexes = true
			for k := range n {
				if rapid.Bool().Draw(t, "ruleIndex") {
					r.Indexes = append(r.Indexes, k)
				}
			}
			if len(r.Indexes) == 0 {
				r.Indexes = []int{rapid.IntRange(0, n-1).Draw(t, "ruleIndex")}
			}
			limit = len(r.Indexes)
		}
		if kind != 0 {
			r.Count = ptr.To(rapid.IntRange(0, limit).Draw(t, "succeededCount"))
		}
		rules = append(rules, r)
	}
	return rules
}

// genPod draws one pod of c (indexed: of an Indexed Job, whose
// succeeded pods are counted by index, never as uncounted UIDs).
func genPod(t *rapid.T, c *Case, indexed bool) Pod {
	var p Pod
	switch rapid.IntRange(0, 6).Draw(t, "phase") {
	case 0:
		p.Phase = Pending
	case 1, 2, 3:
		p.Phase = Running
	case 4:
		p.Phase = Succeeded
	case 5:
		p.Phase = Failed
	default:
		p.Phase, p.Terminating = Phase(rapid.IntRange(0, 3).Draw(t, "terminatingPhase")), true
	}
	if !p.Active() {
		p.Tracking = Tracking(rapid.IntRange(0, 2).Draw(t, "tracking"))
		if indexed && p.Phase == Succeeded && p.Tracking == Uncounted {
			p.Tracking = New
		}
	}
	if p.Phase == Failed {
		p.ExitCode = rapid.SampledFrom([]int32{0, 1, 42, 137}).Draw(t, "exitCode")
	}
	if (p.Phase == Failed || p.Terminating) && p.Phase != Succeeded {
		p.DisruptionTarget = rapid.IntRange(0, 2).Draw(t, "disruptionTarget") == 0
	}
	if c.replaceOnlyFailed() && p.Terminating && p.Phase != Failed && p.Phase != Succeeded || c.HasPolicy && p.Phase == Failed {
		// Upstream counts none of them yet: a terminating pod is not
		// failed until terminal, a failed one's count waits for its
		// match.
		p.Tracking = New
	}
	return p
}

// TestDifferentialIndexed compares the model with the Job controller on
// -cases random Indexed Jobs, as TestDifferential.
func TestDifferentialIndexed(t *testing.T) {
	ctx := context.Background()
	up := newUpstream(t)
	withChecks(t, *cases)
	counts := map[string]int{}
	kinds := map[string][2]int{}
	n, acted, finished := 0, 0, 0
	rapid.Check(t, func(t *rapid.T) {
		c := genIndexedCase(t)
		v, err := Check(ctx, up, c, nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, c)
		}
		if v.Class == Unexplained {
			t.Fatalf("unexplained disagreement\n%smodel:    %s\nupstream: %s", c, v.Model, v.Upstream)
		}
		n++
		counts[v.Class]++
		if v.Upstream.Created+len(v.Upstream.Deleted) > 0 {
			acted++
		}
		if v.Upstream.Finished != model.JobRunning {
			finished++
		}
		for _, k := range c.indexedKinds(v.Upstream) {
			x := kinds[k]
			x[0]++
			if v.Class == Agree {
				x[1]++
			}
			kinds[k] = x
		}
	})
	t.Logf("%d Indexed cases: agree %d; upstream acted in %d, finished the Job in %d", n, counts[Agree], acted, finished)
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		if k != Agree {
			t.Logf("  %s: %d", k, counts[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		t.Logf("  %s: %d cases, %d agree", k, kinds[k][0], kinds[k][1])
	}
}

// indexedKinds names what an Indexed case exercises.
func (c *Case) indexedKinds(up Result) []string {
	var k []string
	if c.PerIndex != nil {
		k = append(k, "backoffLimitPerIndex")
	}
	if c.MaxFailedIndexes != nil {
		k = append(k, "maxFailedIndexes")
	}
	if c.HasPolicy && slices.ContainsFunc(c.Pods, func(p Pod) bool { return c.failedPod(p) && c.action(p) == "FailIndex" }) {
		k = append(k, "a failed pod matching FailIndex")
	}
	if up.FailedIndexes != "" {
		k = append(k, "failed indexes")
	}
	if len(c.SuccessRules) > 0 {
		k = append(k, "successPolicy")
	}
	if up.Finished == model.JobSuccessCriteriaMet || up.Finished == model.JobComplete && len(c.SuccessRules) > 0 {
		k = append(k, "successPolicy met")
	}
	if len(up.Indexes) > 0 {
		k = append(k, "indexes created")
	}
	switch up.Finished {
	case model.JobFailedIndexes, model.JobFailureTargetFailedIndexes:
		k = append(k, "FailedIndexes")
	case model.JobFailedMaxFailedIndexes, model.JobFailureTargetMaxFailedIndexes:
		k = append(k, "MaxFailedIndexesExceeded")
	}
	return k
}
