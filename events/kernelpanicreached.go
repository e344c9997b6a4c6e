package events

import "github.com/kivi-go/kivi/model"

// PanicLimitReached reports whether some node of s has panicked
// panicLimit times (no_kernel_panic), as counted by the kernel-panic
// watchers (with the assertion on: WithKernelPanicAssert). The count stays
// at the limit, so every state after the third panic answers true: a run
// that goes on past the violation (model.Options.ContinueAfterViolation)
// violates no_kernel_panic from that step on, without a failure recorded
// in the state, which stays free for an intent monitor's.
func PanicLimitReached(u *model.Universe, s *model.State) bool {
	for i := range u.Events {
		if u.Events[i].Kind != model.KernelPanic {
			continue
		}
		m := vars(u, s, i)
		for n := 1; n < len(m); n += 2 {
			if m[n] >= panicLimit {
				return true
			}
		}
	}
	return false
}
