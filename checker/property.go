package checker

// Invariant is a named safety property: Holds must be true in every
// reachable state. Explain, when set, describes why a state violates it (it
// is called only on violating states).
type Invariant[S any] struct {
	Name    string
	Holds   func(S) bool
	Explain func(S) string
	_       struct{}
}

// EndCondition is a named property of terminal states (states without
// successors): Holds must be true in every reachable terminal state. It is
// how "the system stopped before the good thing happened" is detected, like
// SPIN's invalid end states.
type EndCondition[S any] struct {
	Name    string
	Holds   func(S) bool
	Explain func(S) string
	_       struct{}
}

// Cycle is a named cycle property: it is violated when a reachable cycle of
// the state graph contains, for every bit set in Require, at least one step
// whose Marks has that bit. The counterexample is a lasso: a shortest prefix
// from an initial state to a state on the cycle, then the loop.
type Cycle struct {
	Name    string
	Require uint32
	Explain string
	_       struct{}
}

// Properties groups everything one Check verifies.
type Properties[S any] struct {
	Invariants    []Invariant[S]
	EndConditions []EndCondition[S]
	Cycles        []Cycle
	_             struct{}
}
