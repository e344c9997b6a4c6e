package model_test

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// quotaUniverse is one node and deployment web (template requests cpu
// and memory) with running pods, and the quotas qs in namespace "".
func quotaUniverse(t *testing.T, cpu, memory int64, running int, qs ...model.ResourceQuota) (*model.Universe, *model.State) {
	t.Helper()
	b := build.New()
	b.AddNodes(1, build.Node())
	tmpl := b.AddTemplate(build.Template("web").Requests(cpu, memory))
	d := b.AddDeployment("web", tmpl, running)
	for range running {
		b.RunPod(d, 0)
	}
	u, s, err := b.Build(0)
	if err != nil {
		t.Fatal(err)
	}
	u.ResourceQuotas = qs
	return u, s
}

// TestQuotaPriorityClassScopeWithoutClass: the PriorityClass scope's
// label selector reads an empty set for a pod that names no class
// (podMatchesSelector), so DoesNotExist and NotIn select it and In does
// not; a pod of class high is selected by In [high] only.
func TestQuotaPriorityClassScopeWithoutClass(t *testing.T) {
	for _, c := range []struct {
		class, op string
		values    []string
		counted   bool
	}{
		{"", "DoesNotExist", nil, true},
		{"", "NotIn", []string{"high"}, true},
		{"", "In", []string{"high"}, false},
		{"", "Exists", nil, false},
		{"high", "DoesNotExist", nil, false},
		{"high", "NotIn", []string{"high"}, false},
		{"high", "In", []string{"high"}, true},
	} {
		u, s := quotaUniverse(t, 100, 64, 0, model.ResourceQuota{Name: "q", Hard: map[string]int64{"pods": 0},
			PriorityClasses: []model.PriorityClassScope{{Operator: c.op, Values: c.values}}})
		u.Templates[0].PriorityClassName = c.class
		if _, refused := u.QuotaRefusal(s, 0); refused != c.counted {
			t.Errorf("class %q, %s %v: refused %v, want %v", c.class, c.op, c.values, refused, c.counted)
		}
	}
}

// TestQuotaTerminatingScope: a pod with an activeDeadlineSeconds is in
// the Terminating scope (IsTerminating), one without it in
// NotTerminating.
func TestQuotaTerminatingScope(t *testing.T) {
	for _, c := range []struct {
		deadline    bool
		terminating int8
		counted     bool
	}{{true, 1, true}, {true, -1, false}, {false, 1, false}, {false, -1, true}, {true, 0, true}} {
		u, s := quotaUniverse(t, 100, 64, 0, model.ResourceQuota{Name: "q", Hard: map[string]int64{"pods": 0}, Terminating: c.terminating})
		u.Templates[0].ActiveDeadline = c.deadline
		if _, refused := u.QuotaRefusal(s, 0); refused != c.counted {
			t.Errorf("activeDeadlineSeconds %v, terminating %d: refused %v, want %v", c.deadline, c.terminating, refused, c.counted)
		}
	}
}

// TestQuotaIgnoresResourceThePodDoesNotUse: the admission drops the
// pod's zero usage before it compares, so a quota already past its
// requests.memory (created after the pods) admits a pod without a
// memory request, and refuses one with.
func TestQuotaIgnoresResourceThePodDoesNotUse(t *testing.T) {
	for _, memory := range []int64{0, 1} {
		u, s := quotaUniverse(t, 100, memory, 0, model.ResourceQuota{Name: "q", Hard: map[string]int64{"requests.memory": 64, "pods": 10}})
		// Two running pods of 64Mi that the quota found in place.
		u.Templates = append(u.Templates, u.Templates[0])
		u.Templates[1].Memory = 64
		s.Pods = append(s.Pods, model.PodState{Phase: model.Running, Template: 1, Node: 1}, model.PodState{Phase: model.Running, Template: 1, Node: 1})
		msg, refused := u.QuotaRefusal(s, 0)
		if refused != (memory > 0) {
			t.Errorf("memory request %d: refused %v (%q)", memory, refused, msg)
		}
	}
}

// TestQuotaMessageWritesZeroWithoutUnit: Kubernetes writes a zero
// quantity "0", memory too.
func TestQuotaMessageWritesZeroWithoutUnit(t *testing.T) {
	u, s := quotaUniverse(t, 100, 64, 0, model.ResourceQuota{Name: "q", Hard: map[string]int64{"requests.memory": 32}})
	const want = "exceeded quota: q, requested: requests.memory=64Mi, used: requests.memory=0, limited: requests.memory=32Mi"
	if msg, _ := u.QuotaRefusal(s, 0); msg != want {
		t.Errorf("message %q\nwant    %q", msg, want)
	}
}

// TestQuotaBestEffortScopeIgnoresOverhead: the BestEffort scope reads the
// pod's QoS class (v1qos.GetPodQOS), which the pod overhead does not
// change: a pod whose containers request nothing is BestEffort though
// its requests hold its RuntimeClass's overhead.
func TestQuotaBestEffortScopeIgnoresOverhead(t *testing.T) {
	for _, c := range []struct {
		bestEffort int8
		counted    bool
	}{{1, true}, {-1, false}} {
		u, s := quotaUniverse(t, 100, 64, 0, model.ResourceQuota{Name: "q", Hard: map[string]int64{"pods": 0}, BestEffort: c.bestEffort})
		u.Templates[0].Overhead = [2]int64{model.CPU: 100, model.Memory: 64}
		if _, refused := u.QuotaRefusal(s, 0); refused != c.counted {
			t.Errorf("bestEffort %d: refused %v, want %v", c.bestEffort, refused, c.counted)
		}
	}
}
