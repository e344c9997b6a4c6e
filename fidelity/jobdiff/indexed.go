package jobdiff

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/kivi-go/kivi/model"
)

// writeIndexed appends an Indexed Case's fields to its description.
func (c *Case) writeIndexed(b *strings.Builder) {
	if !c.Indexed {
		return
	}
	b.WriteString("; Indexed")
	if c.PerIndex != nil {
		fmt.Fprintf(b, " backoffLimitPerIndex %d", *c.PerIndex)
	}
	if c.MaxFailedIndexes != nil {
		fmt.Fprintf(b, " maxFailedIndexes %d", *c.MaxFailedIndexes)
	}
	for _, r := range c.SuccessRules {
		b.WriteString(" successPolicy rule")
		if r.HasIndexes {
			fmt.Fprintf(b, " succeededIndexes %q", intervals(r.Indexes))
		}
		if r.Count != nil {
			fmt.Fprintf(b, " succeededCount %d", *r.Count)
		}
	}
	fmt.Fprintf(b, " completedIndexes %q failedIndexes %q; pod indexes", intervals(c.CompletedIndexes), intervals(c.FailedIndexes))
	for i, p := range c.Pods {
		fmt.Fprintf(b, " %s:%d", podName(i), p.Index)
		if c.PerIndex != nil {
			fmt.Fprintf(b, "(%d failures)", p.IndexFailures)
		}
	}
}

// intervals is upstream's compressed list of indexes ("0,2-4"; two
// consecutive indexes as "1,2"), of a set in any order.
func intervals(ix []int) string {
	ix = slices.Compact(slices.Sorted(slices.Values(ix)))
	var parts []string
	for i := 0; i < len(ix); {
		j := i
		for j+1 < len(ix) && ix[j+1] == ix[j]+1 {
			j++
		}
		switch {
		case j == i:
			parts = append(parts, strconv.Itoa(ix[i]))
		case j == i+1:
			parts = append(parts, strconv.Itoa(ix[i]), strconv.Itoa(ix[j]))
		default:
			parts = append(parts, fmt.Sprintf("%d-%d", ix[i], ix[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// indexedSpec sets the Indexed fields of the model's Job spec.
func (c *Case) indexedSpec(spec *model.JobSpec) {
	spec.MaxFailedIndexes = -1
	if !c.Indexed {
		return
	}
	spec.Indexed = true
	if c.PerIndex != nil {
		spec.PerIndex, spec.BackoffLimitPerIndex = true, *c.PerIndex
	}
	if c.MaxFailedIndexes != nil {
		spec.MaxFailedIndexes = *c.MaxFailedIndexes
	}
	if d := c.successPolicyDecl(); d != nil {
		rules, n, field, err := model.CompileSuccessPolicy(d, true, *c.Completions)
		if err != nil {
			panic(fmt.Sprintf("%s: %v", field, err))
		}
		spec.SuccessRules, spec.SuccessRuleCount = rules, n
	}
}

// successPolicyDecl is the Case's successPolicy as the model's input
// declares it, nil for none.
func (c *Case) successPolicyDecl() *model.SuccessPolicyDecl {
	if len(c.SuccessRules) == 0 {
		return nil
	}
	d := &model.SuccessPolicyDecl{}
	for _, r := range c.SuccessRules {
		var rd model.SuccessPolicyRuleDecl
		if r.HasIndexes {
			rd.SucceededIndexes = ptr.To(intervals(r.Indexes))
		}
		rd.SucceededCount = r.Count
		d.Rules = append(d.Rules, rd)
	}
	return d
}

// indexedState writes the index status of the Case into the model's
// state: the completed indexes and those of the Succeeded pods (counted
// at this sync upstream; the model counted them as they completed), the
// failed indexes, and for each index with a pod, the failures before it
// (the model's count of the index's failed pods that are gone).
func (c *Case) indexedState(u *model.Universe, s *model.State) {
	ds := &s.Deps[0]
	n := *c.Completions
	for _, p := range c.Pods {
		if c.PerIndex != nil && p.Phase != Succeeded && p.IndexFailures > 0 {
			model.SetJobIndex(ds, n, p.Index, model.JobIndexState(p.IndexFailures))
		}
	}
	for _, k := range c.FailedIndexes {
		model.SetJobIndex(ds, n, k, model.IndexFailed)
	}
	succeeded := slices.Clone(c.CompletedIndexes)
	for _, p := range c.Pods {
		if p.Phase == Succeeded {
			succeeded = append(succeeded, p.Index)
		}
	}
	for _, k := range succeeded {
		model.SetJobIndex(ds, n, k, model.IndexSucceeded)
	}
	ds.JobSucceeded = int16(len(slices.Compact(slices.Sorted(slices.Values(succeeded)))))
}

// modelFailedIndexes is status.failedIndexes as the model's sync finds
// it (model.CountIndexes before it acts), "" without
// backoffLimitPerIndex.
func (c *Case) modelFailedIndexes(u *model.Universe, s *model.State) string {
	if !c.Indexed || c.PerIndex == nil {
		return ""
	}
	ic := model.CountIndexes(u, s, 0)
	var failed []int
	for k := range *c.Completions {
		if ic.IsFailed(k) {
			failed = append(failed, k)
		}
	}
	return intervals(failed)
}

// indexedObjects adds an Indexed Case's fields to its Job and pods.
func (c *Case) indexedObjects(j *batchv1.Job, pods []*v1.Pod) {
	if !c.Indexed {
		return
	}
	j.Spec.CompletionMode = ptr.To(batchv1.IndexedCompletion)
	if c.PerIndex != nil {
		j.Spec.BackoffLimitPerIndex = ptr.To(int32(*c.PerIndex))
		j.Status.FailedIndexes = ptr.To(intervals(c.FailedIndexes))
	}
	if c.MaxFailedIndexes != nil {
		j.Spec.MaxFailedIndexes = ptr.To(int32(*c.MaxFailedIndexes))
	}
	if d := c.successPolicyDecl(); d != nil {
		j.Spec.SuccessPolicy = &batchv1.SuccessPolicy{}
		for _, r := range d.Rules {
			rule := batchv1.SuccessPolicyRule{SucceededIndexes: r.SucceededIndexes}
			if r.SucceededCount != nil {
				rule.SucceededCount = ptr.To(int32(*r.SucceededCount))
			}
			j.Spec.SuccessPolicy.Rules = append(j.Spec.SuccessPolicy.Rules, rule)
		}
	}
	completed := slices.Clone(c.CompletedIndexes)
	for i, p := range c.Pods {
		pod := pods[i]
		if pod.Annotations == nil {
			pod.Annotations = map[string]string{}
		}
		pod.Annotations[batchv1.JobCompletionIndexAnnotation] = strconv.Itoa(p.Index)
		pod.Labels[batchv1.JobCompletionIndexAnnotation] = strconv.Itoa(p.Index)
		if c.PerIndex != nil {
			pod.Annotations[batchv1.JobIndexFailureCountAnnotation] = strconv.Itoa(p.IndexFailures)
		}
		if p.Phase == Succeeded && p.Tracking == Counted {
			completed = append(completed, p.Index)
		}
	}
	j.Status.CompletedIndexes = intervals(completed)
}

// createdIndex is the completion index of a pod upstream created, -1 for
// none.
func createdIndex(p *v1.Pod) int {
	ix, err := strconv.Atoi(p.Annotations[batchv1.JobCompletionIndexAnnotation])
	if err != nil {
		return -1
	}
	return ix
}

// indexedCondition maps upstream's conditions of failed indexes.
func indexedCondition(cond batchv1.JobCondition) (model.JobCondition, bool) {
	switch {
	case cond.Type == batchv1.JobFailed && cond.Reason == batchv1.JobReasonFailedIndexes:
		return model.JobFailedIndexes, true
	case cond.Type == batchv1.JobFailed && cond.Reason == batchv1.JobReasonMaxFailedIndexesExceeded:
		return model.JobFailedMaxFailedIndexes, true
	case cond.Type == batchv1.JobFailureTarget && cond.Reason == batchv1.JobReasonFailedIndexes:
		return model.JobFailureTargetFailedIndexes, true
	case cond.Type == batchv1.JobFailureTarget && cond.Reason == batchv1.JobReasonMaxFailedIndexesExceeded:
		return model.JobFailureTargetMaxFailedIndexes, true
	}
	return model.JobRunning, false
}

// delayedPerIndex: upstream keeps the finalizer of the latest failed pod
// of a pending index of a Job with backoffLimitPerIndex
// (getPodsWithDelayedDeletionPerIndex) until the index's replacement
// exists, so the pod is not yet in status.failed; the model counts it at
// once. Those pods, of indexes no active pod has, that the sync finds
// failed and not counted.
func (c *Case) delayedPerIndex() []int {
	if !c.Indexed || c.PerIndex == nil {
		return nil
	}
	busy := map[int]bool{}
	for _, k := range c.CompletedIndexes {
		busy[k] = true
	}
	for _, k := range c.FailedIndexes {
		busy[k] = true
	}
	for _, p := range c.Pods {
		if p.Active() || p.Phase == Succeeded {
			busy[p.Index] = true
		}
	}
	var out []int
	for i, p := range c.Pods {
		a := c.action(p)
		failsIndex := a == "FailIndex" || a != "Ignore" && p.IndexFailures >= *c.PerIndex
		if c.failedPod(p) && p.Tracking != Counted && !busy[p.Index] && !failsIndex {
			out = append(out, i)
		}
	}
	return out
}
