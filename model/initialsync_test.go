package model

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestDeploymentsOutOfSyncStartQueued: the Deployment controller syncs
// every Deployment when it starts, so a created deployment whose initial
// pods fall short of (or exceed) its replicas starts in the deployment
// queue, and one whose pods match, or one not created yet, does not; the
// StatefulSet controller does the same for its StatefulSets.
func TestDeploymentsOutOfSyncStartQueued(t *testing.T) {
	no := false
	for _, tc := range []struct {
		name      string
		web, api  int // initial pods on s1
		apiAbsent bool
		apiSts    bool // api is a StatefulSet
		want      []uint16
	}{
		{"every pod there", 1, 1, false, false, nil},
		{"web lacks a pod", 0, 1, false, false, []uint16{0}},
		{"api has a pod too many", 1, 2, false, false, []uint16{1}},
		{"both out of sync", 0, 0, false, false, []uint16{0, 1}},
		{"api not created yet", 1, 0, true, false, nil},
		{"a StatefulSet without its pod", 1, 0, false, true, []uint16{1}},
		{"a StatefulSet with its pod", 1, 1, false, true, nil},
	} {
		c := namedCluster()
		if tc.apiSts {
			c.Deployments[1].Kind = "StatefulSet"
		}
		for d, n := range []int{tc.web, tc.api} {
			if n > 0 {
				c.Nodes[1].Pods = append(c.Nodes[1].Pods, InitialPod{Deployment: c.Deployments[d].Name, Count: n})
			}
		}
		if tc.apiAbsent {
			c.Deployments[1].Created = &no
		}
		_, s, err := c.Build()
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Queues[DeploymentQueue]; !slices.Equal(got, tc.want) {
			t.Errorf("%s: deployment queue %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestInitialPodOrdinalOnlyForStatefulSets: an ordinal names one pod of a
// StatefulSet; on a Deployment's pod, or on several pods at once, it is
// an invalid cluster.
func TestInitialPodOrdinalOnlyForStatefulSets(t *testing.T) {
	zero := 0
	for _, p := range []InitialPod{{Ordinal: &zero}, {Ordinal: &zero, Count: 2}} {
		c := namedCluster()
		p.Deployment = c.Deployments[0].Name
		c.Nodes[1].Pods = append(c.Nodes[1].Pods, p)
		if _, _, err := c.Build(); err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "ordinal") {
			t.Errorf("%+v: error %v, want an invalid ordinal", p, err)
		}
	}
}

// TestMidRolloutStartsQueued: a Deployment in the middle of a rollout (a
// dump's, DeploymentDecl.OldReplicaSet) starts with both ReplicaSets,
// each pod in its own, and is queued for its controller: here the new
// set lacks a pod though the pods number its replicas in all. A pod of
// an older set on a Deployment that has none is an invalid cluster.
func TestMidRolloutStartsQueued(t *testing.T) {
	two := 2
	c := namedCluster()
	c.Templates = append(c.Templates, TemplateDecl{Name: "old", CPU: 50, Memory: 100})
	c.Deployments[0].Replicas, c.Deployments[0].NewReplicas = 2, &two
	c.Deployments[0].OldReplicaSet = &ReplicaSetDecl{Template: "old", Replicas: 1}
	c.Nodes[1].Pods = []InitialPod{{Deployment: "web"}, {Deployment: "web", OldReplicaSet: true}, {Deployment: "api"}}
	u, s, err := c.Build()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Deps[0].RS, [2]ReplicaSetState{{Template: 1, Replicas: 2}, {Template: 2, Replicas: 1}}; got != want {
		t.Errorf("web's ReplicaSets %+v, want %+v", got, want)
	}
	var pods []string
	for _, p := range s.Pods {
		if p.Owner == 1 {
			pods = append(pods, u.Templates[p.Template].Name+"/rs"+strconv.Itoa(int(p.RS)))
		}
	}
	if got := strings.Join(pods, " "); got != "t/rs0 old/rs1" {
		t.Errorf("web's pods %s, want t/rs0 old/rs1", got)
	}
	if got := s.Queues[DeploymentQueue]; !slices.Equal(got, []uint16{0}) {
		t.Errorf("deployment queue %v, want web's", got)
	}

	c = namedCluster()
	c.Nodes[1].Pods = []InitialPod{{Deployment: "web", OldReplicaSet: true}}
	if _, _, err := c.Build(); err == nil || !strings.Contains(err.Error(), "oldReplicaSet: set for a pod of web, which has no oldReplicaSet") {
		t.Errorf("a pod of an older set of web, which has none: %v", err)
	}
}
