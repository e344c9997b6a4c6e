package manifest

import (
	"errors"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// successJob is a Job of 5 completions with the spec lines given.
func successJob(spec string) string {
	return `apiVersion: batch/v1
kind: Job
metadata: {name: shard}
spec:
  completions: 5
` + spec + `
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: i}]
`
}

// TestJobSuccessPolicy: an Indexed Job's successPolicy is read into its
// rules (indexes as a set, count or -1), as the API server accepts it.
func TestJobSuccessPolicy(t *testing.T) {
	r := load(t, successJob(`  completionMode: Indexed
  successPolicy:
    rules:
    - {succeededIndexes: "0,2-3", succeededCount: 1}
    - {succeededCount: 4}
    - {succeededIndexes: "4"}`))
	u, _, err := r.Cluster.Build()
	if err != nil {
		t.Fatal(err)
	}
	spec := &u.Configs[0].Job
	want := []model.SuccessPolicyRule{
		{Indexes: [4]uint64{0b1101}, HasIndexes: true, Count: 1},
		{Count: 4},
		{Indexes: [4]uint64{0b10000}, HasIndexes: true, Count: -1},
	}
	if int(spec.SuccessRuleCount) != len(want) {
		t.Fatalf("%d rules, want %d", spec.SuccessRuleCount, len(want))
	}
	for i, w := range want {
		if spec.SuccessRules[i] != w {
			t.Errorf("rule %d: %+v, want %+v", i, spec.SuccessRules[i], w)
		}
	}
	for _, w := range r.Warnings {
		if strings.Contains(w.String(), "successPolicy") {
			t.Errorf("warned: %v", w)
		}
	}
}

// TestJobSuccessPolicyErrors: a successPolicy the API server refuses
// (pkg/apis/batch/validation validateSuccessPolicy) is an input error
// naming the field and what is accepted.
func TestJobSuccessPolicyErrors(t *testing.T) {
	rules := "  completionMode: Indexed\n  successPolicy:\n    rules:\n"
	var many strings.Builder
	for range 21 {
		many.WriteString("    - {succeededCount: 1}\n")
	}
	for _, tc := range []struct{ name, spec, want string }{
		{"NonIndexed", "  successPolicy: {rules: [{succeededCount: 1}]}", "spec.successPolicy: requires completionMode Indexed"},
		{"no rule", "  completionMode: Indexed\n  successPolicy: {rules: []}", "spec.successPolicy.rules: 0 rules (accepted: 1 to 20)"},
		{"21 rules", rules + strings.TrimSuffix(many.String(), "\n"), "spec.successPolicy.rules: 21 rules"},
		{"empty rule", rules + "    - {}", "spec.successPolicy.rules[0]: required: succeededIndexes or succeededCount"},
		{"index beyond completions", rules + `    - {succeededIndexes: "1,5"}`, `spec.successPolicy.rules[0].succeededIndexes: "1,5": index 5 is not below completions`},
		{"decreasing", rules + `    - {succeededCount: 1}` + "\n" + `    - {succeededIndexes: "3,1"}`, `spec.successPolicy.rules[1].succeededIndexes: "3,1": "1" does not come after 3`},
		{"not a range", rules + `    - {succeededIndexes: "2-1"}`, `"2-1" is not a range a-b with a < b`},
		{"count beyond completions", rules + "    - {succeededCount: 6}", "spec.successPolicy.rules[0].succeededCount: 6 (accepted: 0 to completions, 5)"},
		{"count beyond the indexes", rules + `    - {succeededIndexes: "0-1", succeededCount: 3}`, "succeededCount: 3 (accepted: 0 to 2, how many indexes its succeededIndexes names)"},
		{"negative count", rules + "    - {succeededCount: -1}", "succeededCount: -1"},
		{"succeededIndexes too long", rules + `    - {succeededIndexes: "` + strings.Repeat("1", 70000) + `"}`, "succeededIndexes: 70000 characters (accepted: at most 65536)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + successJob(tc.spec))}}, nil, nil, testOptions())
			if err == nil || !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want an input error with %q", err, tc.want)
			}
		})
	}
}

// TestCronJobIndexedSuccessPolicy: a CronJob's Indexed jobTemplate runs
// NonIndexed (warned), and its successPolicy, which needs Indexed, goes
// with the warning instead of failing the input.
func TestCronJobIndexedSuccessPolicy(t *testing.T) {
	r := load(t, `apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: "0 1 * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      completions: 3
      completionMode: Indexed
      successPolicy: {rules: [{succeededCount: 1}]}
      template:
        spec:
          restartPolicy: Never
          containers: [{name: c, image: i}]
`)
	warned := false
	for _, w := range r.Warnings {
		warned = warned || strings.Contains(w.String(), "successPolicy are not modelled")
	}
	if !warned {
		t.Fatalf("warnings %v, want the Indexed one naming successPolicy", r.Warnings)
	}
	if _, _, err := r.Cluster.Build(); err != nil {
		t.Fatal(err)
	}
}
