// Package toys holds small classic transition systems for testing and
// benchmarking the checker engine: dining philosophers, Peterson's mutex,
// a token ring, independent counters (for partial-order reduction) and a
// wide counter system with a 64-byte state (for throughput benchmarks).
// Each documents its reachable state count and how it is derived.
package toys

import "errors"

// ErrBadEncoding is returned by Decode for bytes no toy produced.
var ErrBadEncoding = errors.New("toys: bad encoding")
