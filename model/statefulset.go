package model

import (
	"fmt"
	"strconv"
	"strings"
)

// StatefulSets (apps/v1) share the deployment slots: a Deployment whose
// Kind is KindStatefulSet is a StatefulSet, with its spec.replicas in
// DeploymentState.Replicas, its two revisions in the two ReplicaSet slots
// (RS[Cur] is status.updateRevision, the other slot the current revision
// while pods of it remain: its ControllerRevision) and its spec in the
// configuration (DeploymentConfig.StatefulSet). Its pods carry their
// ordinal (PodState.Ordinal), which is their identity: the StatefulSet
// controller (controllers/statefulset) reads pods by ordinal, never by
// slot, so pod slots stay interchangeable for the symmetry reduction
// (the ordinal is part of a pod's content). HPAs, PodDisruptionBudgets,
// spread constraints, inter-pod affinity, the descheduler and intents see
// a StatefulSet's pods as any owned pod.

// WorkloadKind is the kind of a workload object of the model.
type WorkloadKind uint8

const (
	// KindDeployment is an apps/v1 Deployment.
	KindDeployment WorkloadKind = iota
	// KindStatefulSet is an apps/v1 StatefulSet.
	KindStatefulSet
)

func (k WorkloadKind) String() string {
	switch k {
	case KindDeployment:
		return "Deployment"
	case KindStatefulSet:
		return "StatefulSet"
	case KindJob:
		return "Job"
	}
	return fmt.Sprintf("WorkloadKind(%d)", uint8(k))
}

// ParseWorkloadKind reads a case file's kind ("" is a Deployment).
func ParseWorkloadKind(s string) (WorkloadKind, error) {
	switch s {
	case "", "Deployment":
		return KindDeployment, nil
	case "StatefulSet":
		return KindStatefulSet, nil
	case "Job":
		return KindJob, nil
	}
	return 0, fmt.Errorf("kind %q (accepted: Deployment, StatefulSet, Job): %w", s, ErrInvalid)
}

// PodManagementPolicy is a StatefulSet's spec.podManagementPolicy.
type PodManagementPolicy uint8

const (
	// OrderedReady creates pods one at a time in ordinal order, each once
	// every lower ordinal is Running and Ready, and deletes them one at a
	// time from the highest ordinal (the default).
	OrderedReady PodManagementPolicy = iota
	// Parallel creates and deletes pods without waiting.
	Parallel
)

func (p PodManagementPolicy) String() string {
	if p == Parallel {
		return "Parallel"
	}
	return "OrderedReady"
}

// OnDelete is a StatefulSet's updateStrategy OnDelete: the controller
// never deletes a pod to update it; pods of an old revision are replaced
// when something else deletes them.
const OnDelete Strategy = Recreate + 1

// StatefulSetSpec is the part of a StatefulSet's spec that a Deployment
// lacks; its strategy (RollingUpdate or OnDelete) and maxUnavailable are
// DeploymentConfig's Strategy and MaxUnavailable.
type StatefulSetSpec struct {
	PodManagement PodManagementPolicy
	// Partition is spec.updateStrategy.rollingUpdate.partition: pods
	// below ordinal start+Partition keep the current revision.
	Partition int
	// OrdinalsStart is spec.ordinals.start.
	OrdinalsStart int
	// MaxUnavailableSet: spec.updateStrategy.rollingUpdate.maxUnavailable
	// is given. It takes effect only with the MaxUnavailableStatefulSet
	// feature gate (beta, off by default in v1.36), which the model then
	// assumes is on; without it the rolling update replaces one pod at a
	// time, waiting for every higher ordinal to be available.
	MaxUnavailableSet bool
}

// MaxOrdinal is the highest ordinal a pod of the model can have
// (PodState.Ordinal holds it plus one in a byte).
const MaxOrdinal = 253

// IsStatefulSet reports whether workload d is a StatefulSet.
func (u *Universe) IsStatefulSet(d int) bool {
	return d >= 0 && d < len(u.Deployments) && u.Deployments[d].Kind == KindStatefulSet
}

// OrdinalOf is pod p's ordinal, or -1 for a pod no StatefulSet owns.
func (p *PodState) OrdinalOf() int { return int(p.Ordinal) - 1 }

// StatefulPodName is a StatefulSet pod's name, `<set>-<ordinal>`, as the
// StatefulSet controller names it; "" for any other pod.
func (u *Universe) StatefulPodName(p *PodState) string {
	d := int(p.Owner) - 1
	if !u.StatefulSetPod(p) {
		return ""
	}
	return u.Deployments[d].Name + "-" + strconv.Itoa(p.OrdinalOf())
}

// statefulSetConfig is DeploymentDecl's configuration for a StatefulSet,
// with the API server's defaults (pkg/apis/apps/v1/defaults.go:
// podManagementPolicy OrderedReady, updateStrategy RollingUpdate with
// partition 0) and validation (partition ≥ 0, maxUnavailable ≥ 1 or a
// percentage in 1..100 %, no rollingUpdate with OnDelete).
func statefulSetConfig(template int, d StatefulSetDecl) (DeploymentConfig, error) {
	cfg := DeploymentConfig{PodTemplate: template, MaxUnavailable: IntOrPercent{Value: 1}}
	switch d.PodManagementPolicy {
	case "", "OrderedReady":
	case "Parallel":
		cfg.StatefulSet.PodManagement = Parallel
	default:
		return cfg, fmt.Errorf("podManagementPolicy %q (accepted: OrderedReady, Parallel): %w", d.PodManagementPolicy, ErrInvalid)
	}
	switch d.Strategy {
	case "", "RollingUpdate":
	case "OnDelete":
		cfg.Strategy = OnDelete
		if d.Partition != 0 || d.MaxUnavailable != "" {
			return cfg, fmt.Errorf("partition and maxUnavailable may not be given with strategy OnDelete: %w", ErrInvalid)
		}
	default:
		return cfg, fmt.Errorf("strategy %q (accepted for a StatefulSet: RollingUpdate, OnDelete): %w", d.Strategy, ErrInvalid)
	}
	if d.MaxSurge != "" {
		return cfg, fmt.Errorf("maxSurge: a StatefulSet has none (accepted: no maxSurge): %w", ErrInvalid)
	}
	if d.Partition < 0 {
		return cfg, fmt.Errorf("partition %d (accepted: an integer ≥ 0): %w", d.Partition, ErrInvalid)
	}
	if d.OrdinalsStart < 0 || d.OrdinalsStart > MaxOrdinal {
		return cfg, fmt.Errorf("ordinalsStart %d (accepted: 0..%d in the model): %w", d.OrdinalsStart, MaxOrdinal, ErrInvalid)
	}
	cfg.StatefulSet.Partition, cfg.StatefulSet.OrdinalsStart = d.Partition, d.OrdinalsStart
	if d.MaxUnavailable != "" {
		v, err := ParseIntOrPercent(d.MaxUnavailable)
		if err != nil {
			return cfg, fmt.Errorf("maxUnavailable: %w", err)
		}
		if v.Value < 1 || v.Percent && v.Value > 100 {
			return cfg, fmt.Errorf("maxUnavailable %q (accepted: an integer ≥ 1 or a percentage 1%%..100%%): %w", d.MaxUnavailable, ErrInvalid)
		}
		cfg.MaxUnavailable, cfg.StatefulSet.MaxUnavailableSet = v, true
	}
	return cfg, nil
}

// StatefulSetDecl is what DeploymentDecl and DeploymentTemplateDecl
// declare of a configuration, for statefulSetConfig.
type StatefulSetDecl struct {
	PodManagementPolicy, Strategy, MaxSurge, MaxUnavailable string
	Partition, OrdinalsStart                                int
}

// workloadConfig is the configuration of a declared workload of kind k.
func workloadConfig(k WorkloadKind, template int, d StatefulSetDecl) (DeploymentConfig, error) {
	if k == KindStatefulSet {
		return statefulSetConfig(template, d)
	}
	if d.PodManagementPolicy != "" || d.Partition != 0 || d.OrdinalsStart != 0 {
		return DeploymentConfig{}, fmt.Errorf("podManagementPolicy, partition and ordinalsStart are StatefulSet fields (accepted with kind StatefulSet only): %w", ErrInvalid)
	}
	return deploymentConfig(template, d.Strategy, d.MaxSurge, d.MaxUnavailable)
}

// MaxUnavailableOf is a StatefulSet's maxUnavailable against its replicas
// (getStatefulSetMaxUnavailable: default 1, a percentage rounded down,
// at least 1).
func (c *DeploymentConfig) MaxUnavailableOf(replicas int) int {
	return max(1, c.MaxUnavailable.Resolve(replicas, false))
}

func (d DeploymentDecl) statefulSetDecl() StatefulSetDecl {
	return StatefulSetDecl{PodManagementPolicy: d.PodManagementPolicy, Strategy: d.Strategy, MaxSurge: d.MaxSurge,
		MaxUnavailable: d.MaxUnavailable, Partition: d.Partition, OrdinalsStart: d.OrdinalsStart}
}

func (d DeploymentTemplateDecl) statefulSetDecl() StatefulSetDecl {
	return StatefulSetDecl{PodManagementPolicy: d.PodManagementPolicy, Strategy: d.Strategy, MaxSurge: d.MaxSurge,
		MaxUnavailable: d.MaxUnavailable, Partition: d.Partition, OrdinalsStart: d.OrdinalsStart}
}

// KindWord is how trace lines name workload d's kind: "deployment" or
// "statefulset" (kubectl's resource names), capitalised as the kind
// ("Deployment", "StatefulSet") with title.
func (u *Universe) OwnerKind(d int) string {
	if u.IsStatefulSet(d) {
		return "StatefulSet"
	}
	if u.IsJob(d) {
		return "Job"
	}
	return "ReplicaSet"
}

// OwnerKinds are the kinds OwnerKind returns.
var OwnerKinds = []string{"ReplicaSet", "StatefulSet", "Job"}

// KindWord names workload d's kind in a trace line: "deployment",
// "statefulset" or "job", capitalised as Kubernetes writes the kind when
// title.
func (u *Universe) KindWord(d int, title bool) string {
	switch {
	case u.IsJob(d) && title:
		return "Job"
	case u.IsJob(d):
		return "job"
	case u.IsStatefulSet(d) && title:
		return "StatefulSet"
	case u.IsStatefulSet(d):
		return "statefulset"
	case title:
		return "Deployment"
	}
	return "deployment"
}

// describeRevisions renders a StatefulSet's revisions: the update
// revision's slot and, while it differs, the current revision's.
func describeRevisions(b *strings.Builder, ds *DeploymentState) {
	fmt.Fprintf(b, " update-revision %d", ds.Cur)
	if other := 1 - ds.Cur; ds.RS[other].Template != 0 {
		fmt.Fprintf(b, " current-revision %d", other)
	}
}
