package deployment

import "github.com/kivi-go/kivi/model"

// waitsForCollection: every pod slot is taken and some are held by Failed
// pods, which the pod garbage collector will free (controllers/podgc).
// The controller then waits for the collector rather than reaching the
// pod-slot bound. No controller and no intent reads a Failed pod, so the
// collection commutes with every other step except the choice of a free
// slot: collecting first reaches the same clusters, while a bound reached
// only because Failed pods were not collected yet would be an artefact of
// the model (the API server has no slot table). Under Kivi's lifecycle no
// pod fails.
func waitsForCollection(u *model.Universe, s *model.State) bool {
	if u.Options.KiviLifecycle {
		return false
	}
	failed := false
	for i := range s.Pods {
		switch s.Pods[i].Phase {
		case model.Free:
			return false
		case model.Failed:
			failed = true
		}
	}
	return failed
}
