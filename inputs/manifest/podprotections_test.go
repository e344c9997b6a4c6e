package manifest

import (
	"strings"
	"testing"
)

// TestPodProtections: the DefaultEvictor's podProtections (descheduler
// v0.36 getEffectivePodProtections and ValidateDefaultEvictorArgs), as
// the descheduler's Helm chart writes them by default, and the legacy
// booleans without them.
func TestPodProtections(t *testing.T) {
	type protections struct{ localStorage, systemCritical, failedBare, pvc bool }
	for _, tc := range []struct {
		name, args string
		// want: the profile's evictLocalStoragePods,
		// evictSystemCriticalPods, evictFailedBarePods and ignorePvcPods;
		// warn: a warning's text; err: the input error's text.
		want      protections
		warn, err string
	}{
		{name: "the Helm chart's default", args: `{podProtections: {defaultDisabled: [PodsWithLocalStorage], extraEnabled: [PodsWithPVC]}}`,
			want: protections{localStorage: true, pvc: true}},
		{name: "every default lifted", args: `{podProtections: {defaultDisabled: [SystemCriticalPods, FailedBarePods, PodsWithLocalStorage]}}`,
			want: protections{localStorage: true, systemCritical: true, failedBare: true}},
		{name: "legacy booleans", args: `{evictLocalStoragePods: true, ignorePvcPods: true}`,
			want: protections{localStorage: true, pvc: true}},
		{name: "legacy booleans set false beside podProtections", args: `{evictLocalStoragePods: false, podProtections: {extraEnabled: [PodsWithPVC]}}`,
			want: protections{pvc: true}},
		{name: "an empty podProtections", args: `{evictSystemCriticalPods: true, podProtections: {}}`,
			want: protections{systemCritical: true}},
		{name: "DaemonSet pods", args: `{podProtections: {defaultDisabled: [DaemonSetPods]}}`,
			warn: "defaultDisabled DaemonSetPods: not modelled"},
		{name: "storage classes", args: `{podProtections: {extraEnabled: [PodsWithPVC], config: {PodsWithPVC: {protectedStorageClasses: [{name: standard}]}}}}`,
			want: protections{pvc: true}, warn: "protectedStorageClasses: not modelled"},
		{name: "both spellings", args: `{evictLocalStoragePods: true, podProtections: {extraEnabled: [PodsWithPVC]}}`,
			err: "pluginConfig[0].args: evictLocalStoragePods set beside podProtections"},
		{name: "an unknown protection", args: `{podProtections: {extraEnabled: [PodsWithPvc]}}`,
			err: `pluginConfig[0].args.podProtections.extraEnabled[0]: "PodsWithPvc" (accepted: PodsWithPVC, PodsWithoutPDB, PodsWithResourceClaims)`},
		{name: "a default one as extra", args: `{podProtections: {extraEnabled: [PodsWithLocalStorage]}}`,
			err: `extraEnabled[0]: "PodsWithLocalStorage" (accepted: PodsWithPVC`},
		{name: "listed twice", args: `{podProtections: {defaultDisabled: [FailedBarePods, FailedBarePods]}}`,
			err: "defaultDisabled[1]: FailedBarePods listed twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := LoadStream(defaultEvictorInput(tc.args), nil, nil, testOptions())
			if wantInputError(t, err, tc.err, strings.Contains) {
				return
			}
			p := r.Cluster.Descheduler.Profiles[0]
			if got := (protections{p.EvictLocalStoragePods, p.EvictSystemCriticalPods, p.EvictFailedBarePods, p.IgnorePvcPods}); got != tc.want {
				t.Errorf("protections %+v, want %+v", got, tc.want)
			}
			all := strings.Join(warningTexts(r), "\n")
			if tc.warn != "" && !strings.Contains(all, tc.warn) || strings.Contains(all, "podProtections: ignored") {
				t.Errorf("warnings %q, want one with %q", all, tc.warn)
			}
		})
	}
}

// defaultEvictorInput is one node, the web Deployment and a descheduler
// policy of one profile whose DefaultEvictor has the given args (a YAML
// flow mapping), running RemovePodsViolatingNodeTaints.
func defaultEvictorInput(args string) []File {
	policy := `apiVersion: descheduler/v1alpha2
kind: DeschedulerPolicy
profiles:
- name: p
  pluginConfig:
  - {name: DefaultEvictor, args: ` + args + `}
  - {name: RemovePodsViolatingNodeTaints}
  plugins: {deschedule: {enabled: [RemovePodsViolatingNodeTaints]}}
`
	return []File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + webDeployment("      containers: [{name: c}]\n") + "---\n" + policy)}}
}
