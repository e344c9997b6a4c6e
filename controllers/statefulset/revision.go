package statefulset

import "github.com/kivi-go/kivi/model"

// A StatefulSet's revisions live in its two ReplicaSet slots: RS[Cur] is
// status.updateRevision (the template of its spec), the other slot, while
// its Template is not 0, status.currentRevision. With no other slot the
// current revision is the update revision.

// updateRevision makes the spec's template the update revision
// (getStatefulSetRevisions): the slot that already holds it, or a new
// one. A set that never had a revision uses its current slot. When both
// slots are taken by a current and an older update revision, the older
// update revision's pods join the current revision's slot (they keep their
// own templates): upstream keeps the current revision and rolls every pod
// of any other revision, which is what the model then does (the model's
// limit of two revisions, as a Deployment's).
func updateRevision(s *model.State, d int, cfg *model.DeploymentConfig) {
	ds := &s.Deps[d]
	want := uint8(cfg.PodTemplate + 1)
	cur, other := int(ds.Cur), 1-int(ds.Cur)
	switch {
	case ds.RS[cur].Template == want:
		return
	case ds.RS[cur].Template == 0:
		ds.RS[cur].Template = want
		return
	case ds.RS[other].Template == want:
		// Back to the current revision: it is the update revision again;
		// the pods of the abandoned one are rolled back.
		ds.Cur = uint8(other)
		return
	case ds.RS[other].Template != 0:
		owner := uint8(d + 1)
		for i := range s.Pods {
			if p := &s.Pods[i]; p.Phase != model.Free && p.Owner == owner && int(p.RS) == cur {
				p.RS = uint8(other)
			}
		}
		ds.RS[cur].Template = want
		return
	}
	ds.RS[other].Template = want
	ds.Cur = uint8(other)
}

// completeRollingUpdate makes the update revision current once every
// replica is of it, created, Running and Ready and no other pod exists
// (upstream: updatedReplicas, readyReplicas and replicas all equal to
// spec.replicas). Under OnDelete upstream never advances the current
// revision, which only decides the revision of pods below a RollingUpdate
// partition: the model forgets it once no pod is of it, so that equal
// clusters have equal states.
func completeRollingUpdate(s *model.State, d int, cfg *model.DeploymentConfig) {
	ds := &s.Deps[d]
	cur := ds.Cur
	other := 1 - int(cur)
	if ds.RS[other].Template == 0 {
		return
	}
	owner := uint8(d + 1)
	created, updated, ready, old := 0, 0, 0, false
	for i := range s.Pods {
		p := &s.Pods[i]
		if p.Phase == model.Free || p.Owner != owner {
			continue
		}
		created++
		if p.RS != cur {
			old = true
			continue
		}
		if p.Phase != model.Terminating {
			updated++
		}
		if p.Ready() {
			ready++
		}
	}
	if cfg.Strategy == model.OnDelete {
		if !old {
			ds.RS[other] = model.ReplicaSetState{}
		}
		return
	}
	n := max(0, int(ds.Replicas))
	if !old && created == n && updated == n && ready == n {
		ds.RS[other] = model.ReplicaSetState{}
	}
}
