package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// TestRolloutRestart: `kubectl rollout restart` replaces every pod of a
// Deployment through a rolling update of an identical template. With
// maxUnavailable 1 the Deployment drops below its replicas; with
// maxUnavailable 0 and a surge pod it does not, if the surge pod has
// room, and the surge pod finds no node on a full cluster.
func TestRolloutRestart(t *testing.T) {
	web := func(cpu, surge, unavailable string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  strategy: {rollingUpdate: {maxSurge: ` + surge + `, maxUnavailable: ` + unavailable + `}}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, resources: {requests: {cpu: ` + cpu + `}}}]}
`
	}
	const intents = `intents:
- name: pod_always_schedulable
- name: replica_num_always_meet_exp
  params: {deployment: web, expReplicas: spec}
events:
- {kind: rolloutRestart, deployment: web, when: afterStable}
`
	for _, c := range []struct {
		name, manifests    string
		schedulable, exp   checker.Verdict
		lastLineContaining string
	}{
		{"maxUnavailable 1", web("500m", "0", "1"), checker.Holds, checker.Violated, "fewer replicas than expected"},
		{"surge with room", web("500m", "1", "0"), checker.Holds, checker.Holds, ""},
		{"surge on a full cluster", web("1500m", "1", "0"), checker.Violated, checker.Holds, "Insufficient cpu"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := verifyManifests(t, c.manifests, twoNodes("2"), intents, true)
			s, e := rep.Result("pod_always_schedulable"), rep.Result("replica_num_always_meet_exp")
			if s.Verdict != c.schedulable || e.Verdict != c.exp {
				t.Fatalf("pod_always_schedulable %v, replica_num_always_meet_exp %v; want %v, %v", s.Verdict, e.Verdict, c.schedulable, c.exp)
			}
			for _, r := range []*kivi.IntentResult{s, e} {
				if r.Trace == nil {
					continue
				}
				lines := r.Trace.Lines()
				text := strings.Join(lines, "\n")
				if !strings.Contains(text, "kubectl rollout restart: deployment web restarted") || !strings.Contains(lines[len(lines)-1], c.lastLineContaining) {
					t.Errorf("%s's counterexample:\n%s", r.Name, text)
				}
			}
		})
	}
}
