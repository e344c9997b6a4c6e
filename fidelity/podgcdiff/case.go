package podgcdiff

import (
	"fmt"

	"pgregory.net/rapid"
)

// Phase is a pod's phase as the case gives it.
type Phase uint8

const (
	Pending Phase = iota
	Running
	// Terminating: Running with a deletion timestamp (its kubelet has not
	// confirmed the deletion).
	Terminating
	// Failed: terminal (rejected at admission), no DisruptionTarget.
	Failed
)

func (p Phase) String() string { return [...]string{"Pending", "Running", "Terminating", "Failed"}[p] }

// Pod is one pod: Node is the index of the node it is bound to, -1 for
// none (Pending only).
type Pod struct {
	Node  int
	Phase Phase
}

// Case is the cluster the collector sees.
type Case struct {
	// Deleted[i]: node i's Node object is gone.
	Deleted []bool
	Pods    []Pod
}

// Answer is one pod's fate.
type Answer struct {
	Deleted bool
	// Counted: its deletion counts as a failure of its Job under a rule
	// that ignores DisruptionTarget.
	Counted bool
}

// Window is a case's answers over the deletion window: First, every
// pod's fate right after the deletions (before any collection); Enabled,
// for each node, whether its pods are collected later (the model: its
// collector is enabled; upstream: its pass after the quarantine deletes
// some pod bound to it); Final, every pod's fate once the collections
// are done.
type Window struct {
	First   []Answer
	Enabled []bool
	Final   []Answer
}

func (a Answer) String() string { return fmt.Sprintf("deleted=%v counted=%v", a.Deleted, a.Counted) }

// NodeName and PodName name the case's objects.
func NodeName(i int) string { return fmt.Sprintf("node-%d", i) }
func PodName(i int) string  { return fmt.Sprintf("pod-%d", i) }

// Draw draws a case.
func Draw(t *rapid.T) Case {
	var c Case
	n := rapid.IntRange(1, 4).Draw(t, "nodes")
	for i := range n {
		c.Deleted = append(c.Deleted, rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("node %d deleted", i)) == 0)
	}
	for i := range rapid.IntRange(0, 8).Draw(t, "pods") {
		p := Pod{Phase: Phase(rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("pod %d phase", i)))}
		p.Node = rapid.IntRange(0, n-1).Draw(t, fmt.Sprintf("pod %d node", i))
		if p.Phase == Pending && rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("pod %d unbound", i)) == 0 {
			p.Node = -1
		}
		c.Pods = append(c.Pods, p)
	}
	return c
}
