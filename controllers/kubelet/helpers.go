package kubelet

import "github.com/kivi-go/kivi/model"

// rolloutInProgress reports whether deployment d still has an old
// ReplicaSet with replicas or pods (model.RolloutInProgress).
func rolloutInProgress(s *model.State, d int) bool { return model.RolloutInProgress(s, d) }
