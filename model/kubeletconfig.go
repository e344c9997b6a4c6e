package model

import "math"

// The kubelets' eviction configuration: one KubeletConfiguration
// (kubelet.config.k8s.io/v1beta1) for every node of the cluster, as a
// manifest input gives it (inputs/manifest kubeletconfig.go). Without one
// every kubelet has the defaults: a hard memory.available threshold of
// 100Mi, no soft threshold, no minimum reclaim.
//
// The thresholds are evaluated on allocatableMemory.available and
// memory.available (pkg/kubelet/eviction, v1.36). The model's node Memory
// is status.allocatable, which the kubelet computes as capacity less
// kube-reserved, system-reserved and the hard memory.available threshold
// H; the pods' cgroup limit is capacity less the reservations, that is
// allocatable + H. The model assumes the system daemons use what they
// reserve, so both signals observe allocatable + H − (the pods' usage)
// and the larger threshold of each pair decides (a percentage of the
// node's capacity for memory.available, of the pods' cgroup limit for
// allocatableMemory.available: the former). A hard threshold is therefore
// met exactly when the pods use more than the node's allocatable, whatever
// H is; a soft threshold S above H is met from S − H below allocatable.

// Mi is a mebibyte in bytes: the model's memory unit for manifests.
const Mi = 1 << 20

// KubeletDecl is the kubelets' eviction configuration for memory.
type KubeletDecl struct {
	// Configured says that the input gives a KubeletConfiguration;
	// otherwise every kubelet has the defaults (DefaultKubelet) and the
	// report says so.
	Configured bool
	// EvictionHard is evictionHard's memory.available (none: no hard
	// memory threshold, as when evictionHard lists other signals only).
	EvictionHard EvictionQuantity
	// EvictionSoft is evictionSoft's memory.available, with
	// SoftGracePeriod its evictionSoftGracePeriod as written.
	EvictionSoft    EvictionQuantity
	SoftGracePeriod string
	// MinimumReclaim is evictionMinimumReclaim's memory.available.
	MinimumReclaim EvictionQuantity
}

// EvictionQuantity is a threshold or a minimum reclaim: an amount in
// bytes, or a fraction of the node's memory capacity (upstream's float32
// percentage); the zero value is none.
type EvictionQuantity struct {
	Bytes      int64
	Percentage float32
	// Text is the value as written, for reports.
	Text string
}

// Set reports whether q is a threshold at all.
func (q EvictionQuantity) Set() bool { return q.Bytes != 0 || q.Percentage != 0 }

// On is q in bytes on a node of capacity capBytes, as
// evictionapi.GetThresholdQuantity computes it.
func (q EvictionQuantity) On(capBytes int64) int64 {
	if q.Percentage != 0 {
		return int64(float64(capBytes) * float64(q.Percentage))
	}
	return q.Bytes
}

// DefaultKubelet is the configuration of a kubelet without a
// KubeletConfiguration: eviction.DefaultEvictionHard's memory.available.
func DefaultKubelet() KubeletDecl {
	return KubeletDecl{EvictionHard: EvictionQuantity{Bytes: EvictionHardMemoryAvailable * Mi, Text: "100Mi"}}
}

// MemoryEviction is one node's memory eviction thresholds in bytes of the
// signal (0: none), set by Compile from Universe.Kubelet and the node's
// capacity.
type MemoryEviction struct {
	Hard, Soft, MinimumReclaim int64
}

// compileMemoryEviction sets every node's thresholds.
func (u *Universe) compileMemoryEviction() {
	k := u.Kubelet
	if !k.Configured {
		k = DefaultKubelet()
	}
	for i := range u.Nodes {
		n := &u.Nodes[i]
		capacity := n.MemoryCapacity
		if capacity <= 0 {
			capacity = n.Memory
		}
		capBytes := min(capacity, math.MaxInt64/Mi) * Mi
		n.Eviction = MemoryEviction{Hard: k.EvictionHard.On(capBytes), Soft: k.EvictionSoft.On(capBytes),
			MinimumReclaim: k.MinimumReclaim.On(capBytes)}
	}
}

// memoryAvailableBytes is node n's allocatableMemory.available signal in
// bytes: allocatable plus the hard threshold, less what its pods use.
func (u *Universe) memoryAvailableBytes(s *State, n int) int64 {
	return (u.Nodes[n].Memory-u.MemoryUsage(s, n))*Mi + u.Nodes[n].Eviction.Hard
}

// MemoryThresholdsMet reports which of node n's memory thresholds are
// met in s (thresholdsMet), a threshold not yet resolved after an
// eviction (NodeState.Reclaiming) counting as met until the signal is
// its minimum reclaim above it.
func (u *Universe) MemoryThresholdsMet(s *State, n int) (hard, soft bool) {
	e := u.Nodes[n].Eviction
	available := u.memoryAvailableBytes(s, n)
	var reclaim int64
	if s.Nodes[n].Reclaiming {
		reclaim = e.MinimumReclaim
	}
	hard = e.Hard > 0 && available < e.Hard+reclaim
	soft = e.Soft > 0 && available < e.Soft+reclaim
	return hard, soft
}

// ceilMi is bytes in MiB, rounded up.
func ceilMi(bytes int64) int64 { return (bytes + Mi - 1) / Mi }

// EvictionThresholdMi is node n's hard memory threshold in MiB (rounded
// up), for reports; 0 without one.
func (u *Universe) EvictionThresholdMi(n int) int64 { return ceilMi(u.Nodes[n].Eviction.Hard) }

// SoftThresholdMi is node n's soft memory threshold in MiB (rounded
// up), for reports; 0 without one.
func (u *Universe) SoftThresholdMi(n int) int64 { return ceilMi(u.Nodes[n].Eviction.Soft) }
