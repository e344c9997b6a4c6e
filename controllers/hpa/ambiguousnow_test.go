package hpa

import (
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestAmbiguousNow: the AmbiguousSelector decision of a sync. web has a
// plain HPA; canary's HPA lists pods of api (its target's selector
// selects them, another HPA's too), so it is ambiguous while a pod of
// api exists in any phase; api has two HPAs, always ambiguous while it
// exists.
func TestAmbiguousNow(t *testing.T) {
	u := &model.Universe{
		Deployments: []model.Deployment{{Name: "web"}, {Name: "canary"}, {Name: "api"}},
		HPAs: []model.HPA{
			{Name: "web", Min: 1, Max: 3},
			{Name: "canary", Min: 1, Max: 3, AmbiguousWhenPodsOf: []int{2}},
			{Name: "api", Min: 1, Max: 4, Ambiguous: []model.HPABounds{{Name: "api", Min: 1, Max: 3}, {Name: "keda-api", Min: 2, Max: 4}}},
		},
	}
	state := func(apiActive bool, pods ...model.PodState) *model.State {
		return &model.State{Deps: []model.DeploymentState{
			{Active: true, Replicas: 2, HPA: 1}, {Active: true, Replicas: 2, HPA: 2}, {Active: apiActive, Replicas: 2, HPA: 3}}, Pods: pods}
	}
	webPod := model.PodState{Phase: model.Running, Owner: 1, Node: 1}
	apiPod := func(p model.Phase) model.PodState { return model.PodState{Phase: p, Owner: 3, Node: 1} }
	tests := []struct {
		name             string
		s                *model.State
		web, canary, api bool
	}{
		{"no pod", state(true), false, false, true},
		{"a pod of web only", state(true, webPod), false, false, true},
		{"a Running pod of api", state(true, webPod, apiPod(model.Running)), false, true, true},
		{"a Pending pod of api", state(true, apiPod(model.Pending)), false, true, true},
		{"a Terminating pod of api", state(true, apiPod(model.Terminating)), false, true, true},
		{"a free slot once api's", state(true, apiPod(model.Free)), false, false, true},
		{"api not created", state(false), false, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for d, want := range []bool{tc.web, tc.canary, tc.api} {
				if got := AmbiguousNow(u, tc.s, d); got != want {
					t.Errorf("%s: AmbiguousNow %v, want %v", u.Deployments[d].Name, got, want)
				}
			}
		})
	}
}
