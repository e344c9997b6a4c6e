package manifest

import "encoding/json"

// The thin Kubernetes types: only the fields the model reads, with the
// Kubernetes JSON names. Every other field of a document is reported by
// the strict decoder and classified in fields.go.

// TypeMeta is apiVersion and kind.
type TypeMeta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

// ObjectMeta is the part of metadata the model reads.
type ObjectMeta struct {
	Name      string            `json:"name"`
	Namespace string            `json:"namespace"`
	Labels    map[string]string `json:"labels"`
	// Annotations are read for the descheduler's (evictorargs.go).
	Annotations       map[string]string `json:"annotations"`
	OwnerReferences   []OwnerReference  `json:"ownerReferences"`
	DeletionTimestamp *string           `json:"deletionTimestamp"`
}

// OwnerReference links a Pod to its ReplicaSet and a ReplicaSet to its
// Deployment.
type OwnerReference struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Controller *bool  `json:"controller"`
}

// LabelSelector is metav1.LabelSelector.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions"`
}

// LabelSelectorRequirement is one matchExpressions entry.
type LabelSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values"`
}

// Deployment is apps/v1 Deployment.
type Deployment struct {
	TypeMeta
	Metadata ObjectMeta     `json:"metadata"`
	Spec     DeploymentSpec `json:"spec"`
	Status   struct {
		// Replicas: the pods of all its ReplicaSets (a dump's paused
		// Deployment with none has no ReplicaSet; runningpods.go).
		Replicas          int32 `json:"replicas"`
		AvailableReplicas int32 `json:"availableReplicas"`
	} `json:"status"`
}

// DeploymentSpec is the part of a Deployment's spec the model reads.
type DeploymentSpec struct {
	Replicas *int32 `json:"replicas"`
	// MinReadySeconds: a Ready pod is available only after it
	// (readiness.go).
	MinReadySeconds int32              `json:"minReadySeconds"`
	Selector        *LabelSelector     `json:"selector"`
	Template        PodTemplateSpec    `json:"template"`
	Strategy        DeploymentStrategy `json:"strategy"`
	// Paused is spec.paused, nil when the manifest leaves it out (an
	// applied file then keeps the live value; model/paused.go).
	Paused *bool `json:"paused"`
}

// ReplicaSet is a Deployment's ReplicaSet in a dump of a running cluster:
// a paused Deployment's pods may be those of a ReplicaSet of a template
// it no longer has (runningpods.go). Its other fields are not read.
type ReplicaSet struct {
	TypeMeta
	Metadata ObjectMeta `json:"metadata"`
	Spec     struct {
		Replicas *int32          `json:"replicas"`
		Template PodTemplateSpec `json:"template"`
	} `json:"spec"`
}

// DeploymentStrategy is RollingUpdate (default) or Recreate.
type DeploymentStrategy struct {
	Type          string `json:"type"`
	RollingUpdate *struct {
		MaxSurge       IntOrString `json:"maxSurge"`
		MaxUnavailable IntOrString `json:"maxUnavailable"`
	} `json:"rollingUpdate"`
}

// PodTemplateSpec is a pod template.
type PodTemplateSpec struct {
	Metadata ObjectMeta `json:"metadata"`
	Spec     PodSpec    `json:"spec"`
}

// PodOS is a pod spec's os.
type PodOS struct {
	Name string `json:"name"`
}

// PodSpec is the part of a pod spec the scheduler and the HPA read.
type PodSpec struct {
	Containers     []Container `json:"containers"`
	InitContainers []Container `json:"initContainers"`
	// ReadinessGates delay the pod's Ready condition (readiness.go).
	ReadinessGates []ReadinessGate         `json:"readinessGates"`
	Overhead       map[string]QuantityText `json:"overhead"`
	// Resources are the pod-level requests and limits (PodLevelResources,
	// on by default since v1.34: podlevel.go).
	Resources                 *ResourceRequirements      `json:"resources"`
	NodeName                  string                     `json:"nodeName"`
	NodeSelector              map[string]string          `json:"nodeSelector"`
	Affinity                  *Affinity                  `json:"affinity"`
	Tolerations               []Toleration               `json:"tolerations"`
	TopologySpreadConstraints []TopologySpreadConstraint `json:"topologySpreadConstraints"`
	SchedulerName             string                     `json:"schedulerName"`
	// RestartPolicy: a Job's pods must not restart (job.go).
	RestartPolicy string `json:"restartPolicy"`
	// RuntimeClassName names the RuntimeClass whose admission gives the
	// pod its overhead and scheduling constraints (runtimeclass.go).
	RuntimeClassName string `json:"runtimeClassName"`
	// OS is the pod's operating system, which the kubelet checks at
	// admission (PodOSNotSupported).
	OS *PodOS `json:"os"`
	// HostNetwork makes every container port a host port
	// (hostnetwork.go) and gives a DaemonSet's pod the network-unavailable
	// toleration (daemonset.go).
	HostNetwork bool `json:"hostNetwork"`
	// PriorityClassName, Priority and PreemptionPolicy: resolved by the
	// priority admission plugin (priority.go).
	PriorityClassName string  `json:"priorityClassName"`
	Priority          *int32  `json:"priority"`
	PreemptionPolicy  *string `json:"preemptionPolicy"`
	// ActiveDeadlineSeconds puts the pods in the ResourceQuota scope
	// Terminating (resourcequota.go); no deadline is enforced.
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds"`
	// Volumes are read so that the decoder reports each volume's source
	// as a field of its own: claims are warned about, other sources are
	// quiet (fields.go); an emptyDir or hostPath source is local storage,
	// which the descheduler's DefaultEvictor protects (template.go).
	Volumes []Volume `json:"volumes"`
}

// Volume is the part of v1.Volume the model reads: its name and whether
// it is local storage. Its other sources are classified by fields.go.
type Volume struct {
	Name     string          `json:"name"`
	EmptyDir json.RawMessage `json:"emptyDir"`
	HostPath json.RawMessage `json:"hostPath"`
	// PersistentVolumeClaim: a pod with a claim, which the
	// DefaultEvictor protects with ignorePvcPods (template.go); the
	// claim's volume itself is warned about.
	PersistentVolumeClaim json.RawMessage `json:"persistentVolumeClaim"`
}

// ResourceRequirements are a container's or a pod's requests and limits.
type ResourceRequirements struct {
	Requests map[string]QuantityText `json:"requests"`
	Limits   map[string]QuantityText `json:"limits"`
}

// Container is the part of a container the model reads: its requests.
type Container struct {
	Name      string               `json:"name"`
	Resources ResourceRequirements `json:"resources"`
	// RestartPolicy Always marks a sidecar init container.
	RestartPolicy string `json:"restartPolicy"`
	// ReadinessProbe and StartupProbe delay the pod's Ready condition
	// (readiness.go).
	ReadinessProbe *Probe `json:"readinessProbe"`
	StartupProbe   *Probe `json:"startupProbe"`
	// Ports: their host ports, written or implied by hostNetwork
	// (hostnetwork.go).
	Ports []ContainerPort `json:"ports"`
}

// ContainerPort is the part of v1.ContainerPort the model reads: what
// makes it a host port (hostnetwork.go).
type ContainerPort struct {
	ContainerPort int32  `json:"containerPort"`
	HostPort      int32  `json:"hostPort"`
	Protocol      string `json:"protocol"`
	HostIP        string `json:"hostIP"`
}

// Affinity holds node affinity and inter-pod affinity and anti-affinity.
type Affinity struct {
	NodeAffinity    *NodeAffinity `json:"nodeAffinity"`
	PodAffinity     *PodAffinity  `json:"podAffinity"`
	PodAntiAffinity *PodAffinity  `json:"podAntiAffinity"`
}

// PodAffinity is v1.PodAffinity or v1.PodAntiAffinity (the same fields).
type PodAffinity struct {
	Required  []PodAffinityTerm `json:"requiredDuringSchedulingIgnoredDuringExecution"`
	Preferred []struct {
		Weight          int32           `json:"weight"`
		PodAffinityTerm PodAffinityTerm `json:"podAffinityTerm"`
	} `json:"preferredDuringSchedulingIgnoredDuringExecution"`
}

// PodAffinityTerm is v1.PodAffinityTerm with every field.
type PodAffinityTerm struct {
	LabelSelector     *LabelSelector `json:"labelSelector"`
	TopologyKey       string         `json:"topologyKey"`
	Namespaces        []string       `json:"namespaces"`
	NamespaceSelector *LabelSelector `json:"namespaceSelector"`
	MatchLabelKeys    []string       `json:"matchLabelKeys"`
	MismatchLabelKeys []string       `json:"mismatchLabelKeys"`
}

// NodeAffinity is required and preferred node affinity.
type NodeAffinity struct {
	Required *struct {
		NodeSelectorTerms []NodeSelectorTerm `json:"nodeSelectorTerms"`
	} `json:"requiredDuringSchedulingIgnoredDuringExecution"`
	Preferred []struct {
		Weight     int32            `json:"weight"`
		Preference NodeSelectorTerm `json:"preference"`
	} `json:"preferredDuringSchedulingIgnoredDuringExecution"`
}

// NodeSelectorTerm is one ORed term of node affinity.
type NodeSelectorTerm struct {
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions"`
	// MatchFields is not modelled (fields.go warns); a term of fields
	// only is refused rather than read as the empty term.
	MatchFields []LabelSelectorRequirement `json:"matchFields"`
}

// Toleration is v1.Toleration.
type Toleration struct {
	Key      string `json:"key"`
	Operator string `json:"operator"`
	Value    string `json:"value"`
	Effect   string `json:"effect"`
	// TolerationSeconds is read for NoExecute tolerations only, as the
	// API server validates it.
	TolerationSeconds *int64 `json:"tolerationSeconds"`
}

// TopologySpreadConstraint is v1.TopologySpreadConstraint with every
// field.
type TopologySpreadConstraint struct {
	MaxSkew            int32          `json:"maxSkew"`
	TopologyKey        string         `json:"topologyKey"`
	WhenUnsatisfiable  string         `json:"whenUnsatisfiable"`
	LabelSelector      *LabelSelector `json:"labelSelector"`
	MinDomains         *int32         `json:"minDomains"`
	NodeAffinityPolicy *string        `json:"nodeAffinityPolicy"`
	NodeTaintsPolicy   *string        `json:"nodeTaintsPolicy"`
	MatchLabelKeys     []string       `json:"matchLabelKeys"`
}

// HPAv2 is autoscaling/v2 HorizontalPodAutoscaler.
type HPAv2 struct {
	TypeMeta
	Metadata ObjectMeta `json:"metadata"`
	Spec     struct {
		ScaleTargetRef CrossVersionObjectReference `json:"scaleTargetRef"`
		MinReplicas    *int32                      `json:"minReplicas"`
		MaxReplicas    int32                       `json:"maxReplicas"`
		Metrics        []MetricSpec                `json:"metrics"`
		Behavior       *HPABehavior                `json:"behavior"`
	} `json:"spec"`
	// Status is read from a running cluster's dump only
	// (Options.CurrentPlacement): the load the HPA last measured.
	Status struct {
		CurrentMetrics []MetricStatus `json:"currentMetrics"`
	} `json:"status"`
}

// MetricStatus is one autoscaling/v2 status.currentMetrics entry; only
// Resource metrics are read.
type MetricStatus struct {
	Type     string `json:"type"`
	Resource *struct {
		Name    string `json:"name"`
		Current struct {
			AverageUtilization *int32        `json:"averageUtilization"`
			AverageValue       *QuantityText `json:"averageValue"`
		} `json:"current"`
	} `json:"resource"`
}

// HPABehavior is autoscaling/v2 HorizontalPodAutoscalerBehavior.
type HPABehavior struct {
	ScaleUp   *HPAScalingRules `json:"scaleUp"`
	ScaleDown *HPAScalingRules `json:"scaleDown"`
}

// HPAScalingRules is autoscaling/v2 HPAScalingRules.
type HPAScalingRules struct {
	StabilizationWindowSeconds *int32             `json:"stabilizationWindowSeconds"`
	SelectPolicy               *string            `json:"selectPolicy"`
	Policies                   []HPAScalingPolicy `json:"policies"`
	Tolerance                  *QuantityText      `json:"tolerance"`
}

// HPAScalingPolicy is autoscaling/v2 HPAScalingPolicy.
type HPAScalingPolicy struct {
	Type          string `json:"type"`
	Value         int32  `json:"value"`
	PeriodSeconds int32  `json:"periodSeconds"`
}

// HPAv1 is autoscaling/v1 HorizontalPodAutoscaler.
type HPAv1 struct {
	TypeMeta
	Metadata ObjectMeta `json:"metadata"`
	Spec     struct {
		ScaleTargetRef                 CrossVersionObjectReference `json:"scaleTargetRef"`
		MinReplicas                    *int32                      `json:"minReplicas"`
		MaxReplicas                    int32                       `json:"maxReplicas"`
		TargetCPUUtilizationPercentage *int32                      `json:"targetCPUUtilizationPercentage"`
	} `json:"spec"`
	// Status: HPAv2's.
	Status struct {
		CurrentCPUUtilizationPercentage *int32 `json:"currentCPUUtilizationPercentage"`
	} `json:"status"`
}

// CrossVersionObjectReference names the HPA's target.
type CrossVersionObjectReference struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
}

// MetricSpec is one autoscaling/v2 metric (hpametrics.go).
type MetricSpec struct {
	Type              string                   `json:"type"`
	Resource          *ResourceMetric          `json:"resource"`
	ContainerResource *ContainerResourceMetric `json:"containerResource"`
	Pods              *PodsMetric              `json:"pods"`
	Object            *ObjectMetric            `json:"object"`
	External          *ExternalMetric          `json:"external"`
}

// MetricTarget is autoscaling/v2 MetricTarget.
type MetricTarget struct {
	Type               string        `json:"type"`
	AverageUtilization *int32        `json:"averageUtilization"`
	AverageValue       *QuantityText `json:"averageValue"`
	Value              *QuantityText `json:"value"`
}

// ResourceMetric is a Resource metric source.
type ResourceMetric struct {
	Name   string       `json:"name"`
	Target MetricTarget `json:"target"`
}

// ContainerResourceMetric is a ContainerResource metric source: one
// container's usage of a resource.
type ContainerResourceMetric struct {
	Name      string       `json:"name"`
	Container string       `json:"container"`
	Target    MetricTarget `json:"target"`
}

// MetricIdentifier names a custom or external metric.
type MetricIdentifier struct {
	Name     string         `json:"name"`
	Selector *LabelSelector `json:"selector"`
}

// PodsMetric is a Pods metric source: a per-pod custom metric.
type PodsMetric struct {
	Metric MetricIdentifier `json:"metric"`
	Target MetricTarget     `json:"target"`
}

// ObjectMetric is an Object metric source: a custom metric describing
// another object.
type ObjectMetric struct {
	DescribedObject CrossVersionObjectReference `json:"describedObject"`
	Metric          MetricIdentifier            `json:"metric"`
	Target          MetricTarget                `json:"target"`
}

// ExternalMetric is an External metric source: a metric from outside
// the cluster (KEDA's).
type ExternalMetric struct {
	Metric MetricIdentifier `json:"metric"`
	Target MetricTarget     `json:"target"`
}

// Node is v1 Node.
type Node struct {
	TypeMeta
	Metadata ObjectMeta `json:"metadata"`
	Spec     struct {
		Taints        []NodeTaint `json:"taints"`
		Unschedulable bool        `json:"unschedulable"`
	} `json:"spec"`
	Status struct {
		Capacity    map[string]QuantityText `json:"capacity"`
		Allocatable map[string]QuantityText `json:"allocatable"`
		Conditions  []struct {
			Type   string `json:"type"`
			Status string `json:"status"`
		} `json:"conditions"`
	} `json:"status"`
}

// NodeTaint is v1.Taint.
type NodeTaint struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Effect string `json:"effect"`
}

// Pod is v1 Pod, as in `kubectl get pods -o json`.
type Pod struct {
	TypeMeta
	Metadata ObjectMeta `json:"metadata"`
	Spec     PodSpec    `json:"spec"`
	Status   struct {
		Phase string `json:"phase"`
		// The containers' statuses: their restartCount is what
		// RemovePodsHavingTooManyRestarts reads.
		ContainerStatuses     []ContainerStatus `json:"containerStatuses"`
		InitContainerStatuses []ContainerStatus `json:"initContainerStatuses"`
	} `json:"status"`
}

// ContainerStatus is the part of a container's status the model reads.
type ContainerStatus struct {
	RestartCount int64 `json:"restartCount"`
}

// List is v1 List and every typed list (NodeList, PodList, ...).
type List struct {
	TypeMeta
	Items []json.RawMessage `json:"items"`
}

// DeschedulerPolicy is descheduler/v1alpha2 DeschedulerPolicy.
type DeschedulerPolicy struct {
	TypeMeta
	Profiles                       []DeschedulerProfile `json:"profiles"`
	MaxNoOfPodsToEvictPerNode      *uint                `json:"maxNoOfPodsToEvictPerNode"`
	MaxNoOfPodsToEvictPerNamespace *uint                `json:"maxNoOfPodsToEvictPerNamespace"`
	MaxNoOfPodsToEvictTotal        *uint                `json:"maxNoOfPodsToEvictTotal"`
}

// DeschedulerProfile is one profile of a policy.
type DeschedulerProfile struct {
	Name         string `json:"name"`
	PluginConfig []struct {
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"pluginConfig"`
	Plugins struct {
		Balance           PluginSet `json:"balance"`
		Deschedule        PluginSet `json:"deschedule"`
		Filter            PluginSet `json:"filter"`
		PreEvictionFilter PluginSet `json:"preEvictionFilter"`
		Sort              PluginSet `json:"sort"`
		Presort           PluginSet `json:"presort"`
	} `json:"plugins"`
}

// PluginSet is enabled and disabled plugin names.
type PluginSet struct {
	Enabled  []string `json:"enabled"`
	Disabled []string `json:"disabled"`
}

// DefaultEvictorArgs are the DefaultEvictor plugin's arguments the model
// reads.
type DefaultEvictorArgs struct {
	// EvictLocalStoragePods lifts the protection of pods with local
	// storage (emptyDir or hostPath volumes).
	EvictLocalStoragePods bool `json:"evictLocalStoragePods"`
	// IgnorePvcPods protects pods with a PersistentVolumeClaim volume.
	IgnorePvcPods           bool `json:"ignorePvcPods"`
	EvictSystemCriticalPods bool `json:"evictSystemCriticalPods"`
	NodeFit                 bool `json:"nodeFit"`
	EvictFailedBarePods     bool `json:"evictFailedBarePods"`
	// EvictDaemonSetPods and IgnorePodsWithoutPDB are the other
	// legacy booleans, read for their check against PodProtections.
	EvictDaemonSetPods   bool `json:"evictDaemonSetPods"`
	IgnorePodsWithoutPDB bool `json:"ignorePodsWithoutPDB"`
	// PodProtections is the current spelling of the protections the
	// booleans set (podprotections.go).
	PodProtections PodProtections `json:"podProtections"`
	// PriorityThreshold protects pods of this priority and above
	// (a PriorityClass's name or a value).
	PriorityThreshold *struct {
		Name  string `json:"name"`
		Value *int64 `json:"value"`
	} `json:"priorityThreshold"`
	// LabelSelector, NamespaceLabelSelector, MinReplicas and MinPodAge
	// narrow the pods evicted (evictorargs.go).
	LabelSelector          *LabelSelector `json:"labelSelector"`
	NamespaceLabelSelector *LabelSelector `json:"namespaceLabelSelector"`
	MinReplicas            *int64         `json:"minReplicas"`
	MinPodAge              *string        `json:"minPodAge"`
	// NoEvictionPolicy reads the prefer-no-eviction annotation, which no
	// pod of the model carries (evictorargs.go).
	NoEvictionPolicy string `json:"noEvictionPolicy"`
}

// PodProtections are the DefaultEvictor's protections by name: the
// default ones it lifts and the extra ones it adds.
type PodProtections struct {
	ExtraEnabled    []string `json:"extraEnabled"`
	DefaultDisabled []string `json:"defaultDisabled"`
	Config          *struct {
		PodsWithPVC *struct {
			ProtectedStorageClasses []struct {
				Name string `json:"name"`
			} `json:"protectedStorageClasses"`
		} `json:"PodsWithPVC"`
	} `json:"config"`
}

// TopologySpreadArgs are RemovePodsViolatingTopologySpreadConstraint's
// arguments.
type TopologySpreadArgs struct {
	Constraints            []string `json:"constraints"`
	TopologyBalanceNodeFit *bool    `json:"topologyBalanceNodeFit"`
	PodFilterArgs
}

// RemoveDuplicatesArgs are RemoveDuplicates' arguments the model reads:
// its namespaces and the owner kinds whose pods are never duplicates.
type RemoveDuplicatesArgs struct {
	Namespaces        *NamespacesArg `json:"namespaces"`
	ExcludeOwnerKinds []string       `json:"excludeOwnerKinds"`
}
