// Package kivi verifies Kubernetes controllers and their configurations by
// explicit-state model checking: it composes the cluster model (package
// model), the controllers (controllers/...), the environment events
// (events) and the intents (intents) into a checker.System, runs the
// checker engine on it, and reports per intent whether it holds, is
// violated (with the shortest sequence of steps that breaks it), or could
// not be decided.
package kivi
