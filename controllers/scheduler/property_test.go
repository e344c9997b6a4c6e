package scheduler

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
)

// spreadKeys are the topology keys random constraints use: node labels
// that some nodes lack, both hostname keys, and a key no node carries.
var spreadKeys = []string{"zone", "tier", model.HostnameKey, model.KiviHostnameKey, "rack"}

// genCluster draws a small random cluster: nodes with or without zone and
// tier labels, taints, reservations and pod limits; templates with
// requests, node selectors, preferred terms, tolerations and spread
// constraints of every kind (hard and soft, empty and foreign selectors,
// minDomains, inclusion policies, matchLabelKeys) or none (system
// defaults), inter-pod terms with label keys (genLabelKeys); one
// deployment per template; pods in every phase, bare or owned, bound or
// not; some nodes not Ready. At least one pod waits for scheduling.
func genCluster(t *rapid.T) (*model.Universe, *model.State) {
	b := build.New()
	for range rapid.IntRange(1, 6).Draw(t, "nodes") {
		nb := build.Node().CPU(int64(rapid.IntRange(4, 32).Draw(t, "cpu"))).Mem(int64(rapid.IntRange(4, 32).Draw(t, "mem")))
		if rapid.Bool().Draw(t, "zoned") {
			nb.Zone(rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "zone"))
		}
		if rapid.Bool().Draw(t, "tiered") {
			nb.Label("tier", rapid.SampledFrom([]string{"1", "2"}).Draw(t, "tier"))
		}
		if rapid.IntRange(0, 3).Draw(t, "reserved") == 0 {
			nb.Reserved(int64(rapid.IntRange(0, 4).Draw(t, "rcpu")), int64(rapid.IntRange(0, 4).Draw(t, "rmem")))
		}
		if rapid.IntRange(0, 3).Draw(t, "limited") == 0 {
			nb.MaxPods(rapid.IntRange(1, 3).Draw(t, "maxPods"))
		}
		if rapid.IntRange(0, 3).Draw(t, "tainted") == 0 {
			nb.Taint("dedicated", "x", rapid.SampledFrom([]model.TaintEffect{model.NoSchedule, model.PreferNoSchedule, model.NoExecute}).Draw(t, "effect"))
		}
		b.AddNodes(1, nb)
	}
	nodes := len(b.U.Nodes)
	templates := rapid.IntRange(1, 3).Draw(t, "templates")
	for i := range templates {
		tb := build.Template(fmt.Sprint("t", i)).
			Requests(int64(rapid.IntRange(0, 8).Draw(t, "cpu")), int64(rapid.IntRange(0, 8).Draw(t, "mem"))).
			Label("app", rapid.SampledFrom([]string{"x", "y"}).Draw(t, "app"))
		if rapid.IntRange(0, 3).Draw(t, "selector") == 0 {
			tb.NodeSelector("tier", "1")
		}
		for range rapid.IntRange(0, 2).Draw(t, "preferred") {
			tb.Preferred(rapid.IntRange(1, 5).Draw(t, "weight"), "zone", rapid.SampledFrom([]string{"a", "b"}).Draw(t, "preferredZone"))
		}
		if rapid.Bool().Draw(t, "tolerates") {
			tb.Toleration("dedicated", "x", "")
		}
		genSchedulingExtras(t, tb)
		if rapid.IntRange(0, 7).Draw(t, "pinned") == 0 {
			tb.NodeName(rapid.IntRange(0, nodes-1).Draw(t, "nodeName"))
		}
		for range rapid.IntRange(0, 3).Draw(t, "spread") {
			sc := model.SpreadConstraint{
				MaxSkew:           rapid.IntRange(1, 3).Draw(t, "maxSkew"),
				MinDomains:        rapid.IntRange(0, 3).Draw(t, "minDomains"),
				TopologyKey:       rapid.SampledFrom(spreadKeys).Draw(t, "key"),
				When:              rapid.SampledFrom([]model.WhenUnsatisfiable{model.DoNotSchedule, model.ScheduleAnyway}).Draw(t, "when"),
				HonorNodeAffinity: rapid.Bool().Draw(t, "honorAffinity"),
				HonorNodeTaints:   rapid.Bool().Draw(t, "honorTaints"),
			}
			switch rapid.IntRange(0, 3).Draw(t, "spreadSelector") {
			case 1:
				sc.Selector = &model.Selector{}
			case 2:
				sc.Selector = &model.Selector{MatchLabels: map[string]string{"app": "x"}}
			case 3:
				sc.Selector = &model.Selector{MatchLabels: map[string]string{"app": "y"}}
			} // 0: the template's own labels
			tb.SpreadWith(sc)
		}
		b.AddDeployment(fmt.Sprint("d", i), b.AddTemplate(tb), 1)
	}
	pods := rapid.IntRange(0, 10).Draw(t, "pods")
	for range pods {
		d := rapid.IntRange(0, templates-1).Draw(t, "owner")
		if rapid.Bool().Draw(t, "running") {
			b.RunPod(d, rapid.IntRange(0, nodes-1).Draw(t, "node"))
		} else {
			b.PendingPod(d, rapid.IntRange(-1, nodes-1).Draw(t, "node"))
		}
	}
	b.PendingPod(rapid.IntRange(0, templates-1).Draw(t, "owner"), -1)
	b.Slots = pods + 1 + rapid.IntRange(0, 2).Draw(t, "free")
	genLabelKeys(t, &b.U)
	u, s := b.MustBuild()
	for i := range pods {
		p := &s.Pods[i]
		if p.Phase == model.Running && rapid.IntRange(0, 3).Draw(t, "terminating") == 0 {
			p.Phase = model.Terminating
		}
		if rapid.IntRange(0, 3).Draw(t, "bare") == 0 {
			p.Owner = 0
		}
	}
	for n := range s.Nodes {
		s.Nodes[n].Status = rapid.SampledFrom([]model.NodeStatus{model.Ready, model.Ready, model.NotReady, model.Unhealthy}).Draw(t, "status")
		s.Nodes[n].Cordoned = rapid.IntRange(0, 3).Draw(t, "cordoned") == 0
	}
	return u, s
}

// mutate makes one small change to s: a pod's phase, node, owner or
// template, a node's status and cordon, or a pod's CPU usage (which no cycle reads),
// so that consecutive questions to a cycle differ in one field.
func mutate(t *rapid.T, u *model.Universe, s *model.State) {
	p := &s.Pods[rapid.IntRange(0, len(s.Pods)-1).Draw(t, "mutatedPod")]
	switch rapid.IntRange(0, 5).Draw(t, "mutation") {
	case 0:
		p.Phase = rapid.SampledFrom([]model.Phase{model.Pending, model.Running, model.Terminating}).Draw(t, "phase")
	case 1:
		p.Node = uint16(rapid.IntRange(0, len(u.Nodes)).Draw(t, "node"))
	case 2:
		p.Owner = uint8(rapid.IntRange(0, len(u.Deployments)).Draw(t, "owner"))
	case 3:
		p.Template = uint8(rapid.IntRange(0, len(u.Templates)-1).Draw(t, "template"))
	case 4:
		n := rapid.IntRange(0, len(s.Nodes)-1).Draw(t, "mutatedNode")
		s.Nodes[n].Status = rapid.SampledFrom([]model.NodeStatus{model.Ready, model.NotReady, model.Unhealthy}).Draw(t, "status")
		s.Nodes[n].Cordoned = rapid.IntRange(0, 3).Draw(t, "cordoned") == 0
	default:
		p.CPU++
	}
}

// TestFastPathMatchesReference: on random clusters and sequences of
// slightly changed states, one long-lived cycle (its plan built per
// universe, its scratch reused from pod to pod and state to state)
// computes every intermediate result of referenceCycle, and the decisions
// of another long-lived cycle, asked each question twice (its buffers
// then hold the last answer), are the reference's top nodes. A round asks
// about one waiting pod, so consecutive questions differ in one mutation
// at most: state a cycle kept from the last question would show. Both
// cycles outlive a universe, so their plans must follow the universe they
// are asked about.
func TestFastPathMatchesReference(t *testing.T) {
	var fast, decider cycle
	pr := defaultProfile()
	rapid.Check(t, func(t *rapid.T) {
		u, s := genCluster(t)
		for round := range rapid.IntRange(1, 12).Draw(t, "rounds") {
			if round > 0 {
				mutate(t, u, s)
			}
			var waiting []int
			for pod := range s.Pods {
				if p := &s.Pods[pod]; p.Phase == model.Pending && p.Node == 0 {
					waiting = append(waiting, pod)
				}
			}
			if len(waiting) == 0 {
				continue
			}
			pod := rapid.SampledFrom(waiting).Draw(t, "pod")
			ref := referenceCycle(u, s, pod)
			fast.reset(u, s, pod)
			fast.filter(&pr)
			if len(fast.feasible) > 0 {
				fast.score(&pr)
			}
			if diff := diffCycles(&fast, ref); diff != "" {
				t.Fatalf("round %d pod %d: %s\n%s", round, pod+1, diff, Explain(u, s, pod))
			}
			want := referenceHosts(u, s, pod)
			for ask := range 2 {
				if got := decider.hosts(&pr, u, s, pod); !slices.Equal(got, want) {
					t.Fatalf("round %d pod %d, question %d: hosts %v, want %v\n%s", round, pod+1, ask+1, got, want, Explain(u, s, pod))
				}
			}
		}
	})
}

// diffCycles describes the first difference between the results of two
// cycles on the same pod, or returns "".
func diffCycles(got, want *cycle) string {
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"requested", got.requested, want.requested},
		{"match", got.match, want.match},
		{"domains", got.dom, want.dom},
		{"hard minimums", got.hardMin, want.hardMin},
		{"hard domain numbers", got.hardDomains, want.hardDomains},
		{"feasible", got.feasible, want.feasible},
		{"rejected by", got.rejectedBy, want.rejectedBy},
	} {
		if fmt.Sprint(f.got) != fmt.Sprint(f.want) {
			return fmt.Sprintf("%s %v, want %v", f.name, f.got, f.want)
		}
	}
	for n, by := range want.rejectedBy {
		if by >= 0 && got.status[n] != want.status[n] {
			return fmt.Sprintf("node %d: status %v, want %v", n+1, got.status[n], want.status[n])
		}
	}
	if len(want.feasible) == 0 {
		return ""
	}
	if got.skipped != want.skipped {
		return fmt.Sprintf("skipped %v, want %v", got.skipped, want.skipped)
	}
	for k := range numScores {
		if !want.skipped[k] && (!slices.Equal(got.raw[k], want.raw[k]) || !slices.Equal(got.norm[k], want.norm[k])) {
			return fmt.Sprintf("score plugin %d: raw %v norm %v, want %v %v", k, got.raw[k], got.norm[k], want.raw[k], want.norm[k])
		}
	}
	if !slices.Equal(got.total, want.total) {
		return fmt.Sprintf("totals %v, want %v", got.total, want.total)
	}
	if got, want := got.topNodes(), want.topNodes(); !slices.Equal(got, want) {
		return fmt.Sprintf("top nodes %v, want %v", got, want)
	}
	return ""
}
