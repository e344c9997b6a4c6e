package scheduler

import "strings"

// Code is the outcome of a filter on one node: the subset of the
// framework's status codes that filters in this model return.
type Code uint8

const (
	// Success: the node passes the filter.
	Success Code = iota
	// Unschedulable: the node fails now but could pass after the cluster
	// changes (preemption or other pods leaving could help).
	Unschedulable
	// UnschedulableAndUnresolvable: the node cannot pass whatever happens to
	// other pods (labels, taints, node name).
	UnschedulableAndUnresolvable
)

func (c Code) String() string {
	switch c {
	case Success:
		return "Success"
	case Unschedulable:
		return "Unschedulable"
	case UnschedulableAndUnresolvable:
		return "UnschedulableAndUnresolvable"
	}
	return "Code(?)"
}

// Status is a filter's verdict on one node. Reason is Kubernetes' reason
// string where the plugin has one, or its reasons joined by reasonSep
// where it has several (NodeResourcesFit's insufficient resources); it is
// a constant where it can be, so that building a Status allocates
// nothing.
type Status struct {
	Code   Code
	Reason string
}

// reasonSep separates the reasons of one Status. A FitError's histogram
// counts each reason (framework.FitError), explain lists them.
const reasonSep = "\x1f"

// splitReasons returns the reasons of a Status's Reason.
func splitReasons(reason string) []string { return strings.Split(reason, reasonSep) }

// joinReasons appends reason r to the reasons a (which may be none).
func joinReasons(a, r string) string {
	if a == "" {
		return r
	}
	return a + reasonSep + r
}

// reject builds a failing Status.
func reject(code Code, reason string) Status { return Status{Code: code, Reason: reason} }
