// Package symmetry reduces the state space of a cluster model by node and
// pod-slot symmetry: nodes that the model cannot tell apart except by what
// is on them are interchangeable, and so are pod slots, so a state and any
// of its permutations have the same future up to that permutation, and the
// checker needs to store only one representative of each orbit. An
// Indexed Job's completion indexes are relabelled too, keeping the order
// of those not finished (# Completion indexes).
//
// # Classes
//
// [Classes] partitions a Universe's nodes. Two nodes are in one class when
// every static thing the controllers, events and intents read of a node is
// equal: capacities, reservations, pod limits, taints, the labels whose
// keys a step reads (model.NodeLabelKeysRead: topology keys) other than
// the hostname keys (model.HostnameKey, and model.KiviHostnameKey when the
// universe has Kivi's alias: otherwise it is an ordinary label), and each
// template's NodeFit (nodeName, nodeSelector, required and preferred
// affinity, taint tolerations), which settles every other label a step
// reads. The node type is bookkeeping of the inputs and the scaling
// search, read by no step, and labels nothing reads (a cloud's instance
// id) do not tell nodes apart either. Built-in intents read no node
// labels; a Go predicate, monitor or controller, which may, switches node
// symmetry off (compose). Hostname values are each node's own: a
// spread constraint on them gives every node its own domain, and
// permuting nodes permutes those domains, which the scheduler only
// compares by counts and minima. A set of rules (rules.go) singles out
// nodes the model names by identity (a nodeName pin, a nodeFailure target,
// a hostname value shared by two nodes) and switches symmetry off for the
// whole universe where a controller depends on node index order in a way
// that can change what is reachable (the scheduler's LowestIndex tie-break,
// the descheduler's hostname domains ordered by label value id, its
// RemoveDuplicates node walk cut short by a total or namespace limit).
// docs/divergences.md ("Node and pod-slot symmetry reduction") lists every rule and the argument for the
// order dependences that are harmless.
//
// # Topology domains
//
// Zones built alike are interchangeable too, wholesale: when one topology
// key tells nodes apart, domains that hold the same classes but for its
// value are swapped node for node within each class (domains.go).
//
// # Pod slots
//
// Pod slots are permuted too unless a pod rule (podrules.go) fires. Every
// controller choice among pods is a function of the pods' contents, not
// of their slots: the deployment controller's scale-down victims and the
// descheduler's duplicates and topology moves branch over the distinct
// tied pods and take the lowest slots among identical ones
// (controllers/deployment/ties.go, controllers/descheduler/ties.go), new
// pods take the lowest Free slot (all Free slots are identical), queues
// keep their order with ids rewritten, and the remaining slot-order
// walks (CPU patterns and the node controller's evictions under Kivi's
// lifecycle) are harmless with one deployment and fix pod slots
// otherwise. Swapping two identical pods is the identity on a state, so
// for any permutation π the element g of π·Stab(s) that keeps the slot
// order of identical pods maps the successors of s exactly onto those of
// g(s) = π(s), up to the order of one owner's pods in the kubelet queue,
// which the kubelet drains in one step with the same result (a
// bisimulation).
//
// # The kubelet queue
//
// Without taints the kubelet queue is treated as a set up to the order of
// its owners' first appearances (kubeletqueue.go): the kubelet drains it
// in one step and wakes deployments in that owner order, so reordering
// one owner's pods changes no successor. A pod's content key then records
// only that it waits for the kubelet, and the canonical state sorts the
// queue by (owner rank, canonical slot).
//
// # Completion indexes
//
// An Indexed Job's pods carry their index (PodState.Ordinal), so two runs
// in which different indexes finished first reach states that no node or
// pod-slot permutation relates: with 12 indexes run 6 at a time, every
// subset of finished indexes is a state of its own, and the search grows
// with the subsets. Yet the Job controller reads indexes in two ways only:
// by their order, when it creates the lowest pending indexes first
// (firstPendingIndexes) and queues their pods in that order, and by
// their count, when it counts succeeded and failed indexes. An index is finished once it succeeded or failed and no
// pod of it is left: it is never pending again, nothing reads which one it
// was, and its status byte is all there is to it.
//
// So a relabelling of the indexes that keeps the order of the unfinished
// ones (any order for the finished) maps each step of a state to a step
// of the relabelled state: the lowest pending indexes of one are the
// relabelled lowest pending indexes of the other, every pod's event is the
// relabelled pod's, and the counts are the same. Its steps keep the
// unfinished indexes' order for the states they reach, whose unfinished
// indexes are a subset (finished is for good), so the relation is a
// bisimulation. The canonical relabelling gives the unfinished indexes
// 0, 1, … in their order and the finished ones the highest, failed before
// succeeded; the rest of the canonical form (nodes and pod slots) is then
// computed on the relabelled state (jobindexes.go).
//
// A Job whose successPolicy names succeededIndexes reads indexes by value
// and keeps them, as does every Job when a process says it reads them
// (model.SymmetryFact.JobIndexesByValue: a custom controller).
//
// # Canonical states
//
// [Canonicalizer.Canonical] computes a joint canonical form. First every
// pod slot gets a content key (podsignature.go): every PodState field but
// Node and NominatedNode (whether it has one is content), its position in
// the scheduler, kubelet (see above) and taint-manager queues,
// and whether a no-feasible-node failure names it. A pod refers to the
// node it is bound to or, unbound, the node it is nominated to (a
// nominated pod is never bound): "its node" below. Then the movable nodes
// of each class are sorted by a signature of everything a future step can
// read of the node: its status and cordon, its kernel-panic and maintenance memory,
// its position in the node-controller queue, whether a kernel-panic
// failure names it, and the sorted multiset of its pods' content keys
// (with pods fixed: the pods by slot). Finally the pod slots are sorted by
// (content key, new node index), Free slots last, and every reference is
// rewritten: PodState.Node and NominatedNode, the node-controller queue, the per-node event
// memory, the pod ids in the pod queues (order kept) and FailedArg of a
// kernel-panic or no-feasible-node failure. Node signatures do not read
// slots, so the node order does not depend on them; two nodes with equal
// signatures carry equal multisets of pods, so the sorted list of (pod
// content, node) pairs is the same whichever comes first; pods with equal
// keys and nodes are identical (a queue position belongs to one slot), so
// their order changes nothing. The result is the same for every element
// of the group: truly canonical, and it is an element of the state's
// orbit, so it never merges states that differ observably.
//
// The implementation computes this definition faster than it reads
// (podsort.go: keys ranked once, signatures of one-byte ranks, a sort
// that keeps existing runs, the pod order dealt from per-node lists,
// blanktail.go: the trailing Free slots left alone); reference_test.go
// computes it as written and compares every intermediate result.
//
// Maintenance in the written order (model.WrittenOrder) visits nodes in
// index order (its memory keeps the index of the next node). The nodes
// it has not reached yet are therefore pinned in each state: only nodes
// below every such maintenance event's next index move. This group
// depends on the state but is the same for a state and its permutations
// (they share the next index) and only grows along a run (the index
// never decreases), so the relation "s and π(s), π moving only reached
// nodes" is still a bisimulation. A maintenance in any order
// (model.AnyOrder) pins nothing: it chooses among the nodes not
// maintained yet by their program counters alone, which are part of the
// node signatures and move with their nodes, so nodes not maintained yet
// are interchangeable among themselves, and so are nodes done; its
// choice of the next nodes goes through Tx.ChooseNode, one node per
// orbit.
package symmetry
