package symmetry

import "slices"

// The taint-manager queue as a set. Under Kubernetes' lifecycle (not
// Kivi's, model.Options.KiviLifecycle) the taint manager takes any item
// of its queue, one branch per item (controllers/nodelifecycle,
// tolerationseconds.go: the evictions it stands for are timed by
// tolerationSeconds and by when the pods were queued, which the model
// does not keep), and every other process only appends an item that is
// absent, removes one, or reads whether the queue is empty. Two states
// that differ only in the order of that queue therefore have the same
// successors up to that order, so a pod's content key records only that
// it is queued (kubeletQueued) and the canonical state sorts the queue
// by pod id.
//
// Under Kivi's lifecycle the taint manager takes the queue's head, and
// the order is kept.

// sortTaintQueue puts q (ids of pods) in canonical order, in place.
func sortTaintQueue(q []uint16) { slices.Sort(q) }

// taintQueueSorted reports whether q is already in canonical order.
func taintQueueSorted(q []uint16) bool { return slices.IsSorted(q) }
