// Package compose turns a compiled cluster into one transition system for
// the checker engine and a verification problem: the processes of the
// controllers and events (Actors) gated by Kivi's start-up phases, the
// intent monitors as observers whose memory is part of the state, the
// properties every run checks, and the reductions (reduction/symmetry,
// reduction/por) offered to the engine. Problem.Check runs a verification
// in two phases (a quick pass with Kivi's tie-breaks, then the exhaustive
// search) and turns the engine's result into a report.Report with
// counterexamples in Kubernetes' words.
package compose
