package model

import (
	"errors"
	"fmt"
)

// ErrInvalid marks every error about an inconsistent Universe or State.
var ErrInvalid = errors.New("invalid model")

// MaxObjects is the most deployments and templates a Universe holds:
// states store their indices in one byte. It is also the most nodes and
// pod slots whose indices states encode on one byte (Universe.wideRefs,
// Universe.wideNodes).
const MaxObjects = 250

// MaxPodSlots is the most pod slots a Universe holds. Pod slots are
// referred to (queues, failures) by one byte up to MaxObjects slots and
// by two above (Universe.wideRefs).
const MaxPodSlots = 4000

// MaxNodes is the most nodes a Universe holds. A pod refers to its node
// by a uint16; states encode node indices on one byte up to MaxObjects
// nodes and on two above (Universe.wideNodes).
const MaxNodes = 4000

// ErrModelBound marks a topology larger than the model can hold
// (MaxObjects): not a mistake in the input, so a verification of it is
// Unknown, not an input error.
var ErrModelBound = errors.New("model bound")

// SizeError says which table of the model a topology overflows; it is an
// ErrModelBound.
type SizeError struct {
	What string // nodes, pod slots, deployments or pod templates
	Need int
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("this topology needs %d %s; the model holds at most %d", e.Need, e.What, e.Max())
}

// Max is the bound the topology overflows.
func (e *SizeError) Max() int {
	switch e.What {
	case "pod slots":
		return MaxPodSlots
	case "nodes":
		return MaxNodes
	}
	return MaxObjects
}

// Is makes a SizeError an ErrModelBound.
func (e *SizeError) Is(target error) bool { return target == ErrModelBound }

// Hostname label keys: Kubernetes' well-known key, which every node
// carries, and Kivi's short alias, which nodes carry only with
// Options.KiviHostnameAlias (Kivi's own inputs).
const (
	HostnameKey      = "kubernetes.io/hostname"
	KiviHostnameKey  = "hostname"
	DefaultMaxPods   = 110
	DefaultTolerance = 10 // HPA tolerance in percent
)

// Node is one node of the topology. CPU and Memory are allocatable
// capacities in model units (Kivi's cases use 64); ReservedCPU and
// ReservedMemory are taken by pods the model does not track (system pods,
// foreign load), so a node's free resources are capacity − reserved − the
// requests of the model's pods on it.
type Node struct {
	Name           string
	Type           int // node type, for symmetry reduction and the scaling search
	CPU, Memory    int64
	ReservedCPU    int64
	ReservedMemory int64
	// MaxPods bounds the pods on the node (default 110); ReservedPods of
	// them are taken by untracked pods.
	MaxPods      int
	ReservedPods int
	// MemoryCapacity is the node's status.capacity memory (0: unknown,
	// taken as its allocatable), the base of percentage eviction
	// thresholds; Eviction are its memory eviction thresholds, set by
	// Compile (kubeletconfig.go).
	MemoryCapacity int64
	Eviction       MemoryEviction
	// Scalar and ReservedScalar are the node's allocatable and reserved
	// amounts of the scalar resources, aligned with
	// Universe.ScalarResources (scalar.go); nil when it has none.
	// ScalarListed[k] says that the node's allocatable names resource k
	// at all (the kubelet's admission ignores an extended resource it
	// does not).
	Scalar, ReservedScalar []int64
	ScalarListed           []bool
	Labels                 map[string]string
	Taints                 []Taint
	// ReservedHostPorts are the host ports held by the untracked pods
	// (DaemonSets' pods) of the node (hostports.go).
	ReservedHostPorts []HostPort

	// LabelSet is Labels compiled (set by Compile).
	LabelSet LabelSet
}

// TaintEffect is a Kubernetes taint effect.
type TaintEffect string

const (
	NoSchedule       TaintEffect = "NoSchedule"
	PreferNoSchedule TaintEffect = "PreferNoSchedule"
	NoExecute        TaintEffect = "NoExecute"
)

// Taint is a node taint.
type Taint struct {
	Key, Value string
	Effect     TaintEffect
}

// Toleration is a pod toleration (operator Equal or Exists; an empty
// Effect tolerates every effect; an empty Key with Exists tolerates all).
type Toleration struct {
	Key      string
	Operator string // "Equal" (default) or "Exists"
	Value    string
	Effect   TaintEffect
	// TolerationSeconds bounds how long a tolerated NoExecute taint lets
	// the pod stay (nil: forever); see noexecute.go.
	TolerationSeconds *int64
}

// Tolerates reports whether the toleration tolerates the taint
// (Kubernetes' v1.Toleration.ToleratesTaint).
func (t Toleration) Tolerates(taint Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "Exists":
		return true
	case "", "Equal":
		return t.Value == taint.Value
	}
	return false
}

// WhenUnsatisfiable of a topology spread constraint.
type WhenUnsatisfiable uint8

const (
	DoNotSchedule WhenUnsatisfiable = iota
	ScheduleAnyway
)

func (w WhenUnsatisfiable) String() string {
	if w == DoNotSchedule {
		return "DoNotSchedule"
	}
	return "ScheduleAnyway"
}

// SpreadConstraint is a topology spread constraint of a pod template.
type SpreadConstraint struct {
	MaxSkew     int
	MinDomains  int // default 1
	TopologyKey string
	When        WhenUnsatisfiable
	Selector    *Selector
	// MatchLabelKeys are labels of the declaring pod whose values the
	// selector must match too (labelkeys.go).
	MatchLabelKeys []string
	// HonorNodeAffinity (default true) and HonorNodeTaints (default false)
	// are the node inclusion policies.
	HonorNodeAffinity bool
	HonorNodeTaints   bool

	// Key is TopologyKey interned; MatchesTemplate[t] says whether pods of
	// template t match Selector merged with MatchLabelKeys but for
	// pod-template-hash, which is Revision (set by Compile).
	Key             KeyID
	MatchesTemplate []bool
	Revision        RevisionMatch
	// SelectorEmpty: an empty ({}) selector, also with MatchLabelKeys
	// merged but for pod-template-hash (CountsNone); Kubernetes then
	// counts no existing pod although the incoming pod matches itself.
	SelectorEmpty bool
}

// UsagePoint is one entry of a CPU usage pattern: from At logical steps
// after the pod started, its CPU usage is CPU. Entry 0 is the usage at
// start.
type UsagePoint struct {
	CPU int64
	At  int
}

// PreferredTerm is a preferred node-affinity term.
type PreferredTerm struct {
	Weight int
	Term   Selector
}

// PodTemplate is the pod spec part the model needs.
type PodTemplate struct {
	Name   string
	Labels map[string]string
	// Namespace is TemplateDecl's (namespace.go).
	Namespace   string
	CPU, Memory int64 // requests
	// Scalar are the requests of the scalar resources (ephemeral-storage,
	// huge pages, extended resources), aligned with
	// Universe.ScalarResources (scalar.go); nil when it has none.
	Scalar []int64
	// NodeName pins the pod to a node (index+1; 0 = unset): it bypasses
	// the scheduler.
	NodeName     int
	NodeSelector map[string]string
	// Required node-affinity terms are ORed; each term is a Selector over
	// node labels.
	Required    []Selector
	Preferred   []PreferredTerm
	Tolerations []Toleration
	Spread      []SpreadConstraint
	// Pattern is a CPU usage time series (Kivi's curCpuRequest /
	// timeCpuRequest); empty means usage stays at the request.
	Pattern []UsagePoint
	// Critical marks system-critical pods (the descheduler spares them
	// unless its profile allows).
	Critical bool
	// LocalStorage marks pods with an emptyDir or hostPath volume, which
	// the descheduler's DefaultEvictor does not evict unless its profile
	// sets EvictLocalStoragePods (priority.go).
	LocalStorage bool
	// OS is the pod's spec.os.name ("" when unset), which the kubelet
	// checks against its own OS at admission (kubeletos.go).
	OS string
	// DeschedulerEvict and PreferNoEviction are the template's
	// descheduler.alpha.kubernetes.io/evict and
	// descheduler.alpha.kubernetes.io/prefer-no-eviction annotations
	// (evictorconstraints.go).
	DeschedulerEvict, PreferNoEviction bool
	// PVC marks pods with a PersistentVolumeClaim volume (a StatefulSet's
	// claim templates give every pod one), which the DefaultEvictor does
	// not evict when its profile sets IgnorePvcPods.
	PVC bool
	// Priority is the pods' spec.priority, as the priority admission
	// plugin resolves it from the priorityClassName (priority.go), and
	// PreemptionPolicy their spec.preemptionPolicy ("" is
	// PreemptLowerPriority).
	Priority         int32
	PreemptionPolicy PreemptionPolicy
	// PodAffinity and PodAntiAffinity are the required inter-pod
	// (anti-)affinity terms, the Preferred ones the weighted terms
	// (podaffinity.go).
	PodAffinity, PodAntiAffinity                   []PodAffinityTerm
	PreferredPodAffinity, PreferredPodAntiAffinity []WeightedPodAffinityTerm
	// NonZeroCPU and NonZeroMemory are the requests LeastAllocated scores
	// the pod with (kube-scheduler's NonZeroRequested: a container without
	// a cpu or memory request counts as 100m or 200Mi); 0 means the
	// requests as written. Only the manifest reader sets them, where the
	// model's units are millicores and MiB and a request is genuinely
	// missing; Kivi's inputs score their requests as written.
	NonZeroCPU, NonZeroMemory int64
	// LimitCPU and LimitMemory are the pod's limits (resource.PodLimits),
	// which quotas on limits.cpu and limits.memory charge;
	// QuotaMissing[r] are the containers that do not specify the
	// resource r of QuotaRequestsCPU … QuotaLimitsMemory, which a quota
	// on it refuses (resourcequota.go).
	LimitCPU, LimitMemory int64
	QuotaMissing          [QuotaConstraints][]string
	// MissingMetricRequest[r], when not empty, is why the HPA's replica
	// calculator cannot read the pod's request of resource r (indexed by
	// MetricSource): upstream's calculateRequests error, such as "missing
	// request for cpu in container sidecar". A Utilization metric of r
	// over a deployment with such a pod is invalid (controllers/hpa).
	MissingMetricRequest [2]string
	// ReservedOnly[r] is the part of the request of resource r (indexed
	// by MetricSource) that no running container requests: the excess of
	// the largest init container over the containers, and the pod
	// overhead. The HPA does not divide by it, and pods do not use it
	// (metricrequest.go). Set by the manifest reader only.
	ReservedOnly [2]int64
	// Overhead[r] is the pod overhead's part of the request of resource r
	// (indexed by MetricSource), which the QoS class does not read
	// (BestEffort). Set by the manifest reader only.
	Overhead [2]int64
	// Guaranteed: the pods are of QoS class Guaranteed (QoS). Set by the
	// manifest reader only.
	Guaranteed bool
	// PodLevel[r]: the pod-level resources request resource r (indexed by
	// MetricSource: cpu, memory), as the API server defaults them (a
	// pod-level request or limit). The kubelet's preemption for a
	// critical pod then counts only those requests of the pod, not its
	// containers' (resource.GetResourceRequest). Set by the manifest
	// reader only.
	PodLevel [2]bool
	// PriorityClassName is TemplateDecl's (ResourceQuota scopes).
	PriorityClassName string
	// ActiveDeadline: the pod spec sets activeDeadlineSeconds, which
	// puts its pods in the ResourceQuota scope Terminating
	// (resourcequota.go). Set by the manifest reader only.
	ActiveDeadline bool
	// ProbesReadiness: a container has a readinessProbe or startupProbe,
	// or the pod has readinessGates: its pods start Running but not
	// Ready (readiness.go). MinReadySeconds is its workload's
	// spec.minReadySeconds: a Ready pod is available only after it.
	ProbesReadiness bool
	MinReadySeconds int32
	// HostPorts are the host ports the pods bind (hostports.go): the
	// containers' and sidecar init containers' ports with a hostPort.
	HostPorts []HostPort

	// Compiled (set by Compile).
	LabelSet LabelSet
	// Fit[n] is what the scheduler's static plugins say about node n.
	Fit []NodeFit
	// NodeDownTolerance[i]: what the pod tolerates of the taints
	// NodeDownTaints[i] the node lifecycle controller puts on a node that
	// is not Ready (notready.go).
	NodeDownTolerance NodeDownTolerances
	// ToleratesOutOfService: the pod tolerates the out-of-service taint
	// an operator puts on a node lost for good (nodeloss.go).
	ToleratesOutOfService bool
	// ToleratesUnschedulable: the pod tolerates the taint of a cordoned
	// node (cordon.go).
	ToleratesUnschedulable bool
	// PreferredInvalid: a preferred node-affinity term has a key or value
	// of invalid syntax, so kube-scheduler's NodeAffinity PreScore fails and
	// a cycle that scores ends in an error (labelvalues.go).
	PreferredInvalid bool
}

// NodeFit is the static (state-independent) relation between one template
// and one node.
type NodeFit struct {
	// NodeName: the nodeName filter passes.
	NodeName bool
	// Affinity: nodeSelector and required node affinity match.
	Affinity bool
	// Untolerated taints by effect.
	NoSchedule, NoExecute bool
	PreferNoSchedule      int
	// NoExecuteTaints is what the taint-eviction-controller does with the
	// pod for the node's NoExecute taints, and NodeDown[i] for those plus
	// NodeDownTaints[i] when the node is not Ready (noexecute.go).
	NoExecuteTaints NoExecuteToleration
	NodeDown        [2]NoExecuteToleration
	// OutOfService[i] is NodeDown[i] with the out-of-service taint too,
	// and OutOfService[2] the node's NoExecute taints with it alone (a
	// node whose zone holds back the node-down taint), for a node an
	// operator taints while the model runs (nodeloss.go).
	OutOfService [3]NoExecuteToleration
	// Preferred is the summed weight of matching preferred terms.
	Preferred int
	// HostPortsReserved: a host port of the pod is held on the node by
	// a pod the model does not track, a DaemonSet's (hostports.go).
	HostPortsReserved bool
	// AddedAffinityRejects: the scheduler profile's addedAffinity
	// required selector does not match the node, and AddedPreferred is
	// the summed weight of its preferred terms that do (AddedAffinity):
	// only the scheduler's NodeAffinity plugin reads them.
	AddedAffinityRejects bool
	AddedPreferred       int
	// OSLabelMismatch: the pod's kubernetes.io/os label is not the node's
	// OS; OSFieldMismatch: its spec.os.name is not. The kubelet rejects
	// such a pod at admission (kubeletos.go). Kept here with the
	// scheduler's facts because they too tell nodes apart for the pods of
	// one template, though no scheduler plugin reads them.
	OSLabelMismatch, OSFieldMismatch bool
}

// Strategy is a Deployment update strategy.
type Strategy uint8

const (
	RollingUpdate Strategy = iota
	Recreate
)

// IntOrPercent is maxSurge / maxUnavailable.
type IntOrPercent struct {
	Value   int
	Percent bool
}

// Resolve returns the absolute value against replicas, rounding up or down
// as Kubernetes does (surge up, unavailable down).
func (v IntOrPercent) Resolve(replicas int, roundUp bool) int {
	if !v.Percent {
		return v.Value
	}
	x := v.Value * replicas
	if roundUp {
		return (x + 99) / 100
	}
	return x / 100
}

// DeploymentConfig is everything of a Deployment's spec but its replica
// count: what `kubectl apply` of a deployment template can change.
type DeploymentConfig struct {
	PodTemplate    int // index into Universe.Templates
	Strategy       Strategy
	MaxSurge       IntOrPercent
	MaxUnavailable IntOrPercent
	// StatefulSet is a StatefulSet's own spec (statefulset.go); the zero
	// value for a Deployment.
	StatefulSet StatefulSetSpec
	// Job is a Job's own spec (job.go); the zero value for the other
	// kinds.
	Job JobSpec
}

// MetricSource names the resource an HPA metric reads.
type MetricSource uint8

const (
	CPU MetricSource = iota
	Memory
)

// String is the resource's name in Kubernetes: cpu or memory.
func (m MetricSource) String() string {
	if m == Memory {
		return "memory"
	}
	return "cpu"
}

// MetricTarget is Utilization (percent of request), AverageValue or
// Value (hpametrics.go).
type MetricTarget uint8

const (
	Utilization MetricTarget = iota
	AverageValue
)

// Metric is one HPA metric.
type Metric struct {
	// Kind is the metric's source type; the zero value is a Resource
	// metric (hpametrics.go).
	Kind     MetricKind
	Resource MetricSource
	Target   MetricTarget
	// Value is the target: a percent, model units per pod, or for
	// metrics outside the model a milli-value (Kubernetes'
	// MilliValue), per pod or in total.
	Value int64
	// Name is the metric's name (the container's for a ContainerResource
	// metric; for an InvalidMetric, why the HPA fails it), for traces.
	Name string
}

// HPA is a HorizontalPodAutoscaler spec.
type HPA struct {
	Min, Max int
	Metrics  []Metric
	// TolerancePercent is the HPA tolerance (default 10 %).
	TolerancePercent int
	// ScaleDownStabilizationSyncs is the downscale stabilisation window
	// in HPA sync periods: a recommendation keeps holding the replica
	// count up for that many later syncs (Kubernetes' window of S seconds
	// is Syncs(S) − 1: its 300 s default is 19). 0 = off, Kivi's behaviour; at most
	// MaxStabilizationSyncs, which bounds the state (DeploymentState.HPAWindow).
	// controllers/hpa documents when a sync period passes in the untimed
	// model.
	ScaleDownStabilizationSyncs int
	// Behavior is spec.behavior with the API server's defaults; nil
	// without one (the legacy normalisation above). With it, the HPA
	// stabilises in both directions and limits its rate as
	// normalizeDesiredReplicasWithBehaviors does, remembering
	// DeploymentState.HPAMemory (hpabehavior.go); ScaleDownStabilizationSyncs
	// is then 0.
	Behavior *HPABehavior
	// Name is the HorizontalPodAutoscaler's name, for traces.
	Name string
	// Ambiguous, when not empty, are the bounds of every HPA whose
	// scaleTargetRef names the workload, this one first. The HPA
	// controller then finds the workload's pods controlled by several
	// HPAs (AmbiguousSelector, ScalingActive False): no HPA computes its
	// metrics, and each of them, at its own sync, only moves a count
	// outside its minReplicas..maxReplicas back to the nearer bound. Min
	// and Max are then the lowest minimum and the highest maximum, the
	// only metric is an InvalidMetric, and there is no window and no
	// behavior (the bounds path reads neither).
	Ambiguous []HPABounds
	// AmbiguousWhenPodsOf are the workloads (deployment indices) whose
	// pods the HPA's target's selector selects and another HPA's target's
	// selects too: while one of their pods exists, the HPA finds its
	// pods controlled by multiple HPAs (AmbiguousSelector) and, like the
	// HPAs of Ambiguous, only moves a count outside its bounds.
	AmbiguousWhenPodsOf []int
	// CountsPodsOf are the other workloads (deployment indices) whose pods
	// the HPA's target's selector selects: the HPA lists their pods with
	// its target's in its metrics, as kube-controller-manager's replica
	// calculator lists every pod of the selector (its currentReplicas
	// stays the target's own status.replicas), and a change of their pods
	// queues it (State.EnqueueHPA).
	CountsPodsOf []int
}

// HPABounds are one HPA's replica bounds, with its name.
type HPABounds struct {
	Name     string
	Min, Max int
}

// Deployment is one deployment slot: its name and initial configuration.
// Slots that a later command creates start inactive.
type Deployment struct {
	Name      string
	Namespace string
	// Kind is the workload's kind: a Deployment (the zero value) or a
	// StatefulSet (statefulset.go).
	Kind WorkloadKind
	// CronJob is the CronJob (index+1 into Universe.CronJobs) whose run
	// this Job is, 0 for any other workload (cronjob.go).
	CronJob int
	// ReplicasUnset: the manifest the workload starts from leaves
	// spec.replicas out, so a later `kubectl apply` of a file without it
	// keeps the live count (lastapplied.go).
	ReplicasUnset bool
	// Paused: the manifest the workload starts from sets spec.paused
	// (paused.go).
	Paused bool
}

// DeploymentTemplate is a manifest that `kubectl apply` / `kubectl create`
// commands use.
type DeploymentTemplate struct {
	Name string
	// Replicas is nil when the manifest has no replicas field: the API
	// server defaults it to 1 (Kivi's case C2).
	Replicas *int
	Config   int // index into Universe.Configs
	// Paused is the manifest's spec.paused, nil when it leaves the field
	// out (paused.go).
	Paused *bool
	// HPA is the HPA applied with the manifest: -1 keeps the existing one,
	// 0 removes it, i > 0 is Universe.HPAs[i-1].
	HPA int
	// Kind is the manifest's kind (statefulset.go).
	Kind WorkloadKind
}

// TopologySpreadConstraints selects which constraints the descheduler's
// topology plugin balances.
type TopologySpreadConstraints uint8

const (
	HardConstraints TopologySpreadConstraints = iota // DoNotSchedule only (default)
	SoftConstraints                                  // ScheduleAnyway only
	AllConstraints
)

// BalancePlugin names a descheduler balance plugin.
type BalancePlugin uint8

const (
	RemoveDuplicates BalancePlugin = iota + 1
	RemovePodsViolatingTopologySpreadConstraint
	LowNodeUtilization
	HighNodeUtilization
)

func (p BalancePlugin) String() string {
	switch p {
	case RemoveDuplicates:
		return "RemoveDuplicates"
	case RemovePodsViolatingTopologySpreadConstraint:
		return "RemovePodsViolatingTopologySpreadConstraint"
	case LowNodeUtilization:
		return "LowNodeUtilization"
	case HighNodeUtilization:
		return "HighNodeUtilization"
	}
	return fmt.Sprintf("BalancePlugin(%d)", uint8(p))
}

// DeschedulerProfile is one descheduler profile.
type DeschedulerProfile struct {
	Name    string
	Balance []BalancePlugin

	// Deschedule is the deschedule extension point (deschedule.go).
	Deschedule DescheduleConfig

	// Args of RemovePodsViolatingTopologySpreadConstraint.
	Constraints            TopologySpreadConstraints
	TopologyBalanceNodeFit bool
	// TopologySpreadFilter and RemoveDuplicatesFilter are those plugins'
	// own pod filters (podfilter.go).
	TopologySpreadFilter, RemoveDuplicatesFilter PodFilter
	// RemoveDuplicatesExcludeOwnerKinds is RemoveDuplicates'
	// excludeOwnerKinds: pods owned by an object of one of these kinds
	// (OwnerKind) are not duplicates.
	RemoveDuplicatesExcludeOwnerKinds []string
	// Args of LowNodeUtilization and HighNodeUtilization (nodeutilization.go);
	// nil when the plugin is not configured.
	LowNodeUtilization  *LowNodeUtilizationArgs
	HighNodeUtilization *HighNodeUtilizationArgs
	// DefaultEvictor args. PriorityThreshold (nil: none) protects pods
	// of that priority and above, as system-critical pods are protected,
	// unless EvictSystemCriticalPods (priority.go).
	EvictSystemCriticalPods bool
	// EvictLocalStoragePods lifts the protection of pods with local
	// storage (PodTemplate.LocalStorage).
	EvictLocalStoragePods bool
	// IgnorePvcPods protects pods with a claim (PodTemplate.PVC).
	IgnorePvcPods     bool
	NodeFit           bool
	PriorityThreshold *int32 `json:"priorityThreshold,omitempty"`
	// EvictFailedBarePods lifts the FailedBarePods protection for Failed
	// pods: a bare pod (no owner) passes the DefaultEvictor when it is
	// Failed; other bare pods stay protected.
	EvictFailedBarePods bool
	// Evictor holds the DefaultEvictor's constraints beyond its
	// protections (evictorconstraints.go).
	Evictor EvictorConstraints
}

// Descheduler is a descheduler policy. Limits of 0 are unlimited; they
// apply per descheduling cycle.
type Descheduler struct {
	Profiles        []DeschedulerProfile
	MaxPerNode      int
	MaxPerNamespace int
	MaxTotal        int
	// EvictionLimitZero: the policy gives one of the three limits as 0.
	// Upstream's limits are optional counts, and 0 admits no eviction at
	// all (the PodEvictor refuses every pod), where the fields above read
	// 0 as no limit.
	EvictionLimitZero bool
}

// EventKind names an environment event or user command.
type EventKind uint8

const (
	CPUChange EventKind = iota + 1
	KernelPanic
	Maintenance
	NodeFailure
	CreateTargetDeployment
	ApplyDeployment
	CreateDeployment
	ScaleDeployment
	// Drain is `kubectl drain` of one or more nodes (events/drain.go).
	Drain
	// RolloutRestart is `kubectl rollout restart` of a deployment
	// (events/restart.go).
	RolloutRestart
	// RolloutUndo is `kubectl rollout undo` of a deployment
	// (events/undo.go).
	RolloutUndo
	// MemoryChange is eventMemoryChange: one pod's memory usage grows
	// (events/memorychange.go, memorypressure.go).
	MemoryChange
	// DeleteNode is `kubectl delete node` (events/deletenode.go,
	// nodedeletion.go): the Node object goes, for good.
	DeleteNode
	// RolloutPause and RolloutResume are `kubectl rollout pause` and
	// `kubectl rollout resume` of a Deployment (events/pause.go,
	// paused.go).
	RolloutPause
	RolloutResume
)

var eventNames = map[EventKind]string{
	CPUChange: "eventCpuChange", KernelPanic: "kernelPanic", Maintenance: "maintenance",
	NodeFailure: "nodeFailure", CreateTargetDeployment: "createTargetDeployment",
	ApplyDeployment: "applyDeployment", CreateDeployment: "createDeployment", ScaleDeployment: "scaleDeployment",
	Drain: "drain", RolloutRestart: "rolloutRestart", RolloutUndo: "rolloutUndo",
	MemoryChange: "eventMemoryChange", DeleteNode: "deleteNode",
	RolloutPause: "rolloutPause", RolloutResume: "rolloutResume",
}

func (k EventKind) String() string {
	if s, ok := eventNames[k]; ok {
		return s
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// EventSlot says when an event starts (Kivi's first / main / after_stable).
type EventSlot uint8

const (
	// Main events start with the controllers.
	Main EventSlot = iota
	// First events run before any controller.
	First
	// AfterStable events start once the cluster is first quiescent.
	AfterStable
)

// Event is one environment event or user command instance.
type Event struct {
	Kind EventKind
	Slot EventSlot
	// Deployment (CPUChange, CreateTargetDeployment), Node (NodeFailure,
	// DeleteNode),
	// Template (Apply/CreateDeployment: index into DeploymentTemplates),
	// Parallel (Maintenance: nodes down at once), MaxDeployment
	// (ScaleDeployment: deployments 0..MaxDeployment-1 may be scaled).
	Deployment    int
	Node          int
	Template      int
	Parallel      int
	MaxDeployment int
	// Order is the order in which a Maintenance takes the nodes.
	Order MaintenanceOrder
	// SelfHeal: an ApplyDeployment applied again whenever the live
	// Deployment drifts from the file once the cluster is quiet, as a
	// GitOps controller does (Argo CD's automated sync with selfHeal,
	// Flux's reconciliation).
	SelfHeal bool
	// Targeted ScaleDeployment sets the replicas to Target (`kubectl
	// scale --replicas=Target`); otherwise it changes them by up to
	// MaxDelta. Deployment is then the first deployment it may scale:
	// Deployment..MaxDeployment-1.
	Targeted bool
	Target   int
	// MaxDelta bounds CPUChange (default 6) and ScaleDeployment (default
	// 3); for MemoryChange it is the number of amounts (memorypressure.go).
	MaxDelta int
	// DeltaUnit scales CPUChange's and MemoryChange's deltas (default 1
	// millicore; MiB for memory): δ·DeltaUnit for δ in 1..MaxDelta.
	DeltaUnit int
	// Drain: Nodes are the nodes drained, in order, Parallel of them at
	// a time (default 1); Drain carries kubectl drain's options.
	Nodes []int
	Drain DrainOptions
	// Restarts maps, for RolloutRestart, each deployment config the
	// restarted deployment may have to its restarted copy: the same
	// configuration with a copy of its pod template, a new revision of
	// identical pods (restart.go).
	Restarts []ConfigRestart
	// Configs lists, for RolloutUndo, every configuration the deployment
	// may have, with one for each of its pod templates under each of its
	// strategies (undo.go).
	Configs []int
	// Permanent NodeFailure: the node never comes back (recovers:
	// false); with OutOfService the operator then taints it
	// node.kubernetes.io/out-of-service:NoExecute (nodeloss.go).
	Permanent, OutOfService bool
	// DrainFirst: a DeleteNode runs `kubectl drain` of its node (Nodes
	// holds it, Drain kubectl's default options) before it deletes it.
	DrainFirst bool

	// VarOffset and VarLen locate the event's memory in State.EventVars
	// (set by Compile).
	VarOffset, VarLen int
}

// DrainOptions are the flags of `kubectl drain` that the model tells
// apart (events/drain.go).
type DrainOptions struct {
	// TimeoutRetries is --timeout counted in eviction retries (kubectl
	// retries a refused eviction every 5 s): the drain of a node gives up
	// when an eviction is still refused after that many retries. 0 is
	// kubectl's default --timeout=0s: retry for ever.
	TimeoutRetries int
	// DisableEviction (--disable-eviction) deletes the pods instead of
	// evicting them: no PodDisruptionBudget is consulted.
	DisableEviction bool
	// Force (--force) drains nodes with pods that no controller owns;
	// without it such a pod fails the drain before anything is evicted.
	Force bool
	// Uncordon: once a node is drained, `kubectl uncordon` makes it
	// schedulable again (the upgrade it was drained for is done).
	Uncordon bool
}

// MaxDrainRetries bounds DrainOptions.TimeoutRetries (one byte of event
// memory per node counts them).
const MaxDrainRetries = 100

// TieBreak is how the scheduler picks among nodes with equal top score.
type TieBreak uint8

const (
	// BranchOnTies explores every top-scoring node (real kube-scheduler
	// leaves the choice open).
	BranchOnTies TieBreak = iota
	// LowestIndex takes the first node, as Kivi does, and breaks the
	// other ties as Kivi does too: the lowest pod slots among tied
	// victims (Tx.ChoosePods), equal descheduler domains by label value.
	LowestIndex
)

// Options are model-wide feature toggles.
type Options struct {
	TieBreak TieBreak
	// KiviHostnameAlias gives every node Kivi's `hostname` label (the
	// node's kubernetes.io/hostname value) unless it sets one itself.
	// Kivi's inputs rely on it (its cases spread by `hostname`); a real
	// node carries only kubernetes.io/hostname, so inputs read from
	// Kubernetes manifests leave it off, and so does the zero value.
	KiviHostnameAlias bool
	// KiviLifecycle keeps Kivi's pod lifecycle, which the built-in cases
	// C1..C8 were written against: a ReplicaSet replaces a deleted pod
	// only after the kubelet has removed it (the deployment controller
	// waits for an empty kubelet queue), the kubelet admits a pod whatever
	// NoExecute taints its node has (the taint manager evicts it once
	// started), and the pods of a node that is not Ready are evicted at
	// once (no tolerationSeconds for the not-ready and unreachable
	// taints). The zero value is Kubernetes' lifecycle
	// (docs/divergences.md, "Pod lifecycle").
	KiviLifecycle bool
	// FirstInOrder makes the First-slot events take their steps in the
	// order they are written, each once the ones before it have
	// finished, instead of in every order: the quick pass's single run
	// of the commands that precede the controllers (with manifests, one
	// createTargetDeployment per Deployment in file order, as one
	// `kubectl apply -f` creates them). The order is one of those the
	// exhaustive search explores.
	FirstInOrder bool
	// CronJobRuns, when 1 or 2 (at most MaxCronJobRuns), assumes that a
	// CronJob with concurrencyPolicy Allow never has more than that many
	// runs active: each run finishes within that many schedule periods,
	// so a firing while they are active is not due yet. 0 assumes
	// nothing: such a firing reaches BoundCronJobRuns (cronjob.go).
	CronJobRuns int
	// MergeOldRevisions: a Deployment whose pod template changes while it
	// has two ReplicaSets and the older one still has replicas or active
	// pods merges the two old revisions into one ReplicaSet (their pods
	// keep their own templates) and rolls out of them as of one set, an
	// approximation: Kubernetes keeps a ReplicaSet per revision, scales
	// the oldest down first and shares a scaling event among them by
	// size. Off, such a change reaches BoundReplicaSetRevisions
	// (controllers/deployment, revision.go).
	MergeOldRevisions bool
	// ContinueAfterViolation lets a run go on past an intent monitor's
	// violation (ContinuesAfterFailure), so that the other intents are
	// judged on every run, those through it included: what settling every
	// intent (checker.Options.CollectAll) needs. Under Kivi's lifecycle a
	// violation still ends the run.
	ContinueAfterViolation bool
}

// Universe is the static part of one topology.
type Universe struct {
	// InitialPodNames name the pods of the initial state by slot ("" or
	// past its end: the model's name), for traces (InitialPod.Name).
	InitialPodNames []string
	Nodes           []Node
	Templates       []PodTemplate
	Configs         []DeploymentConfig
	HPAs            []HPA
	Deployments     []Deployment
	// CronJobs group the Jobs that are CronJobs' runs (cronjob.go).
	CronJobs            []CronJob
	DeploymentTemplates []DeploymentTemplate
	Descheduler         *Descheduler
	// Scheduler is kube-scheduler's configuration beyond its plugins
	// (nodestoscore.go).
	Scheduler SchedulerDecl
	// Kubelet is the kubelets' eviction configuration (kubeletconfig.go).
	Kubelet KubeletDecl
	// Assumptions are the input reader's (Cluster.Assumptions).
	Assumptions []string
	Events      []Event
	// PDBs are the PodDisruptionBudgets (pdb.go).
	PDBs []PodDisruptionBudget
	// ResourceQuotas are the namespaces' quotas (resourcequota.go).
	ResourceQuotas []ResourceQuota
	// Namespaces holds the labels of the Namespace objects given, by
	// name (namespace.go).
	Namespaces map[string]map[string]string
	// ScalarResources names the scalar resources some template requests
	// (scalar.go); nil when none does.
	ScalarResources []string
	// PodSlots bounds how many pods can exist at once.
	PodSlots int
	Options  Options
	// Zones is the node lifecycle controller's zone map (zones.go).
	Zones DisruptionZones

	Labels Interner
	// HostnameKey is the interned "kubernetes.io/hostname" key.
	Hostname KeyID
	// NumEventVars is the length of State.EventVars.
	NumEventVars int
	// HasHPA, HasTaints, HasPatterns summarise the topology (set by
	// Compile), HasStatefulSets says that some workload is a
	// StatefulSet, and HasJobs that some workload is a Job.
	HasHPA, HasTaints, HasPatterns bool
	// ReadsCPUUsage: some step reads the pods' CPU usage (readsCPUUsage).
	ReadsCPUUsage bool
	// NodesDownAtStart: some node of the input is not Ready (a Node whose
	// Ready condition is not True): under Kubernetes' lifecycle the node
	// lifecycle controller handles it (queueNodesNotReady), so a node is
	// taken down even without an event (TakesNodesDown).
	NodesDownAtStart bool
	// HPAsCountOtherPods: some HPA counts another workload's pods
	// (HPA.CountsPodsOf).
	HPAsCountOtherPods       bool
	HasStatefulSets, HasJobs bool
	// NodeDownKeyMatters: under Kubernetes' lifecycle, some template
	// tolerates the not-ready and the unreachable taints differently, so
	// the scheduler's decisions read which of the two a node that is not
	// Ready carries (notready.go), and the node controller explores both
	// (set by Compile).
	NodeDownKeyMatters bool
	compiled           bool
	// indexedJobs: some Job is Indexed, and states encode its
	// DeploymentState.JobIndexes (indexedjob.go).
	indexedJobs bool
	// wideRefs: some index a queue or a failure holds (a pod slot or a
	// node) exceeds a byte, and the encoding writes them on two bytes;
	// wideNodes: some node index does, and pods write their nodes on two
	// bytes (encode.go).
	wideRefs, wideNodes bool
	// outOfServiceVar[n] is the offset in State.EventVars of node n's
	// out-of-service byte (nodeloss.go), -1 when no event taints node n;
	// nil when none does.
	outOfServiceVar []int
	// podRuns: the universe has more pod slots than MaxObjects, and the
	// encoding writes runs of repeated pods as one token (podruns.go).
	podRuns bool
	// revisionMatch: some selector merges pod-template-hash
	// (HasRevisionMatch).
	revisionMatch bool
	// portConflicts[a*T+b]: pods of templates a and b cannot share a node
	// for their host ports; nil when no template wants one (hostports.go).
	portConflicts []bool
	// windowSlots caches WindowSlots once compiled, templateRequests the
	// requests the encoding compares usage with, podHeads the decoder's
	// tables.
	windowSlots int
	hpaBehavior bool
	// lastApplied: states carry DeploymentState.LastAppliedOmitsReplicas
	// (lastapplied.go).
	lastApplied bool
	// pausable: states carry DeploymentState.Paused (paused.go).
	pausable bool
	// readiness: some template delays readiness (HasReadiness);
	// readyAtStart: the delays were dropped (ReadyAtStart).
	readiness, readyAtStart bool
	templateRequests        *[256][2]int64
	podHeads                *podHeads
}

// WideRefs reports whether the universe has more pod slots or nodes than
// one byte refers to (MaxObjects): states then encode the indices their
// queues and failures hold on two bytes.
func (u *Universe) WideRefs() bool { return u.wideRefs }

// WideNodes reports whether the universe has more nodes than one byte
// refers to (MaxObjects): states then encode pods' nodes on two bytes.
func (u *Universe) WideNodes() bool { return u.wideNodes }
