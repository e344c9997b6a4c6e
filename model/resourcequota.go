package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ResourceQuotas. The API server's ResourceQuota admission refuses to
// create a pod that does not specify a resource a quota of its namespace
// limits ("must specify", podEvaluator.Constraints), or whose usage,
// added to what the namespace's pods already use, would exceed a quota's
// hard limit (plugin/pkg/admission/resourcequota with
// pkg/quota/v1/evaluator/core/pods.go, v1.36). Only pod creation is
// checked: a pod that exists is never removed for a quota. The ReplicaSet
// and StatefulSet controllers retry a refused creation with a backoff for
// as long as the workload is short, so a creation the quota refuses
// happens once the quota has room again.

// ResourceQuota is one ResourceQuota object of a namespace, in model
// units (cpu in millicores and memory in MiB, as the manifest reader
// writes requests).
type ResourceQuota struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
	// Hard are the spec.hard limits the model checks, by resource name
	// (QuotaResources).
	Hard map[string]int64 `json:"hard"`
	// BestEffort is the quota's BestEffort (1) or NotBestEffort (-1)
	// scope; 0: every pod of the namespace.
	BestEffort int8 `json:"bestEffort,omitempty"`
	// Terminating is the quota's Terminating (1) or NotTerminating (-1)
	// scope, which the pods with (without) an activeDeadlineSeconds are
	// in; 0: every pod of the namespace.
	Terminating int8 `json:"terminating,omitempty"`
	// PriorityClasses are the scopeSelector's PriorityClass expressions,
	// all of which a pod must match.
	PriorityClasses []PriorityClassScope `json:"priorityClasses,omitempty"`
}

// PriorityClassScope is one PriorityClass expression of a quota's
// scopeSelector: Operator In, NotIn, Exists or DoesNotExist over the
// pod's priorityClassName.
type PriorityClassScope struct {
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// matches is podMatchesScopeFunc for the PriorityClass scope: Exists is
// a non-empty name; the others are a label selector over a set that
// holds the name under the key PriorityClass when the pod names a class
// and is empty otherwise, so DoesNotExist and NotIn match a pod without
// a priorityClassName.
func (sc PriorityClassScope) matches(name string) bool {
	switch sc.Operator {
	case "In":
		return slices.Contains(sc.Values, name)
	case "NotIn":
		return !slices.Contains(sc.Values, name)
	case "Exists":
		return name != ""
	case "DoesNotExist":
		return name == ""
	}
	return false
}

// QuotaResources are the resource names of spec.hard the model checks.
var QuotaResources = []string{"count/pods", "cpu", "limits.cpu", "limits.memory", "memory", "pods", "requests.cpu", "requests.memory"}

// The resources a quota requires every container to specify
// (PodTemplate.QuotaMissing's indices).
const (
	QuotaRequestsCPU = iota
	QuotaRequestsMemory
	QuotaLimitsCPU
	QuotaLimitsMemory
	QuotaConstraints
)

// quotaConstraint is the QuotaMissing index a quota on resource name
// requires, -1 for a count.
func quotaConstraint(name string) int {
	switch name {
	case "cpu", "requests.cpu":
		return QuotaRequestsCPU
	case "memory", "requests.memory":
		return QuotaRequestsMemory
	case "limits.cpu":
		return QuotaLimitsCPU
	case "limits.memory":
		return QuotaLimitsMemory
	}
	return -1
}

// quotaUsage is what one pod of template t charges resource name.
func quotaUsage(t *PodTemplate, name string) int64 {
	switch name {
	case "cpu", "requests.cpu":
		return t.CPU
	case "memory", "requests.memory":
		return t.Memory
	case "limits.cpu":
		return t.LimitCPU
	case "limits.memory":
		return t.LimitMemory
	}
	return 1
}

// formatQuota writes an amount of resource name as Kubernetes writes
// the quantity: a zero has no unit.
func formatQuota(name string, v int64) string {
	if v == 0 {
		return "0"
	}
	switch quotaConstraint(name) {
	case QuotaRequestsCPU, QuotaLimitsCPU:
		return FormatMillicores(v)
	case QuotaRequestsMemory, QuotaLimitsMemory:
		return FormatMebibytes(v)
	}
	return strconv.FormatInt(v, 10)
}

// counts reports whether the quota counts the pods of template t.
func (q *ResourceQuota) counts(t *PodTemplate) bool {
	if t.Namespace != q.Namespace {
		return false
	}
	for _, sc := range q.PriorityClasses {
		if !sc.matches(t.PriorityClassName) {
			return false
		}
	}
	if q.Terminating != 0 && (q.Terminating == 1) != t.ActiveDeadline {
		return false
	}
	bestEffort := t.BestEffort()
	switch q.BestEffort {
	case 1:
		return bestEffort
	case -1:
		return !bestEffort
	}
	return true
}

// names are the quota's resources in name order (the API server's
// messages list them so).
func (q *ResourceQuota) names() []string {
	names := make([]string, 0, len(q.Hard))
	for name := range q.Hard {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// quotaCharged: a pod in this phase uses resource name of its
// namespace's quota. count/pods counts every pod object that exists
// (PodUsageFunc); the other resources skip terminal pods, and take
// Terminating pods as already past their grace period (the quota
// evaluator stops charging a pod whose deletion grace period has
// elapsed, and the model's kubelet removes a pod without time passing;
// docs/divergences.md).
func quotaCharged(p *PodState, name string) bool {
	if name == "count/pods" {
		return p.Phase != Free
	}
	return p.Phase == Pending || p.Phase == Running
}

// QuotaUsed is what the pods of s charge resource name of quota q.
func (u *Universe) QuotaUsed(s *State, q int, name string) int64 {
	rq := &u.ResourceQuotas[q]
	var used int64
	for i := range s.Pods {
		p := &s.Pods[i]
		if !quotaCharged(p, name) {
			continue
		}
		if t := &u.Templates[p.Template]; rq.counts(t) {
			used += quotaUsage(t, name)
		}
	}
	return used
}

// QuotaRefusal is why the ResourceQuota admission refuses one more pod of
// template tmpl in s, in the API server's words, and whether it does: a
// quota requires a resource some container does not specify, or the pod
// would take a quota past a hard limit.
func (u *Universe) QuotaRefusal(s *State, tmpl int) (msg string, refused bool) {
	t := &u.Templates[tmpl]
	// Constraints come first, quota by quota.
	for q := range u.ResourceQuotas {
		rq := &u.ResourceQuotas[q]
		if !rq.counts(t) {
			continue
		}
		var missing []string
		for _, name := range rq.names() {
			if c := quotaConstraint(name); c >= 0 && len(t.QuotaMissing[c]) > 0 {
				missing = append(missing, name+" for: "+strings.Join(t.QuotaMissing[c], ","))
			}
		}
		if len(missing) > 0 {
			return fmt.Sprintf("failed quota: %s: must specify %s", rq.Name, strings.Join(missing, "; ")), true
		}
	}
	for q := range u.ResourceQuotas {
		rq := &u.ResourceQuotas[q]
		if !rq.counts(t) {
			continue
		}
		var requested, used, limited []string
		for _, name := range rq.names() {
			// A resource the pod does not use is not compared (the
			// admission drops zero usage before it compares): a quota
			// already past a hard limit still admits such a pod.
			req, use, hard := quotaUsage(t, name), u.QuotaUsed(s, q, name), rq.Hard[name]
			if req == 0 || use+req <= hard {
				continue
			}
			requested = append(requested, name+"="+formatQuota(name, req))
			used = append(used, name+"="+formatQuota(name, use))
			limited = append(limited, name+"="+formatQuota(name, hard))
		}
		if len(requested) > 0 {
			return fmt.Sprintf("exceeded quota: %s, requested: %s, used: %s, limited: %s", rq.Name,
				strings.Join(requested, ","), strings.Join(used, ","), strings.Join(limited, ",")), true
		}
	}
	return "", false
}

// FormatMillicores writes a cpu amount in millicores as Kubernetes
// writes the quantity: "2" for 2000, "500m" for 500.
func FormatMillicores(m int64) string {
	if m%1000 == 0 {
		return strconv.FormatInt(m/1000, 10)
	}
	return strconv.FormatInt(m, 10) + "m"
}

// FormatMebibytes writes a memory amount in MiB as Kubernetes writes the
// quantity: "2Gi" for 2048, "512Mi" for 512.
func FormatMebibytes(m int64) string {
	if m != 0 && m%1024 == 0 {
		return strconv.FormatInt(m/1024, 10) + "Gi"
	}
	return strconv.FormatInt(m, 10) + "Mi"
}

// validateResourceQuotas checks the quotas of a Cluster.
func validateResourceQuotas(qs []ResourceQuota) error {
	seen := map[[2]string]bool{}
	for i, q := range qs {
		if q.Name == "" {
			return fmt.Errorf("resourceQuotas[%d]: name is empty: %w", i, ErrInvalid)
		}
		if seen[[2]string{q.Namespace, q.Name}] {
			return fmt.Errorf("resourceQuotas[%d]: %s/%s is given twice: %w", i, q.Namespace, q.Name, ErrInvalid)
		}
		seen[[2]string{q.Namespace, q.Name}] = true
		for _, name := range q.names() {
			if !slices.Contains(QuotaResources, name) {
				return fmt.Errorf("resourceQuotas[%d] (%s): hard %q (accepted: %s): %w", i, q.Name, name, strings.Join(QuotaResources, ", "), ErrInvalid)
			}
			if v := q.Hard[name]; v < 0 {
				return fmt.Errorf("resourceQuotas[%d] (%s): hard %s %d: want a limit ≥ 0: %w", i, q.Name, name, v, ErrInvalid)
			}
		}
		for k, sc := range q.PriorityClasses {
			switch sc.Operator {
			case "In", "NotIn":
				if len(sc.Values) == 0 {
					return fmt.Errorf("resourceQuotas[%d] (%s): priorityClasses[%d]: %s needs values: %w", i, q.Name, k, sc.Operator, ErrInvalid)
				}
			case "Exists", "DoesNotExist":
				if len(sc.Values) > 0 {
					return fmt.Errorf("resourceQuotas[%d] (%s): priorityClasses[%d]: %s takes no values: %w", i, q.Name, k, sc.Operator, ErrInvalid)
				}
			default:
				return fmt.Errorf("resourceQuotas[%d] (%s): priorityClasses[%d]: operator %q (accepted: In, NotIn, Exists, DoesNotExist): %w", i, q.Name, k, sc.Operator, ErrInvalid)
			}
		}
		if q.BestEffort < -1 || q.BestEffort > 1 {
			return fmt.Errorf("resourceQuotas[%d] (%s): bestEffort %d: want -1, 0 or 1: %w", i, q.Name, q.BestEffort, ErrInvalid)
		}
		if q.Terminating < -1 || q.Terminating > 1 {
			return fmt.Errorf("resourceQuotas[%d] (%s): terminating %d: want -1, 0 or 1: %w", i, q.Name, q.Terminating, ErrInvalid)
		}
	}
	return nil
}
