package deployment

import (
	"errors"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// The tables below restate the rows of Kubernetes' own tests of the
// rolling-update arithmetic in the model's terms (k8s.io/kubernetes@v1.36.3,
// pkg/controller/deployment/util/deployment_util_test.go and
// pkg/controller/deployment/rolling_test.go). Rows named by number are
// upstream's unnamed rows, counted from 0.
//
// Tests of deployment_util_test.go not restated, and why:
// TestGetReplicaCountForReplicaSets (the model sums its two slots inline,
// and status.terminatingReplicas is reported only: docs/divergences.md,
// "Pod lifecycle and kubelet"); TestEqualIgnoreHash and
// TestFindOldReplicaSets (templates are indices, the old set is the other
// slot; TestUpstreamFindNewReplicaSet has the new one);
// TestGetCondition/SetCondition/RemoveCondition, TestDeploymentProgressing
// and TestDeploymentTimedOut (Deployment conditions are not kept:
// docs/divergences.md, "Deployment conditions"); TestDeploymentComplete is
// in intents (rollout_completes); TestGetNonNegativeInt32FromAnnotation,
// TestAnnotationUtils and TestReplicasAnnotationsNeedUpdate (the
// annotations are the controller's own writes, stored as numbers:
// "Replicas annotations written by the controller only");
// TestGetDeploymentsForReplicaSet (a ReplicaSet belongs to its deployment
// by construction).

func absolute(v int) model.IntOrPercent { return model.IntOrPercent{Value: v} }

func percent(v int) model.IntOrPercent { return model.IntOrPercent{Value: v, Percent: true} }

// TestUpstreamResolveFenceposts: k8s.io/kubernetes@v1.36.3,
// pkg/controller/deployment/util/deployment_util_test.go TestResolveFenceposts.
// A nil maxSurge or maxUnavailable resolves to 0 upstream, as the zero
// IntOrPercent does here; the rows with an unparsable value are in
// TestUpstreamResolveFencepostsBadValue.
func TestUpstreamResolveFenceposts(t *testing.T) {
	for _, tc := range []struct {
		name                       string
		surge, unavailable         model.IntOrPercent
		desired                    int
		wantSurge, wantUnavailable int
	}{
		{"0", percent(0), percent(0), 0, 0, 1},
		{"1", percent(39), percent(39), 10, 4, 3},
		{"4: maxSurge nil", model.IntOrPercent{}, percent(39), 10, 0, 3},
		{"5: maxUnavailable nil", percent(39), model.IntOrPercent{}, 10, 4, 0},
		{"6: both nil", model.IntOrPercent{}, model.IntOrPercent{}, 10, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := model.DeploymentConfig{MaxSurge: tc.surge, MaxUnavailable: tc.unavailable}
			f := resolveFenceposts(&cfg, tc.desired)
			if f.Surge != tc.wantSurge || f.Unavailable != tc.wantUnavailable {
				t.Errorf("got %d:%d, want %d:%d", f.Surge, f.Unavailable, tc.wantSurge, tc.wantUnavailable)
			}
		})
	}
}

// TestUpstreamResolveFencepostsBadValue: the error rows of
// k8s.io/kubernetes@v1.36.3, pkg/controller/deployment/util/deployment_util_test.go
// TestResolveFenceposts. The model resolves only parsed values, so the
// bad value is refused where it is read (model.ParseIntOrPercent).
func TestUpstreamResolveFencepostsBadValue(t *testing.T) {
	for _, tc := range []struct{ name, value string }{
		{"2: maxSurge oops", "oops"},
		{"3: maxUnavailable urg", "urg"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := model.ParseIntOrPercent(tc.value); !errors.Is(err, model.ErrInvalid) {
				t.Errorf("ParseIntOrPercent(%q) = %v, want ErrInvalid", tc.value, err)
			}
		})
	}
}

// TestUpstreamMaxUnavailable: k8s.io/kubernetes@v1.36.3,
// pkg/controller/deployment/util/deployment_util_test.go TestMaxUnavailable
// (maxSurge 1). Its Recreate row is left out: a Recreate deployment
// never resolves fenceposts in the model (recreate.go scales the old sets
// to 0 without them), which is what upstream's 0 stands for.
func TestUpstreamMaxUnavailable(t *testing.T) {
	for _, tc := range []struct {
		name        string
		replicas    int
		unavailable model.IntOrPercent
		want        int
	}{
		{"maxUnavailable less than replicas", 10, absolute(5), 5},
		{"maxUnavailable equal replicas", 10, absolute(10), 10},
		{"maxUnavailable greater than replicas", 5, absolute(10), 5},
		{"maxUnavailable with replicas is 0", 0, absolute(10), 0},
		{"maxUnavailable less than replicas with percents", 10, percent(50), 5},
		{"maxUnavailable equal replicas with percents", 10, percent(100), 10},
		{"maxUnavailable greater than replicas with percents", 5, percent(100), 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := model.DeploymentConfig{MaxSurge: absolute(1), MaxUnavailable: tc.unavailable}
			if got := resolveFenceposts(&cfg, tc.replicas).maxUnavailable(tc.replicas); got != tc.want {
				t.Errorf("maxUnavailable = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestUpstreamMinAvailable: k8s.io/kubernetes@v1.36.3,
// pkg/controller/deployment/util/deployment_util_test.go TestMinAvailable
// (maxSurge 1). Its Recreate row is left out as TestUpstreamMaxUnavailable's.
func TestUpstreamMinAvailable(t *testing.T) {
	for _, tc := range []struct {
		name        string
		replicas    int
		unavailable model.IntOrPercent
		want        int
	}{
		{"replicas greater than maxUnavailable", 10, absolute(5), 5},
		{"replicas equal maxUnavailable", 10, absolute(10), 0},
		{"replicas less than maxUnavailable", 5, absolute(10), 0},
		{"replicas is 0", 0, absolute(10), 0},
		{"replicas greater than maxUnavailable with percents", 10, percent(60), 4},
		{"replicas equal maxUnavailable with percents", 10, percent(100), 0},
		{"replicas less than maxUnavailable with percents", 5, percent(100), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := model.DeploymentConfig{MaxSurge: absolute(1), MaxUnavailable: tc.unavailable}
			if got := resolveFenceposts(&cfg, tc.replicas).minAvailable(tc.replicas); got != tc.want {
				t.Errorf("minAvailable = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestUpstreamNewRSNewReplicas: k8s.io/kubernetes@v1.36.3,
// pkg/controller/deployment/util/deployment_util_test.go TestNewRSNewReplicas
// (maxUnavailable 1; the sets counted are one other set of 5 replicas).
// The Recreate row is in TestUpstreamNewRSNewReplicasRecreate.
func TestUpstreamNewRSNewReplicas(t *testing.T) {
	for _, tc := range []struct {
		name                              string
		depReplicas, newRSReplicas, surge int
		want                              int
	}{
		{"can not scale up - to newRSReplicas", 1, 5, 1, 5},
		{"scale up - to depReplicas", 6, 2, 10, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := newRSNewReplicas(tc.depReplicas, tc.surge, tc.newRSReplicas, 5); got != tc.want {
				t.Errorf("newRSNewReplicas = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestUpstreamNewRSNewReplicasRecreate: the row "recreate - to
// depReplicas" of k8s.io/kubernetes@v1.36.3,
// pkg/controller/deployment/util/deployment_util_test.go TestNewRSNewReplicas:
// a Recreate deployment of 3 replicas whose new set has 1 and no old set
// scales the new set to 3 (maxSurge 1 does not matter).
func TestUpstreamNewRSNewReplicasRecreate(t *testing.T) {
	u, s, d := rolloutFixture(t, model.Recreate, absolute(1), absolute(1), 3)
	ds := &s.Deps[d]
	ds.RS[0] = model.ReplicaSetState{Template: uint8(u.Configs[ds.Config].PodTemplate + 1), Replicas: 1}
	ds.SetAnnotations(u, model.ReplicasAnnotations{Desired: 3, Max: [2]int{3, 3}})
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	ScaleReplicaSets(tx, s, d)
	if got := ds.RS[0].Replicas; got != 3 {
		t.Errorf("new set replicas %d, want 3", got)
	}
}

// rolloutFixture is a cluster of one node and one deployment of spec
// replicas with the given strategy, maxSurge and maxUnavailable, and no
// ReplicaSet yet.
func rolloutFixture(t *testing.T, strategy model.Strategy, surge, unavailable model.IntOrPercent, spec int) (*model.Universe, *model.State, int) {
	t.Helper()
	u := &model.Universe{
		Nodes:       []model.Node{{Name: "node-1", CPU: 64, Memory: 64, MaxPods: 110}},
		Templates:   []model.PodTemplate{{Name: "web", CPU: 1, Memory: 1, Labels: map[string]string{}}},
		Deployments: []model.Deployment{{Name: "web"}},
		Configs:     []model.DeploymentConfig{{Strategy: strategy, MaxSurge: surge, MaxUnavailable: unavailable}},
	}
	s := &model.State{Deps: []model.DeploymentState{{Active: true, Replicas: int16(spec)}}}
	return u, s, 0
}

// TestUpstreamReconcileNewReplicaSet: k8s.io/kubernetes@v1.36.3,
// pkg/controller/deployment/rolling_test.go
// TestDeploymentController_reconcileNewReplicaSet (maxUnavailable 0; a
// row without scaling keeps the new set's replicas).
func TestUpstreamReconcileNewReplicaSet(t *testing.T) {
	for _, tc := range []struct {
		name                       string
		replicas, surge, old, newR int
		want                       int
	}{
		{"0: no surge, no scale-up", 10, 0, 10, 0, 0},
		{"1: surge 2", 10, 2, 10, 0, 2},
		{"2: old set half scaled down", 10, 2, 5, 0, 7},
		{"3: at spec + surge", 10, 2, 10, 2, 2},
		{"4: new set above spec scales down", 10, 2, 2, 11, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := model.DeploymentConfig{MaxSurge: absolute(tc.surge), MaxUnavailable: absolute(0)}
			f := resolveFenceposts(&cfg, tc.replicas)
			got := reconcileNew(tc.replicas, f, replicaSet{Replicas: tc.newR}, replicaSet{Replicas: tc.old})
			if got != tc.want {
				t.Errorf("new set replicas %d, want %d", got, tc.want)
			}
		})
	}
}

// TestUpstreamReconcileOldReplicaSets: k8s.io/kubernetes@v1.36.3,
// pkg/controller/deployment/rolling_test.go
// TestDeploymentController_reconcileOldReplicaSets (maxSurge 0; a row
// without scaling keeps the old set's replicas).
func TestUpstreamReconcileOldReplicaSets(t *testing.T) {
	for _, tc := range []struct {
		name                        string
		replicas, unavailable       int
		old, newR, readyOld, readyN int
		want                        int
	}{
		{"0: maxUnavailable 0 resolves to 1", 10, 0, 10, 0, 10, 0, 9},
		{"1: maxUnavailable 2", 10, 2, 10, 0, 10, 0, 8},
		{"2: unhealthy old replicas cleaned up", 10, 2, 10, 0, 8, 0, 8},
		{"3: one unhealthy cleaned up and one ready scaled down", 10, 2, 10, 0, 9, 0, 8},
		{"4: unavailable new pods block the scale-down", 10, 2, 8, 2, 8, 0, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := model.DeploymentConfig{MaxSurge: absolute(0), MaxUnavailable: absolute(tc.unavailable)}
			f := resolveFenceposts(&cfg, tc.replicas)
			got := reconcileOld(tc.replicas, f, replicaSet{tc.newR, tc.readyN}, replicaSet{tc.old, tc.readyOld})
			if got != tc.want {
				t.Errorf("old set replicas %d, want %d", got, tc.want)
			}
		})
	}
}

// TestUpstreamCleanupUnhealthyReplicas: k8s.io/kubernetes@v1.36.3,
// pkg/controller/deployment/rolling_test.go
// TestDeploymentController_cleanupUnhealthyReplicas (one old set of 10).
func TestUpstreamCleanupUnhealthyReplicas(t *testing.T) {
	for _, tc := range []struct {
		name              string
		ready, maxCleanup int
		want              int
	}{
		{"0: 2 unhealthy, cleanup 1", 8, 1, 1},
		{"1: 2 unhealthy, cleanup 3", 8, 3, 2},
		{"2: 2 unhealthy, cleanup 0", 8, 0, 0},
		{"3: none unhealthy", 10, 3, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			replicas, cleaned := cleanupUnhealthyReplicas(replicaSet{Replicas: 10, Available: tc.ready}, tc.maxCleanup)
			if cleaned != tc.want || replicas != 10-tc.want {
				t.Errorf("cleaned %d (replicas %d), want %d", cleaned, replicas, tc.want)
			}
		})
	}
}

// TestUpstreamScaleDownOldReplicaSetsForRollingUpdate: k8s.io/kubernetes@v1.36.3,
// pkg/controller/deployment/rolling_test.go
// TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate
// (maxSurge 0, one old set and no new set; a row without scaling keeps
// the old set's replicas).
func TestUpstreamScaleDownOldReplicaSetsForRollingUpdate(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		replicas, unavailable int
		ready, old            int
		want                  int
	}{
		{"0: maxUnavailable 0 resolves to 1", 10, 0, 10, 10, 9},
		{"1: maxUnavailable 2", 10, 2, 10, 10, 8},
		{"2: at minAvailable", 10, 2, 8, 10, 10},
		{"3: no old replicas", 10, 2, 10, 0, 0},
		{"4: below minAvailable", 10, 2, 1, 10, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := model.DeploymentConfig{MaxSurge: absolute(0), MaxUnavailable: absolute(tc.unavailable)}
			f := resolveFenceposts(&cfg, tc.replicas)
			if got := scaleDownOldForRollingUpdate(f.minAvailable(tc.replicas), tc.ready, tc.old); got != tc.want {
				t.Errorf("old set replicas %d, want %d", got, tc.want)
			}
		})
	}
}

// TestUpstreamGetReplicaSetFraction: k8s.io/kubernetes@v1.36.3,
// pkg/controller/deployment/util/deployment_util_test.go TestGetReplicaSetFraction
// (maxUnavailable 1). Its four rows where a third party removed the
// max-replicas annotation or set it to 0 are left out: only the model's
// controller writes the annotations, so every active set carries a
// positive one (docs/divergences.md, "Replicas annotations written by
// the controller only").
func TestUpstreamGetReplicaSetFraction(t *testing.T) {
	for _, tc := range []struct {
		name                        string
		replicas, surge, rsReplicas int
		maxReplicas                 int
		want                        int
	}{
		{"empty deployment always scales to 0", 0, 0, 10, 10, -10},
		{"scale up by 1/5 should increase RS replicas by 1/5", 120, 0, 50, 100, 10},
		{"scale up with maxSurge by 1/5 should increase RS replicas approximately by 1/5", 120, 10, 50, 110, 9},
		{"scale down by 1/6 should decrease RS replicas by 1/6", 10, 0, 6, 12, -1},
		{"scale down with maxSurge by 1/6 should decrease RS replicas approximately by 1/6", 100, 10, 50, 130, -8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := model.DeploymentConfig{MaxSurge: absolute(tc.surge), MaxUnavailable: absolute(1)}
			ds := &model.DeploymentState{Replicas: int16(tc.replicas)}
			ds.RS[0].Replicas = int16(tc.rsReplicas)
			a := model.ReplicasAnnotations{Max: [2]int{tc.maxReplicas, 0}}
			if got := replicaSetFraction(ds, &a, &cfg, 0); got != tc.want {
				t.Errorf("fraction %d, want %d", got, tc.want)
			}
		})
	}
}

// TestUpstreamSyncDeploymentCreatesReplicaSet: k8s.io/kubernetes@v1.36.3,
// pkg/controller/deployment/deployment_controller_test.go
// TestSyncDeploymentCreatesReplicaSet: a RollingUpdate deployment of 1
// replica (maxSurge and maxUnavailable 0) without a ReplicaSet gets one of
// 1 replica in its first sync.
func TestUpstreamSyncDeploymentCreatesReplicaSet(t *testing.T) {
	u, s, d := rolloutFixture(t, model.RollingUpdate, absolute(0), absolute(0), 1)
	tx := model.NewTx(u)
	tx.Begin(nil, false)
	ScaleReplicaSets(tx, s, d)
	ds := &s.Deps[d]
	cur := ds.RS[ds.Cur]
	if int(cur.Template) != u.Configs[ds.Config].PodTemplate+1 || cur.Replicas != 1 {
		t.Errorf("current set %+v, want the deployment's template with 1 replica", cur)
	}
}
