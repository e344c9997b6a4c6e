package manifest

import (
	"encoding/json"
	"regexp"
	"sort"
)

// policyKind finds a DeschedulerPolicy written in a ConfigMap's value:
// a line "kind: DeschedulerPolicy", quoted or not.
var policyKind = regexp.MustCompile(`(?m)^\s*"?kind"?\s*:\s*["']?DeschedulerPolicy["']?\s*(#.*)?$`)

// configMapPolicies reads the DeschedulerPolicy documents a ConfigMap
// holds. The descheduler reads its policy from a file
// (--policy-config-file), and its install manifests and Helm chart
// mount that file from a ConfigMap (data["policy.yaml"]): skipping the
// ConfigMap as one that cannot change the verdict would verify the
// cluster without the descheduler its manifests deploy. It returns
// whether the ConfigMap held a policy; a value that says it is a
// DeschedulerPolicy but is not valid YAML is an input error, as the
// descheduler would not start with it.
func (d *decoder) configMapPolicies(m map[string]any, path string) (bool, error) {
	data, _ := m["data"].(map[string]any)
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	found := false
	for _, k := range keys {
		text, _ := data[k].(string)
		if !policyKind.MatchString(text) {
			continue
		}
		vp := join(path, "data["+k+"]")
		js, err := toJSON([]byte(text))
		if err != nil {
			return false, d.at.errorf(vp, "the descheduler's policy is %s (accepted: a DeschedulerPolicy document)", err)
		}
		var probe map[string]any
		if json.Unmarshal(js, &probe) != nil || probe["kind"] != "DeschedulerPolicy" {
			continue
		}
		if err := d.object(js, vp); err != nil {
			return false, err
		}
		found = true
	}
	return found, nil
}
