package manifest

import (
	"reflect"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestSchedulerProfile: the default-scheduler profile's plugin sets are
// merged with the defaults into the modelled score plugins' weights, its
// NodeResourcesFit, PodTopologySpread and InterPodAffinity arguments
// reach the model, and what the model does not run is warned about.
func TestSchedulerProfile(t *testing.T) {
	const web = "      containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n"
	weights := func(f func(*model.ScoreWeights)) *model.ScoreWeights {
		w := model.DefaultScoreWeights
		f(&w)
		return &w
	}
	one := int64(0)
	for _, c := range []struct {
		name, profile string
		want          model.SchedulerProfile
		warns         []string
	}{
		{"defaults", "  plugins: {score: {enabled: [{name: TaintToleration, weight: 3}]}}\n", model.SchedulerProfile{}, nil},
		{"re-weighted in score", "  plugins: {score: {enabled: [{name: NodeResourcesFit, weight: 5}, {name: NodeAffinity}]}}\n",
			model.SchedulerProfile{Weights: weights(func(w *model.ScoreWeights) { w.NodeResourcesFit, w.NodeAffinity = 5, 1 })}, nil},
		{"re-weighted in multiPoint", "  plugins: {multiPoint: {enabled: [{name: PodTopologySpread, weight: 7}]}}\n",
			model.SchedulerProfile{Weights: weights(func(w *model.ScoreWeights) { w.PodTopologySpread = 7 })}, nil},
		{"score weight wins over multiPoint", "  plugins: {multiPoint: {enabled: [{name: InterPodAffinity, weight: 7}]}, score: {enabled: [{name: InterPodAffinity, weight: 4}]}}\n",
			model.SchedulerProfile{Weights: weights(func(w *model.ScoreWeights) { w.InterPodAffinity = 4 })}, nil},
		{"disabled", "  plugins: {score: {disabled: [{name: NodeResourcesBalancedAllocation}, {name: ImageLocality}]}}\n",
			model.SchedulerProfile{Weights: weights(func(w *model.ScoreWeights) { w.NodeResourcesBalancedAllocation = 0 })}, nil},
		{"all scores disabled but one", "  plugins: {score: {disabled: [{name: \"*\"}], enabled: [{name: NodeResourcesFit, weight: 2}]}}\n",
			model.SchedulerProfile{Weights: &model.ScoreWeights{NodeResourcesFit: 2}}, nil},
		{"multiPoint disables a filter", "  plugins: {multiPoint: {disabled: [{name: InterPodAffinity}]}}\n",
			model.SchedulerProfile{Weights: weights(func(w *model.ScoreWeights) { w.InterPodAffinity = 0 }), InterPodAffinityFilterOff: true}, nil},
		{"filter disables spreading, its score stays", "  plugins: {filter: {disabled: [{name: PodTopologySpread}]}}\n",
			model.SchedulerProfile{SpreadFilterOff: true}, nil},
		{"multiPoint disables spreading, filter enables it again", "  plugins: {multiPoint: {disabled: [{name: PodTopologySpread}]}, filter: {enabled: [{name: PodTopologySpread}]}}\n",
			model.SchedulerProfile{Weights: weights(func(w *model.ScoreWeights) { w.PodTopologySpread = 0 })}, nil},
		{"NodeUnschedulable disabled: the unschedulable taint still rejects", "  plugins: {filter: {disabled: [{name: NodeUnschedulable}]}}\n",
			model.SchedulerProfile{}, nil},
		{"multiPoint disables spreading, preScore and score enable it again", "  plugins: {multiPoint: {disabled: [{name: PodTopologySpread}]}, preScore: {enabled: [{name: PodTopologySpread}]}, score: {enabled: [{name: PodTopologySpread}]}}\n",
			model.SchedulerProfile{Weights: weights(func(w *model.ScoreWeights) { w.PodTopologySpread = 1 }), SpreadFilterOff: true},
			[]string{"profiles[0].plugins.preScore: ignored: the model's scheduler runs the default preScore plugins"}},
		{"every filter disabled", "  plugins: {filter: {disabled: [{name: \"*\"}]}}\n",
			model.SchedulerProfile{SpreadFilterOff: true, InterPodAffinityFilterOff: true},
			[]string{"profiles[0].plugins: the profile disables the NodeName filter, which the model keeps running",
				"profiles[0].plugins: the profile disables the TaintToleration filter, which the model keeps running",
				"profiles[0].plugins: the profile disables the NodeAffinity filter, which the model keeps running",
				"profiles[0].plugins: the profile disables the NodePorts filter, which the model keeps running",
				"profiles[0].plugins: the profile disables the NodeResourcesFit filter, which the model keeps running"}},
		{"out-of-tree and other points", "  plugins: {score: {enabled: [{name: Coscheduling}]}, postFilter: {disabled: [{name: DefaultPreemption}]}}\n",
			model.SchedulerProfile{},
			[]string{"profiles[0].plugins.postFilter: ignored: the model's scheduler runs the default postFilter plugins",
				`profiles[0].plugins.score.enabled[0].name: ignored: "Coscheduling" is not an in-tree plugin`}},
		{"most allocated", "  pluginConfig: [{name: NodeResourcesFit, args: {scoringStrategy: {type: MostAllocated, resources: [{name: cpu, weight: 2}, {name: memory}]}}}]\n",
			model.SchedulerProfile{Scoring: model.ScoringStrategy{Type: model.MostAllocated, Resources: []model.ResourceWeight{{Name: "cpu", Weight: 2}, {Name: "memory", Weight: 1}}}}, nil},
		{"requested to capacity ratio", "  pluginConfig: [{name: NodeResourcesFit, args: {scoringStrategy: {type: RequestedToCapacityRatio, requestedToCapacityRatio: {shape: [{utilization: 0, score: 10}, {utilization: 100, score: 0}]}}}}]\n",
			model.SchedulerProfile{Scoring: model.ScoringStrategy{Type: model.RequestedToCapacityRatio, Shape: []model.ShapePoint{{Utilization: 0, Score: 10}, {Utilization: 100, Score: 0}}}}, nil},
		{"list defaulting", "  pluginConfig: [{name: PodTopologySpread, args: {defaultingType: List, defaultConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule}]}}]\n",
			model.SchedulerProfile{ListDefaulting: true, DefaultConstraints: []model.DefaultSpreadConstraint{{Key: "topology.kubernetes.io/zone", MaxSkew: 1, When: model.DoNotSchedule}}}, nil},
		{"hard pod affinity weight", "  pluginConfig: [{name: InterPodAffinity, args: {hardPodAffinityWeight: 0}}]\n",
			model.SchedulerProfile{HardPodAffinityWeight: &one}, nil},
		{"added affinity, empty", "  pluginConfig: [{name: NodeAffinity, args: {addedAffinity: {}}}]\n",
			model.SchedulerProfile{AddedAffinity: &model.AddedAffinity{}}, nil},
		{"added affinity", "  pluginConfig: [{name: NodeAffinity, args: {addedAffinity: {" +
			"requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: pool, operator: In, values: [a, b]}]}, {}, " +
			"{matchFields: [{key: metadata.name, operator: NotIn, values: [n2]}], matchExpressions: [{key: zone, operator: Gt, values: ['3']}]}]}, " +
			"preferredDuringSchedulingIgnoredDuringExecution: [{weight: 500, preference: {matchExpressions: [{key: disk, operator: Exists}]}}, " +
			"{weight: 0, preference: {matchExpressions: [{key: disk, operator: Bogus}]}}, {weight: 3, preference: {}}]}}}]\n",
			model.SchedulerProfile{AddedAffinity: &model.AddedAffinity{Required: true,
				Terms: []model.Selector{
					{MatchExpressions: []model.Requirement{{Key: "pool", Operator: model.OpIn, Values: []string{"a", "b"}}}},
					{MatchExpressions: []model.Requirement{{Key: model.NodeNameField, Operator: model.OpNotIn, Values: []string{"n2"}},
						{Key: "zone", Operator: model.OpIn, Values: []string{"Gt 3 (no node)"}}}}},
				Preferred: []model.PreferredTerm{{Weight: 500, Term: model.Selector{MatchExpressions: []model.Requirement{{Key: "disk", Operator: model.OpExists}}}}}}}, nil},
		{"added affinity, no term", "  pluginConfig: [{name: NodeAffinity, args: {addedAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: []}}}}]\n",
			model.SchedulerProfile{AddedAffinity: &model.AddedAffinity{Required: true}}, nil},
		{"balanced allocation resources", "  pluginConfig: [{name: NodeResourcesBalancedAllocation, args: {resources: [{name: cpu, weight: 1}, {name: memory}, {name: nvidia.com/gpu}]}}]\n",
			model.SchedulerProfile{BalancedResources: []string{"cpu", "memory", "nvidia.com/gpu"}}, nil},
		{"balanced allocation defaults", "  pluginConfig: [{name: NodeResourcesBalancedAllocation, args: {resources: []}}]\n", model.SchedulerProfile{}, nil},
		{"another profile's", "  schedulerName: batch\n  plugins: {score: {disabled: [{name: \"*\"}]}}\n", model.SchedulerProfile{}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := webDeployment(web) + "---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- percentageOfNodesToScore: 0\n" + c.profile
			r := load(t, in)
			if got := r.Cluster.Scheduler.Profile; !reflect.DeepEqual(got, c.want) {
				t.Errorf("profile %+v, want %+v", got, c.want)
			}
			wantWarnings(t, r.Warnings, "document 3", c.warns)
		})
	}
}
