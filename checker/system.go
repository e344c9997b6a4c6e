package checker

// Step identifies one transition out of a state. It is a small value so that
// successor generation allocates nothing for labels; the human-readable text
// of a step is produced only when a counterexample is rendered, by
// re-executing the step through Explainer.
//
// Actor names the process or component that moved (a System-defined index),
// Choice distinguishes the branches one actor can take from the same state,
// and Marks is a bit set of System-defined action kinds that cycle
// properties refer to (for example "a pod was evicted").
//
// From one state, the pair (Actor, Choice) must identify a successor
// uniquely and deterministically: replay relies on it.
type Step struct {
	Actor  uint16
	Choice uint32
	Marks  uint32
}

// Line is one line of a rendered step, shaped like Kivi's trace output:
// "[Component] Message".
type Line struct {
	Component string
	Message   string
}

// System is a transition system over states of type S. Implementations must
// be deterministic and free of side effects: the engine calls them from many
// goroutines at once, on different states.
type System[S any] interface {
	// Initial calls emit once for every initial state.
	Initial(emit func(S))
	// Next calls emit once for every successor of s, in a deterministic
	// order. emit must not retain the state it receives after it returns,
	// and Next must not modify s: the System may reuse the successor value
	// it passed once emit has returned. When a run is cancelled, times
	// out or runs out of memory, emit unwinds Next by panicking with a
	// value of the engine's own, which the engine recovers: Next must let
	// panics it did not raise pass (release what it holds in defers).
	Next(s S, emit func(Step, S))
	// AppendEncoding appends the canonical byte encoding of s to dst. Two
	// states are the same state iff their encodings are equal.
	AppendEncoding(dst []byte, s S) []byte
	// Decode rebuilds a state from its encoding. The engine keeps frontier
	// states as encodings and decodes them when it expands them. The
	// state may alias enc, which can be memory the engine unmaps when
	// Check returns: the System must not keep such a state beyond that.
	Decode(enc []byte) (S, error)
}

// Explainer is an optional interface of a System: it renders the lines a
// step prints when taken from state s. Without it, traces carry only the
// Step values.
type Explainer[S any] interface {
	Explain(s S, step Step) []Line
}

// Canonicalizer is the optional symmetry-reduction hook. Canonical returns a
// representative of the orbit of s under the System's symmetry group: two
// states that are permutations of each other must map to the same
// representative, and the representative must satisfy exactly the same
// properties as s. The engine stores and matches only representatives;
// it explores concrete states (or the representatives, with
// RepresentativeEncoder) and reports concrete states, so traces stay
// replayable in the unreduced system.
type Canonicalizer[S any] interface {
	Canonical(s S) S
}

// Successor is one outgoing transition, as handed to the partial-order
// reduction hook.
type Successor[S any] struct {
	Step  Step
	State S
}

// SymmetricSuccessors is an optional companion of Canonicalizer: when the
// engine stores states up to symmetry it calls NextUpToSymmetry instead of
// Next. It emits the successors of s like Next, but may leave out a
// successor whose canonical form equals that of another successor it
// emits (a choice between interchangeable components). Steps it emits
// must replay and explain like those of Next.
type SymmetricSuccessors[S any] interface {
	NextUpToSymmetry(s S, emit func(Step, S))
}

// CanonicalEncoder is an optional companion of Canonicalizer:
// AppendCanonical appends the encoding of Canonical(s) to dst, and may do
// so without building the canonical state (the engine only needs its
// encoding as the key of s).
type CanonicalEncoder[S any] interface {
	AppendCanonical(dst []byte, s S) []byte
}

// RepresentativeEncoder is an optional companion of Canonicalizer: with
// it the engine explores the representatives themselves instead of the
// concrete states that reached them. AppendRepresentative appends the
// canonical encoding of s (its key, as CanonicalEncoder would) to key and
// an encoding of its representative to enc, which DecodeRepresentative
// turns back into that representative. enc may carry more than key: what
// the canonicalisation learnt about the representative that its
// expansion needs (the System's own business), so that it need not be
// computed again; it must be a function of the key alone.
//
// Every expanded state is then canonical, a successor's canonical form is
// found from a canonical parent, and the frontier holds one encoding per
// orbit whichever predecessor reached it. Traces are still concrete runs:
// the engine replays the representatives' path and, step by step, takes
// the concrete successor whose key is the next representative's. That
// needs every state and its representative to have successors with the
// same keys (not only successors that behave alike): ExploreRepresentatives
// reports whether they do, and the engine explores concrete states when
// it says no.
type RepresentativeEncoder[S any] interface {
	ExploreRepresentatives() bool
	AppendRepresentative(key, enc []byte, s S) ([]byte, []byte)
	DecodeRepresentative(enc []byte) (S, error)
}

// AmpleSetter is the optional partial-order-reduction hook. Given a state
// and all its enabled transitions, Ample returns the indices of an ample
// subset, or nil to expand fully. The System guarantees that the subset is
// independent of every transition outside it and invisible to the
// properties being checked; the engine enforces the cycle proviso (it falls
// back to full expansion when an ample successor closes a cycle or is
// already stored).
type AmpleSetter[S any] interface {
	Ample(s S, succ []Successor[S]) []int
}

// AmpleFilter is an optional companion of AmpleSetter: MayReduce reports,
// cheaply, whether Ample could return a proper subset for s (for example,
// whether two processes are enabled). When it reports false the engine
// expands s directly, without first collecting and copying every
// successor for Ample.
type AmpleFilter[S any] interface {
	MayReduce(s S) bool
}

// Copier is an optional interface of a System: CopyState makes dst a
// copy of src that stays valid after Next reuses src, reusing dst's
// memory (dst is the zero S the first time), and returns it. The engine
// keeps every successor of a state for AmpleSetter; with a Copier it
// copies them into states it reuses from one expansion to the next
// instead of decoding each from its encoding.
type Copier[S any] interface {
	CopyState(dst, src S) S
}

// Releaser is an optional interface of a System: the engine calls Release
// on a state it obtained from Decode once it has expanded it and holds no
// reference to it any more, so that the System can reuse the state's
// memory for the next Decode (the engine decodes one state per
// expansion, so this takes the allocator off the hot path).
type Releaser[S any] interface {
	Release(s S)
}

// WorkerSystem is an optional interface of a System: ForWorker returns
// the System that one of the engine's goroutines uses for its expansions,
// alone. The engine calls it once per worker goroutine and gives every
// call of that goroutine (Next, Decode, Release, Canonical, Ample, ...)
// to the System it returned, so that the System may keep scratch memory
// per goroutine (recycled states, step buffers, caches) without locks or
// pools. The returned System must explore exactly as the original and
// offer the same optional interfaces. Without it the engine calls the one
// System from every goroutine, which must then be safe for that.
type WorkerSystem[S any] interface {
	ForWorker() System[S]
}
