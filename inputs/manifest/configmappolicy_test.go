package manifest

import (
	"strings"
	"testing"
)

// policyConfigMap is the descheduler's policy as its install manifests
// (kubernetes/base/configmap.yaml) and Helm chart deploy it: a ConfigMap
// whose policy.yaml the descheduler reads with --policy-config-file.
func policyConfigMap(policy string) string {
	return `apiVersion: v1
kind: ConfigMap
metadata: {name: descheduler-policy-configmap, namespace: kube-system}
data:
  other.txt: "not a policy"
  policy.yaml: |
` + policy
}

// TestDeschedulerPolicyInConfigMap: a ConfigMap holding a
// DeschedulerPolicy is the descheduler's policy, read as if it were its
// own document (its errors name the ConfigMap's key); any other
// ConfigMap is skipped.
func TestDeschedulerPolicyInConfigMap(t *testing.T) {
	dep := webDeployment(`      containers: [{name: c, resources: {requests: {cpu: 100m}}}]
`)
	for _, tc := range []struct {
		name      string
		configMap string
		// policy: the descheduler is read; err: the input error's text.
		policy bool
		err    string
	}{
		{name: "install manifests' policy", configMap: policyConfigMap(`    apiVersion: "descheduler/v1alpha2"
    kind: "DeschedulerPolicy"
    profiles:
      - name: ProfileName
        pluginConfig:
        - name: "DefaultEvictor"
        - name: "RemovePodsViolatingInterPodAntiAffinity"
        plugins:
          deschedule:
            enabled:
              - "RemovePodsViolatingInterPodAntiAffinity"
`), policy: true},
		{name: "no policy", configMap: `apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {kind: DeschedulerPolicy, "a.yaml": "kind: Deployment"}
`},
		{name: "a removed apiVersion", configMap: policyConfigMap(`    apiVersion: "descheduler/v1alpha1"
    kind: "DeschedulerPolicy"
    strategies: {}
`), err: `m.yaml: document 3: data[policy.yaml].apiVersion: "descheduler/v1alpha1" is not supported for kind DeschedulerPolicy (accepted: descheduler/v1alpha2)`},
		{name: "not YAML", configMap: policyConfigMap(`    kind: DeschedulerPolicy
    profiles: [
`), err: `m.yaml: document 3: data[policy.yaml]: the descheduler's policy is not valid YAML`},
		{name: "a policy's error", configMap: policyConfigMap(`    apiVersion: descheduler/v1alpha2
    kind: DeschedulerPolicy
    profiles: []
`), err: `m.yaml: document 3: data[policy.yaml].profiles: empty (accepted: at least one profile)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + dep + "---\n" + tc.configMap)}}, nil, nil, testOptions())
			if wantInputError(t, err, tc.err, strings.HasPrefix) {
				return
			}
			if got := r.Cluster.Descheduler != nil; got != tc.policy {
				t.Fatalf("descheduler read: %v, want %v", got, tc.policy)
			}
			skipped := strings.Contains(strings.Join(warningTexts(r), "\n"), "1 ConfigMap")
			if skipped == tc.policy {
				t.Fatalf("the ConfigMap counted as skipped: %v, want %v (warnings %q)", skipped, !tc.policy, warningTexts(r))
			}
		})
	}
}
