package model

// Cluster is the declarative description of a verification problem, the
// form every input (case files, Kubernetes manifests, Kivi's config and
// log directories) is read into. It names things by name, not index;
// Build turns it into a Universe and an initial State for the topology it
// lists, and the scaling search derives other topologies from its node
// types and deployments' bounds.
//
// Field names and json tags are the case-file format (examples/cases/).
type Cluster struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Expect documents the verdict the case is built to show (the intent
	// expected to fail, or "none"); tests read it, the checker never does.
	Expect string `json:"expect,omitempty"`

	NodeTypes []NodeType `json:"nodeTypes"`
	// Nodes is the original topology, group by group, in node order.
	Nodes []NodeGroup `json:"nodes"`

	Templates           []TemplateDecl           `json:"templates"`
	Deployments         []DeploymentDecl         `json:"deployments"`
	DeploymentTemplates []DeploymentTemplateDecl `json:"deploymentTemplates,omitempty"`
	Descheduler         *Descheduler             `json:"descheduler,omitempty"`
	Events              []EventDecl              `json:"events,omitempty"`
	Intents             []IntentDecl             `json:"intents,omitempty"`
	// PodDisruptionBudgets limit the descheduler's evictions (pdbdecl.go).
	PodDisruptionBudgets []PodDisruptionBudgetDecl `json:"podDisruptionBudgets,omitempty"`
	// Namespaces are the Namespace objects given, for the inter-pod
	// affinity terms' namespaceSelector (namespace.go).
	Namespaces []NamespaceDecl `json:"namespaces,omitempty"`
	// ResourceQuotas refuse the creation of pods past their namespace's
	// hard limits (resourcequota.go).
	ResourceQuotas []ResourceQuota `json:"resourceQuotas,omitempty"`

	// PodSlots bounds the pods that can exist at once in the original
	// topology (0 = derived; scaling setups always derive it: for
	// each deployment the largest replica count it can be asked for, plus
	// the room a rolling update or replacement needs).
	PodSlots int `json:"podSlots,omitempty"`
	// LowestIndexTieBreak makes the scheduler take the lowest-index node
	// among equal top scores (Kivi) instead of exploring every one.
	LowestIndexTieBreak bool `json:"lowestIndexTieBreak,omitempty"`
	// KiviHostnameAlias labels every node `hostname=<its hostname>` as
	// well (model.Options.KiviHostnameAlias). It is not a case-file key:
	// the reader of an input decides, since the alias belongs to Kivi's
	// inputs (built-in cases, case files, Kivi's configuration and log
	// directories) and not to Kubernetes manifests.
	KiviHostnameAlias bool `json:"-"`
	// KiviLifecycle keeps Kivi's pod lifecycle
	// (model.Options.KiviLifecycle). It is not a case-file key: only the
	// built-in cases, written against it, set it.
	KiviLifecycle bool `json:"-"`
	// PriorityClasses are the PriorityClasses of a manifest input, which
	// a Deployment applied later by an event resolves its
	// priorityClassName against. Templates carry the resolved value; a
	// case file writes values, not classes, so this is no case-file key.
	PriorityClasses []PriorityClassDecl `json:"-"`
	// Scheduler is kube-scheduler's configuration as a manifest input
	// gives it (nodestoscore.go); not a case-file key.
	Scheduler SchedulerDecl `json:"-"`
	// Kubelet is the kubelets' configuration as a manifest input gives
	// it (kubeletconfig.go); not a case-file key.
	Kubelet KubeletDecl `json:"-"`
	// Assumptions are what the input reader filled in that the input
	// leaves out, for people (every report lists them as "Assumed:");
	// not a case-file key.
	Assumptions []string `json:"-"`
}

// NodeType is a kind of node; the scaling search varies how many of each
// type a topology has, between Min and Max.
type NodeType struct {
	Name           string `json:"name"`
	CPU            int64  `json:"cpu"`
	Memory         int64  `json:"memory"`
	ReservedCPU    int64  `json:"reservedCpu,omitempty"`
	ReservedMemory int64  `json:"reservedMemory,omitempty"`
	MaxPods        int    `json:"maxPods,omitempty"`
	// MemoryCapacity is the node's status.capacity memory as a manifest
	// gives it (kubeletconfig.go); not a case-file key.
	MemoryCapacity int64 `json:"-"`
	// Scalar and ReservedScalar are the node's allocatable and reserved
	// scalar resources by name (ephemeral-storage and huge pages in MiB,
	// extended resources as counts; scalar.go).
	Scalar         map[string]int64  `json:"scalar,omitempty"`
	ReservedScalar map[string]int64  `json:"reservedScalar,omitempty"`
	Labels         map[string]string `json:"labels,omitempty"`
	Taints         []Taint           `json:"taints,omitempty"`
	// ReservedHostPorts are the host ports the node's untracked pods
	// (DaemonSets' pods) hold (hostports.go).
	ReservedHostPorts []HostPort `json:"reservedHostPorts,omitempty"`
	Min               int        `json:"min,omitempty"`
	Max               int        `json:"max,omitempty"`
}

// NodeGroup is Count nodes of one type in the original topology, each
// running the listed pods.
type NodeGroup struct {
	Type  string `json:"type"`
	Count int    `json:"count,omitempty"` // default 1
	// Names of the nodes (default: their 1-based position).
	Names []string `json:"names,omitempty"`
	// Status is Ready (default), NotReady or Unhealthy.
	Status string `json:"status,omitempty"`
	// ReadyCondition is the Ready condition of NotReady nodes as a node
	// dump reports it: False (the kubelet reports the node not Ready,
	// which gets the not-ready taints) or Unknown (the kubelet stopped
	// reporting: the unreachable taints). Empty leaves it open: both are
	// explored where pods tolerate them differently.
	ReadyCondition string       `json:"readyCondition,omitempty"`
	Pods           []InitialPod `json:"pods,omitempty"`
}

// ReplicaSetDecl is a ReplicaSet of a Deployment other than the one of
// its template: its pods' template and its spec.replicas.
type ReplicaSetDecl struct {
	Template string `json:"template"`
	Replicas int    `json:"replicas"`
}

// InitialPod is a pod running on a node at the start.
type InitialPod struct {
	Deployment string `json:"deployment"`
	// OldReplicaSet: a pod of the Deployment's OldReplicaSet (its older
	// template), not of the ReplicaSet of its template.
	OldReplicaSet bool `json:"oldReplicaSet,omitempty"`
	// CPU and Memory are its current usage (default: its request).
	CPU    *int64 `json:"cpu,omitempty"`
	Memory *int64 `json:"memory,omitempty"`
	// Count is how many such pods (default 1).
	Count int `json:"count,omitempty"`
	// Name names the pod in traces (a running cluster's pod: its
	// metadata.name); "" gives it the model's name, <deployment>-<n>. A
	// named pod stands for one pod (Count 1).
	Name string `json:"name,omitempty"`
	// Ordinal is a StatefulSet's pod's ordinal (its name's suffix); nil
	// gives the pods the StatefulSet's ordinals in the order listed. A
	// pod with an ordinal stands for one pod (Count 1).
	Ordinal *int `json:"ordinal,omitempty"`
	// Restarts and InitRestarts are its containers' and its init
	// containers' restarts so far (status.containerStatuses[].restartCount
	// summed, and status.initContainerStatuses'): what
	// RemovePodsHavingTooManyRestarts reads (Universe.InitialRestarts).
	Restarts     int `json:"restarts,omitempty"`
	InitRestarts int `json:"initRestarts,omitempty"`
}

// TemplateDecl is a pod template.
type TemplateDecl struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels,omitempty"`
	// Namespace is the namespace of the template's Deployment
	// (namespace.go); "" for inputs without namespaces.
	Namespace string `json:"namespace,omitempty"`
	CPU       int64  `json:"cpu,omitempty"`
	Memory    int64  `json:"memory,omitempty"`
	// Scalar are the pod's requests of scalar resources by name
	// (scalar.go), in NodeType.Scalar's units.
	Scalar map[string]int64 `json:"scalar,omitempty"`
	// NodeName pins pods to the node of that name (bypassing the scheduler).
	NodeName     string            `json:"nodeName,omitempty"`
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
	Required     []Selector        `json:"requiredAffinity,omitempty"`
	Preferred    []PreferredTerm   `json:"preferredAffinity,omitempty"`
	Tolerations  []Toleration      `json:"tolerations,omitempty"`
	Spread       []SpreadDecl      `json:"topologySpreadConstraints,omitempty"`
	Pattern      []UsagePoint      `json:"cpuPattern,omitempty"`
	Critical     bool              `json:"critical,omitempty"`
	// LocalStorage: PodTemplate's.
	LocalStorage bool `json:"localStorage,omitempty"`
	// OS: PodTemplate's (spec.os.name).
	OS string `json:"os,omitempty"`
	// DeschedulerEvict and PreferNoEviction: PodTemplate's (the
	// descheduler's annotations).
	DeschedulerEvict bool `json:"deschedulerEvict,omitempty"`
	PreferNoEviction bool `json:"preferNoEviction,omitempty"`
	// PVC: PodTemplate's.
	PVC bool `json:"pvc,omitempty"`
	// Priority and PreemptionPolicy: PodTemplate's (priority.go), the
	// value a PriorityClass resolves to.
	Priority         int32            `json:"priority,omitempty"`
	PreemptionPolicy PreemptionPolicy `json:"preemptionPolicy,omitempty"`
	// PodAffinity and PodAntiAffinity are inter-pod (anti-)affinity
	// (podaffinity.go).
	PodAffinity     *PodAffinityDecl `json:"podAffinity,omitempty"`
	PodAntiAffinity *PodAffinityDecl `json:"podAntiAffinity,omitempty"`
	// NonZeroCPU and NonZeroMemory: PodTemplate's; set by the manifest
	// reader only, never read from or written to case files.
	NonZeroCPU    int64 `json:"-"`
	NonZeroMemory int64 `json:"-"`
	// LimitCPU and LimitMemory are the pod's limits, which quotas on
	// limits.cpu and limits.memory charge (resourcequota.go).
	LimitCPU    int64 `json:"limitCPU,omitempty"`
	LimitMemory int64 `json:"limitMemory,omitempty"`
	// PriorityClassName is the pod's priorityClassName as the priority
	// admission plugin leaves it (the global default's when it names
	// none): ResourceQuota scope selectors read it. Manifests only.
	PriorityClassName string `json:"-"`
	// ActiveDeadline: PodTemplate's; set by the manifest reader only.
	ActiveDeadline bool `json:"-"`
	// QuotaMissing: PodTemplate's; set by the manifest reader only.
	QuotaMissing [QuotaConstraints][]string `json:"-"`
	// ReadinessProbe: the pods start Running but not Ready and become
	// Ready at a later step (a readinessProbe, startupProbe or
	// readinessGates); MinReadySeconds is the workload's
	// spec.minReadySeconds (readiness.go).
	ReadinessProbe  bool  `json:"readinessProbe,omitempty"`
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// MissingMetricRequest and ReservedOnly: PodTemplate's; set by the
	// manifest reader only.
	MissingMetricRequest [2]string `json:"-"`
	ReservedOnly         [2]int64  `json:"-"`
	// Overhead: PodTemplate's; set by the manifest reader only.
	Overhead [2]int64 `json:"-"`
	// Guaranteed and PodLevel: PodTemplate's; set by the manifest reader
	// only.
	Guaranteed bool    `json:"-"`
	PodLevel   [2]bool `json:"-"`
	// HostPorts: PodTemplate's (hostports.go).
	HostPorts []HostPort `json:"hostPorts,omitempty"`
}

// SpreadDecl is a topology spread constraint as written.
type SpreadDecl struct {
	MaxSkew           int    `json:"maxSkew"`
	MinDomains        int    `json:"minDomains,omitempty"`
	TopologyKey       string `json:"topologyKey"`
	WhenUnsatisfiable string `json:"whenUnsatisfiable,omitempty"` // DoNotSchedule (default) or ScheduleAnyway
	// LabelSelector defaults to the template's labels when nil.
	LabelSelector *Selector `json:"labelSelector,omitempty"`
	// MatchLabelKeys: labels of the pod whose values the selector must
	// match too (pod-template-hash: pods of the same ReplicaSet revision).
	MatchLabelKeys     []string `json:"matchLabelKeys,omitempty"`
	NodeAffinityPolicy string   `json:"nodeAffinityPolicy,omitempty"` // Honor (default) or Ignore
	NodeTaintsPolicy   string   `json:"nodeTaintsPolicy,omitempty"`   // Ignore (default) or Honor
}

// HPADecl is a HorizontalPodAutoscaler.
type HPADecl struct {
	Min     int          `json:"minReplicas"`
	Max     int          `json:"maxReplicas"`
	Metrics []MetricDecl `json:"metrics,omitempty"` // default CPU utilisation 80 %
	// Factor derives the bounds in the scaling search: min = replicas,
	// max = min(Factor·replicas, pods that fit). 0 = keep Min/Max.
	Factor           int `json:"factor,omitempty"`
	TolerancePercent int `json:"tolerancePercent,omitempty"`
	// ScaleDownStabilizationSyncs is the downscale stabilisation window in
	// HPA sync periods (0 = off, as in Kivi; at most
	// MaxStabilizationSyncs); see HPA.ScaleDownStabilizationSyncs.
	ScaleDownStabilizationSyncs int `json:"scaleDownStabilizationSyncs,omitempty"`
	// Behavior is spec.behavior (HPA.Behavior); nil: the legacy
	// normalisation. Not together with ScaleDownStabilizationSyncs.
	Behavior *HPABehaviorDecl `json:"behavior,omitempty"`
	// Name is the HorizontalPodAutoscaler's name, for traces.
	Name string `json:"name,omitempty"`
	// SharedTarget lists the other HPAs whose scaleTargetRef names the
	// same workload (HPA.Ambiguous): then no HPA of the workload scales
	// on its metrics, and each only moves the count into its own
	// minReplicas..maxReplicas.
	SharedTarget []HPABoundsDecl `json:"sharedTarget,omitempty"`
	// SelectorSharedWith names the workloads whose pods the HPA's target
	// selects and another HPA's target selects too: while one of their
	// pods exists, the HPA computes no metric (HPA.AmbiguousWhenPodsOf).
	SelectorSharedWith []string `json:"selectorSharedWith,omitempty"`
	// SelectsPodsOf names the other workloads whose pods the HPA's
	// target's selector selects: the HPA counts them in its metrics
	// (HPA.CountsPodsOf).
	SelectsPodsOf []string `json:"selectsPodsOf,omitempty"`
}

// HPABoundsDecl is another HPA of a workload that has several: its name
// and replica bounds (minReplicas 0 = the default, 1).
type HPABoundsDecl struct {
	Name string `json:"name"`
	Min  int    `json:"minReplicas,omitempty"`
	Max  int    `json:"maxReplicas"`
}

// MetricDecl is one HPA metric.
type MetricDecl struct {
	// Kind is the source type: Resource (default), Pods, Object,
	// External, or ContainerResource (a container whose usage the model
	// does not know: one of several); MetricKind.
	Kind     string `json:"kind,omitempty"`
	Resource string `json:"resource,omitempty"` // cpu or memory (Resource and ContainerResource)
	// Type is the target type: Utilization (default for Resource
	// metrics), AverageValue (default for Pods), Value (default for
	// Object and External).
	Type   string `json:"type,omitempty"`
	Target int64  `json:"target"` // percent, units per pod, or a milli-value
	// Name is the metric's (or the container's) name, for traces.
	Name string `json:"name,omitempty"`
	// Invalid, when set, says why the HPA fails the metric at every sync
	// (InvalidMetric).
	Invalid string `json:"invalid,omitempty"`
}

// DeploymentDecl is a Deployment.
type DeploymentDecl struct {
	Name     string `json:"name"`
	Template string `json:"template"`
	Replicas int    `json:"replicas"`
	// ReplicasUnset: the manifest leaves spec.replicas out (Replicas is
	// then the API server's default, 1); a later `kubectl apply` of a
	// file without it keeps the live count instead of resetting it
	// (lastapplied.go).
	ReplicasUnset bool `json:"replicasUnset,omitempty"`
	// Paused is spec.paused of a Deployment (paused.go): it starts
	// without a ReplicaSet, so without pods, unless RolledOut.
	Paused bool `json:"paused,omitempty"`
	// PausedSet: the manifest sets spec.paused, true or false; a later
	// `kubectl apply` of a file without it deletes it (resumes the
	// Deployment), where one from a manifest without it keeps the live
	// value (paused.go). Paused implies it.
	PausedSet bool `json:"pausedSet,omitempty"`
	// RolledOut: a paused Deployment was rolled out before it was paused
	// (a dump of a running cluster): it starts with the ReplicaSet of its
	// template at its replicas, and its pods as given.
	RolledOut bool `json:"rolledOut,omitempty"`
	// RolledOutTemplate, with RolledOut, names the template of the
	// ReplicaSet the Deployment was rolled out with when its pod template
	// changed while it was paused: its pods and its ReplicaSet are that
	// template's, and `kubectl rollout resume` rolls Template out. ""
	// when the ReplicaSet is Template's.
	RolledOutTemplate string `json:"rolledOutTemplate,omitempty"`
	// OldReplicaSet is a Deployment's older ReplicaSet in the middle of
	// a rollout (a dump of a running cluster): the template of its pods
	// (InitialPod.OldReplicaSet) and its spec.replicas. NewReplicas is
	// then the spec.replicas of the ReplicaSet of Template, which surges
	// past Replicas mid-rollout (nil: Replicas). The Deployment
	// controller goes on with the rollout from there.
	OldReplicaSet *ReplicaSetDecl `json:"oldReplicaSet,omitempty"`
	NewReplicas   *int            `json:"newReplicas,omitempty"`
	// Created is false for a deployment a command creates later
	// (createTargetDeployment, apply, create); default true.
	Created  *bool    `json:"created,omitempty"`
	HPA      *HPADecl `json:"hpa,omitempty"`
	Strategy string   `json:"strategy,omitempty"` // RollingUpdate (default) or Recreate
	// MaxSurge / MaxUnavailable: an integer or a percentage ("25%").
	MaxSurge       string `json:"maxSurge,omitempty"`
	MaxUnavailable string `json:"maxUnavailable,omitempty"`
	// Kind is Deployment (default), StatefulSet (statefulset.go) or Job
	// (job.go). A
	// StatefulSet's Strategy is RollingUpdate (default) or OnDelete, its
	// MaxUnavailable defaults to 1, and it has no MaxSurge.
	Kind string `json:"kind,omitempty"`
	// PodManagementPolicy, Partition and OrdinalsStart: a StatefulSet's
	// spec.podManagementPolicy (OrderedReady, default, or Parallel),
	// spec.updateStrategy.rollingUpdate.partition and spec.ordinals.start.
	PodManagementPolicy string `json:"podManagementPolicy,omitempty"`
	Partition           int    `json:"partition,omitempty"`
	OrdinalsStart       int    `json:"ordinalsStart,omitempty"`
	// Job is a Job's spec beyond its parallelism, which is Replicas
	// (kind Job only; job.go).
	Job *JobDecl `json:"job,omitempty"`
	// CronJob makes a workload of kind Job a run slot of a CronJob
	// (cronjob.go); it is then not created at the start.
	CronJob *CronJobDecl `json:"cronJob,omitempty"`
	// Scaling-search bounds on replicas and on pods per node.
	MinReplicas    int `json:"minReplicas,omitempty"`
	MaxReplicas    int `json:"maxReplicas,omitempty"`
	MaxPodsPerNode int `json:"maxPodsPerNode,omitempty"`
}

// DeploymentTemplateDecl is a Deployment manifest used by apply/create
// commands.
type DeploymentTemplateDecl struct {
	// Name is what events call the template by.
	Name string `json:"name"`
	// Deployment is the Deployment it applies to or creates (default:
	// Name). It differs from Name when one input holds several versions
	// of a Deployment, e.g. the manifests an intents file applies.
	Deployment string   `json:"deployment,omitempty"`
	Template   string   `json:"template"`
	Replicas   *int     `json:"replicas,omitempty"`
	HPA        *HPADecl `json:"hpa,omitempty"`
	Strategy   string   `json:"strategy,omitempty"`
	// MaxSurge / MaxUnavailable of a RollingUpdate: an integer or a
	// percentage ("25%"), default 25 %.
	MaxSurge       string `json:"maxSurge,omitempty"`
	MaxUnavailable string `json:"maxUnavailable,omitempty"`
	// Paused is the manifest's spec.paused, nil when it leaves the field
	// out: kubectl apply then keeps the live value, unless the manifest
	// the Deployment started from set it (paused.go).
	Paused *bool `json:"paused,omitempty"`
	// Kind, PodManagementPolicy, Partition and OrdinalsStart: as in
	// DeploymentDecl; the kind must be that of the workload it applies to.
	Kind                string `json:"kind,omitempty"`
	PodManagementPolicy string `json:"podManagementPolicy,omitempty"`
	Partition           int    `json:"partition,omitempty"`
	OrdinalsStart       int    `json:"ordinalsStart,omitempty"`
}

// EventDecl is an event or user command.
type EventDecl struct {
	// Kind is one of eventCpuChange, eventMemoryChange, kernelPanic,
	// maintenance, nodeFailure, createTargetDeployment, applyDeployment,
	// createDeployment, scaleDeployment, drain, rolloutRestart,
	// rolloutUndo, rolloutPause, rolloutResume, deleteNode.
	Kind string `json:"kind"`
	// When is main (default), first or afterStable.
	When       string `json:"when,omitempty"`
	Deployment string `json:"deployment,omitempty"`
	Node       string `json:"node,omitempty"`
	Template   string `json:"template,omitempty"`
	Parallel   int    `json:"parallel,omitempty"`
	// Order for maintenance: written (default), the nodes in the order
	// the cluster lists them, as Kivi; any, each next node among those
	// not maintained yet (MaintenanceOrder).
	Order    string `json:"order,omitempty"`
	MaxDelta int    `json:"maxDelta,omitempty"`
	// DeltaUnit for eventCpuChange: the changes are 1..MaxDelta times
	// this many CPU units (0 = 1). Manifests count CPU in millicores,
	// and a change that branches over every millicore explores hundreds
	// of successors that differ in no decision of any controller.
	DeltaUnit int `json:"deltaUnit,omitempty"`
	// MaxDeployment for scaleDeployment: deployments 1..MaxDeployment
	// (Kivi's convention); Deployment names the one deployment instead.
	MaxDeployment int `json:"maxDeployment,omitempty"`
	// Replicas for scaleDeployment: the target of `kubectl scale
	// --replicas=N` (one branch) instead of every change up to MaxDelta.
	Replicas *int `json:"replicas,omitempty"`
	// Nodes for drain: the nodes `kubectl drain` takes, in order (Node
	// names a single one; give one of the two), Parallel of them at a
	// time (default 1).
	Nodes []string `json:"nodes,omitempty"`
	// TimeoutRetries, DisableEviction, Force and Uncordon for drain:
	// model.DrainOptions.
	TimeoutRetries  int  `json:"timeoutRetries,omitempty"`
	DisableEviction bool `json:"disableEviction,omitempty"`
	Force           bool `json:"force,omitempty"`
	Uncordon        bool `json:"uncordon,omitempty"`
	// Recovers for nodeFailure: false = the node never comes back
	// (nodeloss.go); nil = true. OutOfService, with recovers false: the
	// operator then taints the node node.kubernetes.io/out-of-service.
	Recovers     *bool `json:"recovers,omitempty"`
	OutOfService bool  `json:"outOfService,omitempty"`
	// Drain for deleteNode: `kubectl drain` the node (cordon, evictions
	// through the Eviction API) before deleting it; false deletes it
	// straight away.
	Drain bool `json:"drain,omitempty"`
	// SelfHeal for applyDeployment: a GitOps controller applies the file
	// again whenever the live Deployment drifts from it (Event.SelfHeal).
	SelfHeal bool `json:"selfHeal,omitempty"`
}

// IntentDecl is an intent with its parameters.
type IntentDecl struct {
	Name   string         `json:"name"`
	Params map[string]any `json:"params,omitempty"`
}
