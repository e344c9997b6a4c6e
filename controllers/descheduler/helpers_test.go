package descheduler

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// runCycle runs the first branch of one Step (choice 0 everywhere: the
// lowest slots among tied pods) on a copy of s with tracing and returns
// the new state, the trace lines and the marks.
func runCycle(t *testing.T, u *model.Universe, s *model.State) (*model.State, []string, []model.Mark) {
	t.Helper()
	return runBranch(t, u, s, nil)
}

// branches counts the successors of one Step (ties among distinct pods
// branch, ties.go).
func branches(u *model.Universe, s *model.State) int {
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	n := 1
	for {
		New().Step(tx, s.Clone())
		if !tx.Advance() {
			return n
		}
		tx.Restart(false)
		n++
	}
}

// runBranch is runCycle replaying the given choices.
func runBranch(t *testing.T, u *model.Universe, s *model.State, choices []int) (*model.State, []string, []model.Mark) {
	t.Helper()
	tx := model.NewTx(u)
	tx.Begin(choices, true)
	next := s.Clone()
	New().Step(tx, next)
	lines := make([]string, len(tx.Lines))
	for i, l := range tx.Lines {
		lines[i] = l.String()
	}
	return next, lines, append([]model.Mark(nil), tx.Marks...)
}

// evictedBy lists, as printed pod numbers (slot + 1), the pods that were
// Pending or Running in before and are Terminating in after.
func evictedBy(before, after *model.State) []int {
	var out []int
	for i := range before.Pods {
		if before.Pods[i].Active() && after.Pods[i].Phase == model.Terminating {
			out = append(out, i+1)
		}
	}
	return out
}

// policy wraps profiles into a descheduler policy without limits.
func policy(profiles ...model.DeschedulerProfile) *model.Descheduler {
	return &model.Descheduler{Profiles: profiles}
}

// tscProfile is the upstream default profile of the topology plugin
// (constraints [DoNotSchedule], topologyBalanceNodeFit true) with the
// DefaultEvictor's nodeFit as given.
func tscProfile(nodeFit bool) model.DeschedulerProfile {
	return model.DeschedulerProfile{Name: "tsc",
		Balance:                []model.BalancePlugin{model.RemovePodsViolatingTopologySpreadConstraint},
		Constraints:            model.HardConstraints,
		TopologyBalanceNodeFit: true,
		NodeFit:                nodeFit,
	}
}

func dupProfile(nodeFit bool) model.DeschedulerProfile {
	return model.DeschedulerProfile{Name: "dup", Balance: []model.BalancePlugin{model.RemoveDuplicates}, NodeFit: nodeFit}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// outcomeList is outcomes printed, one "[pods]" per distinct evicted
// set, sorted.
func outcomeList(t *testing.T, u *model.Universe, s *model.State) []string {
	t.Helper()
	var out []string
	for _, o := range outcomes(t, u, s) {
		out = append(out, fmt.Sprint(o))
	}
	slices.Sort(out)
	return out
}
