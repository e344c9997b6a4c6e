// Package model holds the vocabulary of Kivi for Go: the static Universe of
// one cluster topology (nodes, pod templates, deployments, HPAs, the
// descheduler policy and the environment events, with labels interned to
// small ids) and the compact dynamic State that the checker explores (pod
// slots, node status, deployments and their ReplicaSets, controller queues,
// event and monitor memory).
//
// The package has no behaviour beyond bookkeeping: controllers, events and
// intents (packages controllers/..., events, intents) are pure functions
// over a Universe and a State, driven through a Tx that records their
// nondeterministic choices, trace lines and action marks.
//
// Design choices that shape the state space, each argued where it is made:
//   - Quantities that can be derived from the pod slots (a node's requested
//     and used CPU, a deployment's running, pending and terminating counts,
//     a ReplicaSet's members) are derived, never stored, so they cannot
//     drift the way Kivi's counters do (docs/divergences.md).
//   - There is no logical clock. Kivi's clock only lets periodic
//     controllers and events fire during long busy stretches; the
//     quiescence clauses of their guards are kept (see state.go).
//   - Free pod slots are all-zero, so a slot's history does not split
//     states.
package model
