package manifest

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kivi-go/kivi/model"
)

// KubeletConfiguration is the part of a kubelet.config.k8s.io/v1beta1
// KubeletConfiguration the model reads: the memory eviction thresholds
// (model/kubeletconfig.go) and maxPods. One configuration applies to
// every node of the cluster.
type KubeletConfiguration struct {
	TypeMeta
	EvictionHard                 map[string]string `json:"evictionHard"`
	EvictionSoft                 map[string]string `json:"evictionSoft"`
	EvictionSoftGracePeriod      map[string]string `json:"evictionSoftGracePeriod"`
	EvictionMinimumReclaim       map[string]string `json:"evictionMinimumReclaim"`
	MergeDefaultEvictionSettings *bool             `json:"mergeDefaultEvictionSettings"`
	MaxPods                      *int32            `json:"maxPods"`
}

// Eviction signals (evictionapi.Signal) the kubelet accepts.
const (
	signalMemoryAvailable            = "memory.available"
	signalAllocatableMemoryAvailable = "allocatableMemory.available"
)

// evictionSignals are the signals the kubelet accepts (validSignal); all
// but memory.available are warned about as not modelled.
var evictionSignals = []string{signalMemoryAvailable, signalAllocatableMemoryAvailable, "nodefs.available", "nodefs.inodesFree",
	"imagefs.available", "imagefs.inodesFree", "containerfs.available", "containerfs.inodesFree", "pid.available"}

// defaultEvictionHard is eviction.DefaultEvictionHard on Linux.
var defaultEvictionHard = map[string]string{signalMemoryAvailable: "100Mi", "nodefs.available": "10%", "nodefs.inodesFree": "5%",
	"imagefs.available": "15%", "imagefs.inodesFree": "5%"}

// kubeletConfigRules classifies a KubeletConfiguration's other fields:
// those that change which pods a node admits or keeps are warned about;
// the reservations are in the Nodes' status.allocatable already.
var kubeletConfigRules = append([]fieldRule{
	{"podsPerCore", "the nodes' pod capacity is their status's pods, else maxPods"},
	{"cpuManagerPolicy", "the CPU manager's admission is not modelled"},
	{"memoryManagerPolicy", "the memory manager's admission is not modelled"},
	{"topologyManagerPolicy", "the topology manager's admission is not modelled"},
	{"memorySwap", "swap is not modelled: a pod's memory is its working set"},
}, quietKubeletFields()...)

// quietKubeletFields are the KubeletConfiguration fields that change
// nothing the model represents: the reservations and enforcement that
// status.allocatable already reflects, the eviction timing the model
// abstracts (no clock), and the kubelet's operation.
func quietKubeletFields() []fieldRule {
	var out []fieldRule
	for _, f := range strings.Fields(`systemReserved kubeReserved enforceNodeAllocatable reservedMemory reservedSystemCPUs
		systemReservedCgroup kubeReservedCgroup evictionPressureTransitionPeriod evictionMaxPodGracePeriod kernelMemcgNotification
		enableServer staticPodPath podLogsDir syncFrequency fileCheckFrequency httpCheckFrequency staticPodURL staticPodURLHeader
		address port readOnlyPort tlsCertFile tlsPrivateKeyFile tlsCipherSuites tlsCurvePreferences tlsMinVersion rotateCertificates
		serverTLSBootstrap authentication authorization registryPullQPS registryBurst imagePullCredentialsVerificationPolicy
		preloadedImagesVerificationAllowlist eventRecordQPS eventBurst enableDebuggingHandlers enableContentionProfiling healthzPort
		healthzBindAddress oomScoreAdj clusterDomain clusterDNS streamingConnectionIdleTimeout nodeStatusUpdateFrequency
		nodeStatusReportFrequency nodeLeaseDurationSeconds imageMinimumGCAge imageMaximumGCAge imageGCHighThresholdPercent
		imageGCLowThresholdPercent volumeStatsAggPeriod kubeletCgroups systemCgroups cgroupRoot cgroupsPerQOS cgroupDriver
		singleProcessOOMKill cpuManagerPolicyOptions cpuManagerReconcilePeriod topologyManagerScope topologyManagerPolicyOptions
		qosReserved runtimeRequestTimeout hairpinMode podCIDR podPidsLimit resolvConf runOnce cpuCFSQuota cpuCFSQuotaPeriod
		nodeStatusMaxImages maxOpenFiles contentType kubeAPIQPS kubeAPIBurst serializeImagePulls maxParallelImagePulls
		enableControllerAttachDetach protectKernelDefaults makeIPTablesUtilChains iptablesMasqueradeBit iptablesDropBit featureGates
		failSwapOn containerLogMaxSize containerLogMaxFiles containerLogMaxWorkers containerLogMonitorInterval
		configMapAndSecretChangeDetectionStrategy showHiddenMetricsForVersion allowedUnsafeSysctls volumePluginDir providerID
		logging enableSystemLogHandler enableSystemLogQuery shutdownGracePeriod shutdownGracePeriodCriticalPods
		shutdownGracePeriodByPodPriority crashLoopBackOff enableProfilingHandler enableDebugFlagsHandler seccompDefault
		memoryThrottlingFactor memoryReservationPolicy registerWithTaints registerNode tracing localStorageCapacityIsolation
		containerRuntimeEndpoint imageServiceEndpoint failCgroupV1 userNamespaces`) {
		out = append(out, fieldRule{f, ""})
	}
	return out
}

// kubeletDecl reads the input's KubeletConfiguration (at most one) into
// c: the memory thresholds, validated as the kubelet's
// ParseThresholdConfig does at start, and maxPods for the node types
// whose status does not give their pod capacity.
func kubeletDecl(objs []Object, c *model.Cluster, warns *[]Warning) error {
	var first *Object
	for i := range objs {
		o := &objs[i]
		cfg, ok := o.Value.(*KubeletConfiguration)
		if !ok {
			continue
		}
		if first != nil {
			return o.at().errorf(o.path(""), "a second KubeletConfiguration (the first is in %s document %d; accepted: one, for every node of the cluster)", first.File, first.Doc)
		}
		first = o
		k, err := kubeletThresholds(*o, cfg, warns)
		if err != nil {
			return err
		}
		c.Kubelet = k
		if cfg.MaxPods != nil {
			if *cfg.MaxPods < 0 {
				return o.at().errorf(o.path("maxPods"), "%d (accepted: 0 or more pods per node; 0 is the default, 110)", *cfg.MaxPods)
			}
			for j := range c.NodeTypes {
				if c.NodeTypes[j].MaxPods == 0 {
					c.NodeTypes[j].MaxPods = int(*cfg.MaxPods)
				}
			}
		}
	}
	return nil
}

// kubeletThresholds reads the memory.available thresholds.
func kubeletThresholds(o Object, cfg *KubeletConfiguration, warns *[]Warning) (model.KubeletDecl, error) {
	k := model.KubeletDecl{Configured: true}
	hard := cfg.EvictionHard
	if hard == nil {
		hard = defaultEvictionHard
	} else if cfg.MergeDefaultEvictionSettings != nil && *cfg.MergeDefaultEvictionSettings {
		merged := map[string]string{}
		for s, v := range defaultEvictionHard {
			merged[s] = v
		}
		for s, v := range hard {
			merged[s] = v
		}
		hard = merged
	}
	var err error
	if k.EvictionHard, err = thresholdStatements(o, "evictionHard", hard, cfg.EvictionHard, warns); err != nil {
		return k, err
	}
	if k.EvictionSoft, err = thresholdStatements(o, "evictionSoft", cfg.EvictionSoft, cfg.EvictionSoft, warns); err != nil {
		return k, err
	}
	grace, err := gracePeriods(o, cfg.EvictionSoftGracePeriod)
	if err != nil {
		return k, err
	}
	for _, s := range signalsOf(cfg.EvictionSoft) {
		if _, ok := grace[s]; !ok && softThresholdSet(cfg.EvictionSoft[s]) {
			return k, o.at().errorf(o.path("evictionSoftGracePeriod"), "no grace period for the soft eviction threshold %s (accepted: a duration such as 1m30s for every signal of evictionSoft)", s)
		}
	}
	if k.EvictionSoft.Set() {
		k.SoftGracePeriod = grace[signalMemoryAvailable].String()
	}
	if k.MinimumReclaim, err = minimumReclaims(o, cfg.EvictionMinimumReclaim); err != nil {
		return k, err
	}
	return k, nil
}

// softThresholdSet: a 0% or 100% threshold is ignored (no grace period
// needed).
func softThresholdSet(v string) bool { return v != "0%" && v != "100%" }

func signalsOf(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// checkSignal fails on a signal the kubelet does not know.
func checkSignal(o Object, field, s string) error {
	if !slices.Contains(evictionSignals, s) {
		return o.at().errorf(o.path(field+"."+s), "unknown eviction signal %q (accepted: %s)", s, strings.Join(evictionSignals, ", "))
	}
	return nil
}

// thresholdStatements validates every statement of field (evictionHard
// or evictionSoft) and returns the memory.available one; statements of
// other signals are not modelled, and warned about when the input writes
// them (written; the kubelet's defaults are not).
func thresholdStatements(o Object, field string, statements, written map[string]string, warns *[]Warning) (model.EvictionQuantity, error) {
	var out model.EvictionQuantity
	for _, s := range signalsOf(statements) {
		if err := checkSignal(o, field, s); err != nil {
			return out, err
		}
		q, err := thresholdValue(o, field+"."+s, statements[s])
		if err != nil {
			return out, err
		}
		switch {
		case s == signalMemoryAvailable:
			out = q
		case written[s] != "" && q.Set():
			why := "disk and PID pressure are not modelled"
			if s == signalAllocatableMemoryAvailable {
				why = "the model evaluates allocatableMemory.available with memory.available's threshold (enforceNodeAllocatable: pods)"
			}
			*warns = append(*warns, o.at().warning(o.path(field+"."+s), "ignored: %s", why))
		}
	}
	return out, nil
}

// evictionValues is what every threshold error message quotes.
const evictionValues = "a quantity > 0 such as 500Mi, or a percentage of the node's capacity from 0% to 100% such as 5%; 0% and 100% are no threshold"

// thresholdValue parses a threshold as parseThresholdStatement does.
func thresholdValue(o Object, field, v string) (model.EvictionQuantity, error) {
	if strings.HasSuffix(v, "%") {
		if !softThresholdSet(v) {
			return model.EvictionQuantity{}, nil
		}
		p, ok := percentage(v)
		if !ok || p < 0 || p > 1 {
			return model.EvictionQuantity{}, o.at().errorf(o.path(field), "%q (accepted: %s)", v, evictionValues)
		}
		return model.EvictionQuantity{Percentage: p, Text: v}, nil
	}
	b, ok := evictionBytes(v)
	if !ok || b <= 0 {
		return model.EvictionQuantity{}, o.at().errorf(o.path(field), "%q (accepted: %s)", v, evictionValues)
	}
	return model.EvictionQuantity{Bytes: b, Text: v}, nil
}

// percentage parses "N%" as parsePercentage does (a float32 fraction),
// accepting only a plain decimal number.
func percentage(v string) (float32, bool) {
	num := strings.TrimRight(v, "%")
	if num == "" || strings.ContainsFunc(num, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r == '.' || r == '-' || r == '+' || r == 'e' || r == 'E')
	}) {
		return 0, false
	}
	f, err := strconv.ParseFloat(num, 32)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return float32(f) / 100, true
}

// maxEvictionBytes bounds a threshold: the model's memory in bytes.
const maxEvictionBytes = 1 << 50

// evictionBytes parses a quantity in bytes, rounded up; ok is false for
// a quantity that is not one, or negative, or beyond the model's memory.
func evictionBytes(v string) (int64, bool) {
	q, err := ParseQuantity(v)
	if err != nil || q.Sign() < 0 {
		return 0, false
	}
	b, ok := q.Scaled(big1, true)
	return b, ok && b <= maxEvictionBytes
}

// gracePeriods parses evictionSoftGracePeriod as parseGracePeriods does.
func gracePeriods(o Object, statements map[string]string) (map[string]time.Duration, error) {
	out := map[string]time.Duration{}
	for _, s := range signalsOf(statements) {
		if err := checkSignal(o, "evictionSoftGracePeriod", s); err != nil {
			return nil, err
		}
		d, err := time.ParseDuration(statements[s])
		if err != nil || d < 0 {
			return nil, o.at().errorf(o.path("evictionSoftGracePeriod."+s), "%q (accepted: a duration ≥ 0 such as 90s or 1m30s)", statements[s])
		}
		out[s] = d
	}
	return out, nil
}

// minimumReclaims validates evictionMinimumReclaim as
// parseMinimumReclaims does and returns memory.available's.
func minimumReclaims(o Object, statements map[string]string) (model.EvictionQuantity, error) {
	var out model.EvictionQuantity
	for _, s := range signalsOf(statements) {
		if err := checkSignal(o, "evictionMinimumReclaim", s); err != nil {
			return out, err
		}
		v, field := statements[s], "evictionMinimumReclaim."+s
		bad := func() error {
			return o.at().errorf(o.path(field), "%q (accepted: a quantity ≥ 0 such as 200Mi, or a percentage of the node's capacity > 0%% such as 2%%)", v)
		}
		var q model.EvictionQuantity
		if strings.HasSuffix(v, "%") {
			p, ok := percentage(v)
			if !ok || p <= 0 {
				return out, bad()
			}
			q = model.EvictionQuantity{Percentage: p, Text: v}
		} else {
			b, ok := evictionBytes(v)
			if !ok {
				return out, bad()
			}
			q = model.EvictionQuantity{Bytes: b, Text: v}
		}
		if s == signalMemoryAvailable {
			out = q
		}
	}
	return out, nil
}

// keepMemoryCapacity keeps the nodes' memory capacity only where it
// matters: when objs hold a KubeletConfiguration with a percentage of it
// for memory.available. Elsewhere two nodes of one allocatable but
// different capacities stay one node type.
func keepMemoryCapacity(objs []Object, nodes []nodeIn) []nodeIn {
	for _, o := range objs {
		if cfg, ok := o.Value.(*KubeletConfiguration); ok {
			for _, m := range []map[string]string{cfg.EvictionHard, cfg.EvictionSoft, cfg.EvictionMinimumReclaim} {
				if strings.HasSuffix(m[signalMemoryAvailable], "%") {
					return nodes
				}
			}
		}
	}
	for i := range nodes {
		nodes[i].memoryCapacity = 0
	}
	return nodes
}
