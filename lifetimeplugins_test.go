package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// lifetimeNodes are two workers of 4 cpu and 4 GiB.
const lifetimeNodes = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: worker-1, labels: {kubernetes.io/hostname: worker-1}}
  status: {allocatable: {cpu: "4", memory: 4Gi, pods: "110"}}
- apiVersion: v1
  kind: Node
  metadata: {name: worker-2, labels: {kubernetes.io/hostname: worker-2}}
  status: {allocatable: {cpu: "4", memory: 4Gi, pods: "110"}}
`

// lifetimeApp is a Deployment of two replicas in namespace NS.
const lifetimeApp = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: NS}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        resources: {requests: {cpu: "1", memory: 1Gi}}
---
`

// TestPodLifeTimeEvictsForEver: PodLifeTime with maxPodLifeTimeSeconds
// evicts every pod once it is old enough, and the model, having no
// clock, lets any pod be old enough at any cycle: the Deployment's pods
// are evicted and started again for ever (upstream does so once a day
// here), which no_oscillation_eviction reports. The plugin's namespaces
// filter leaving the Deployment's namespace out stops it.
func TestPodLifeTimeEvictsForEver(t *testing.T) {
	const policy = `apiVersion: descheduler/v1alpha2
kind: DeschedulerPolicy
profiles:
- name: lifetime
  pluginConfig:
  - name: PodLifeTime
    args: {maxPodLifeTimeSeconds: 86400, namespaces: {exclude: [EXCLUDED]}}
  plugins:
    deschedule: {enabled: [PodLifeTime]}
`
	intents := "intents:\n- name: no_oscillation_eviction\n  params: {deployment: web}\n"
	for _, c := range []struct {
		excluded string
		want     checker.Verdict
	}{{"batch", checker.Violated}, {"shop", checker.Holds}} {
		m := strings.ReplaceAll(lifetimeApp, "NS", "shop") + strings.ReplaceAll(policy, "EXCLUDED", c.excluded)
		rep := verifyManifests(t, m, lifetimeNodes, intents, false)
		if r := rep.Result("no_oscillation_eviction"); r == nil || r.Verdict != c.want {
			t.Errorf("namespaces.exclude [%s]: no_oscillation_eviction %+v, want %v", c.excluded, r, c.want)
		}
	}
}
