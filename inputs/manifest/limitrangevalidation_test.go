package manifest

import (
	"strings"
	"testing"
)

// TestLimitRangeRefused: a LimitRange the API server's validation
// refuses (ValidateLimitRange on the object as SetDefaults_LimitRangeItem
// completed it) is an input error naming the item's field; checked
// against the real validation by fidelity/admissiondiff.
func TestLimitRangeRefused(t *testing.T) {
	for _, c := range []struct{ items, field, want string }{
		{"[{type: Container, default: {cpu: 1}}, {type: Container, min: {cpu: 10m}}]", "spec.limits[1].type", "a second item of type Container"},
		{"[{type: Container, min: {memory: 1Gi}, max: {memory: 512Mi}}]", "spec.limits[0].min.memory", "1Gi is above max 512Mi"},
		{"[{type: Container, default: {cpu: 200m}, defaultRequest: {cpu: 500m}}]", "spec.limits[0].defaultRequest.cpu", "500m is above the default limit 200m"},
		{"[{type: Container, min: {cpu: 2}, max: {cpu: 1}}]", "spec.limits[0].min.cpu", "2 is above max 1"},
		{"[{type: Container, min: {cpu: 500m}, defaultRequest: {cpu: 100m}}]", "spec.limits[0].defaultRequest.cpu", "100m is below min 500m"},
		// defaultRequest is completed from default, and checked first.
		{"[{type: Container, max: {cpu: 1}, default: {cpu: 2}}]", "spec.limits[0].defaultRequest.cpu", "2 is above max 1"},
		{"[{type: Container, min: {cpu: 100m}, max: {cpu: 200m}, maxLimitRequestRatio: {cpu: 3}}]", "spec.limits[0].maxLimitRequestRatio.cpu", "3 is above max/min = 200m/100m"},
		{"[{type: Pod, default: {cpu: 1}}]", "spec.limits[0].default", "not allowed for type Pod"},
		{"[{type: PersistentVolumeClaim, max: {cpu: 1}}]", "spec.limits[0]", "neither min nor max storage"},
		{"[{type: Container, default: {hugepages-2Mi: 2Mi}, defaultRequest: {hugepages-2Mi: 0}}]", "spec.limits[0].defaultRequest.hugepages-2Mi", "cannot be overcommitted"},
	} {
		lr := "apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr}\nspec:\n  limits: " + c.items + "\n"
		_, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + lr + deploymentIn("default", "[{name: c}]"))}}, nil, nil, testOptions())
		if err == nil || !strings.Contains(err.Error(), c.field+": ") || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "the API server refuses the LimitRange") {
			t.Errorf("%s: error %v, want one at %s containing %q", c.items, err, c.field, c.want)
		}
	}
	// Accepted: the defaults completed from max and min stay within the
	// bounds, the ratio is max/min exactly.
	lr := "apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr}\nspec:\n  limits: [{type: Container, min: {cpu: 100m}, max: {cpu: 400m}, maxLimitRequestRatio: {cpu: 4}}, {type: Pod, max: {cpu: 2}}]\n"
	r, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + lr + deploymentIn("default", "[{name: c, resources: {requests: {cpu: 100m}}}]"))}}, nil, nil, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Cluster.Templates[0].CPU; got != 100 {
		t.Errorf("cpu %dm, want 100m", got)
	}
}

// TestRequestAboveLimit: the API server refuses a Deployment whose pod
// template requests more than a container's limit, and every pod whose
// request ends above the default limit a LimitRange gives it.
func TestRequestAboveLimit(t *testing.T) {
	const lr = "apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr}\nspec:\n  limits: [{type: Container, default: {memory: 256Mi}}]\n"
	for _, c := range []struct{ containers, field, want string }{
		{"[{name: c, resources: {requests: {cpu: 500m}, limits: {cpu: 200m}}}]", "spec.template.spec.containers[0].resources.requests.cpu",
			"500m is above the limit 200m (accepted: a request ≤ its limit; the API server rejects the Deployment's pod template)"},
		{"[{name: c}, {name: d, resources: {requests: {memory: 1Gi}}}]", "spec.template.spec.containers[1].resources.requests.memory",
			"1Gi is above the limit 256Mi a LimitRange's default gives the container: the API server rejects the pod"},
	} {
		_, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + lr + deploymentIn("default", c.containers))}}, nil, nil, testOptions())
		if err == nil || !strings.Contains(err.Error(), c.field+": ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one at %s containing %q", c.containers, err, c.field, c.want)
		}
	}
	// Equal is accepted; a limit defaulted into the request is equal.
	if _, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + lr + deploymentIn("default", "[{name: c, resources: {requests: {cpu: 1, memory: 256Mi}, limits: {cpu: 1000m}}}]"))}}, nil, nil, testOptions()); err != nil {
		t.Fatal(err)
	}
}
