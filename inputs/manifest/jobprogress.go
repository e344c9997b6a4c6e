package manifest

import (
	"slices"
	"strconv"
	"strings"

	"github.com/kivi-go/kivi/model"
)

// A running cluster's Job starts from its progress (status), not from
// its spec:
//   - a finished Job (a Complete or Failed condition whose status is
//     "True", a completionTime, or as many succeeded pods as completions)
//     stays a Job of the model, finished: its controller leaves it alone,
//     it has no pod, and job_completes says how it ended;
//   - a running Job's status.succeeded and status.failed (an Indexed
//     Job's completedIndexes and failedIndexes) are its model status
//     (model.JobStatusDecl), and its bound pods that are neither finished
//     nor being deleted run on their nodes, up to the pods it still wants
//     (min(parallelism, completions − succeeded)), so that its first sync
//     creates only what remains;
//   - a suspended Job's pods are left out: its controller deletes them.
//
// The status is checked as the API server checks it (pkg/apis/batch/
// validation validateJobStatus): counts ≥ 0, Complete and Failed not both
// true, index lists in their format and below completions. What the model
// does not keep is warned about, naming the Job and the field.

// JobStatus is the part of a batch/v1 Job's status a running cluster's
// dump is read with.
type JobStatus struct {
	Conditions              []JobStatusCondition     `json:"conditions"`
	CompletionTime          *string                  `json:"completionTime"`
	Active                  *int32                   `json:"active"`
	Succeeded               *int32                   `json:"succeeded"`
	Failed                  *int32                   `json:"failed"`
	Terminating             *int32                   `json:"terminating"`
	Ready                   *int32                   `json:"ready"`
	CompletedIndexes        string                   `json:"completedIndexes"`
	FailedIndexes           *string                  `json:"failedIndexes"`
	UncountedTerminatedPods *UncountedTerminatedPods `json:"uncountedTerminatedPods"`
}

// JobStatusCondition is one status.conditions entry of a Job.
type JobStatusCondition struct {
	Type   string `json:"type"`
	Status string `json:"status"`
	Reason string `json:"reason"`
}

// UncountedTerminatedPods are the finished pods the Job controller has
// not counted in status.succeeded and status.failed yet.
type UncountedTerminatedPods struct {
	Succeeded []string `json:"succeeded"`
	Failed    []string `json:"failed"`
}

// jobCompletionIndex is the label (and annotation) an Indexed Job's pod
// carries its completion index in.
const jobCompletionIndex = "batch.kubernetes.io/job-completion-index"

// jobProgress is a running cluster's Job: its model declaration, what its
// status says and the pods of the dump that are its active ones.
type jobProgress struct {
	o    Object
	key  string // namespace/name
	decl *model.DeploymentDecl
	// finished: Complete or Failed (its pods are gone); want: the active
	// pods its controller keeps (-1: no bound, a work queue Job that had
	// a success keeps those it has).
	finished bool
	want     int
	pods     []jobPod
	// active is status.active; found counts the pods of the dump that
	// are active (bound or not).
	active, found int
}

// jobPod is a bound, active pod of a running Job in the dump.
type jobPod struct {
	o       Object
	node    int
	index   int // an Indexed Job's completion index, else -1
	running bool
}

// readJobProgress reads Job o's status into decl (a Job's declaration) and
// returns its progress.
func (as *assembly) readJobProgress(o Object, decl *model.DeploymentDecl) (*jobProgress, error) {
	j := o.Value.(*Job)
	a := o.at()
	key := deploymentKey(j.Metadata.Namespace, j.Metadata.Name)
	var st JobStatus
	if raw := strings.TrimSpace(string(j.Status)); raw != "" && raw != "null" {
		if _, err := strictDecode(a, o.path("status"), j.Status, &st); err != nil {
			return nil, err
		}
	}
	for _, f := range []struct {
		field string
		v     *int32
	}{{"active", st.Active}, {"succeeded", st.Succeeded}, {"failed", st.Failed}, {"terminating", st.Terminating}, {"ready", st.Ready}} {
		if f.v != nil && *f.v < 0 {
			return nil, a.errorf(o.path("status."+f.field), "%d (accepted: an integer ≥ 0, as the API server validates a Job's status)", *f.v)
		}
	}
	jd := decl.Job
	indexed := jd.CompletionMode == "Indexed"
	out := model.JobStatusDecl{Succeeded: int(deref(st.Succeeded)), Failed: int(deref(st.Failed))}
	cond, err := as.jobCondition(o, st.Conditions)
	if err != nil {
		return nil, err
	}
	out.Condition, out.Reason = cond.Type, cond.Reason
	if !indexed && st.CompletedIndexes != "" {
		return nil, a.errorf(o.path("status.completedIndexes"), "%q for a Job of completionMode %s (accepted: none: the API server refuses completedIndexes for a NonIndexed Job)", st.CompletedIndexes, completionModeOf(&j.Spec))
	}
	if st.FailedIndexes != nil && jd.BackoffLimitPerIndex == nil {
		// A NonIndexed Job has no backoffLimitPerIndex either.
		return nil, a.errorf(o.path("status.failedIndexes"), "%q without spec.backoffLimitPerIndex (accepted: none: the API server refuses failedIndexes then)", *st.FailedIndexes)
	}
	if indexed {
		if out.CompletedIndexes, err = parseJobIndexes(o, "status.completedIndexes", st.CompletedIndexes, *jd.Completions); err != nil {
			return nil, err
		}
		if st.FailedIndexes != nil {
			if out.FailedIndexes, err = parseJobIndexes(o, "status.failedIndexes", *st.FailedIndexes, *jd.Completions); err != nil {
				return nil, err
			}
			for _, k := range out.FailedIndexes {
				if slices.Contains(out.CompletedIndexes, k) {
					return nil, a.errorf(o.path("status.failedIndexes"), "index %d is in completedIndexes too (accepted: an index succeeded or failed, not both)", k)
				}
			}
		}
		if st.Succeeded != nil && int(*st.Succeeded) != len(out.CompletedIndexes) {
			as.warns = append(as.warns, a.warning(o.path("status.succeeded"), "Job %s: %d, but completedIndexes holds %d indexes: an Indexed Job's succeeded count is its completed indexes, read from completedIndexes", key, *st.Succeeded, len(out.CompletedIndexes)))
		}
		out.Succeeded = len(out.CompletedIndexes)
		if jd.BackoffLimitPerIndex != nil && out.Condition == "" {
			as.warns = append(as.warns, a.warning(o.path("spec.backoffLimitPerIndex"), "Job %s: the failures counted per index (its pods' batch.kubernetes.io/job-index-failure-count annotation) are not read: every index not in failedIndexes starts with none counted", key))
		}
	}
	if u := st.UncountedTerminatedPods; u != nil && len(u.Succeeded)+len(u.Failed) > 0 {
		if indexed {
			as.warns = append(as.warns, a.warning(o.path("status.uncountedTerminatedPods"), "Job %s: %d finished pods not counted yet are not read for an Indexed Job (their indexes are not known): their indexes run again", key, len(u.Succeeded)+len(u.Failed)))
		} else {
			// The controller's next sync counts them, as the model reads them now.
			out.Succeeded += len(u.Succeeded)
			out.Failed += len(u.Failed)
		}
	}
	for _, c := range []struct {
		field string
		v     *int
	}{{"status.succeeded", &out.Succeeded}, {"status.failed", &out.Failed}} {
		if *c.v > model.MaxJobCount {
			as.warns = append(as.warns, a.warning(o.path(c.field), "Job %s: %d, read as %d, the model's bound", key, *c.v, model.MaxJobCount))
			*c.v = model.MaxJobCount
		}
	}
	if out.Condition == "" {
		switch {
		case st.CompletionTime != nil:
			// Only a Complete Job has a completionTime.
			out.Condition = "Complete"
		case jd.Completions != nil && out.Succeeded >= *jd.Completions:
			out.Condition = "Complete"
		}
	}
	if !indexed && jd.Completions != nil {
		// Beyond completions a count changes nothing the controller does.
		out.Succeeded = min(out.Succeeded, *jd.Completions)
	}
	mc, err := model.JobStatusCondition(&out)
	if err != nil {
		return nil, a.errorf(o.path("status.conditions"), "%v", err)
	}
	jd.Status = &out
	if !mc.Finished() && !jd.Suspend && out.Failed > 0 {
		as.warns = append(as.warns, a.warning(o.path("status.failed"), "Job %s: %d failed pods: the pod-failure backoff (a replacement waits 10 s, doubled per failure up to 6 min) is not modelled: the pods it lacks are created at once", key, out.Failed))
	}
	jp := &jobProgress{o: o, key: key, decl: decl, finished: mc.Finished(), active: int(deref(st.Active))}
	jp.want = wantActive(decl, out.Succeeded)
	return jp, nil
}

// wantActive is the active pods a Job's controller keeps (manageJob's
// wantActive): none while suspended; with completions, the remaining
// completions up to parallelism; without, parallelism until a pod
// succeeded, then those it has (-1).
func wantActive(decl *model.DeploymentDecl, succeeded int) int {
	jd := decl.Job
	switch {
	case jd.Suspend:
		return 0
	case jd.Completions == nil && succeeded > 0:
		return -1
	case jd.Completions == nil:
		return decl.Replicas
	}
	return max(0, min(decl.Replicas, *jd.Completions-succeeded))
}

// jobCondition is a Job's finished or failing condition whose status is
// "True" (a zero condition: none). Complete and Failed together are
// refused, as the API server refuses them.
func (as *assembly) jobCondition(o Object, conds []JobStatusCondition) (JobStatusCondition, error) {
	var complete, failed, target, met *JobStatusCondition
	for i := range conds {
		c := &conds[i]
		if c.Status != "True" {
			continue
		}
		switch c.Type {
		case "Complete":
			complete = c
		case "Failed":
			failed = c
		case "FailureTarget":
			target = c
		case "SuccessCriteriaMet":
			met = c
		}
	}
	switch {
	case complete != nil && failed != nil:
		return JobStatusCondition{}, o.at().errorf(o.path("status.conditions"), "Complete and Failed are both \"True\" (accepted: at most one: the API server refuses both)")
	case complete != nil:
		return *complete, nil
	case failed != nil:
		return *failed, nil
	case target != nil:
		return *target, nil
	case met != nil:
		return *met, nil
	}
	return JobStatusCondition{}, nil
}

// parseJobIndexes reads an index list of an Indexed Job's status ("1,3-5"),
// in the API server's format: intervals in increasing order, each index
// below completions.
func parseJobIndexes(o Object, field, s string, completions int) ([]int, error) {
	ks, err := model.ParseJobIndexes(s, completions)
	if err != nil {
		return nil, o.at().errorf(o.path(field), "%q: %v (accepted: increasing indexes and ranges below completions %d, such as 0,2-4)", s, err, completions)
	}
	return ks, nil
}

// jobPodIndex is an Indexed Job's pod's completion index: its label, else
// its name's (<job>-<index>-<suffix>); -1 when it has none.
func jobPodIndex(p *Pod, job string) int {
	if v, ok := p.Metadata.Labels[jobCompletionIndex]; ok {
		if k, err := strconv.Atoi(v); err == nil && k >= 0 {
			return k
		}
		return -1
	}
	rest, ok := strings.CutPrefix(p.Metadata.Name, job+"-")
	if !ok {
		return -1
	}
	k, err := strconv.Atoi(strings.SplitN(rest, "-", 2)[0])
	if err != nil || k < 0 {
		return -1
	}
	return k
}

// placeJobPods puts the active pods of running Job jp on their nodes, as
// many as it wants: an Indexed Job's one per pending index below
// completions, lowest first, Running before Pending, then by name. The
// rest are left out (left): its controller deletes them; starting are
// the Pending ones placed.
func (as *assembly) placeJobPods(jp *jobProgress) (left, starting []string) {
	pods := jp.pods
	slices.SortStableFunc(pods, func(a, b jobPod) int {
		if a.index != b.index {
			return a.index - b.index
		}
		if a.running != b.running {
			if a.running {
				return -1
			}
			return 1
		}
		return strings.Compare(a.o.Value.(*Pod).Metadata.Name, b.o.Value.(*Pod).Metadata.Name)
	})
	name := jp.decl.Name
	st := jp.decl.Job.Status
	placed := 0
	for i, p := range pods {
		pod := p.o.Value.(*Pod)
		key := deploymentKey(pod.Metadata.Namespace, pod.Metadata.Name)
		keep := jp.want < 0 || placed < jp.want
		if p.index >= 0 || jp.decl.Job.CompletionMode == "Indexed" {
			k := p.index
			keep = keep && k >= 0 && k < *jp.decl.Job.Completions && (i == 0 || pods[i-1].index != k) &&
				!slices.Contains(st.CompletedIndexes, k) && !slices.Contains(st.FailedIndexes, k)
		}
		if !keep {
			left = append(left, key)
			continue
		}
		ip := model.InitialPod{Deployment: name, Name: pod.Metadata.Name}
		if jp.decl.Job.CompletionMode == "Indexed" {
			k := p.index
			ip.Ordinal = &k
		}
		n := &as.nodeIns[p.node]
		n.pods = append(n.pods, ip)
		placed++
		if !p.running {
			starting = append(starting, key)
		}
	}
	return left, starting
}

// jobOwner is the namespace/name of pod p's controlling Job ("" for none).
func jobOwner(p *Pod) string {
	if r := controllerRef(p); r != nil && r.Kind == "Job" {
		return deploymentKey(p.Metadata.Namespace, r.Name)
	}
	return ""
}
