package scheduler

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// Fixtures for transcribing the tables of Kubernetes'
// pkg/scheduler/framework/plugins/podtopologyspread tests (v1.36.3): nodes
// and existing pods as upstream writes them, one template per existing pod
// so that each pod carries exactly its own labels.

type kNode struct {
	name   string
	labels map[string]string
	// tainted: the upstream fixture's node.kubernetes.io/unschedulable
	// NoSchedule taint.
	tainted bool
}

type kPod struct {
	node   string
	labels map[string]string
	// terminating: upstream's .Terminating() (a deletionTimestamp).
	terminating bool
	// sameOwner: the pod belongs to the incoming pod's deployment (stands
	// for "selected by the same Service" in system-defaulting cases).
	sameOwner bool
}

// kIncoming is the pod to schedule.
type kIncoming struct {
	labels       map[string]string
	nodeSelector map[string]string
	required     []model.Selector
	spread       []model.SpreadConstraint
}

// lbl builds a label map from key, value pairs.
func lbl(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// exists is upstream's st.MakeLabelSelector().Exists(key).Obj().
func exists(key string) *model.Selector {
	return &model.Selector{MatchExpressions: []model.Requirement{{Key: key, Operator: model.OpExists}}}
}

// tsc is upstream's SpreadConstraint(maxSkew, key, when, selector, nil...):
// minDomains unset, NodeAffinityPolicy Honor, NodeTaintsPolicy Ignore.
func tsc(maxSkew int, key string, when model.WhenUnsatisfiable, sel *model.Selector) model.SpreadConstraint {
	return model.SpreadConstraint{MaxSkew: maxSkew, TopologyKey: key, When: when, Selector: sel, HonorNodeAffinity: true}
}

// buildK8s returns the universe, the state and the incoming pod's slot.
func buildK8s(t *testing.T, nodes []kNode, existing []kPod, in kIncoming) (*model.Universe, *model.State, int) {
	t.Helper()
	b := build.New()
	index := map[string]int{}
	for _, n := range nodes {
		nb := build.Node().Name(n.name)
		for k, v := range n.labels {
			nb.Label(k, v)
		}
		if n.tainted {
			nb.Taint("node.kubernetes.io/unschedulable", "", model.NoSchedule)
		}
		index[n.name] = b.AddNodes(1, nb)
	}
	b.U.Templates = append(b.U.Templates, model.PodTemplate{Name: "incoming", Labels: in.labels,
		NodeSelector: in.nodeSelector, Required: in.required, Spread: in.spread})
	incoming := b.AddDeployment("incoming", 0, 1)
	for i, p := range existing {
		n, ok := index[p.node]
		if !ok {
			t.Fatalf("existing pod %d on unknown node %q", i, p.node)
		}
		if p.sameOwner {
			b.RunPod(incoming, n)
			continue
		}
		b.U.Templates = append(b.U.Templates, model.PodTemplate{Name: "existing", Labels: p.labels})
		b.RunPod(b.AddDeployment("existing", len(b.U.Templates)-1, 1), n)
	}
	b.PendingPod(incoming, -1)
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range existing {
		if p.terminating {
			s.Pods[i].Phase = model.Terminating
		}
	}
	return u, s, len(existing)
}
