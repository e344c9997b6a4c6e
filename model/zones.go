package model

// Zones of the node lifecycle controller: the data its zone states
// (controllers/nodelifecycle, zones.go) are computed from. Upstream's
// controller groups the nodes by nodetopology.GetZoneKey (the region and
// zone labels, the deprecated failure-domain.beta.kubernetes.io ones
// winning over topology.kubernetes.io's; a node with neither is in the
// zone ""), leaves the nodes labelled
// node.kubernetes.io/exclude-disruption out of the zone states, and holds
// back or lifts its NoExecute taints per zone.

// The labels GetZoneKey reads, and the label that leaves a node out of
// the zone states (any value).
const (
	RegionKey                = "topology.kubernetes.io/region"
	BetaZoneKey              = "failure-domain.beta.kubernetes.io/zone"
	BetaRegionKey            = "failure-domain.beta.kubernetes.io/region"
	ExcludeDisruptionKey     = "node.kubernetes.io/exclude-disruption"
	zoneKeySeparator         = ":\x00:"
	unlabelledZoneDisplayKey = `""`
)

// The node lifecycle controller's flags at kube-controller-manager's
// defaults: --unhealthy-zone-threshold (the fraction of a zone's nodes
// not Ready from which, with at least three of them, the zone is in a
// partial disruption) and --large-cluster-size-threshold (a zone in a
// partial disruption is still tainted, at the secondary rate, when it has
// more nodes than this; a smaller one is not tainted at all).
const (
	UnhealthyZoneThreshold    = 0.55
	LargeClusterSizeThreshold = 50
)

// DisruptionZones is the static zone map of the node lifecycle
// controller (set by Compile).
type DisruptionZones struct {
	// Of is each node's zone, an index into Names.
	Of []int
	// Names is each zone's key, for traces: the zone label's value, with
	// the region's before a slash when the node has one; `""` for the
	// nodes without either label.
	Names []string
	// Excluded: the node carries node.kubernetes.io/exclude-disruption and
	// counts in no zone state.
	Excluded []bool
	// Counted is the number of each zone's nodes that count in its state.
	Counted []int
}

// ZoneKeyOf is nodetopology.GetZoneKey of a node with these labels.
func ZoneKeyOf(labels map[string]string) string {
	zone, region := zoneAndRegion(labels)
	if region == "" && zone == "" {
		return ""
	}
	return region + zoneKeySeparator + zone
}

// zoneAndRegion reads a node's zone and region labels as GetZoneKey
// does: the deprecated beta labels win where present.
func zoneAndRegion(labels map[string]string) (zone, region string) {
	zone, ok := labels[BetaZoneKey]
	if !ok {
		zone = labels[ZoneKey]
	}
	region, ok = labels[BetaRegionKey]
	if !ok {
		region = labels[RegionKey]
	}
	return zone, region
}

// DisruptionZoneKeys returns the node label keys the zone map reads.
func DisruptionZoneKeys() [5]string {
	return [...]string{ZoneKey, RegionKey, BetaZoneKey, BetaRegionKey, ExcludeDisruptionKey}
}

// compileDisruptionZones fills u.Zones from the nodes' labels, the zones
// numbered in the order of their first nodes.
func (u *Universe) compileDisruptionZones() {
	z := DisruptionZones{Of: make([]int, len(u.Nodes)), Excluded: make([]bool, len(u.Nodes))}
	index := map[string]int{}
	for n := range u.Nodes {
		labels := u.Nodes[n].Labels
		key := ZoneKeyOf(labels)
		i, ok := index[key]
		if !ok {
			i = len(z.Names)
			index[key] = i
			z.Names = append(z.Names, zoneDisplayName(labels, key))
			z.Counted = append(z.Counted, 0)
		}
		z.Of[n] = i
		_, z.Excluded[n] = labels[ExcludeDisruptionKey]
		if !z.Excluded[n] {
			z.Counted[i]++
		}
	}
	u.Zones = z
}

// zoneDisplayName is the name traces give the zone of a node with these
// labels and zone key.
func zoneDisplayName(labels map[string]string, key string) string {
	if key == "" {
		return unlabelledZoneDisplayKey
	}
	zone, region := zoneAndRegion(labels)
	if region == "" {
		return zone
	}
	return region + "/" + zone
}

// TaintQueued is a status bit of a node that is not Ready: the node
// lifecycle controller has seen it not Ready and queued it for its
// NoExecute taint (upstream's zoneNoExecuteTainter), but its zone's state
// holds the taint back (a small zone in a partial disruption, or every
// zone fully disrupted). An event that sets the node's status clears it,
// as it clears the taint.
const TaintQueued NodeStatus = 0x08

// TaintIsQueued reports whether the status carries TaintQueued.
func (s NodeStatus) TaintIsQueued() bool { return s&TaintQueued != 0 }

// SeenNotReady reports whether the node lifecycle controller sees the
// node as not Ready: it is not, and the controller has handled it (it
// carries the not-ready or unreachable taint, or TaintQueued) or has it
// queued (queued: the node is in the node-controller queue). A node that
// went down without being reported yet (nodeFailure's first step: within
// the node-monitor grace period) is still Ready to the controller.
func (s NodeStatus) SeenNotReady(queued bool) bool {
	if s.Health() == Ready {
		return false
	}
	_, tainted := s.NodeDownTaint()
	return tainted || s.TaintIsQueued() || queued
}
