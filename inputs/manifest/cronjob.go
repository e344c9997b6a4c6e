package manifest

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/kivi-go/kivi/model"
)

// CronJob is batch/v1 CronJob.
type CronJob struct {
	TypeMeta
	Metadata ObjectMeta      `json:"metadata"`
	Spec     CronJobSpec     `json:"spec"`
	Status   json.RawMessage `json:"status"`
}

// CronJobSpec is the part of a CronJob's spec the model reads, and the
// fields it accepts as having no effect on it.
type CronJobSpec struct {
	Schedule                   string          `json:"schedule"`
	TimeZone                   *string         `json:"timeZone"`
	StartingDeadlineSeconds    *int64          `json:"startingDeadlineSeconds"`
	ConcurrencyPolicy          string          `json:"concurrencyPolicy"`
	Suspend                    *bool           `json:"suspend"`
	JobTemplate                JobTemplateSpec `json:"jobTemplate"`
	SuccessfulJobsHistoryLimit *int32          `json:"successfulJobsHistoryLimit"`
	FailedJobsHistoryLimit     *int32          `json:"failedJobsHistoryLimit"`
}

// JobTemplateSpec is a CronJob's spec.jobTemplate.
type JobTemplateSpec struct {
	Metadata ObjectMeta `json:"metadata"`
	Spec     JobSpec    `json:"spec"`
}

// cronJobSpecRules: the CronJob spec fields the thin type leaves out.
var cronJobSpecRules = []fieldRule{}

// cronScheduleSyntax is the schedule syntax accepted, as the API
// server's validation (robfig/cron's standard parser) accepts it.
const cronScheduleSyntax = "5 fields \"minute hour day-of-month month day-of-week\" of numbers, names, *, ?, ranges a-b, lists a,b and steps /n, or @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly, @every DURATION"

// cronJobDecls converts a CronJob into the Job run slots of its
// jobTemplate (model.CronJobDecl): one for concurrencyPolicy Forbid and
// Replace, named after the CronJob; model.MaxCronJobRuns for Allow (the
// API server's default), named <cronjob>-1, <cronjob>-2. The runs share
// one pod template, named after the CronJob. Defaults and validation are
// the API server's (pkg/apis/batch/v1/defaults.go, validation): schedule
// required, concurrencyPolicy Allow, suspend false; the jobTemplate is
// read as a Job.
func cronJobDecls(o Object, name string, nodes nodeLabels, classes *priorityClassTable, limits *limitRangeTable, warns *[]Warning) ([]model.DeploymentDecl, model.TemplateDecl, error) {
	cj := o.Value.(*CronJob)
	a := o.at()
	fail := func(field, format string, args ...any) ([]model.DeploymentDecl, model.TemplateDecl, error) {
		return nil, model.TemplateDecl{}, a.errorf(o.path(field), format, args...)
	}
	if cj.Metadata.Name == "" {
		return fail("metadata.name", "required (accepted: a CronJob name)")
	}
	sp := &cj.Spec
	if err := checkCronSchedule(sp.Schedule); err != "" {
		return fail("spec.schedule", "%s (accepted: %s)", err, cronScheduleSyntax)
	}
	policy, err := model.ParseConcurrencyPolicy(sp.ConcurrencyPolicy)
	if err != nil {
		return fail("spec.concurrencyPolicy", "%q (accepted: Allow, Forbid, Replace)", sp.ConcurrencyPolicy)
	}
	// timeZone has no effect without a clock; its name is checked for
	// form only (the model does not carry the time zone database).
	if tz := sp.TimeZone; tz != nil && (*tz == "" || strings.EqualFold(*tz, "local") || strings.ContainsAny(*tz, " \t")) {
		return fail("spec.timeZone", "%q (accepted: an IANA time zone name such as Etc/UTC or Europe/Berlin)", *tz)
	}
	for _, f := range []struct {
		path string
		v    *int32
	}{{"spec.successfulJobsHistoryLimit", sp.SuccessfulJobsHistoryLimit}, {"spec.failedJobsHistoryLimit", sp.FailedJobsHistoryLimit}} {
		if f.v != nil && *f.v < 0 {
			return fail(f.path, "%d (accepted: an integer ≥ 0)", *f.v)
		}
	}
	if d := sp.StartingDeadlineSeconds; d != nil {
		if *d < 0 {
			return fail("spec.startingDeadlineSeconds", "%d (accepted: an integer ≥ 0)", *d)
		}
		*warns = append(*warns, a.warning(o.path("spec.startingDeadlineSeconds"), "not modelled: the model has no clock, and a firing is never missed"))
	}
	ns := cj.Metadata.Namespace
	job := Object{File: o.File, Doc: o.Doc, Path: o.path("spec.jobTemplate"), Kind: "Job", APIVersion: o.APIVersion,
		Value: &Job{Metadata: ObjectMeta{Name: cj.Metadata.Name, Namespace: ns}, Spec: sp.JobTemplate.Spec}}
	dd, td, err := jobDecl(job, name, nodes, classes, limits, warns)
	if err != nil {
		return nil, td, err
	}
	// A run slot holds successive runs, whose leftover pods the model
	// tells apart only by count (model.StartJobRun): a policy that
	// ignores some failures or defers them to the pods' removal would
	// blur the runs' counts.
	if dd.Job.PodFailurePolicy != nil || dd.Job.PodReplacementPolicy == "Failed" {
		*warns = append(*warns, cronJobPolicyWarning(job))
		dd.Job.PodFailurePolicy, dd.Job.PodReplacementPolicy = nil, ""
	}
	if dd.Job.CompletionMode == "Indexed" {
		*warns = append(*warns, cronJobIndexedWarning(job, dd.Job))
	}
	runs := []string{name}
	if policy == model.AllowConcurrent {
		runs = runs[:0]
		for k := 1; k <= model.MaxCronJobRuns; k++ {
			runs = append(runs, fmt.Sprintf("%s-%d", name, k))
		}
	}
	notCreated := false
	var out []model.DeploymentDecl
	for _, run := range runs {
		d := dd
		d.Name = run
		job := *dd.Job
		d.Job = &job
		d.Created = &notCreated
		d.CronJob = &model.CronJobDecl{Name: name, ConcurrencyPolicy: policy.String(), Suspend: sp.Suspend != nil && *sp.Suspend}
		out = append(out, d)
	}
	return out, td, nil
}

// cronMacros are the schedule descriptors robfig/cron accepts.
var cronMacros = map[string]bool{"@yearly": true, "@annually": true, "@monthly": true, "@weekly": true, "@daily": true, "@midnight": true, "@hourly": true}

// checkCronSchedule checks a schedule's syntax, not its values' ranges
// beyond the characters a field may hold; "" when it is accepted, else
// what is wrong.
func checkCronSchedule(s string) string {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "required"
	case strings.HasPrefix(s, "TZ=") || strings.HasPrefix(s, "CRON_TZ="):
		return fmt.Sprintf("%q: a time zone in the schedule is refused by the API server (use spec.timeZone)", s)
	case cronMacros[s]:
		return ""
	case strings.HasPrefix(s, "@every "):
		if d, err := time.ParseDuration(strings.TrimSpace(strings.TrimPrefix(s, "@every "))); err != nil || d <= 0 {
			return fmt.Sprintf("%q: @every takes a positive duration such as 5m", s)
		}
		return ""
	case strings.HasPrefix(s, "@"):
		return fmt.Sprintf("%q: unknown descriptor", s)
	}
	fields := strings.Fields(s)
	if len(fields) != 5 {
		return fmt.Sprintf("%q: %d fields", s, len(fields))
	}
	for i, f := range fields {
		for _, r := range f {
			ok := r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || strings.ContainsRune("*?,-/", r)
			if !ok {
				return fmt.Sprintf("%q: field %d (%q) holds %q", s, i+1, f, r)
			}
		}
	}
	return ""
}

// cronJobPolicyWarning: a CronJob's runs are Jobs without their
// podFailurePolicy and podReplacementPolicy Failed.
func cronJobPolicyWarning(job Object) Warning {
	return job.at().warning(job.path("spec"), "podFailurePolicy and podReplacementPolicy Failed are not modelled for a CronJob's runs: every failed pod counts against backoffLimit, and a deleted pod is replaced at once (TerminatingOrFailed)")
}
