package deployment

import (
	"github.com/kivi-go/kivi/controllers/job"
	"github.com/kivi-go/kivi/controllers/statefulset"
	"github.com/kivi-go/kivi/model"
)

// Component names the deployment controller in trace lines. Its lines
// are about the pods it creates and deletes, the work Kubernetes does in
// the replicaset-controller (the model folds the two controllers into one).
const Component = "replicaset-controller"

// maxSyncsPerDeployment bounds one drain. Every re-queue of a deployment
// within a drain needs a ReplicaSet spec change, and during one rollout
// the new set only grows and the old set only shrinks, so a drain is
// short; exceeding the bound is a model bug, reported as FailInternal.
const maxSyncsPerDeployment = 64

// Controller is the deployment controller process.
type Controller struct{ model.ClusterWide }

// New returns the deployment controller process.
func New() *Controller { return &Controller{} }

// Name is Kivi's process name.
func (*Controller) Name() string { return "Deployment" }

// Enabled: the deployment queue has work. The controller does not wait
// for the kubelet: a pod marked for deletion is no longer active, so its
// ReplicaSet replaces it while the kubelet is still removing it
// (upstream's updatePod enqueues the set as soon as a deletion timestamp
// appears), and the scheduler still counts the Terminating pod's requests.
// Under model.Options.KiviLifecycle it also waits for an empty kubelet
// queue (Kivi's "no failures in transit"), so replacements come after the
// removals. With every pod slot taken and some held by Failed pods it
// waits for the pod garbage collector (podgc.go).
//
// A ReplicaSet whose pod creation a ResourceQuota refused is retried
// once the quota has room (quota.go), as if it were queued.
func (c *Controller) Enabled(u *model.Universe, s *model.State) bool {
	return c.drains(u, s) || len(u.ResourceQuotas) > 0 && len(quotaRetries(nil, u, s)) > 0 && c.mayDrain(u, s)
}

// drains: the deployment queue has work the controller may take now.
func (c *Controller) drains(u *model.Universe, s *model.State) bool {
	return !s.Empty(model.DeploymentQueue) && c.mayDrain(u, s)
}

// mayDrain: nothing the controller waits for (Kivi's kubelet queue, the
// pod garbage collector) holds it back.
func (*Controller) mayDrain(u *model.Universe, s *model.State) bool {
	return (!u.Options.KiviLifecycle || s.Empty(model.KubeletQueue)) && !waitsForCollection(u, s)
}

// Step queues the ReplicaSets a quota now admits and drains the
// deployment queue.
func (c *Controller) Step(tx *model.Tx, s *model.State) {
	for _, d := range quotaRetries(nil, tx.U, s) {
		if tx.Tracing() {
			component := Component
			if tx.U.IsStatefulSet(d) {
				component = statefulset.Component
			} else if tx.U.IsJob(d) {
				component = job.Component
			}
			tx.Log(component, "Retrying %s %s: the quota of its namespace has room for the pod it refused", tx.U.KindWord(d, false), tx.U.Deployments[d].Name)
		}
		s.Enqueue(model.DeploymentQueue, d)
	}
	budget := maxSyncsPerDeployment * (len(s.Deps) + 1)
	for c.drains(tx.U, s) {
		d, _ := s.Dequeue(model.DeploymentQueue)
		if d >= len(s.Deps) {
			s.Fail(model.FailInternal, d)
			return
		}
		if budget == 0 {
			s.Fail(model.FailInternal, d)
			return
		}
		budget--
		sync := syncDeployment
		if tx.U.IsStatefulSet(d) {
			// StatefulSets share the workload queue (controllers/statefulset).
			sync = statefulset.Sync
		} else if tx.U.IsJob(d) {
			// So do Jobs (controllers/job).
			sync = job.Sync
		}
		// The flag says whether this sync's creations were refused.
		s.Deps[d].QuotaRefused = 0
		if requeue := sync(tx, s, d); requeue {
			s.Enqueue(model.DeploymentQueue, d)
		}
	}
}

// syncDeployment is one sync of deployment d. It reports whether d must
// be synced again: Kubernetes re-queues a deployment whenever one of its
// ReplicaSets changes, which matters only while a rollout is unfinished
// (a plain scale would find nothing more to do).
func syncDeployment(tx *model.Tx, s *model.State, d int) (requeue bool) {
	ds := &s.Deps[d]
	if !ds.Active {
		return false
	}
	before, annotations := ds.RS, [3]int16{ds.DesiredReplicas, ds.MaxReplicas[0], ds.MaxReplicas[1]}
	ScaleReplicaSets(tx, s, d)
	// The ReplicaSet controller then brings every set's pods to its spec,
	// the current set first.
	manageReplicas(tx, s, d, int(ds.Cur))
	manageReplicas(tx, s, d, 1-int(ds.Cur))
	// An update of a ReplicaSet's annotations alone is an update too.
	changed := ds.RS != before || annotations != [3]int16{ds.DesiredReplicas, ds.MaxReplicas[0], ds.MaxReplicas[1]}
	return changed && !settled(tx.U, s, d)
}

// ScaleReplicaSets is the deployment controller's part of one sync of
// deployment d (syncDeployment, v1.36): the ReplicaSets it creates and
// the replicas and annotations it writes, without the ReplicaSet
// controller's pod changes. A paused deployment is only scaled
// (syncPaused), a scaling event (isScalingEvent) is handled by scale,
// anything else by the deployment's strategy.
func ScaleReplicaSets(tx *model.Tx, s *model.State, d int) {
	u := tx.U
	ds := &s.Deps[d]
	a := ds.Annotations(u)
	switch {
	case u.IsPaused(s, d):
		syncPaused(tx, s, d, &a)
	case isScalingEvent(ds, &a):
		scale(tx, s, d, &a, findNewReplicaSet(u, ds))
	case u.Configs[ds.Config].Strategy == model.Recreate:
		rolloutRecreate(u, s, d, &a)
	default:
		rolloutRolling(u, s, d, &a)
	}
	if ds.RS[1-ds.Cur].Template == 0 {
		ds.NewRSOlder = false
	}
	ds.SetAnnotations(u, a)
}

// makeCurrent makes slot cur the current ReplicaSet: a set the controller
// just created is the newest, and going back to the other, existing set
// (a rollback) swaps which of the two is the older.
func makeCurrent(ds *model.DeploymentState, cur int, created bool) {
	switch {
	case created:
		ds.NewRSOlder = false
	case cur != int(ds.Cur):
		ds.NewRSOlder = !ds.NewRSOlder
	}
	ds.Cur = uint8(cur)
}

// specReplicas is the deployment's spec.replicas; a negative value (a
// kubectl scale below zero) counts as zero.
func specReplicas(ds *model.DeploymentState) int { return max(0, int(ds.Replicas)) }

// settled: the current set has the deployment's template and its spec
// replicas, and the other set has neither replicas nor pods, so no
// further sync can change a ReplicaSet.
func settled(u *model.Universe, s *model.State, d int) bool {
	ds := &s.Deps[d]
	cur := int(ds.Cur)
	return int(ds.RS[cur].Template) == u.Configs[ds.Config].PodTemplate+1 &&
		int(ds.RS[cur].Replicas) == specReplicas(ds) && !slotInUse(s, d, 1-cur)
}
