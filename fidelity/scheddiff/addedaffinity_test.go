package scheddiff

import (
	"io"
	"strings"
	"testing"

	"k8s.io/klog/v2"

	"github.com/kivi-go/kivi/inputs/manifest"
)

// TestAddedAffinityValidation: the model's reader accepts the
// addedAffinity kube-scheduler accepts and refuses what it refuses, but
// for the two refusals docs/divergences.md lists (a negative preferred
// weight, a matchFields key other than metadata.name).
func TestAddedAffinityValidation(t *testing.T) {
	klog.LogToStderr(false)
	klog.SetOutput(io.Discard)
	for _, c := range []struct {
		name, args  string
		real, model bool // accepted
	}{
		{"none", `{}`, true, true},
		{"no term", `{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: []}}`, true, true},
		{"empty term", `{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{}]}}`, true, true},
		{"In", `{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: disk, operator: In, values: [ssd]}]}]}}`, true, true},
		{"In without values", `{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: disk, operator: In}]}]}}`, false, false},
		{"Exists with values", `{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: disk, operator: Exists, values: [a]}]}]}}`, false, false},
		{"Gt", `{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: cores, operator: Gt, values: ["4"]}]}]}}`, true, true},
		{"Gt not an integer", `{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: cores, operator: Gt, values: [four]}]}]}}`, false, false},
		{"Lt two values", `{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: cores, operator: Lt, values: ["1", "2"]}]}]}}`, false, false},
		{"unknown operator", `{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: disk, operator: Equals, values: [a]}]}]}}`, false, false},
		{"invalid key", `{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: "a b", operator: Exists}]}]}}`, false, false},
		{"invalid value", `{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: disk, operator: In, values: ["-a"]}]}]}}`, false, false},
		{"matchFields", `{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: NotIn, values: [n1]}]}]}}`, true, true},
		{"matchFields Exists", `{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: Exists}]}]}}`, false, false},
		{"matchFields two values", `{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [n1, n2]}]}]}}`, false, false},
		{"matchFields another key", `{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: spec.unschedulable, operator: In, values: ["true"]}]}]}}`, true, false},
		{"preferred", `{preferredDuringSchedulingIgnoredDuringExecution: [{weight: 300, preference: {matchExpressions: [{key: disk, operator: Exists}]}}]}`, true, true},
		{"preferred weight 0, invalid", `{preferredDuringSchedulingIgnoredDuringExecution: [{weight: 0, preference: {matchExpressions: [{key: disk, operator: Equals}]}}]}`, true, true},
		{"preferred empty, weighted", `{preferredDuringSchedulingIgnoredDuringExecution: [{weight: 5, preference: {}}]}`, true, true},
		{"preferred invalid", `{preferredDuringSchedulingIgnoredDuringExecution: [{weight: 5, preference: {matchExpressions: [{key: disk, operator: In}]}}]}`, false, false},
		{"preferred negative weight", `{preferredDuringSchedulingIgnoredDuringExecution: [{weight: -5, preference: {matchExpressions: [{key: disk, operator: Exists}]}}]}`, true, false},
	} {
		config := "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n" +
			"  pluginConfig:\n  - name: NodeAffinity\n    args: {addedAffinity: " + c.args + "}\n"
		r, err := NewRealConfig([]byte(config))
		if err == nil {
			r.Close()
		}
		if real := err == nil; real != c.real {
			t.Errorf("%s: kube-scheduler accepts: %t, want %t (%v)", c.name, real, c.real, err)
		}
		_, _, merr := manifest.ReadSchedulerProfile("config.yaml", []byte(config), nil)
		if model := merr == nil; model != c.model {
			t.Errorf("%s: the model accepts: %t, want %t (%v)", c.name, model, c.model, merr)
		}
		if merr != nil && !strings.Contains(merr.Error(), "addedAffinity") {
			t.Errorf("%s: the error does not name the field: %v", c.name, merr)
		}
	}
}
