// Package reduction is the home of the state-space reductions: node and
// pod-slot symmetry (reduction/symmetry) and partial-order reduction
// (reduction/por). Each is exact for the properties a verification checks,
// and each is checked here against the unreduced exploration of the
// composed cluster model: the same reachable states up to symmetry, the
// same verdicts, counterexamples that replay concretely, and steps whose
// declared footprints cover what they do. The quick pass's tie-breaking
// (a sub-space whose violations are real) is checked here too.
package reduction
