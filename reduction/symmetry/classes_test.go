package symmetry_test

import (
	"fmt"
	"testing"

	"github.com/kivi-go/kivi/compose"
	"github.com/kivi-go/kivi/kivitest/script/build"
	"github.com/kivi-go/kivi/model"
	"github.com/kivi-go/kivi/reduction/symmetry"
)

// TestClasses is a table of topologies and their node classes; each row
// cites the model code whose node dependence the class reflects.
func TestClasses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(b *build.Builder)
		want  string
		rules string
	}{{
		name:  "identical nodes are one class",
		build: func(b *build.Builder) { b.AddNodes(4, build.Node()) },
		want:  "[[0 1 2 3]]",
	}, {
		name: "labels under a topology key separate (kube-scheduler's default zone spread)",
		build: func(b *build.Builder) {
			b.AddNodes(2, build.Node().Label(model.ZoneKey, "a"))
			b.AddNodes(2, build.Node().Label(model.ZoneKey, "b"))
		},
		want: "[[0 1] [2 3]]",
	}, {
		name: "labels under a template's spread key separate (PodTopologySpread domains)",
		build: func(b *build.Builder) {
			b.AddNodes(2, build.Node().Zone("a"))
			b.AddNodes(2, build.Node().Zone("b"))
			b.AddTemplate(build.Template("app").Label("name", "app").Spread(1, "zone", model.DoNotSchedule))
		},
		want: "[[0 1] [2 3]]",
	}, {
		name: "labels no step reads do not separate (model.NodeLabelKeysRead)",
		build: func(b *build.Builder) {
			b.AddNodes(2, build.Node().Zone("a").Label("instance-id", "i-1"))
			b.AddNodes(2, build.Node().Zone("b").Label("instance-id", "i-2"))
		},
		want: "[[0 1 2 3]]",
	}, {
		name: "labels a nodeSelector reads separate (NodeFit)",
		build: func(b *build.Builder) {
			b.AddNodes(2, build.Node().Zone("a"))
			b.AddNodes(2, build.Node().Zone("b"))
			b.AddTemplate(build.Template("app").NodeSelector("zone", "a"))
		},
		want: "[[0 1] [2 3]]",
	}, {
		name: "labels the profile's addedAffinity requires separate (NodeFit.AddedAffinityRejects)",
		build: func(b *build.Builder) {
			b.AddNodes(2, build.Node().Label("pool", "a"))
			b.AddNodes(2, build.Node().Label("pool", "b"))
			b.U.Scheduler.Profile.AddedAffinity = &model.AddedAffinity{Required: true,
				Terms: []model.Selector{{MatchExpressions: []model.Requirement{{Key: "pool", Operator: model.OpIn, Values: []string{"a"}}}}}}
		},
		want: "[[0 1] [2 3]]",
	}, {
		name: "labels the profile's addedAffinity reads separate even where its terms match alike (model.NodeLabelKeysRead)",
		build: func(b *build.Builder) {
			b.AddNodes(2, build.Node().Label("pool", "a"))
			b.AddNodes(2, build.Node().Label("pool", "b"))
			b.U.Scheduler.Profile.AddedAffinity = &model.AddedAffinity{Preferred: []model.PreferredTerm{{Weight: 5,
				Term: model.Selector{MatchExpressions: []model.Requirement{{Key: "pool", Operator: model.OpIn, Values: []string{"a", "b"}}}}}}}
		},
		want: "[[0 1] [2 3]]",
	}, {
		name: "capacity and reservations separate (NodeResourcesFit, kernel panic load)",
		build: func(b *build.Builder) {
			b.AddNodes(2, build.Node())
			b.AddNodes(1, build.Node().CPU(32))
			b.AddNodes(1, build.Node().Reserved(4, 0))
		},
		want: "[[0 1] [2] [3]]",
	}, {
		name: "scalar allocatable separates (NodeResourcesFit's extended resources, the kubelet's admission)",
		build: func(b *build.Builder) {
			b.AddNodes(2, build.Node().Scalar("nvidia.com/gpu", 2))
			b.AddNodes(1, build.Node().Scalar("nvidia.com/gpu", 4))
			b.AddNodes(1, build.Node())
			b.AddNodes(1, build.Node().Scalar("nvidia.com/gpu", 0))
			b.AddTemplate(build.Template("train").Scalar("nvidia.com/gpu", 1))
		},
		want: "[[0 1] [2] [3] [4]]",
	}, {
		name: "the OS label separates where a pod's kubernetes.io/os label is checked against it (the kubelet's admission, NodeFit.OSLabelMismatch)",
		build: func(b *build.Builder) {
			b.AddNodes(2, build.Node().Label(model.OSLabel, "linux"))
			b.AddNodes(1, build.Node().Label(model.OSLabel, "windows"))
			b.AddTemplate(build.Template("app").Label(model.OSLabel, "linux"))
		},
		want: "[[0 1] [2]]",
	}, {
		name: "the OS label separates where a pod's spec.os.name is checked against it (the kubelet's admission, NodeFit.OSFieldMismatch)",
		build: func(b *build.Builder) {
			b.AddNodes(2, build.Node().Label(model.OSLabel, "linux"))
			b.AddNodes(1, build.Node().Label(model.OSLabel, "windows"))
			b.AddTemplate(build.Template("app").OS("windows"))
		},
		want: "[[0 1] [2]]",
	}, {
		name: "the OS label does not separate when no pod carries it (model.NodeLabelKeysRead)",
		build: func(b *build.Builder) {
			b.AddNodes(2, build.Node().Label(model.OSLabel, "linux"))
			b.AddNodes(1, build.Node().Label(model.OSLabel, "windows"))
			b.AddTemplate(build.Template("app"))
		},
		want: "[[0 1 2]]",
	}, {
		name: "memory eviction thresholds separate (a percentage of capacity: the kubelet's eviction manager)",
		build: func(b *build.Builder) {
			b.U.Kubelet = model.KubeletDecl{Configured: true, EvictionHard: model.EvictionQuantity{Percentage: 0.1, Text: "10%"}}
			b.AddNodes(2, build.Node())
			b.AddNodes(1, build.Node())
			b.U.Nodes[2].MemoryCapacity = 2 * b.U.Nodes[2].Memory
		},
		want: "[[0 1] [2]]",
	}, {
		name: "the node type alone does not separate (no step reads it)",
		build: func(b *build.Builder) {
			b.AddNodes(1, build.Node().Type(0))
			b.AddNodes(1, build.Node().Type(1))
		},
		want: "[[0 1]]",
	}, {
		name: "taints separate (TaintToleration, taint manager)",
		build: func(b *build.Builder) {
			b.AddNodes(2, build.Node())
			b.AddNodes(1, build.Node().Taint("k", "v", model.NoExecute))
		},
		want: "[[0 1] [2]]",
	}, {
		name: "a nodeSelector on one hostname singles that node out (NodeFit.Affinity)",
		build: func(b *build.Builder) {
			b.AddNodes(3, build.Node())
			b.AddTemplate(build.Template("pinned").NodeSelector(model.KiviHostnameKey, "2"))
		},
		want: "[[0 2] [1]]",
	}, {
		name: "a preferred term on one hostname singles that node out (NodeFit.Preferred)",
		build: func(b *build.Builder) {
			b.AddNodes(3, build.Node())
			b.AddTemplate(build.Template("likes3").Preferred(10, model.HostnameKey, "3"))
		},
		want: "[[0 1] [2]]",
	}, {
		name: "a nodeName pin singles the node out (deployment controller binds directly)",
		build: func(b *build.Builder) {
			b.AddNodes(3, build.Node())
			b.AddTemplate(build.Template("pinned").NodeName(0))
		},
		want: "[[0] [1 2]]", rules: "NodeNamePin",
	}, {
		name: "a nodeFailure target is singled out (events/nodefailure.go)",
		build: func(b *build.Builder) {
			b.AddNodes(3, build.Node())
			b.AddEvent(model.Event{Kind: model.NodeFailure, Node: 2})
		},
		want: "[[0 1] [2]]", rules: "NodeFailureTarget",
	}, {
		name: "a shared hostname value pins both nodes (one spread domain)",
		build: func(b *build.Builder) {
			b.AddNodes(3, build.Node())
			b.U.Nodes[1].Labels[model.HostnameKey] = "same"
			b.U.Nodes[2].Labels[model.HostnameKey] = "same"
		},
		want: "[[0] [1] [2]]", rules: "SharedHostname",
	}, {
		name: "with Kivi's alias a shared `hostname` value pins both nodes too",
		build: func(b *build.Builder) {
			b.AddNodes(3, build.Node())
			b.U.Nodes[1].Labels[model.KiviHostnameKey] = "same"
			b.U.Nodes[2].Labels[model.KiviHostnameKey] = "same"
		},
		want: "[[0] [1] [2]]", rules: "SharedHostname",
	}, {
		name: "without Kivi's alias `hostname` is an ordinary label: its values separate, equal values group (manifests)",
		build: func(b *build.Builder) {
			b.U.Options.KiviHostnameAlias = false
			b.AddNodes(2, build.Node().Label(model.KiviHostnameKey, "rack-a"))
			b.AddNodes(1, build.Node().Label(model.KiviHostnameKey, "rack-b"))
			b.AddNodes(1, build.Node())
			b.AddTemplate(build.Template("app").Label("name", "app").Spread(1, model.KiviHostnameKey, model.ScheduleAnyway))
		},
		want: "[[0 1] [2] [3]]",
	}, {
		name: "LowestIndex tie-break switches symmetry off (scheduler.go scheduleOne)",
		build: func(b *build.Builder) {
			b.AddNodes(3, build.Node())
			b.U.Options.TieBreak = model.LowestIndex
		},
		want: "[[0] [1] [2]]", rules: "LowestIndexTieBreak(off)(pods)",
	}, {
		name: "descheduler balancing a hostname constraint keeps symmetry (balanceDomains branches over equal domains)",
		build: func(b *build.Builder) {
			b.AddNodes(3, build.Node())
			b.AddTemplate(build.Template("app").Label("name", "app").Spread(1, model.KiviHostnameKey, model.DoNotSchedule))
			b.U.Descheduler = &model.Descheduler{Profiles: []model.DeschedulerProfile{{Name: "p",
				Balance: []model.BalancePlugin{model.RemovePodsViolatingTopologySpreadConstraint}}}}
		},
		want: "[[0 1 2]]",
	}, {
		name: "descheduler ignoring the hostname constraint (soft, profile balances hard only) keeps symmetry",
		build: func(b *build.Builder) {
			b.AddNodes(3, build.Node())
			b.AddTemplate(build.Template("app").Label("name", "app").Spread(1, model.KiviHostnameKey, model.ScheduleAnyway))
			b.U.Descheduler = &model.Descheduler{Profiles: []model.DeschedulerProfile{{Name: "p",
				Balance: []model.BalancePlugin{model.RemovePodsViolatingTopologySpreadConstraint}, Constraints: model.HardConstraints}}}
		},
		want: "[[0 1 2]]",
	}, {
		name: "RemoveDuplicates under a total limit keeps node symmetry; the node walk branches where the limit runs out (budgetorder.go)",
		build: func(b *build.Builder) {
			b.AddNodes(3, build.Node())
			b.U.Descheduler = &model.Descheduler{MaxTotal: 2, Profiles: []model.DeschedulerProfile{{Name: "p",
				Balance: []model.BalancePlugin{model.RemoveDuplicates}}}}
		},
		want: "[[0 1 2]]",
	}, {
		name: "RemoveDuplicates with a per-node limit only keeps node and pod symmetry; the limit cuts evictions in content order (evictor.go)",
		build: func(b *build.Builder) {
			b.AddNodes(3, build.Node())
			b.U.Descheduler = &model.Descheduler{MaxPerNode: 1, Profiles: []model.DeschedulerProfile{{Name: "p",
				Balance: []model.BalancePlugin{model.RemoveDuplicates}}}}
		},
		want: "[[0 1 2]]",
	}, {
		name: "node-down events with two deployments fix pod slots under Kivi's lifecycle (nodelifecycle/nodecontroller.go evicts in slot order)",
		build: func(b *build.Builder) {
			b.U.Options.KiviLifecycle = true
			b.AddNodes(3, build.Node())
			t := b.AddTemplate(build.Template("app"))
			b.AddDeployment("a", t, 1)
			b.AddDeployment("b", t, 1)
			b.AddEvent(model.Event{Kind: model.KernelPanic})
		},
		want: "[[0 1 2]]", rules: "NodeControllerSlotOrder(pods)",
	}, {
		name: "node-down events with two deployments keep pod symmetry under Kubernetes' lifecycle (evictions in owner order)",
		build: func(b *build.Builder) {
			b.AddNodes(3, build.Node())
			t := b.AddTemplate(build.Template("app"))
			b.AddDeployment("a", t, 1)
			b.AddDeployment("b", t, 1)
			b.AddEvent(model.Event{Kind: model.KernelPanic})
		},
		want: "[[0 1 2]]", rules: "",
	}, {
		name: "node-down events with one deployment keep pod symmetry",
		build: func(b *build.Builder) {
			b.AddNodes(3, build.Node())
			b.AddDeployment("a", b.AddTemplate(build.Template("app")), 1)
			b.AddEvent(model.Event{Kind: model.KernelPanic})
		},
		want: "[[0 1 2]]",
	}, {
		name: "CPU patterns with an HPA and two deployments fix pod slots under Kivi's lifecycle (events/cpupattern.go queues owners in slot order)",
		build: func(b *build.Builder) {
			b.U.Options.KiviLifecycle = true
			b.AddNodes(2, build.Node())
			t := b.AddTemplate(build.Template("app").Pattern(model.UsagePoint{CPU: 8}, model.UsagePoint{CPU: 3, At: 300}))
			h := b.AddHPA(1, 2, 50)
			b.WithHPA(b.AddDeployment("a", t, 1), h)
			b.WithHPA(b.AddDeployment("b", t, 1), h)
		},
		want: "[[0 1]]", rules: "CPUPatternSlotOrder(pods)",
	}, {
		name: "CPU patterns with an HPA and two deployments keep pod symmetry under Kubernetes' lifecycle (owner order)",
		build: func(b *build.Builder) {
			b.AddNodes(2, build.Node())
			t := b.AddTemplate(build.Template("app").Pattern(model.UsagePoint{CPU: 8}, model.UsagePoint{CPU: 3, At: 300}))
			h := b.AddHPA(1, 2, 50)
			b.WithHPA(b.AddDeployment("a", t, 1), h)
			b.WithHPA(b.AddDeployment("b", t, 1), h)
		},
		want: "[[0 1]]",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			b := build.New()
			tc.build(b)
			if len(b.U.Templates) == 0 {
				b.AddTemplate(build.Template("app"))
			}
			u, _ := b.MustBuild()
			a := symmetry.Analyze(u, compose.SymmetryFacts(u))
			rules := ""
			for _, d := range a.Decisions {
				if rules != "" {
					rules += " "
				}
				rules += d.Rule
				if d.Off {
					rules += "(off)"
				}
				if d.PodsFixed {
					rules += "(pods)"
				}
			}
			if got := fmt.Sprint(a.Classes); got != tc.want || rules != tc.rules {
				t.Errorf("classes %s rules %q, want %s rules %q", got, rules, tc.want, tc.rules)
			}
		})
	}
}

// TestOSDomainsNotSwapped: two zones of one shape are interchangeable
// domains unless a pod names an OS one zone's nodes do not run: the
// kubelet tells the zones apart then (NodeFit.OSLabelMismatch).
func TestOSDomainsNotSwapped(t *testing.T) {
	for _, podOS := range []string{"", "linux"} {
		b := build.New()
		b.AddNodes(2, build.Node().Zone("a").Label(model.OSLabel, "linux"))
		b.AddNodes(2, build.Node().Zone("b").Label(model.OSLabel, "windows"))
		tb := build.Template("app").Label("name", "app").Spread(1, "zone", model.DoNotSchedule)
		if podOS != "" {
			tb.Label(model.OSLabel, podOS)
		}
		b.AddTemplate(tb)
		u, _ := b.MustBuild()
		a := symmetry.Analyze(u, compose.SymmetryFacts(u))
		want := "[[[[0 1]] [[2 3]]]]" // the zones swap wholesale
		if podOS != "" {
			want = "[]"
		}
		if got := fmt.Sprint(a.Domains()); got != want {
			t.Errorf("pod OS %q: domains %s, want %s", podOS, got, want)
		}
	}
}

// TestUncompiledUniverseHasNoSymmetry: Classes needs NodeFit.
func TestUncompiledUniverseHasNoSymmetry(t *testing.T) {
	u := &model.Universe{Nodes: make([]model.Node, 3)}
	if got := fmt.Sprint(symmetry.Classes(u, compose.SymmetryFacts(u))); got != "[[0] [1] [2]]" {
		t.Fatalf("classes %s", got)
	}
}
