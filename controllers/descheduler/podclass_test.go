package descheduler

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestUpstreamSortPodsBasedOnPriorityLowToHigh: upstream's
// TestSortPodsBasedOnPriorityLowToHigh (pkg/descheduler/pod/pods_test.go,
// v0.36) on podClass: priority, then QoS class, then the
// prefer-no-eviction annotation. Upstream's pods without a priority
// (Spec.Priority nil, which only a cluster without the Priority admission
// plugin has) sort before priority 0: they are restated with priority -1.
func TestUpstreamSortPodsBasedOnPriorityLowToHigh(t *testing.T) {
	const none, low, high = -1, 0, 10000
	type qos int
	const bestEffort, burstable, guaranteed qos = 0, 1, 2
	pods := []struct {
		name     string
		priority int32
		qos      qos
		preferNo bool
	}{
		{"p1", low, burstable, false},
		{"p8", high, bestEffort, true},
		{"p9", high, burstable, true},
		{"p10", high, guaranteed, true},
		{"p2", high, bestEffort, false},
		{"p3", high, burstable, false},
		{"p4", high, guaranteed, false},
		{"p5", none, bestEffort, false},
		{"p6", none, guaranteed, false},
		{"p7", low, burstable, true},
		{"p11", none, burstable, false},
		{"p12", none, burstable, true},
	}
	b := build.New()
	b.AddNodes(1, build.Node().CPU(4000).Mem(3000).MaxPods(20))
	for _, p := range pods {
		tb := build.Template(p.name).Priority(p.priority)
		switch p.qos {
		case burstable:
			tb.Requests(400, 0)
		case guaranteed:
			tb.Requests(400, 100).Guaranteed()
		}
		t := b.AddTemplate(tb)
		b.U.Templates[t].PreferNoEviction = p.preferNo
		b.RunPod(b.AddDeployment(p.name, t, 1), 0)
	}
	u, s := b.MustBuild()
	c := newCycle(u, s, nil, nil)
	order := make([]int, len(pods))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case classOf(c, a).less(classOf(c, b)):
			return -1
		case classOf(c, b).less(classOf(c, a)):
			return 1
		}
		return 0
	})
	var got []string
	for _, i := range order {
		got = append(got, u.Templates[s.Pods[i].Template].Name)
	}
	want := []string{"p5", "p11", "p12", "p6", "p1", "p7", "p2", "p8", "p3", "p9", "p4", "p10"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("order %v, want %v", got, want)
	}
	for i, p := range pods {
		if q := u.Templates[s.Pods[i].Template].QoS(); q != model.QoSClass(p.qos) {
			t.Errorf("%s: QoS %v, want %v", p.name, q, p.qos)
		}
	}
}
