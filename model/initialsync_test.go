package model

import (
	"slices"
	"testing"
)

// TestDeploymentsOutOfSyncStartQueued: the Deployment controller syncs
// every Deployment when it starts, so a created deployment whose initial
// pods fall short of (or exceed) its replicas starts in the deployment
// queue, and one whose pods match, or one not created yet, does not.
func TestDeploymentsOutOfSyncStartQueued(t *testing.T) {
	no := false
	for _, tc := range []struct {
		name      string
		web, api  int // initial pods on s1
		apiAbsent bool
		want      []uint16
	}{
		{"every pod there", 1, 1, false, nil},
		{"web lacks a pod", 0, 1, false, []uint16{0}},
		{"api has a pod too many", 1, 2, false, []uint16{1}},
		{"both out of sync", 0, 0, false, []uint16{0, 1}},
		{"api not created yet", 1, 0, true, nil},
	} {
		c := namedCluster()
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
