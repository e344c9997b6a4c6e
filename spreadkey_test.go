package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// TestSpreadKeyOnNoNode: a spread constraint whose topologyKey no node
// carries (a chart's zone spread on nodes without zone labels) is valid
// Kubernetes, read with a warning. kube-scheduler's Filter fails every
// node for a DoNotSchedule one ("missing required label"), so the pods
// stay Pending; a ScheduleAnyway one changes nothing.
func TestSpreadKeyOnNoNode(t *testing.T) {
	manifests := func(when string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ` + when + `, labelSelector: {matchLabels: {app: web}}}
      containers: [{name: web, resources: {requests: {cpu: 100m}}}]
`
	}
	for _, c := range []struct {
		when string
		want checker.Verdict
	}{{"DoNotSchedule", checker.Violated}, {"ScheduleAnyway", checker.Holds}} {
		_, warns, err := kivi.LoadManifests([]kivi.InputFile{{Name: "m.yaml", Data: []byte(manifests(c.when))}}, &kivi.InputFile{Name: "nodes.yaml", Data: []byte(twoNodes("4"))}, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.when, err)
		}
		if len(warns) != 1 || !strings.Contains(warns[0].String(), `topologyKey: "topology.kubernetes.io/zone" is a label of no node`) {
			t.Errorf("%s: warnings %v, want one naming the topologyKey", c.when, warns)
		}
		rep := verifyManifests(t, manifests(c.when), twoNodes("4"), "", false)
		r := rep.Result("pod_always_schedulable")
		if r == nil || r.Verdict != c.want {
			t.Fatalf("%s: pod_always_schedulable %+v, want %v", c.when, r, c.want)
		}
		if c.want == checker.Violated {
			if lines := r.Trace.Lines(); !strings.Contains(lines[len(lines)-1], "didn't match pod topology spread constraints (missing required label)") {
				t.Errorf("%s: the last step %q, want the missing label", c.when, lines[len(lines)-1])
			}
		}
	}
}
