package model

import (
	"fmt"
	"strconv"
)

// ResourceQuotas. The API server's ResourceQuota admission refuses to
// create a pod whose requests, added to what the namespace's pods already
// use, would exceed a quota's hard limit (plugin/pkg/admission/resourcequota
// with pkg/quota/v1/evaluator/core/pods.go, v1.36). Only pod creation is
// checked: a pod that exists is never removed for a quota. The ReplicaSet
// controller retries a refused creation with a backoff for as long as the
// set is short, so a creation the quota refuses happens once the quota has
// room again.

// ResourceQuota is one ResourceQuota object of a namespace, in model
// units (cpu in millicores and memory in MiB, as the manifest reader
// writes requests). A limit of -1 is no limit.
type ResourceQuota struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
	// Pods, CPU and Memory are spec.hard's pods (count/pods),
	// requests.cpu (cpu) and requests.memory (memory).
	Pods   int64 `json:"pods"`
	CPU    int64 `json:"cpu"`
	Memory int64 `json:"memory"`
	// BestEffort is the quota's BestEffort (1) or NotBestEffort (-1)
	// scope; 0: every pod of the namespace.
	BestEffort int8 `json:"bestEffort,omitempty"`
}

// counts reports whether the quota counts the pods of template t.
func (q *ResourceQuota) counts(t *PodTemplate) bool {
	if t.Namespace != q.Namespace {
		return false
	}
	bestEffort := t.CPU == 0 && t.Memory == 0
	switch q.BestEffort {
	case 1:
		return bestEffort
	case -1:
		return !bestEffort
	}
	return true
}

// quotaCharged: a pod in this phase uses its namespace's quota. Terminal
// pods do not; Terminating pods are taken as already past their grace
// period (the quota evaluator stops charging a pod whose deletion grace
// period has elapsed, and the model's kubelet removes a pod without
// time passing; docs/divergences.md).
func quotaCharged(p *PodState) bool { return p.Phase == Pending || p.Phase == Running }

// QuotaUsage is what the pods of s charge quota q: pods, cpu, memory.
func (u *Universe) QuotaUsage(s *State, q int) (pods, cpu, memory int64) {
	rq := &u.ResourceQuotas[q]
	for i := range s.Pods {
		p := &s.Pods[i]
		if !quotaCharged(p) {
			continue
		}
		t := &u.Templates[p.Template]
		if !rq.counts(t) {
			continue
		}
		pods++
		cpu += t.CPU
		memory += t.Memory
	}
	return pods, cpu, memory
}

// QuotaRefusal is why the ResourceQuota admission refuses one more pod of
// template tmpl in s: the first quota it would exceed, and the API
// server's message for it. ok is false when every quota admits the pod.
func (u *Universe) QuotaRefusal(s *State, tmpl int) (msg string, refused bool) {
	t := &u.Templates[tmpl]
	for q := range u.ResourceQuotas {
		rq := &u.ResourceQuotas[q]
		if !rq.counts(t) {
			continue
		}
		pods, cpu, memory := u.QuotaUsage(s, q)
		var requested, used, limited string
		add := func(name string, req, use, hard int64, format func(int64) string) {
			if hard < 0 || use+req <= hard {
				return
			}
			if requested != "" {
				requested, used, limited = requested+",", used+",", limited+","
			}
			requested += name + "=" + format(req)
			used += name + "=" + format(use)
			limited += name + "=" + format(hard)
		}
		add("pods", 1, pods, rq.Pods, formatCount)
		add("requests.cpu", t.CPU, cpu, rq.CPU, FormatMillicores)
		add("requests.memory", t.Memory, memory, rq.Memory, FormatMebibytes)
		if requested != "" {
			return fmt.Sprintf("exceeded quota: %s, requested: %s, used: %s, limited: %s", rq.Name, requested, used, limited), true
		}
	}
	return "", false
}

// HasQuota reports whether some ResourceQuota counts the pods of
// template tmpl.
func (u *Universe) HasQuota(tmpl int) bool {
	for q := range u.ResourceQuotas {
		if u.ResourceQuotas[q].counts(&u.Templates[tmpl]) {
			return true
		}
	}
	return false
}

func formatCount(n int64) string { return strconv.FormatInt(n, 10) }

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
		for _, v := range []struct {
			name string
			n    int64
		}{{"pods", q.Pods}, {"cpu", q.CPU}, {"memory", q.Memory}} {
			if v.n < -1 {
				return fmt.Errorf("resourceQuotas[%d] (%s): %s %d: want -1 (no limit) or a limit ≥ 0: %w", i, q.Name, v.name, v.n, ErrInvalid)
			}
		}
		if q.BestEffort < -1 || q.BestEffort > 1 {
			return fmt.Errorf("resourceQuotas[%d] (%s): bestEffort %d: want -1, 0 or 1: %w", i, q.Name, q.BestEffort, ErrInvalid)
		}
	}
	return nil
}
