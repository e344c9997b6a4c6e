package checker

import "errors"

// Sentinel errors returned (wrapped with %w) by Check. A returned error
// always means the engine or the System misbehaved; an inconclusive search is
// reported through Unknown verdicts, never as an error.
var (
	// ErrBadOptions: Options holds a value Check cannot honour.
	ErrBadOptions = errors.New("checker: bad options")
	// ErrInvalidTrace: a counterexample failed replay or validation. It
	// points at a nondeterministic System, an encoding that is not
	// canonical, a Canonicalizer that is not a symmetry, or an engine bug.
	ErrInvalidTrace = errors.New("checker: counterexample failed validation")
	// ErrDecode: the System could not decode an encoding it produced.
	ErrDecode = errors.New("checker: decode failed")
	// ErrTooManySuccessors: a state emitted more successors than a parent
	// record can index (2^24).
	ErrTooManySuccessors = errors.New("checker: too many successors of one state")
	// ErrTooManyInitialStates: Initial emitted more initial states than a
	// parent record can index (2^24).
	ErrTooManyInitialStates = errors.New("checker: too many initial states")
	// ErrNoInitialState: the System emitted no initial state.
	ErrNoInitialState = errors.New("checker: system has no initial state")
)

// ErrSystemContract: a System hook returned something its contract forbids
// (for example an AmpleSetter index out of range).
var ErrSystemContract = errors.New("checker: system broke its contract")
