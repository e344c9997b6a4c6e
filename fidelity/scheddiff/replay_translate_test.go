package scheddiff

import (
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/model"
)

// TestStateToAPIAsksTheSameQuestion checks the state translator against
// the snapshot translator, which the differential test already measures:
// for random snapshots, the model state ToModel makes, translated back by
// StateToAPI, must get the same answer from the real framework as the
// snapshot's own API objects (feasible nodes, PreFilter rejection, every
// plugin's score on every node), missing requests and inter-pod
// affinity included.
func TestStateToAPIAsksTheSameQuestion(t *testing.T) {
	direct := realScheduler(t)
	withChecks(t, 300)
	rapid.Check(t, func(rt *rapid.T) {
		s := Generate(rt)
		nodes, pods, pending := s.ToAPI()
		want, err := direct.Decide(nodes, pods, pending)
		if err != nil {
			rt.Skip("framework error on the snapshot (an invalid value): nothing to compare")
		}
		u, st, pod, err := s.ToModel()
		if err != nil {
			rt.Fatal(err)
		}
		rp, err := NewReplayer(u)
		if err != nil {
			rt.Fatal(err)
		}
		defer rp.Close()
		a := StateToAPI(u, st, pod)
		got, err := rp.Real.Decide(a.Nodes, a.Pods, a.Pending)
		if err != nil {
			rt.Fatalf("framework error on the state only: %v", err)
		}
		if (got.PreFilter == "") != (want.PreFilter == "") || !slices.Equal(got.Feasible, want.Feasible) ||
			!reflect.DeepEqual(got.Scores, want.Scores) || !slices.Equal(slices.Sorted(maps.Keys(got.Rejected)), slices.Sorted(maps.Keys(want.Rejected))) {
			rt.Fatalf("the state's question differs from the snapshot's:\n%s\nsnapshot: %+v\nstate:    %+v", s, want, got)
		}
	})
}

// TestStateToAPI pins the parts of the translation that snapshots do not
// have: Kivi's hostname alias is kept (a Kivi input stands for nodes that
// carry it; a label of that key the user wrote keeps its value), a node's reservation becomes placeholder pods of another
// namespace, unbound pods are left out, a Terminating pod has a deletion
// timestamp, owned pods carry their ReplicaSet's hash and owner, and a
// crashed (Unhealthy) node is not Ready.
func TestStateToAPI(t *testing.T) {
	u := &model.Universe{
		Nodes: []model.Node{
			{Name: "a", CPU: 4000, Memory: 4096, ReservedCPU: 500, ReservedMemory: 256},
			{Name: "b", CPU: 4000, Memory: 4096, ReservedPods: 2, Labels: map[string]string{model.KiviHostnameKey: "rack-b"}},
		},
		Templates:   []model.PodTemplate{{Name: "web", Labels: map[string]string{"app": "web"}, CPU: 100, Memory: 128}},
		Configs:     []model.DeploymentConfig{{PodTemplate: 0}},
		Deployments: []model.Deployment{{Name: "web"}},
		PodSlots:    4,
		Options:     model.Options{KiviHostnameAlias: true},
	}
	if err := u.Compile(); err != nil {
		t.Fatal(err)
	}
	s := model.NewState(u, 0)
	s.Nodes[1].Status = model.Unhealthy
	s.Pods[0] = model.PodState{Phase: model.Running, Owner: 1, Node: 1}
	s.Pods[1] = model.PodState{Phase: model.Terminating, Owner: 1, Node: 2}
	s.Pods[2] = model.PodState{Phase: model.Pending, Owner: 1} // unbound: not in the snapshot
	s.Pods[3] = model.PodState{Phase: model.Pending, Owner: 1}
	a := StateToAPI(u, s, 3)

	if got := a.Nodes[0].Labels[model.KiviHostnameKey]; got != "a" {
		t.Errorf("node a's Kivi hostname alias is %q, want a: %v", got, a.Nodes[0].Labels)
	}
	if got := a.Nodes[1].Labels[model.KiviHostnameKey]; got != "rack-b" {
		t.Errorf("node b's own hostname label is %q, want rack-b", got)
	}
	if p := a.Nodes[0].Status.Allocatable[v1.ResourcePods]; p.Value() != model.DefaultMaxPods+1 {
		t.Errorf("node a allocatable pods %d, want one more than %d for the placeholder", p.Value(), model.DefaultMaxPods)
	}
	if a.Nodes[1].Status.Conditions[0].Status != v1.ConditionFalse || len(a.Nodes[1].Spec.Taints) != 2 {
		t.Errorf("Unhealthy node b: conditions %v taints %v, want not Ready with the not-ready taints", a.Nodes[1].Status.Conditions, a.Nodes[1].Spec.Taints)
	}
	byName := map[string]*v1.Pod{}
	for _, p := range a.Pods {
		byName[p.Name] = p
	}
	if len(a.Pods) != 5 {
		t.Errorf("%d pods, want 3 placeholders and pods 1 and 2: %v", len(a.Pods), slices.Collect(maps.Keys(byName)))
	}
	r := byName["reserved-a-0"]
	if r == nil || r.Namespace != reservedNamespace || r.Spec.Containers[0].Resources.Requests.Cpu().MilliValue() != 500 ||
		r.Spec.Containers[0].Resources.Requests.Memory().Value() != 256<<20 {
		t.Errorf("node a's reservation: %+v", r)
	}
	if byName["reserved-b-0"] == nil || byName["reserved-b-1"] == nil {
		t.Errorf("node b's two reserved pod slots are not two placeholders")
	}
	if p := byName["pod2"]; p == nil || p.DeletionTimestamp == nil || p.DeletionTimestamp.After(time.Now()) {
		t.Errorf("Terminating pod 2: %+v", p)
	}
	if byName["pod3"] != nil {
		t.Errorf("unbound pod 3 is in the snapshot")
	}
	want := map[string]string{"app": "web", hashLabel: rsOf(0, 0)}
	if p := a.Pending; !maps.Equal(p.Labels, want) || len(p.OwnerReferences) != 1 || p.OwnerReferences[0].Name != rsOf(0, 0) {
		t.Errorf("pending pod labels %v owners %v, want %v owned by %s", p.Labels, p.OwnerReferences, want, rsOf(0, 0))
	}
}
