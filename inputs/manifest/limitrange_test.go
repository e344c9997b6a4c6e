package manifest

import (
	"strings"
	"testing"
)

const limitRanges = `apiVersion: v1
kind: LimitRange
metadata: {name: defaults, namespace: shop}
spec:
  limits:
  - type: Container
    default: {cpu: 500m, memory: 512Mi}
    defaultRequest: {cpu: 200m, memory: 64Mi}
    min: {memory: 64Mi}
  - type: Pod
    max: {cpu: "4"}
---
apiVersion: v1
kind: LimitRange
metadata: {name: caps, namespace: batch}
spec:
  limits:
  - type: Container
    max: {cpu: "1"}
    maxLimitRequestRatio: {cpu: "4"}
`

func deploymentIn(ns, containers string) string {
	return `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app, namespace: ` + ns + `}
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec:
      containers: ` + containers + `
`
}

// TestLimitRangeDefaults: LimitRanger gives a container the namespace's
// default request where it sets none (a default limit, completed from
// max, becomes the default request: SetDefaults_LimitRangeItem), after
// the container's own limit has become its request; other namespaces
// are untouched; Pod items are warned about.
func TestLimitRangeDefaults(t *testing.T) {
	for _, c := range []struct {
		ns, containers string
		cpu, mem       int64
	}{
		// defaultRequest cpu 200m, memory 64Mi.
		{"shop", "[{name: c}]", 200, 64},
		// Its own limit is its request; memory still defaulted.
		{"shop", "[{name: c, resources: {limits: {cpu: 300m}}}]", 300, 64},
		// Explicit requests stay.
		{"shop", "[{name: c, resources: {requests: {cpu: 50m, memory: 100Mi}}}]", 50, 100},
		// batch: max 1 CPU is the default limit and so the request.
		{"batch", "[{name: c}]", 1000, 0},
		{"default", "[{name: c}]", 0, 0},
	} {
		r, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + limitRanges + deploymentIn(c.ns, c.containers))}}, nil, nil, testOptions())
		if err != nil {
			t.Fatalf("%s %s: %v", c.ns, c.containers, err)
		}
		td := r.Cluster.Templates[0]
		if td.CPU != c.cpu || td.Memory != c.mem {
			t.Errorf("%s %s: requests %dm %dMi, want %dm %dMi", c.ns, c.containers, td.CPU, td.Memory, c.cpu, c.mem)
		}
		if !strings.Contains(warningText(r.Warnings), "LimitRange items of type Pod are not checked") {
			t.Errorf("no warning for the Pod item:\n%s", warningText(r.Warnings))
		}
	}
}

// TestLimitRangeRejects: a Deployment whose pods a LimitRange rejects
// (below min, above max, over maxLimitRequestRatio) is an input error
// naming the container, the LimitRange and the bound.
func TestLimitRangeRejects(t *testing.T) {
	for _, c := range []struct{ ns, containers, want string }{
		{"shop", "[{name: c, resources: {requests: {memory: 32Mi}}}]", "LimitRange shop/defaults rejects the pod: minimum memory usage per Container is 64Mi, but the request is 32Mi"},
		{"batch", "[{name: c, resources: {limits: {cpu: 2}}}]", "LimitRange batch/caps rejects the pod: maximum cpu usage per Container is 1000m, but the limit is 2000m"},
		{"batch", "[{name: c, resources: {requests: {cpu: 100m}, limits: {cpu: 800m}}}]", "cpu max limit to request ratio per Container is 4, but the ratio is 8"},
		// A malformed quantity is reported as such, not as a bound.
		{"shop", "[{name: c, resources: {requests: {memory: lots}}}]", "resources.requests.memory"},
	} {
		_, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + limitRanges + deploymentIn(c.ns, c.containers))}}, nil, nil, testOptions())
		malformed := !strings.Contains(c.want, "rejects") && !strings.Contains(c.want, "per Container")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "spec.template.spec.containers[0].resources") ||
			malformed && strings.Contains(err.Error(), "rejects") {
			t.Errorf("%s %s: error %v, want one naming the container and containing %q", c.ns, c.containers, err, c.want)
		}
	}
}
