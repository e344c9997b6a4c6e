package manifest

import (
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

const oneNode = `apiVersion: v1
kind: Node
metadata: {name: n1, labels: {zone: a}}
status: {allocatable: {cpu: "8", memory: 32Gi}}
`

// webDeployment is Deployment web (app=web) with pod spec spec, written
// at the pod spec's fields' indentation (six spaces).
func webDeployment(spec string) string {
	return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
` + spec
}

func load(t *testing.T, manifests string) *Result {
	t.Helper()
	r, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + manifests)}}, nil, nil, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestAPIServerDefaults: k8s.io/kubernetes pkg/apis/apps/v1/defaults.go
// (replicas 1, RollingUpdate 25 %/25 %), pkg/apis/autoscaling/v2 and v1
// defaults.go (minReplicas 1, CPU utilisation 80 %), the descheduler's
// (upstream Kubernetes: constraints [DoNotSchedule], topologyBalanceNodeFit
// true).
func TestAPIServerDefaults(t *testing.T) {
	r := load(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c}]}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, maxReplicas: 3}
---
apiVersion: descheduler/v1alpha2
kind: DeschedulerPolicy
profiles:
- name: p
  plugins: {balance: {enabled: [RemovePodsViolatingTopologySpreadConstraint]}}
`)
	d := r.Cluster.Deployments[0]
	if d.Replicas != 1 || d.MaxSurge != "25%" || d.MaxUnavailable != "25%" || d.Strategy != "" || d.Created == nil || *d.Created {
		t.Errorf("deployment defaults: %+v", d)
	}
	h := d.HPA
	if h == nil || h.Min != 1 || h.Max != 3 || len(h.Metrics) != 1 || h.Metrics[0] != (model.MetricDecl{Resource: "cpu", Type: "Utilization", Target: 80}) {
		t.Errorf("hpa defaults: %+v", h)
	}
	ds := r.Cluster.Descheduler
	if ds == nil || len(ds.Profiles) != 1 || ds.Profiles[0].Constraints != model.HardConstraints || !ds.Profiles[0].TopologyBalanceNodeFit ||
		ds.Profiles[0].NodeFit || ds.Profiles[0].EvictSystemCriticalPods || ds.MaxPerNode != 0 {
		t.Errorf("descheduler defaults: %+v", ds)
	}
	if e := r.Cluster.Events; len(e) != 1 || e[0].Kind != "createTargetDeployment" || e[0].When != "first" {
		t.Errorf("events: %+v", e)
	}
	r = load(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, resources: {requests: {cpu: 250m}}}]}
---
apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, maxReplicas: 3, targetCPUUtilizationPercentage: 60}
`)
	if m := r.Cluster.Deployments[0].HPA.Metrics; len(m) != 1 || m[0].Target != 60 {
		t.Errorf("autoscaling/v1 target: %+v", m)
	}
}

// TestRequestsSummed: resource.PodRequests — containers summed, sidecars
// added, the largest init container as a floor, overhead added.
func TestRequestsSummed(t *testing.T) {
	r := load(t, webDeployment(`      overhead: {cpu: 10m, memory: 1Mi}
      initContainers:
      - {name: init, resources: {requests: {cpu: "2", memory: 1Mi}}}
      - {name: side, restartPolicy: Always, resources: {requests: {cpu: 100m, memory: 100Mi}}}
      containers:
      - {name: a, resources: {requests: {cpu: 500m, memory: 1Gi}}}
      - {name: b, resources: {requests: {cpu: "0.5", memory: 512Mi}}}
`))
	td := r.Cluster.Templates[0]
	// cpu max(500+500+100, 2000) + 10; memory max(1024+512+100, 1) + 1.
	if td.CPU != 2010 || td.Memory != 1637 {
		t.Errorf("requests: cpu %d memory %d", td.CPU, td.Memory)
	}
}

// TestRequestsDefaultToLimits: the API server gives a container that
// sets a limit and no request for a resource a request equal to the
// limit (pkg/apis/core/v1 SetDefaults_Pod), in containers and init
// containers; an explicit request, even 0, stays. The scheduler's
// non-zero scoring request reads the defaulted request too.
func TestRequestsDefaultToLimits(t *testing.T) {
	r := load(t, webDeployment(`      initContainers:
      - {name: init, resources: {limits: {cpu: "3"}}}
      containers:
      - {name: a, resources: {limits: {cpu: 500m, memory: 1Gi}}}
      - {name: b, resources: {requests: {cpu: 0}, limits: {cpu: "1", memory: 256Mi}}}
      - {name: c}
`))
	td := r.Cluster.Templates[0]
	// cpu max(500+0+0, 3000); memory 1024+256.
	if td.CPU != 3000 || td.Memory != 1280 {
		t.Errorf("requests: cpu %d memory %d, want 3000 and 1280", td.CPU, td.Memory)
	}
	// Scored: a 500m/1Gi, b 0/256Mi (explicit 0 stays), c 100m/200Mi
	// (missing); the init container's 3 CPUs are the floor.
	if td.NonZeroCPU != 3000 || td.NonZeroMemory != 1480 {
		t.Errorf("scored requests: cpu %d memory %d, want 3000 and 1480", td.NonZeroCPU, td.NonZeroMemory)
	}
	_, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: a, resources: {limits: {cpu: lots}}}]}
`)}}, nil, nil, testOptions())
	if err == nil || !strings.Contains(err.Error(), "spec.template.spec.containers[0].resources.limits.cpu") {
		t.Errorf("a bad limit: %v, want an error naming the limit", err)
	}
}

// TestFieldWarnings: fields that can change scheduling or scaling are
// warned about, harmless ones are quiet, unknown ones are reported.
func TestFieldWarnings(t *testing.T) {
	r := load(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, annotations: {a: b}}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {labelSelector: {matchLabels: {app: web}}, topologyKey: kubernetes.io/hostname, mismatchLabelKeys: [x]}
      containers:
      - name: c
        image: x
        ports: [{containerPort: 80}]
        env: [{name: A, value: b}]
        livenessProbe: {exec: {command: [true]}}
        resources: {request: {cpu: 1}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 3
  behavior: {scaleUp: {stabilisationWindowSeconds: 0}}
---
apiVersion: v1
kind: ReplicationController
metadata: {name: db}
`)
	var got []string
	for _, w := range r.Warnings {
		got = append(got, w.String())
	}
	text := strings.Join(got, "\n")
	for _, want := range []string{
		"spec.template.spec.containers[0].resources.request: unknown field",
		"document 3: spec.behavior.scaleUp.stabilisationWindowSeconds: unknown field",
		`document 4: kind ReplicationController "db" is ignored`,
		// The typo leaves the container without a request.
		"document 3: spec.metrics: the cpu Utilization metric cannot be computed",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no warning %q in:\n%s", want, text)
		}
	}
	for _, quiet := range []string{"ports", "env", "livenessProbe", "image", "annotations", "mismatchLabelKeys"} {
		if strings.Contains(text, quiet) {
			t.Errorf("warning about harmless field %s:\n%s", quiet, text)
		}
	}
	if len(got) != 4 {
		t.Errorf("%d warnings, want 4:\n%s", len(got), text)
	}
}
