package model

import (
	"errors"
	"slices"
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
