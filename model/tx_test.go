package model

import (
	"slices"
	"testing"
)

// TestRecall: what a run remembered is recalled only at the same point of
// a later run of the same step after the same choices, never after Begin.
func TestRecall(t *testing.T) {
	tx := NewTx(nil)
	if _, ok := tx.Recall(); ok {
		t.Fatal("a new Tx recalls something")
	}

	// Two points before any choice: same choice position and choices,
	// but the second point is another question.
	tx.Begin(nil, false)
	if _, ok := tx.Recall(); ok {
		t.Fatal("first point of a first run recalls something")
	}
	tx.Remember([]int{1})
	if xs, ok := tx.Recall(); ok {
		t.Errorf("second point recalled the first point's %v", xs)
	}

	// A point after a choice of 2: the run that chose 1 must not recall
	// what the run that chose 0 remembered.
	tx.Begin(nil, false)
	var recalled []bool
	for {
		c := tx.Choose(2)
		_, ok := tx.Recall()
		recalled = append(recalled, ok)
		if !ok {
			tx.Remember([]int{c})
		}
		if !tx.Advance() {
			break
		}
		tx.Restart(false)
	}
	if want := []bool{false, false}; !slices.Equal(recalled, want) {
		t.Errorf("recalled %v after different choices, want %v", recalled, want)
	}

	// A point before a choice of 4: every re-run recalls the first run's
	// result; Begin forgets it.
	tx.Begin(nil, false)
	recalled = recalled[:0]
	for {
		xs, ok := tx.Recall()
		recalled = append(recalled, ok)
		if ok && !slices.Equal(xs, []int{7}) {
			t.Errorf("recalled %v, want [7]", xs)
		}
		if !ok {
			tx.Remember([]int{7})
		}
		tx.Choose(4)
		if !tx.Advance() {
			break
		}
		tx.Restart(false)
	}
	if want := []bool{false, true, true, true}; !slices.Equal(recalled, want) {
		t.Errorf("recalled %v over the runs of one step, want %v", recalled, want)
	}
	tx.Begin(nil, false)
	if _, ok := tx.Recall(); ok {
		t.Error("Begin kept the last step's result")
	}
}
