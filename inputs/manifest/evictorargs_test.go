package manifest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// TestEvictorConstraints: the DefaultEvictor's labelSelector,
// namespaceLabelSelector, minReplicas, minPodAge, noEvictionPolicy and
// PodsWithoutPDB protection are read into the profile
// (model.EvictorConstraints), checked as the descheduler checks them.
func TestEvictorConstraints(t *testing.T) {
	for _, tc := range []struct {
		name, args string
		want       model.EvictorConstraints
		warn, err  string
	}{
		{name: "none", args: `{}`},
		{name: "labelSelector", args: `{labelSelector: {matchLabels: {app: web}}}`,
			want: model.EvictorConstraints{LabelSelector: &model.Selector{MatchLabels: map[string]string{"app": "web"}}}},
		{name: "an empty labelSelector constrains nothing", args: `{labelSelector: {}}`},
		{name: "namespaceLabelSelector", args: `{namespaceLabelSelector: {matchExpressions: [{key: env, operator: In, values: [prod]}]}}`,
			want: model.EvictorConstraints{NamespaceLabelSelector: &model.Selector{MatchExpressions: []model.Requirement{{Key: "env", Operator: model.OpIn, Values: []string{"prod"}}}}}},
		{name: "minReplicas", args: `{minReplicas: 3}`, want: model.EvictorConstraints{MinReplicas: 3}},
		{name: "minReplicas 1 checks nothing", args: `{minReplicas: 1}`},
		{name: "minPodAge", args: `{minPodAge: 10m}`, want: model.EvictorConstraints{MinPodAge: "10m"}, warn: "minPodAge: the model has no clock"},
		{name: "noEvictionPolicy", args: `{noEvictionPolicy: Mandatory}`, want: model.EvictorConstraints{NoEvictionPolicy: "Mandatory"}},
		{name: "ignorePodsWithoutPDB", args: `{ignorePodsWithoutPDB: true}`, want: model.EvictorConstraints{PodsWithoutPDB: true}},
		{name: "PodsWithoutPDB", args: `{podProtections: {extraEnabled: [PodsWithoutPDB]}}`, want: model.EvictorConstraints{PodsWithoutPDB: true}},
		{name: "a negative minReplicas", args: `{minReplicas: -1}`, err: "pluginConfig[0].args.minReplicas: -1 (accepted: a non-negative integer)"},
		{name: "a minPodAge without unit", args: `{minPodAge: "50"}`, err: `pluginConfig[0].args.minPodAge: "50" (accepted: a duration such as 90s, 10m or 1h30m)`},
		{name: "an unknown noEvictionPolicy", args: `{noEvictionPolicy: Always}`, err: `pluginConfig[0].args.noEvictionPolicy: "Always" (accepted: Preferred, Mandatory)`},
		{name: "a labelSelector without values", args: `{labelSelector: {matchExpressions: [{key: app, operator: In}]}}`, err: "pluginConfig[0].args.labelSelector.matchExpressions[0]"},
		{name: "a namespaceLabelSelector of a bad value", args: `{namespaceLabelSelector: {matchLabels: {env: "a b"}}}`, err: "pluginConfig[0].args.namespaceLabelSelector.matchLabels"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := LoadStream(defaultEvictorInput(tc.args), nil, nil, testOptions())
			if wantInputError(t, err, tc.err, strings.Contains) {
				return
			}
			if got := r.Cluster.Descheduler.Profiles[0].Evictor; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("evictor %+v, want %+v", got, tc.want)
			}
			all := strings.Join(warningTexts(r), "\n")
			if tc.warn != "" && !strings.Contains(all, tc.warn) || tc.warn == "" && strings.Contains(all, "not modelled") {
				t.Errorf("warnings %q, want %q", all, tc.warn)
			}
		})
	}
}

// TestDeschedulerAnnotations: a pod template's
// descheduler.alpha.kubernetes.io/evict and …/prefer-no-eviction
// annotations are read by their presence, whatever their value.
func TestDeschedulerAnnotations(t *testing.T) {
	for _, tc := range []struct {
		annotations       string
		evict, preferNoEv bool
	}{
		{"", false, false},
		{`{descheduler.alpha.kubernetes.io/evict: "true"}`, true, false},
		{`{descheduler.alpha.kubernetes.io/evict: ""}`, true, false},
		{`{descheduler.alpha.kubernetes.io/prefer-no-eviction: "x", other: z}`, false, true},
	} {
		meta := "{labels: {app: web}}"
		if tc.annotations != "" {
			meta = "{labels: {app: web}, annotations: " + tc.annotations + "}"
		}
		r := load(t, strings.Replace(webDeployment("      containers: [{name: c}]\n"), "{labels: {app: web}}", meta, 1))
		td := r.Cluster.Templates[0]
		if td.DeschedulerEvict != tc.evict || td.PreferNoEviction != tc.preferNoEv {
			t.Errorf("annotations %s: evict %v, prefer-no-eviction %v; want %v, %v", tc.annotations, td.DeschedulerEvict, td.PreferNoEviction, tc.evict, tc.preferNoEv)
		}
	}
}
