package kivi_test

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/checker"
)

// TestReapplyStoredPodTemplate: the API server stores a pod template
// decoded, defaulted and with canonical quantities, and the Deployment
// controller compares stored templates semantically; so applying a file
// whose template differs from the live one only in how it is written
// (0.5 for 500m, 1073741824 for 1Gi, a default spelt out, keys in
// another order, an empty list or a null) rolls nothing out, while a
// template that really differs rolls out, dipping below spec.replicas
// under maxUnavailable 1. A StatefulSet's revision is the stored
// template's bytes, in which a quantity keeps its format: 1Gi and
// 1024Mi are one revision, 1Gi and 1073741824 two.
func TestReapplyStoredPodTemplate(t *testing.T) {
	const live = `apiVersion: apps/v1
kind: KIND
metadata: {name: web}
spec:
  replicas: 2
  SERVICE
  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: c
        image: web:1.0
        ports: [{containerPort: 8080}]
        readinessProbe: {httpGet: {port: 8080}}
        resources: {requests: {cpu: 500m, memory: 1Gi}}
`
	const intents = `intents:
- name: replica_num_always_meet_exp
  params: {deployment: web, expReplicas: spec}
events:
- {kind: applyDeployment, manifest: web.yaml, when: afterStable}
`
	const sameSpelling = `apiVersion: apps/v1
kind: KIND
metadata: {name: web}
spec:
  SERVICE
  selector: {matchLabels: {app: web}}
  strategy: {rollingUpdate: {maxUnavailable: 1, maxSurge: 0}}
  replicas: 2
  template:
    spec:
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      terminationGracePeriodSeconds: 30
      securityContext: {}
      volumes: []
      nodeSelector: null
      containers:
      - resources: {requests: {memory: MEMORY, cpu: 0.5}, limits: {}}
        image: web:1.0
        imagePullPolicy: IfNotPresent
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
        name: c
        env: []
        readinessProbe: {periodSeconds: 10, httpGet: {port: 8080, path: /, scheme: HTTP}, timeoutSeconds: 1, failureThreshold: 3, successThreshold: 1}
        ports: [{protocol: TCP, containerPort: 8080}]
    metadata: {labels: {app: web}, annotations: {}}
`
	for _, c := range []struct {
		name, kind, file string
		want             checker.Verdict
	}{
		{"Deployment: written otherwise", "Deployment", strings.ReplaceAll(sameSpelling, "MEMORY", "1073741824"), checker.Holds},
		{"Deployment: another cpu", "Deployment", strings.ReplaceAll(strings.ReplaceAll(sameSpelling, "MEMORY", "1Gi"), "cpu: 0.5", "cpu: 0.6"), checker.Violated},
		{"Deployment: another pull policy", "Deployment", strings.ReplaceAll(strings.ReplaceAll(sameSpelling, "MEMORY", "1Gi"), "imagePullPolicy: IfNotPresent", "imagePullPolicy: Always"), checker.Violated},
		{"Deployment: another probe period", "Deployment", strings.ReplaceAll(strings.ReplaceAll(sameSpelling, "MEMORY", "1Gi"), "periodSeconds: 10", "periodSeconds: 5"), checker.Violated},
		{"StatefulSet: 1024Mi", "StatefulSet", strings.ReplaceAll(sameSpelling, "MEMORY", "1024Mi"), checker.Holds},
		{"StatefulSet: 1073741824", "StatefulSet", strings.ReplaceAll(sameSpelling, "MEMORY", "1073741824"), checker.Violated},
	} {
		t.Run(c.name, func(t *testing.T) {
			kind := func(s string) string {
				s = strings.ReplaceAll(s, "KIND", c.kind)
				service := ""
				if c.kind == "StatefulSet" {
					service = "serviceName: web"
				}
				s = strings.ReplaceAll(s, "SERVICE", service)
				if c.kind == "StatefulSet" {
					// A StatefulSet's rollingUpdate has no maxSurge.
					s = strings.ReplaceAll(s, "strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}", "")
					s = strings.ReplaceAll(s, "strategy: {rollingUpdate: {maxUnavailable: 1, maxSurge: 0}}", "")
				}
				return s
			}
			rep := verifyInput(t, input{manifests: kind(live), nodes: twoNodes("2"), intents: intents, files: map[string]string{"web.yaml": kind(c.file)}})
			if r := rep.Result("replica_num_always_meet_exp"); r.Verdict != c.want {
				t.Fatalf("replica_num_always_meet_exp %v, want %v", r.Verdict, c.want)
			}
		})
	}
}
