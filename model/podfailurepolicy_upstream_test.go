package model_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestUpstreamMatchPodFailurePolicy: k8s.io/kubernetes@v1.36.3,
// pkg/controller/job/pod_failure_policy_test.go TestMatchPodFailurePolicy.
// The model has no exit codes (docs/divergences.md, job: "podFailurePolicy:
// exit codes are not modelled"): whether an onExitCodes rule matches a pod
// whose containers ran is the environment's choice, so for those rows
// upstream's action must be one of the model's outcomes; for the rows on
// the DisruptionTarget condition it must be the only one. A row without an
// action (no rule matched) is Count, which counts the failure, as
// upstream's countFailed.
//
// Left out: the rows whose patterns are DisruptionTarget False or Unknown,
// or another condition type ("ignore rule matches by the status=False",
// "... status=Unknown", "ignore rule does not match when status for
// pattern is False, but actual True", "... True, but actual False",
// "default - do not match condition with status=False"): only
// DisruptionTarget True is recorded, other patterns never match (the same
// divergences row); "unknown operator ..." (the model has no operators);
// the two "... JobBackoffLimitPerIndex disabled" rows (feature gates at
// their v1.36 defaults); "successful containers are skipped by the rules"
// (per-container exit codes). The unknown-action rows are in
// TestUpstreamMatchPodFailurePolicyUnknownAction.
func TestUpstreamMatchPodFailurePolicy(t *testing.T) {
	exit := func(a model.PodFailurePolicyAction) model.PodFailurePolicyRule {
		return model.PodFailurePolicyRule{Action: a, OnExitCodes: true}
	}
	disruption := func(a model.PodFailurePolicyAction) model.PodFailurePolicyRule {
		return model.PodFailurePolicyRule{Action: a, OnDisruptionTarget: true}
	}
	other := func(a model.PodFailurePolicyAction) model.PodFailurePolicyRule {
		return model.PodFailurePolicyRule{Action: a} // a condition other than DisruptionTarget True
	}
	const exitFacts, disruptionFacts = model.ContainersRan, model.DisruptionTarget
	for _, tc := range []struct {
		name  string
		rules []model.PodFailurePolicyRule
		facts model.PodFailureFacts
		want  model.PodFailurePolicyAction
		only  bool // the model's one outcome
	}{
		{"no policy rules", nil, exitFacts, model.PodFailureCount, true},
		{"ignore rule matched for exit codes", []model.PodFailurePolicyRule{exit(model.PodFailureIgnore)}, exitFacts, model.PodFailureIgnore, false},
		{"ignore rule matched on negative exit codes - needed for Windows support", []model.PodFailurePolicyRule{exit(model.PodFailureIgnore)}, exitFacts, model.PodFailureIgnore, false},
		{"FailJob rule matched for exit codes", []model.PodFailurePolicyRule{exit(model.PodFailureFailJob)}, exitFacts, model.PodFailureFailJob, false},
		{"FailIndex rule matched for exit codes; JobBackoffLimitPerIndex enabled", []model.PodFailurePolicyRule{exit(model.PodFailureFailIndex)}, exitFacts, model.PodFailureFailIndex, false},
		{"pod failure policy with NotIn operator and value 0", []model.PodFailurePolicyRule{exit(model.PodFailureFailJob)}, exitFacts, model.PodFailureFailJob, false},
		{"second jobfail rule matched for exit codes",
			[]model.PodFailurePolicyRule{exit(model.PodFailureCount), exit(model.PodFailureFailJob)}, exitFacts, model.PodFailureFailJob, false},
		{"count rule matched for exit codes", []model.PodFailurePolicyRule{exit(model.PodFailureCount)}, exitFacts, model.PodFailureCount, false},
		{"FailIndex rule matched for pod conditions; JobBackoffLimitPerIndex enabled",
			[]model.PodFailurePolicyRule{disruption(model.PodFailureFailIndex)}, disruptionFacts, model.PodFailureFailIndex, true},
		{"ignore rule matched for pod conditions", []model.PodFailurePolicyRule{disruption(model.PodFailureIgnore)}, disruptionFacts, model.PodFailureIgnore, true},
		{"job fail rule matched for pod conditions", []model.PodFailurePolicyRule{disruption(model.PodFailureFailJob)}, disruptionFacts, model.PodFailureFailJob, true},
		{"count rule matched for pod conditions", []model.PodFailurePolicyRule{disruption(model.PodFailureCount)}, disruptionFacts, model.PodFailureCount, true},
		// Exit code 32 and no DisruptionTarget condition: Count NotIn [8]
		// matches first; in the model any of the exit-code rules may.
		{"no rule matched",
			[]model.PodFailurePolicyRule{exit(model.PodFailureCount), exit(model.PodFailureIgnore), exit(model.PodFailureFailJob), other(model.PodFailureCount), disruption(model.PodFailureIgnore)},
			exitFacts, model.PodFailureCount, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var spec model.JobSpec
			spec.PodFailureRuleCount = uint8(copy(spec.PodFailureRules[:], tc.rules))
			var actions []model.PodFailurePolicyAction
			for _, o := range spec.PodFailureOutcomes(tc.facts, nil) {
				actions = append(actions, o.Action)
			}
			if !slices.Contains(actions, tc.want) || tc.only && len(actions) != 1 {
				t.Errorf("outcomes %v, want %v (only: %t)", actions, tc.want, tc.only)
			}
		})
	}
}

// TestUpstreamMatchPodFailurePolicyUnknownAction: the rows "unknown
// action for rule matching by exit codes - skip rule with unknown action"
// and "... by pod conditions ..." of k8s.io/kubernetes@v1.36.3,
// pkg/controller/job/pod_failure_policy_test.go TestMatchPodFailurePolicy.
// Upstream's controller skips a rule whose action it does not know; the
// model reads only known actions, so such a rule is refused where it is
// read, and the rows' outcomes are those of their remaining rule (FailJob
// on exit codes, Ignore on DisruptionTarget), covered above.
func TestUpstreamMatchPodFailurePolicyUnknownAction(t *testing.T) {
	for _, action := range []string{"UnknownAction", "UnkonwnAction"} {
		if _, err := model.ParsePodFailurePolicyAction(action); !errors.Is(err, model.ErrInvalid) {
			t.Errorf("ParsePodFailurePolicyAction(%q) = %v, want ErrInvalid", action, err)
		}
	}
}
