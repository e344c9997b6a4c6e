package systems

import (
	"fmt"

	"github.com/kivi-go/kivi/checker"
)

// State is the state type of every system here: one byte per model
// variable, in declaration order. It is its own encoding.
type State = []byte

// Model pairs a Go system with its Promela twin.
type Model struct {
	// Name is the Promela file's base name in bench/promela.
	Name string
	// Param is the preprocessor macro that sets the size (spin -D<Param>=n).
	Param string
	// Sizes are the sizes benchmarked by default; Small the ones the
	// state-count equality test runs.
	Sizes, Small []int
	// New builds the Go system of size n.
	New func(n int) checker.System[State]
}

// Models lists every pair, in the order of the benchmark table.
func Models() []Model {
	return []Model{
		{Name: "philosophers", Param: "N", Sizes: []int{10, 12, 15}, Small: []int{3, 5, 10},
			New: func(n int) checker.System[State] { return Philosophers{N: n} }},
		{Name: "filter", Param: "N", Sizes: []int{4, 5, 6}, Small: []int{2, 3, 4},
			New: func(n int) checker.System[State] { return NewFilter(n) }},
		{Name: "spread", Param: "NN", Sizes: []int{3, 4, 6}, Small: []int{3, 4},
			New: func(n int) checker.System[State] { return NewSpread(n) }},
		{Name: "dedup", Param: "NN", Sizes: []int{3, 4, 6}, Small: []int{3, 4},
			New: func(n int) checker.System[State] { return NewDedup(n) }},
	}
}

// Lookup returns the model called name.
func Lookup(name string) (Model, bool) {
	for _, m := range Models() {
		if m.Name == name {
			return m, true
		}
	}
	return Model{}, false
}

// decode copies enc after checking its length: the engine may reuse enc.
func decode(name string, n int, enc []byte) (State, error) {
	if len(enc) != n {
		return nil, fmt.Errorf("%s: encoding of %d bytes, want %d", name, len(enc), n)
	}
	return append(State(nil), enc...), nil
}
