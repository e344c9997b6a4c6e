// Package symmetry reduces the state space of a cluster model by node
// symmetry: nodes that the model cannot tell apart except by what is on
// them are interchangeable, so a state and any of its node permutations
// have the same future up to that permutation, and the checker needs to
// store only one representative of each orbit.
//
// # Classes
//
// [Classes] partitions a Universe's nodes. Two nodes are in one class when
// every static thing the controllers, events and intents read of a node is
// equal: type, capacities, reservations, pod limits, taints, labels other
// than the hostname keys (model.HostnameKey, model.KiviHostnameKey), and
// each template's NodeFit (nodeName, nodeSelector, required and preferred
// affinity, taint tolerations). Hostname values are each node's own: a
// spread constraint on them gives every node its own domain, and
// permuting nodes permutes those domains, which the scheduler only
// compares by counts and minima. A set of rules (rules.go) singles out
// nodes the model names by identity (a nodeName pin, a nodeFailure target,
// a hostname value shared by two nodes) and switches symmetry off for the
// whole universe where a controller depends on node index order in a way
// that can change what is reachable (the scheduler's LowestIndex tie-break,
// the descheduler's hostname domains ordered by label value id, its
// RemoveDuplicates node walk cut short by a total or namespace limit).
// docs/divergences/symmetry.md lists every rule and the argument for the
// order dependences that are harmless.
//
// # Canonical states
//
// [Canonicalizer.Canonical] sorts the movable nodes of each class by a
// signature of everything a future step can read of the node: its status,
// the pods bound to it (slot and every field but Node: pod slots are not
// permuted, see below), its kernel-panic and maintenance memory, its
// position in the node-controller queue, and whether it is the node a
// kernel-panic failure names. It then rewrites every reference to a node:
// PodState.Node, the node-controller queue, the per-node event memory
// blocks and FailedArg of a kernel-panic failure. Two nodes with equal
// signatures carry no pods (a slot is bound to one node) and equal
// memory, so swapping them changes nothing: the result is the same for
// every permutation of a state, i.e. truly canonical.
//
// Maintenance visits nodes in index order (its memory keeps the index of
// the next node). The nodes it has not reached yet are therefore pinned
// in each state: only nodes below every maintenance event's next index
// move. This group depends on the state but is the same for a state and
// its permutations (they share the next index) and only grows along a
// run (the index never decreases), so the relation "s and π(s), π moving
// only reached nodes" is still a bisimulation.
//
// Pod slots are not permuted: queues hold pod slots in an order that
// matters, and the deployment controller, the descheduler and FreeSlot
// break ties by the lowest slot among pods that can differ (bound to
// different nodes, in different phases); a pod permutation would not be a
// symmetry of the transition relation.
package symmetry
