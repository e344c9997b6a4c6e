package manifest

import (
	"strings"
	"testing"
)

// TestQuotaUncheckedLimits: a quota's hard limit the model does not
// check is warned about when it could refuse something the manifests or
// the model's controllers create (storage, an extended resource, a count
// of pods, ReplicaSets, Jobs or claims), and ignored quietly when it
// counts objects the model neither creates nor reads (ConfigMaps,
// Secrets, Services, count/ingresses…): those cannot change a verdict.
func TestQuotaUncheckedLimits(t *testing.T) {
	for _, c := range []struct {
		hard string
		warn bool
	}{
		{"requests.storage: 10Gi", true},
		{"requests.nvidia.com/gpu: \"2\"", true},
		{"count/replicasets.apps: \"4\"", true},
		{"count/jobs.batch: \"4\"", true},
		{"persistentvolumeclaims: \"4\"", true},
		{"count/persistentvolumeclaims: \"4\"", true},
		{"configmaps: \"4\"", false},
		{"secrets: \"4\"", false},
		{"services.loadbalancers: \"0\"", false},
		{"count/ingresses.networking.k8s.io: \"4\"", false},
		{"count/serviceaccounts: \"4\"", false},
	} {
		quota := "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: shop}\nspec:\n  hard:\n    " + c.hard + "\n"
		r, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + quota + deploymentIn("shop", "[{name: c}]"))}}, nil, nil, testOptions())
		if err != nil {
			t.Fatalf("%s: %v", c.hard, err)
		}
		name, _, _ := strings.Cut(c.hard, ":")
		got := strings.Contains(warningText(r.Warnings), "spec.hard."+name+": ignored")
		if got != c.warn {
			t.Errorf("%s: warned %v, want %v:\n%s", c.hard, got, c.warn, warningText(r.Warnings))
		}
	}
}
