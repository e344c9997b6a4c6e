package nodelifecycle

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestUpstreamMonitorNodeHealthZoneStates: the zone states of
// k8s.io/kubernetes@v1.36.3, pkg/controller/nodelifecycle/node_lifecycle_controller_test.go
// TestMonitorNodeHealth (default --unhealthy-zone-threshold 0.55), each
// zone given by its counted nodes and how many of them are not Ready,
// before ("initial") and after ("following") the nodes' statuses change.
// A node without a Ready condition, or with one that is Unknown, is not
// Ready. A node labelled node.kubernetes.io/exclude-disruption is not
// counted (seeZones; testdata/excludedisruption.txt runs it through the
// controller).
func TestUpstreamMonitorNodeHealthZoneStates(t *testing.T) {
	type zone struct {
		total, notReady int
		want            zoneState
	}
	for _, tc := range []struct {
		name               string
		initial, following []zone
	}{
		{"No Disruption: Node created recently without failure domain labels (happens only at cluster startup)",
			[]zone{{1, 0, stateNormal}}, []zone{{1, 0, stateNormal}}},
		{"No Disruption: Initially both zones down, one comes back",
			[]zone{{1, 1, stateFullDisruption}, {1, 1, stateFullDisruption}},
			[]zone{{1, 1, stateFullDisruption}, {1, 0, stateNormal}}},
		{"Partial Disruption: Nodes created recently without status conditions (happens only at cluster startup)",
			[]zone{{4, 4, stateFullDisruption}}, []zone{{4, 3, statePartialDisruption}}},
		{"Partial Disruption: one Node failed leading to the number of healthy Nodes to exceed the configured threshold",
			[]zone{{5, 2, stateNormal}}, []zone{{5, 3, statePartialDisruption}}},
		{"Full Disruption: the zone has less than 2 Nodes down, the last healthy Node has failed",
			[]zone{{3, 2, stateNormal}}, []zone{{3, 3, stateFullDisruption}}},
		{"Full Disruption: all the Nodes in one zone are down",
			[]zone{{1, 1, stateFullDisruption}, {1, 0, stateNormal}},
			[]zone{{1, 1, stateFullDisruption}, {1, 0, stateNormal}}},
		{"Full Disruption: all the Nodes in both the zones are down",
			[]zone{{1, 1, stateFullDisruption}, {1, 1, stateFullDisruption}},
			[]zone{{1, 1, stateFullDisruption}, {1, 1, stateFullDisruption}}},
		{"Full Disruption: Ready condition removed from the Node",
			[]zone{{1, 0, stateNormal}}, []zone{{1, 1, stateFullDisruption}}},
		{"Full Disruption: the only available Node has the node.kubernetes.io/exclude-disruption label",
			[]zone{{1, 1, stateFullDisruption}}, []zone{{1, 1, stateFullDisruption}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for phase, zones := range [][]zone{tc.initial, tc.following} {
				for i, z := range zones {
					if got := (zoneCounts{total: z.total, notReady: z.notReady}).state(); got != z.want {
						t.Errorf("%s state, zone %d (%d of %d not Ready): %v, want %v",
							[]string{"initial", "following"}[phase], i+1, z.notReady, z.total, got, z.want)
					}
				}
			}
		})
	}
}

// TestUpstreamZoneKeyWithoutLabels: the first row of TestMonitorNodeHealth
// (k8s.io/kubernetes@v1.36.3, pkg/controller/nodelifecycle/node_lifecycle_controller_test.go)
// expects a node without region and zone labels in the zone "".
func TestUpstreamZoneKeyWithoutLabels(t *testing.T) {
	if got := model.ZoneKeyOf(map[string]string{"kubernetes.io/hostname": "node0"}); got != "" {
		t.Errorf("ZoneKeyOf(no zone labels) = %q, want \"\"", got)
	}
}

// TestUpstreamIsNodeExcludedFromDisruptionChecks:
// Test_isNodeExcludedFromDisruptionChecks (k8s.io/kubernetes@v1.36.3,
// pkg/controller/nodelifecycle/node_lifecycle_controller_test.go): a node
// labelled node.kubernetes.io/exclude-disruption (any value) counts in no
// zone state; a node without the label, named like a master or not, does.
func TestUpstreamIsNodeExcludedFromDisruptionChecks(t *testing.T) {
	b := build.New()
	b.U.Options.KiviHostnameAlias = false
	b.AddNodes(1, build.Node().Name("plain"))
	b.AddNodes(1, build.Node().Name("master-abc"))
	b.AddNodes(1, build.Node().Name("excluded").Label(model.ExcludeDisruptionKey, ""))
	u, _ := b.MustBuild()
	for n, want := range []bool{false, false, true} {
		if got := u.Zones.Excluded[n]; got != want {
			t.Errorf("node %s excluded = %v, want %v", u.Nodes[n].Name, got, want)
		}
	}
}
