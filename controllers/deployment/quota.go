package deployment

import (
	"slices"

	"github.com/kivi-go/kivi/model"
)

// A ReplicaSet whose pod creation a ResourceQuota refused
// (model.QuotaRefusal) is short of its replicas with nothing queued:
// upstream's ReplicaSet controller returns the creation error and its work
// queue retries the set with a backoff for as long as that lasts. Retries
// that the quota refuses again change nothing, so the model retries only
// when the quota would admit the set's next pod: quotaRetries lists those
// deployments, and the controller is enabled for them as for queued ones.

// quotaRetries appends to dst the deployments, not queued, that have a
// ReplicaSet short of its replicas whose next pod every quota of its
// namespace admits.
func quotaRetries(dst []int, u *model.Universe, s *model.State) []int {
	if len(u.ResourceQuotas) == 0 {
		return dst
	}
	queued := s.Queues[model.DeploymentQueue]
	for d := range s.Deps {
		ds := &s.Deps[d]
		if !ds.Active || slices.Contains(queued, uint16(d)) {
			continue
		}
		for rs := range ds.RS {
			set := &ds.RS[rs]
			if set.Template == 0 || model.RSCounts(s, d, rs).Active() >= int(set.Replicas) {
				continue
			}
			tmpl := int(set.Template) - 1
			if !u.HasQuota(tmpl) {
				continue
			}
			if _, refused := u.QuotaRefusal(s, tmpl); !refused {
				dst = append(dst, d)
				break
			}
		}
	}
	return dst
}
