// Package kivi verifies Kubernetes controllers and their configurations by
// explicit-state model checking. It is the library's front door:
//
//   - load a cluster: a built-in case or incident (LoadCase), a case file
//     (LoadCaseFile), Kubernetes manifests (LoadManifests), Kivi's
//     configuration or log directory (LoadKiviDir, LoadKiviLogs), or a
//     Cluster built in Go;
//   - Verify it (or Search every small topology up to the confident size,
//     or walk one random run with Problem.Simulate);
//   - read the Report: per intent, whether it holds, is violated (with the
//     shortest sequence of steps that breaks it), or could not be decided
//     (Unknown, with the reason), and write it as text, JSON or an HTML
//     trace explorer.
//
// The packages behind it: model (the cluster's vocabulary and state),
// controllers/... and events (the behaviour), intents, compose (which
// composes them into one system for the engine), checker (the engine),
// reduction/... (symmetry and partial-order reduction), inputs/... (the
// readers), report (results and their rendering) and scaling (the scaling
// search).
package kivi
