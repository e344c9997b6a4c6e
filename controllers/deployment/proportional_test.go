package deployment

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestScale: a scaling event (pkg/controller/deployment/sync.go@v1.36.3
// isScalingEvent and scale; the rows named as upstream's are those of
// k8s.io/kubernetes@v1.36.3, pkg/controller/deployment/sync_test.go
// TestScale with one or two sets). Its rows with three sets ("7 -> 10",
// "13 -> 8", "leftover distribution: 3 -> 4" and "3 -> 2", "failed rs
// update") need three revisions, which a deployment of the model does not
// have (docs/divergences.md, "Two ReplicaSets per Deployment"); "0 -> 6"
// keeps two of its three sets, all empty. Sets are given as (template, replicas);
// slot 0 is the current one unless cur says otherwise, and without
// newerSlot the current set is the newer.
func TestScale(t *testing.T) {
	abs := func(v int) model.IntOrPercent { return model.IntOrPercent{Value: v} }
	type set struct{ template, replicas int }
	for _, tc := range []struct {
		name           string
		strategy       model.Strategy
		surge          int
		unavailable    int // maxUnavailable; 1 when surge and unavailable are both 0
		template       int // the deployment's template now
		from, to       int // spec.replicas at the last write, and now
		maxBefore      [2]int
		sets           [2]set
		rollback       bool // the current set is the older one
		want           [2]int
		wantDesired    int
		wantMaxReplica [2]int
	}{
		{name: "normal scaling event: 10 -> 12", from: 10, to: 12,
			sets: [2]set{{0, 10}, {}}, want: [2]int{12, 0}},
		{name: "normal scaling event: 10 -> 5", from: 10, to: 5,
			sets: [2]set{{0, 10}, {}}, want: [2]int{5, 0}},
		{name: "proportional scaling (no new rs): 4 -> 5", template: 2, from: 4, to: 5,
			sets: [2]set{{1, 2}, {0, 2}}, want: [2]int{3, 2}},
		{name: "proportional scaling: 0 -> 6", from: 6, to: 6,
			sets: [2]set{{0, 0}, {1, 0}}, want: [2]int{6, 0}},
		{name: "saturated but broken new replica set does not affect old pods", template: 1, surge: 1, unavailable: 1, from: 2, to: 2,
			sets: [2]set{{1, 2}, {0, 1}}, want: [2]int{2, 1}},
		{name: "proportional scaling: 5 -> 10", from: 5, to: 10,
			sets: [2]set{{1, 2}, {0, 3}}, want: [2]int{4, 6}},
		{name: "proportional scaling: 5 -> 3", from: 5, to: 3,
			sets: [2]set{{1, 2}, {0, 3}}, want: [2]int{1, 2}},
		{name: "proportional scaling: 9 -> 4", from: 9, to: 4,
			sets: [2]set{{1, 8}, {0, 1}}, want: [2]int{4, 0}},
		{name: "proportional scaling: 6 -> 0", from: 6, to: 0,
			sets: [2]set{{1, 4}, {0, 2}}, want: [2]int{0, 0}},
		{name: "deployment with surge pods: 10 -> 20", surge: 2, from: 10, to: 20,
			sets: [2]set{{1, 6}, {0, 6}}, want: [2]int{11, 11}},
		{name: "change both surge and size: max-replicas 13 from the old maxSurge", surge: 6, from: 10, to: 50,
			maxBefore: [2]int{13, 13}, sets: [2]set{{1, 5}, {0, 8}}, want: [2]int{22, 34}},
		{name: "different max-replicas per set", surge: 3, from: 4, to: 8,
			maxBefore: [2]int{7, 5}, sets: [2]set{{1, 3}, {0, 4}}, want: [2]int{3, 8}},
		{name: "change both size and template: two old sets", template: 2, from: 10, to: 14,
			sets: [2]set{{1, 7}, {0, 3}}, want: [2]int{10, 4}},
		{name: "leftover on scale-up: the newer of equal sets", from: 2, to: 3,
			sets: [2]set{{1, 1}, {0, 1}}, want: [2]int{2, 1}},
		{name: "leftover on scale-up after a rollback: the newer is the old set", from: 2, to: 3,
			sets: [2]set{{1, 1}, {0, 1}}, rollback: true, want: [2]int{1, 2}},
		{name: "leftover on scale-down: the older of equal sets", from: 2, to: 1,
			sets: [2]set{{1, 1}, {0, 1}}, want: [2]int{1, 0}},
		{name: "leftover on scale-down after a rollback", from: 2, to: 1,
			sets: [2]set{{1, 1}, {0, 1}}, rollback: true, want: [2]int{0, 1}},
		{name: "only the old set is active: scaled to spec before the rollout", template: 1, from: 3, to: 5,
			sets: [2]set{{0, 3}, {}}, want: [2]int{5, 0}},
		{name: "Recreate with two active sets: nothing", strategy: model.Recreate, from: 3, to: 5,
			sets: [2]set{{1, 1}, {0, 2}}, want: [2]int{1, 2}, wantDesired: 3},
		{name: "no scaling event: the rollout", surge: 1, from: 4, to: 4,
			sets: [2]set{{1, 1}, {0, 4}}, want: [2]int{1, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			b.AddNodes(1, build.Node())
			var tmpl [3]int
			for i := range tmpl {
				tmpl[i] = b.AddTemplate(build.Template(string(rune('a'+i))).Requests(1, 1))
			}
			d := b.AddDeployment("web", tmpl[tc.template], tc.to)
			cfg := &b.U.Configs[0]
			cfg.Strategy, cfg.MaxSurge, cfg.MaxUnavailable = tc.strategy, abs(tc.surge), abs(tc.unavailable)
			if tc.surge == 0 && tc.unavailable == 0 {
				cfg.MaxUnavailable = abs(1)
			}
			u, s := b.MustBuild()
			ds := &s.Deps[d]
			for k, st := range tc.sets {
				ds.RS[k] = model.ReplicaSetState{Template: uint8(tmpl[st.template] + 1), Replicas: int16(st.replicas)}
			}
			ds.Cur, ds.NewRSOlder = 0, tc.rollback
			a := model.ReplicasAnnotations{Desired: tc.from, Max: tc.maxBefore}
			for k := range a.Max {
				if a.Max[k] == 0 {
					a.Max[k] = tc.from + model.MaxSurge(cfg, tc.from)
				}
			}
			ds.SetAnnotations(u, a)
			tx := model.NewTx(u)
			tx.Begin(nil, true)
			ScaleReplicaSets(tx, s, d)
			if s.Failed != model.NoFailure {
				t.Fatalf("failed: %d", s.Failed)
			}
			got := [2]int{int(ds.RS[0].Replicas), int(ds.RS[1].Replicas)}
			if got != tc.want {
				t.Errorf("replicas %v, want %v", got, tc.want)
			}
			wantDesired := tc.wantDesired
			if wantDesired == 0 {
				wantDesired = tc.to
			}
			if (got[0] > 0 || got[1] > 0) && ds.Annotations(u).Desired != wantDesired {
				t.Errorf("desired-replicas %d, want %d", ds.Annotations(u).Desired, wantDesired)
			}
		})
	}
}
