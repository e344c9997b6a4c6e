package model

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// An Indexed Job's spec.successPolicy (pkg/controller/job
// success_policy.go, v1.36, JobSuccessPolicy GA): rules over the
// succeeded indexes, tried in order at every sync of a Job that no
// failure criterion has decided. A rule with succeededIndexes matches once
// every index of it succeeded, or succeededCount of them; a rule with
// succeededCount alone once that many indexes succeeded. A match gives the
// Job the interim SuccessCriteriaMet condition (JobSuccessCriteriaMet): its
// active pods are deleted, no more are created, failures no longer count,
// and it is Complete once no pod of it terminates, whatever its other
// indexes did.

// MaxSuccessPolicyRules is the API server's bound on successPolicy.rules,
// maxSucceededIndexesLength its bound on a rule's succeededIndexes.
const (
	MaxSuccessPolicyRules     = 20
	maxSucceededIndexesLength = 64 * 1024
)

// SuccessPolicyRule is one compiled rule; an array element of JobSpec, so
// that configurations compare with ==.
type SuccessPolicyRule struct {
	// Indexes is succeededIndexes as a set (bit k of word k/64: index
	// k); HasIndexes says the rule has succeededIndexes.
	Indexes    [4]uint64
	HasIndexes bool
	// Count is succeededCount, -1 when not set.
	Count int
}

// SuccessPolicyDecl is spec.successPolicy as the input writes it.
type SuccessPolicyDecl struct {
	Rules []SuccessPolicyRuleDecl `json:"rules"`
}

// SuccessPolicyRuleDecl is one of its rules: succeededIndexes as the API
// writes them ("0-2,5"), succeededCount.
type SuccessPolicyRuleDecl struct {
	SucceededIndexes *string `json:"succeededIndexes,omitempty"`
	SucceededCount   *int    `json:"succeededCount,omitempty"`
}

// successPolicyConfig compiles d's successPolicy into cfg
// (CompileSuccessPolicy).
func successPolicyConfig(cfg *JobSpec, d *JobDecl) error {
	rules, n, field, err := CompileSuccessPolicy(d.SuccessPolicy, cfg.Indexed, cfg.Completions)
	if err != nil {
		return fmt.Errorf("%s: %w: %w", field, err, ErrInvalid)
	}
	cfg.SuccessRules, cfg.SuccessRuleCount = rules, n
	return nil
}

// CompileSuccessPolicy compiles a Job's successPolicy (nil: none) and
// validates it as the API server does (pkg/apis/batch/validation
// validateSuccessPolicy): Indexed Jobs only, 1 to 20 rules, each with
// succeededIndexes or succeededCount, indexes in increasing intervals
// below completions, a count between 0 and completions and at most the
// rule's indexes. On an error, field is the offending field under the
// Job's spec ("successPolicy.rules[0].succeededCount") and err says what
// is wrong and what is accepted.
func CompileSuccessPolicy(d *SuccessPolicyDecl, indexed bool, completions int) (rules [MaxSuccessPolicyRules]SuccessPolicyRule, n uint8, field string, err error) {
	if d == nil {
		return rules, 0, "", nil
	}
	if !indexed {
		return rules, 0, "successPolicy", fmt.Errorf("requires completionMode Indexed (accepted: a successPolicy only on an Indexed Job)")
	}
	if len(d.Rules) == 0 || len(d.Rules) > MaxSuccessPolicyRules {
		return rules, 0, "successPolicy.rules", fmt.Errorf("%d rules (accepted: 1 to %d)", len(d.Rules), MaxSuccessPolicyRules)
	}
	for i, r := range d.Rules {
		at := fmt.Sprintf("successPolicy.rules[%d]", i)
		rule := SuccessPolicyRule{Count: -1}
		if r.SucceededIndexes == nil && r.SucceededCount == nil {
			return rules, 0, at, fmt.Errorf("required: succeededIndexes or succeededCount (accepted: either or both)")
		}
		total := 0
		if r.SucceededIndexes != nil {
			if len(*r.SucceededIndexes) > maxSucceededIndexesLength {
				return rules, 0, at + ".succeededIndexes", fmt.Errorf("%d characters (accepted: at most %d)", len(*r.SucceededIndexes), maxSucceededIndexesLength)
			}
			var err error
			if rule.Indexes, total, err = parseIndexIntervals(*r.SucceededIndexes, completions); err != nil {
				return rules, 0, at + ".succeededIndexes", fmt.Errorf("%q: %v (accepted: increasing indexes and ranges below completions %d, such as 0,2-4)",
					*r.SucceededIndexes, err, completions)
			}
			rule.HasIndexes = true
		}
		if c := r.SucceededCount; c != nil {
			switch {
			case *c < 0 || *c > completions:
				return rules, 0, at + ".succeededCount", fmt.Errorf("%d (accepted: 0 to completions, %d)", *c, completions)
			case rule.HasIndexes && *c > total:
				return rules, 0, at + ".succeededCount", fmt.Errorf("%d (accepted: 0 to %d, how many indexes its succeededIndexes names)", *c, total)
			}
			rule.Count = *c
		}
		rules[i] = rule
	}
	return rules, uint8(len(d.Rules)), "", nil
}

// ParseJobIndexes reads an index list in the API server's format
// ("0,2-4": status.completedIndexes, a successPolicy rule's
// succeededIndexes): intervals "x" or "x-y" (x < y) in increasing order,
// every index below completions. The error says what is wrong, without
// the field.
func ParseJobIndexes(s string, completions int) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var out []int
	last := -1
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		x, err := strconv.Atoi(lo)
		if err != nil || x < 0 {
			return nil, fmt.Errorf("%q is not an index", lo)
		}
		y := x
		if isRange {
			if y, err = strconv.Atoi(hi); err != nil || y <= x {
				return nil, fmt.Errorf("%q is not a range a-b with a < b", part)
			}
		}
		switch {
		case y >= completions:
			return nil, fmt.Errorf("index %d is not below completions", y)
		case x <= last:
			return nil, fmt.Errorf("%q does not come after %d", part, last)
		}
		for k := x; k <= y; k++ {
			out = append(out, k)
		}
		last = y
	}
	return out, nil
}

// parseIndexIntervals is ParseJobIndexes as a set (bit k of word k/64:
// index k) and its size.
func parseIndexIntervals(s string, completions int) (set [4]uint64, total int, err error) {
	ks, err := ParseJobIndexes(s, completions)
	for _, k := range ks {
		set[k/64] |= 1 << (k % 64)
	}
	return set, len(ks), err
}

// SuccessPolicyMatch returns the first rule of spec's successPolicy that
// the succeeded indexes (bit k: index k succeeded) match (upstream's
// matchSuccessPolicy), -1 when none does or no index succeeded.
func SuccessPolicyMatch(spec *JobSpec, succeeded [4]uint64) int {
	any := false
	for _, w := range succeeded {
		any = any || w != 0
	}
	if !any {
		return -1
	}
	for i := range int(spec.SuccessRuleCount) {
		r := &spec.SuccessRules[i]
		if r.HasIndexes {
			// matchSucceededIndexesRule: every index of the rule, or
			// succeededCount of them.
			contains, total := 0, 0
			for w := range succeeded {
				contains += bits.OnesCount64(r.Indexes[w] & succeeded[w])
				total += bits.OnesCount64(r.Indexes[w])
			}
			if total > 0 && (contains == total || r.Count >= 0 && contains >= r.Count) {
				return i
			}
			continue
		}
		n := 0
		for _, w := range succeeded {
			n += bits.OnesCount64(w)
		}
		if r.Count >= 0 && n >= r.Count {
			return i
		}
	}
	return -1
}
