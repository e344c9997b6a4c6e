package deployment

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// A workload whose pod creation a ResourceQuota refused
// (model.QuotaRefusal) records the pod's template
// (DeploymentState.QuotaRefused) and is short of its replicas with nothing
// queued: upstream's ReplicaSet and StatefulSet controllers return the
// creation error and their work queues retry the workload with a backoff
// for as long as that lasts. Retries that the quota refuses again change
// nothing, so the model retries only when the quota would admit the
// refused pod: quotaRetries lists those workloads, and the controller is
// enabled for them as for queued ones. Each sync clears the record first,
// so a retry either creates the pod or records a new refusal.

// quotaRetries appends to dst the workloads, not queued, whose last sync
// had a pod creation refused that every quota of its namespace now
// admits.
func quotaRetries(dst []int, u *model.Universe, s *model.State) []int {
	if len(u.ResourceQuotas) == 0 {
		return dst
	}
	queued := s.Queues[model.DeploymentQueue]
	for d := range s.Deps {
		ds := &s.Deps[d]
		if ds.QuotaRefused == 0 || !ds.Active || slices.Contains(queued, uint16(d)) {
			continue
		}
		if _, refused := u.QuotaRefusal(s, int(ds.QuotaRefused)-1); !refused {
			dst = append(dst, d)
		}
	}
	return dst
}
