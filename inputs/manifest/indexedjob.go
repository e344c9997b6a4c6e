package manifest

import (
	"fmt"

	"github.com/kivi-go/kivi/model"
)

// The API server's limits on Indexed Jobs (pkg/apis/batch/validation,
// v1.36).
const (
	maxParallelismForIndexedJob             = 100_000
	maxFailedIndexesForIndexedJob           = 100_000
	completionsSoftLimit                    = 100_000
	parallelismLimitForHighCompletions      = 10_000
	maxFailedIndexesLimitForHighCompletions = 10_000
)

// completionModeOf is spec.completionMode with its default.
func completionModeOf(sp *JobSpec) string {
	if sp.CompletionMode == "" {
		return "NonIndexed"
	}
	return sp.CompletionMode
}

// indexedJobDecl converts the fields of an Indexed Job into jd with the
// API server's validation (validateJobSpec): completions required;
// parallelism at most 100 000; backoffLimitPerIndex ≥ 0; maxFailedIndexes
// ≥ 0, with backoffLimitPerIndex, at most completions and 100 000; above
// 100 000 completions with backoffLimitPerIndex, maxFailedIndexes required
// and parallelism and maxFailedIndexes at most 10 000. The model then
// bounds completions (a pod's index is a byte) and backoffLimitPerIndex
// (an index's failures are a byte).
func indexedJobDecl(o Object, sp *JobSpec, jd *model.JobDecl) error {
	a := o.at()
	fail := func(field, format string, args ...any) error {
		return a.errorf(o.path(field), format, args...)
	}
	if sp.Completions == nil {
		return fail("spec.completions", "required with completionMode Indexed (accepted: an integer ≥ 0)")
	}
	completions := int(*sp.Completions)
	if completions > 0 {
		// ValidateJob: the pods' hostname `<job>-<index>` must be a
		// DNS-1123 label.
		if host := fmt.Sprintf("%s-%d", o.Value.(*Job).Metadata.Name, completions-1); len(host) > 63 || !namespaceRE.MatchString(host) {
			return fail("metadata.name", "%q: the pod hostname %q of the last index is not a DNS-1123 label (accepted: a name that with '-' and the index is lower-case letters, digits and '-', at most 63 characters, alphanumeric at both ends)", o.Value.(*Job).Metadata.Name, host)
		}
	}
	if p := sp.Parallelism; p != nil && *p > maxParallelismForIndexedJob {
		return fail("spec.parallelism", "%d with completionMode Indexed (accepted: 0..%d)", *p, maxParallelismForIndexedJob)
	}
	if b := sp.BackoffLimitPerIndex; b != nil && *b < 0 {
		return fail("spec.backoffLimitPerIndex", "%d (accepted: an integer ≥ 0)", *b)
	}
	if m := sp.MaxFailedIndexes; m != nil {
		switch {
		case *m < 0:
			return fail("spec.maxFailedIndexes", "%d (accepted: an integer ≥ 0)", *m)
		case sp.BackoffLimitPerIndex == nil:
			return fail("spec.backoffLimitPerIndex", "required when maxFailedIndexes is specified (accepted: an integer ≥ 0)")
		case int(*m) > completions:
			return fail("spec.maxFailedIndexes", "%d: must be less than or equal to completions (accepted: 0..%d)", *m, completions)
		case *m > maxFailedIndexesForIndexedJob:
			return fail("spec.maxFailedIndexes", "%d (accepted: 0..%d)", *m, maxFailedIndexesForIndexedJob)
		}
	}
	if completions > completionsSoftLimit && sp.BackoffLimitPerIndex != nil {
		switch {
		case sp.MaxFailedIndexes == nil:
			return fail("spec.maxFailedIndexes", "required when completions is above %d with backoffLimitPerIndex (accepted: 0..%d)", completionsSoftLimit, maxFailedIndexesLimitForHighCompletions)
		case sp.Parallelism != nil && *sp.Parallelism > parallelismLimitForHighCompletions:
			return fail("spec.parallelism", "%d with completions above %d and backoffLimitPerIndex (accepted: 0..%d)", *sp.Parallelism, completionsSoftLimit, parallelismLimitForHighCompletions)
		case *sp.MaxFailedIndexes > maxFailedIndexesLimitForHighCompletions:
			return fail("spec.maxFailedIndexes", "%d with completions above %d and backoffLimitPerIndex (accepted: 0..%d)", *sp.MaxFailedIndexes, completionsSoftLimit, maxFailedIndexesLimitForHighCompletions)
		}
	}
	// The model's bounds, once the API server accepts the Job.
	if completions > model.MaxJobIndexes {
		return fail("spec.completions", "%d with completionMode Indexed (accepted: 0..%d in the model: a pod's completion index is a byte)", completions, model.MaxJobIndexes)
	}
	if b := sp.BackoffLimitPerIndex; b != nil && int(*b) > model.MaxBackoffLimitPerIndex {
		return fail("spec.backoffLimitPerIndex", "%d (accepted: 0..%d in the model: an index's failures are a byte)", *b, model.MaxBackoffLimitPerIndex)
	}
	jd.CompletionMode = "Indexed"
	if b := sp.BackoffLimitPerIndex; b != nil {
		v := int(*b)
		jd.BackoffLimitPerIndex = &v
	}
	if m := sp.MaxFailedIndexes; m != nil {
		v := int(*m)
		jd.MaxFailedIndexes = &v
	}
	return nil
}

// cronJobIndexedWarning: a CronJob's runs are modelled as NonIndexed (a
// run slot tells its runs' leftover pods apart only by count,
// model.StartJobRun); jd loses its Indexed fields, and with
// backoffLimitPerIndex its backoffLimit default becomes the largest the
// model counts, as the API server's MaxInt32 default.
func cronJobIndexedWarning(job Object, jd *model.JobDecl) Warning {
	if jd.BackoffLimitPerIndex != nil && jd.BackoffLimit == nil {
		v := model.MaxJobCount
		jd.BackoffLimit = &v
	}
	jd.CompletionMode, jd.BackoffLimitPerIndex, jd.MaxFailedIndexes, jd.SuccessPolicy = "", nil, nil, nil
	return job.at().warning(job.path("spec.completionMode"), "Indexed is modelled as NonIndexed in a CronJob's runs: the pods carry no completion index (the same number of pods and the same completions; backoffLimitPerIndex, maxFailedIndexes and successPolicy are not modelled)")
}
