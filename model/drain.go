package model

import "fmt"

// compileDrain checks drain event i and sizes its memory: the index of
// the next node to start, then per drained node its program counter and
// its count of refused retries, then per drained node and per template of
// DrainArrivals its count of listed pods still to evict
// (events/drain.go).
func compileDrain(u *Universe, i int, e *Event) error {
	if len(e.Nodes) == 0 {
		return fmt.Errorf("events[%d] (%s): no node to drain (accepted: one or more node names): %w", i, e.Kind, ErrInvalid)
	}
	seen := make([]bool, len(u.Nodes))
	for _, n := range e.Nodes {
		if n < 0 || n >= len(u.Nodes) {
			return fmt.Errorf("events[%d] (%s): node %d does not exist: %w", i, e.Kind, n, ErrInvalid)
		}
		if seen[n] {
			return fmt.Errorf("events[%d] (%s): node %s is drained twice (accepted: each node once): %w", i, e.Kind, u.Nodes[n].Name, ErrInvalid)
		}
		seen[n] = true
	}
	if e.Parallel == 0 {
		e.Parallel = 1
	}
	// Its memory counts the nodes started in one byte.
	if len(e.Nodes) > MaxObjects {
		return &SizeError{What: "nodes drained by one event", Need: len(e.Nodes)}
	}
	if e.Parallel < 1 || e.Parallel > len(e.Nodes) {
		return fmt.Errorf("events[%d] (%s): parallel %d (accepted: 1..%d, the nodes drained at once): %w", i, e.Kind, e.Parallel, len(e.Nodes), ErrInvalid)
	}
	if r := e.Drain.TimeoutRetries; r < 0 || r > MaxDrainRetries {
		return fmt.Errorf("events[%d] (%s): timeoutRetries %d (accepted: 0, no timeout, or 1..%d retries): %w", i, e.Kind, r, MaxDrainRetries, ErrInvalid)
	}
	e.VarLen = 1 + 2*len(e.Nodes)
	for k := range e.Nodes {
		e.VarLen += len(DrainArrivals(u, e, k))
	}
	return nil
}

// DrainArrivals lists the templates whose pods can be bound to the k-th
// node of drain event e while it is cordoned: those that tolerate
// node.kubernetes.io/unschedulable, and those pinned to it with nodeName
// (the kubelet admits a pinned pod whatever the cordon). kubectl lists a
// node's pods once, so a pod of such a template that arrives during the
// drain is not the drain's to evict; the drain's memory counts, per node
// and per such template, the listed pods still to evict
// (events/drain.go). Pods of every other template cannot arrive, so the
// pods on the node are the listed ones.
func DrainArrivals(u *Universe, e *Event, k int) []int {
	n := e.Nodes[k]
	var out []int
	for t := range u.Templates {
		if tp := &u.Templates[t]; tp.ToleratesUnschedulable || tp.NodeName == n+1 {
			out = append(out, t)
		}
	}
	return out
}

// compileDrainDecl resolves a drain's nodes and options from its
// declaration.
func compileDrainDecl(ev *Event, e EventDecl, look lookup) error {
	names := e.Nodes
	switch {
	case e.Node != "" && len(names) > 0:
		return fmt.Errorf("node and nodes: give one (accepted: node: NAME, or nodes: [NAME, …]): %w", ErrInvalid)
	case e.Node != "":
		names = []string{e.Node}
	case len(names) == 0:
		return fmt.Errorf("nodes: required (accepted: node: NAME, or nodes: [NAME, …], the nodes drained in order): %w", ErrInvalid)
	}
	for i, name := range names {
		n, err := look.node(name)
		if err != nil {
			return fmt.Errorf("nodes[%d]: %w", i, err)
		}
		ev.Nodes = append(ev.Nodes, n)
	}
	if ev.Parallel == 0 {
		ev.Parallel = 1
	}
	if ev.Parallel < 1 || ev.Parallel > len(ev.Nodes) {
		return fmt.Errorf("parallel %d (accepted: 1..%d, the nodes drained at once): %w", ev.Parallel, len(ev.Nodes), ErrInvalid)
	}
	if e.TimeoutRetries < 0 || e.TimeoutRetries > MaxDrainRetries {
		return fmt.Errorf("timeoutRetries %d (accepted: 0, no timeout, or 1..%d retries of 5 s): %w", e.TimeoutRetries, MaxDrainRetries, ErrInvalid)
	}
	ev.Drain = DrainOptions{TimeoutRetries: e.TimeoutRetries, DisableEviction: e.DisableEviction, Force: e.Force, Uncordon: e.Uncordon}
	return nil
}
