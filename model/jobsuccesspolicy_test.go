package model

import "testing"

// TestSuccessPolicyMatch: the first rule the succeeded indexes match, as
// upstream's matchSuccessPolicy and matchSucceededIndexesRule decide it:
// every index of a rule's succeededIndexes, or succeededCount of them; a
// count alone against all succeeded indexes; nothing before some index
// succeeded; a rule whose succeededIndexes are empty never.
func TestSuccessPolicyMatch(t *testing.T) {
	str := func(s string) *string { return &s }
	num := func(n int) *int { return &n }
	for _, tc := range []struct {
		name      string
		rules     []SuccessPolicyRuleDecl
		succeeded []int
		want      int
	}{
		{"nothing succeeded", []SuccessPolicyRuleDecl{{SucceededCount: num(0)}}, nil, -1},
		{"count 0 once one succeeded", []SuccessPolicyRuleDecl{{SucceededCount: num(0)}}, []int{4}, 0},
		{"one of the rule's indexes", []SuccessPolicyRuleDecl{{SucceededIndexes: str("0,2-3"), SucceededCount: num(1)}}, []int{2}, 0},
		{"not one of the rule's indexes", []SuccessPolicyRuleDecl{{SucceededIndexes: str("0,2-3"), SucceededCount: num(1)}}, []int{1, 4}, -1},
		{"all of the indexes, no count", []SuccessPolicyRuleDecl{{SucceededIndexes: str("0-1")}}, []int{0, 1, 5}, 0},
		{"part of the indexes, no count", []SuccessPolicyRuleDecl{{SucceededIndexes: str("0-1")}}, []int{0, 5}, -1},
		{"count alone, short", []SuccessPolicyRuleDecl{{SucceededCount: num(3)}}, []int{0, 7}, -1},
		{"count alone, reached", []SuccessPolicyRuleDecl{{SucceededCount: num(3)}}, []int{0, 6, 7}, 0},
		{"the second rule", []SuccessPolicyRuleDecl{{SucceededIndexes: str("5")}, {SucceededCount: num(2)}}, []int{0, 1}, 1},
		{"the first of two", []SuccessPolicyRuleDecl{{SucceededIndexes: str("0")}, {SucceededCount: num(1)}}, []int{0}, 0},
		{"empty succeededIndexes", []SuccessPolicyRuleDecl{{SucceededIndexes: str(""), SucceededCount: num(0)}}, []int{0, 1, 2}, -1},
		{"an index past the first word", []SuccessPolicyRuleDecl{{SucceededIndexes: str("70,130-131"), SucceededCount: num(2)}}, []int{70, 131}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rules, n, field, err := CompileSuccessPolicy(&SuccessPolicyDecl{Rules: tc.rules}, true, 200)
			if err != nil {
				t.Fatalf("%s: %v", field, err)
			}
			spec := JobSpec{Indexed: true, Completions: 200, SuccessRules: rules, SuccessRuleCount: n}
			var set [4]uint64
			for _, k := range tc.succeeded {
				set[k/64] |= 1 << (k % 64)
			}
			if got := SuccessPolicyMatch(&spec, set); got != tc.want {
				t.Fatalf("rule %d, want %d", got, tc.want)
			}
		})
	}
}

// TestJobStatusSuccessCriteriaMet: a running cluster's Job with the
// interim SuccessCriteriaMet condition of a successPolicy match starts
// with it (its sync deletes its pods and completes it); the same
// condition for completions reached is not kept (its sync finds them
// reached again).
func TestJobStatusSuccessCriteriaMet(t *testing.T) {
	for _, tc := range []struct {
		reason string
		want   JobCondition
	}{{"SuccessPolicy", JobSuccessCriteriaMet}, {"CompletionsReached", JobRunning}} {
		got, err := JobStatusCondition(&JobStatusDecl{Condition: "SuccessCriteriaMet", Reason: tc.reason})
		if err != nil || got != tc.want {
			t.Errorf("reason %s: %v, %v; want %v", tc.reason, got, err, tc.want)
		}
	}
}
