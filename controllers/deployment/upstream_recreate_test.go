package deployment

import (
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestUpstreamScaleDownOldReplicaSets: k8s.io/kubernetes@v1.36.3,
// pkg/controller/deployment/recreate_test.go TestScaleDownOldReplicaSets:
// a Recreate deployment of 3 replicas scales its old set of 3 to 0.
func TestUpstreamScaleDownOldReplicaSets(t *testing.T) {
	u, s, d := rolloutFixture(t, model.Recreate, absolute(0), absolute(0), 3)
	u.Templates = append(u.Templates, model.PodTemplate{Name: "web-v2", CPU: 1, Memory: 1, Labels: map[string]string{}})
	u.Configs[0].PodTemplate = 1
	ds := &s.Deps[d]
	ds.RS[0] = model.ReplicaSetState{Template: 1, Replicas: 3} // template 0, the old one
	ds.SetAnnotations(u, model.ReplicasAnnotations{Desired: 3, Max: [2]int{3, 3}})
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	ScaleReplicaSets(tx, s, d)
	if got := ds.RS[0].Replicas; got != 0 {
		t.Errorf("old set replicas %d, want 0", got)
	}
}

// TestUpstreamOldPodsRunning: k8s.io/kubernetes@v1.36.3,
// pkg/controller/deployment/recreate_test.go TestOldPodsRunning. The old
// sets are the deployment's slot 1 (and, for the row with two sets, the
// merged older revisions in it); each pod is given by its phase.
//
// Left out: "old RSs without pods but with non-zero status replicas"
// (the model's ReplicaSet status is its pods at every step, so a status
// counting pods that are gone does not arise: docs/divergences.md,
// "ReplicaSet status without lag"); "... pod in unknown phase present"
// (the model has no Unknown phase, a deprecated phase no v1.36
// component sets). A Deployment's pod never succeeds, so
// the terminal pods of the rows are Failed ones.
func TestUpstreamOldPodsRunning(t *testing.T) {
	for _, tc := range []struct {
		name string
		old  []model.Phase // pods of the old set
		want bool
	}{
		{"no old RSs", nil, false},
		{"old RSs with running pods", []model.Phase{model.Running, model.Running}, true},
		{"old RSs without pods or non-zero status replicas", nil, false},
		{"old RSs with zero status replicas but pods in terminal state are present", []model.Phase{model.Failed, model.Failed}, false},
		{"old RSs with zero status replicas with pending pod present", []model.Phase{model.Pending}, true},
		{"old RSs with zero status replicas with running pod present", []model.Phase{model.Running}, true},
		{"old RSs with zero status replicas but pods in terminal state and pending are present", []model.Phase{model.Failed, model.Failed, model.Pending}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &model.State{Deps: []model.DeploymentState{{Active: true}}}
			// A pod of the new set (slot 0) and one of another deployment
			// never count.
			s.Pods = append(s.Pods, model.PodState{Phase: model.Running, Owner: 1, RS: 0}, model.PodState{Phase: model.Running, Owner: 2, RS: 1})
			for _, ph := range tc.old {
				s.Pods = append(s.Pods, model.PodState{Phase: ph, Owner: 1, RS: 1})
			}
			if got := oldPodsRunning(s, 0, 1); got != tc.want {
				t.Errorf("oldPodsRunning = %t, want %t", got, tc.want)
			}
		})
	}
}

// TestUpstreamFindNewReplicaSet: k8s.io/kubernetes@v1.36.3,
// pkg/controller/deployment/util/deployment_util_test.go TestFindNewReplicaSet.
// Sets are compared by template (the pod-template-hash label is no part of
// the model's template). Left out: "Get the oldest new ReplicaSet when
// there are more than one ReplicaSet with the same template": the model
// creates a set only when no set has the deployment's template, so two
// sets never share one.
func TestUpstreamFindNewReplicaSet(t *testing.T) {
	for _, tc := range []struct {
		name      string
		templates [2]uint8 // each slot's template + 1 (0: no set)
		want      int
	}{
		{"Get new ReplicaSet with the same template as Deployment spec but different pod-template-hash value", [2]uint8{2, 1}, 1},
		{"Get nil new ReplicaSet", [2]uint8{2, 0}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, s, d := rolloutFixture(t, model.RollingUpdate, absolute(1), absolute(0), 1)
			u.Templates = append(u.Templates, model.PodTemplate{Name: "web-old", CPU: 1, Memory: 1, Labels: map[string]string{}})
			ds := &s.Deps[d]
			ds.RS[0].Template, ds.RS[1].Template = tc.templates[0], tc.templates[1]
			if got := findNewReplicaSet(u, ds); got != tc.want {
				t.Errorf("findNewReplicaSet = %d, want %d", got, tc.want)
			}
		})
	}
}
