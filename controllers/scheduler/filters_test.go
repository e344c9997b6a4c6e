package scheduler

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// TestFilters checks each static and resource filter in isolation, with
// the reason strings of the Kubernetes v1.36 plugins (nodename,
// nodeaffinity, tainttoleration, noderesources/fit.go).
func TestFilters(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node().Name("plain").Label("disk", "ssd"))
	b.AddNodes(1, build.Node().Name("noexec").Taint("k", "v", model.NoExecute))
	b.AddNodes(1, build.Node().Name("nosched").Taint("k", "v", model.NoSchedule))
	b.AddNodes(1, build.Node().Name("full").CPU(16).Mem(64).Reserved(10, 0))
	b.AddNodes(1, build.Node().Name("nomem").Mem(8))
	b.AddNodes(1, build.Node().Name("fewpods").MaxPods(1))
	b.AddNodes(1, build.Node().Name("down"))
	web := b.AddTemplate(build.Template("web").Requests(8, 16))
	pinned := b.AddTemplate(build.Template("pinned").NodeName(0))
	ssd := b.AddTemplate(build.Template("ssd").NodeSelector("disk", "ssd"))
	tolerant := b.AddTemplate(build.Template("tolerant").Toleration("k", "v", ""))
	zero := b.AddTemplate(build.Template("zero"))
	dWeb := b.AddDeployment("web", web, 1)
	b.AddDeployment("pinned", pinned, 1)
	b.AddDeployment("ssd", ssd, 1)
	b.AddDeployment("tolerant", tolerant, 1)
	b.AddDeployment("zero", zero, 1)
	b.RunPod(dWeb, 5) // fills "fewpods"
	for d := 0; d < 5; d++ {
		b.PendingPod(d, -1)
	}
	u, s := b.MustBuild()
	s.Nodes[6].Status = model.NotReady
	type verdict struct {
		filter string
		code   Code
		reason string
	}
	pass := verdict{}
	tests := []struct {
		name string
		pod  int       // slot
		want []verdict // per node
	}{
		{"requests 8/16", 1, []verdict{pass,
			{"TaintToleration", UnschedulableAndUnresolvable, "node(s) had untolerated taint(s)"},
			{"TaintToleration", UnschedulableAndUnresolvable, "node(s) had untolerated taint(s)"},
			{"NodeResourcesFit", Unschedulable, "Insufficient cpu"},
			// nomem's allocatable memory (8) is below the request:
			// no preemption can make room there.
			{"NodeResourcesFit", UnschedulableAndUnresolvable, "Insufficient memory"},
			{"NodeResourcesFit", Unschedulable, "Too many pods"},
			{"NodeReady", UnschedulableAndUnresolvable, "node(s) had untolerated taint(s) {node.kubernetes.io/not-ready}"}}},
		{"nodeName plain", 2, []verdict{pass,
			{"NodeName", UnschedulableAndUnresolvable, "node(s) didn't match the requested node name"},
			{"NodeName", UnschedulableAndUnresolvable, "node(s) didn't match the requested node name"},
			{"NodeName", UnschedulableAndUnresolvable, "node(s) didn't match the requested node name"},
			{"NodeName", UnschedulableAndUnresolvable, "node(s) didn't match the requested node name"},
			{"NodeName", UnschedulableAndUnresolvable, "node(s) didn't match the requested node name"},
			{"NodeReady", UnschedulableAndUnresolvable, "node(s) had untolerated taint(s) {node.kubernetes.io/not-ready}"}}},
		{"nodeSelector disk=ssd", 3, []verdict{pass,
			{"TaintToleration", UnschedulableAndUnresolvable, "node(s) had untolerated taint(s)"},
			{"TaintToleration", UnschedulableAndUnresolvable, "node(s) had untolerated taint(s)"},
			{"NodeAffinity", UnschedulableAndUnresolvable, "node(s) didn't match Pod's node affinity/selector"},
			{"NodeAffinity", UnschedulableAndUnresolvable, "node(s) didn't match Pod's node affinity/selector"},
			{"NodeAffinity", UnschedulableAndUnresolvable, "node(s) didn't match Pod's node affinity/selector"},
			{"NodeReady", UnschedulableAndUnresolvable, "node(s) had untolerated taint(s) {node.kubernetes.io/not-ready}"}}},
		// A request of 0 fits an overcommitted node (fitsRequest only
		// compares requested resources); the pod count still binds.
		{"tolerates k=v, no requests", 4, []verdict{pass, pass, pass, pass, pass,
			{"NodeResourcesFit", Unschedulable, "Too many pods"},
			{"NodeReady", UnschedulableAndUnresolvable, "node(s) had untolerated taint(s) {node.kubernetes.io/not-ready}"}}},
	}
	pr := defaultProfile()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c cycle
			c.reset(u, s, tt.pod)
			c.requested[3].CPU += 10 // overcommit "full": 20 requested of 16
			c.filter(&pr)
			for n, want := range tt.want {
				got := pass
				if by := c.rejectedBy[n]; by >= 0 {
					got = verdict{pr.filters[by].Name(), c.status[n].Code, c.status[n].Reason}
				}
				if got != want {
					t.Errorf("node %s: %+v, want %+v", u.Nodes[n].Name, got, want)
				}
			}
		})
	}
}

// TestScores checks the three simple score plugins against their upstream
// formulas (v1.36: helper.DefaultNormalizeScore, leastRequestedScore).
func TestScores(t *testing.T) {
	b := build.New()
	b.AddNodes(1, build.Node().Label("tier", "gold"))
	b.AddNodes(1, build.Node().Label("tier", "silver").Taint("a", "", model.PreferNoSchedule).Taint("b", "", model.PreferNoSchedule))
	b.AddNodes(1, build.Node().CPU(32).Mem(128).Taint("a", "", model.PreferNoSchedule))
	web := b.AddTemplate(build.Template("web").Requests(8, 16).Preferred(10, "tier", "gold").Preferred(3, "tier", "silver"))
	d := b.AddDeployment("web", web, 2)
	b.RunPod(d, 0).PendingPod(d, -1)
	u, s := b.MustBuild()
	pr := defaultProfile()
	var c cycle
	c.reset(u, s, 1)
	c.filter(&pr)
	c.score(&pr)
	want := map[string]struct{ raw, norm [3]int64 }{
		// untolerated PreferNoSchedule taints 0/2/1, reversed: 100, 0, 50
		"TaintToleration": {[3]int64{0, 2, 1}, [3]int64{100, 0, 50}},
		// preferred weights 10/3/0 → 100, 30, 0
		"NodeAffinity": {[3]int64{10, 3, 0}, [3]int64{100, 30, 0}},
		// node 1: cpu (64−16)·100/64 = 75, mem (64−32)·100/64 = 50 → 62;
		// node 2: 87, 75 → 81; node 3: (32−8)·100/32 = 75, (128−16)·100/128 = 87 → 81
		"NodeResourcesFit": {[3]int64{62, 81, 81}, [3]int64{62, 81, 81}},
	}
	for k, pl := range pr.scores[:3] {
		w := want[pl.Name()]
		var raw, norm [3]int64
		copy(raw[:], c.raw[k])
		copy(norm[:], c.norm[k])
		if raw != w.raw || norm != w.norm {
			t.Errorf("%s: raw %v norm %v, want raw %v norm %v", pl.Name(), raw, norm, w.raw, w.norm)
		}
	}
}

// TestSystemDefaultConstraints: a template without spread constraints
// gets kube-scheduler's system defaults for scoring (hostname maxSkew 3,
// topology.kubernetes.io/zone maxSkew 5, selector = the owner's ReplicaSet),
// none for filtering; a bare pod gets none.
func TestSystemDefaultConstraints(t *testing.T) {
	b := build.New()
	b.AddNodes(2, build.Node().Label("topology.kubernetes.io/zone", "z1"))
	web := b.AddTemplate(build.Template("web").Label("app", "web"))
	other := b.AddTemplate(build.Template("other").Label("app", "web"))
	d := b.AddDeployment("web", web, 3)
	o := b.AddDeployment("other", other, 1)
	b.RunPod(d, 0).RunPod(o, 1).PendingPod(d, -1)
	u, s := b.MustBuild()
	var c cycle
	c.reset(u, s, 2)
	if len(c.hard) != 0 || len(c.soft) != 2 || !c.softDefault {
		t.Fatalf("hard %d soft %d default %t, want 0, 2, true", len(c.hard), len(c.soft), c.softDefault)
	}
	if !c.soft[0].hostname || c.soft[0].maxSkew != 3 || c.soft[1].maxSkew != 5 || c.soft[1].absent {
		t.Errorf("defaults %+v", c.soft)
	}
	// Same labels but another owner: not counted.
	if got := [2]int32{c.matchOn(&c.soft[0], 0), c.matchOn(&c.soft[0], 1)}; got != [2]int32{1, 0} {
		t.Errorf("hostname matches %v, want [1 0]", got)
	}
	s.Pods[2].Owner = 0
	c.reset(u, s, 2)
	if len(c.soft) != 0 {
		t.Errorf("bare pod got %d default constraints", len(c.soft))
	}
}
