// Package intents defines what users want to hold of their cluster: the
// seven intents of Kivi under their user names, no_oscillation_rejection,
// rollout_completes, job_completes and no_scaling_loop, each with its
// parameters, a
// one-line explanation, and the way it is checked:
//
//   - an assertion raised inside a step (pod_always_schedulable: the
//     scheduler finds no node; no_kernel_panic: a node panics three times);
//   - a monitor, a small automaton that observes every state after every
//     step (a synchronous product: its memory is part of the state, it adds
//     no interleavings) and may fail the state, plus an end condition for
//     "the good thing never happened";
//   - a cycle property: a reachable loop of the cluster on which given
//     actions repeat (no_oscillation_eviction: pods of a deployment are
//     evicted and started again, forever; no_oscillation_rejection: the
//     kubelet rejects them at admission, forever; no_scaling_loop: its
//     spec replicas go up and down, forever).
//
// Package compose turns intents into checker properties. Go users add
// their own intents with NewPredicate (a safety predicate over the state)
// and NewCycle (a loop on which marked actions repeat).
package intents
