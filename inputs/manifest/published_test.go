package manifest

import (
	"fmt"
	"strings"
	"testing"
)

// The cases of this file come from published manifests (Kubernetes'
// documentation examples, Helm charts' rendered output, install
// bundles): objects the API server accepts must be read, and what the
// model leaves out must be said.

// warningTexts are a result's warnings as printed.
func warningTexts(r *Result) []string {
	var out []string
	for _, w := range r.Warnings {
		out = append(out, w.String())
	}
	return out
}

// wantInputError settles a table row that expects an input error (want
// not empty): err must be one whose message matches want (strings.Contains
// or strings.HasPrefix), and the row is done. A row that expects none
// fails on any error and goes on.
func wantInputError(t *testing.T, err error, want string, matches func(string, string) bool) (done bool) {
	t.Helper()
	if want != "" {
		if err == nil || !IsInput(err) || !matches(err.Error(), want) {
			t.Fatalf("got %v, want an input error with %q", err, want)
		}
		return true
	}
	if err != nil {
		t.Fatal(err)
	}
	return false
}

// TestFlowStyleDocuments: the documentation writes many examples as YAML
// in flow style, which starts like JSON (unquoted keys, trailing
// commas); kubectl reads them, falling back to YAML when JSON fails.
func TestFlowStyleDocuments(t *testing.T) {
	hpa := `{
  apiVersion: "autoscaling/v2",
  kind: "HorizontalPodAutoscaler",
  metadata: {
    name: "web",
  },
  spec: {
    scaleTargetRef: {apiVersion: "apps/v1", kind: "Deployment", name: "web"},
    minReplicas: 1,
    maxReplicas: 4,
  },
}
`
	dep := webDeployment(`      containers: [{name: c, resources: {requests: {cpu: 100m}}}]
`)
	for name, stream := range map[string]string{
		"after a separator": dep + "---\n" + hpa,
		"a whole file":      hpa,
		"first of a stream": hpa + "---\n" + dep,
	} {
		t.Run(name, func(t *testing.T) {
			files := []File{{Name: "hpa.yaml", Data: []byte(stream)}}
			if name == "a whole file" {
				files = append(files, File{Name: "web.yaml", Data: []byte(dep)})
			}
			r, err := LoadStream(files, &File{Name: "nodes.yaml", Data: []byte(oneNode)}, nil, testOptions())
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Cluster.Deployments) != 1 || r.Cluster.Deployments[0].HPA == nil || r.Cluster.Deployments[0].HPA.Max != 4 {
				t.Fatalf("the flow-style HPA was not read: %+v", r.Cluster.Deployments)
			}
		})
	}
	// Neither JSON nor YAML: the JSON error, as kubectl reports it.
	_, err := LoadStream([]File{{Name: "bad.yaml", Data: []byte("---\n{kind: [\"Deployment\", }\n")}}, nil, nil, testOptions())
	if err == nil || !strings.Contains(err.Error(), "bad.yaml: document 1: not valid JSON (invalid character") {
		t.Fatalf("got %v, want the JSON error", err)
	}
}

// TestHPAOfUnmodelledTarget: the API server takes an HPA of any kind; one
// of a kind the model does not run is left out with a warning, as is
// one of a kind without a scale subresource, which the HPA controller
// never scales, and one whose target is not in the input (another name,
// or the name of a workload of another kind), which it cannot scale
// either.
func TestHPAOfUnmodelledTarget(t *testing.T) {
	r := load(t, webDeployment(`      containers: [{name: c, resources: {requests: {cpu: 100m}}}]
`)+`---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: frontend}
spec:
  selector: {matchLabels: {tier: frontend}}
  template:
    metadata: {labels: {tier: frontend}}
    spec: {containers: [{name: c}]}
---
apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: frontend}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: ReplicaSet, name: frontend}
  maxReplicas: 10
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: rollout}
spec:
  scaleTargetRef: {apiVersion: argoproj.io/v1alpha1, kind: Rollout, name: web}
  maxReplicas: 10
---
apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  template:
    metadata: {labels: {app: batch}}
    spec: {restartPolicy: Never, containers: [{name: c}]}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: batch}
spec:
  scaleTargetRef: {apiVersion: batch/v1, kind: Job, name: batch}
  maxReplicas: 4
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: api}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  maxReplicas: 4
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web-sts}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: StatefulSet, name: web}
  maxReplicas: 4
`)
	for _, d := range r.Cluster.Deployments {
		if d.HPA != nil {
			t.Errorf("%s got an HPA", d.Name)
		}
	}
	text := strings.Join(warningTexts(r), "\n")
	for _, want := range []string{
		`document 4: spec.scaleTargetRef: ignored: the HPA scales ReplicaSet "frontend", a kind the model does not run (only Deployment and StatefulSet), whose pods are not counted`,
		`document 5: spec.scaleTargetRef: ignored: the HPA scales Rollout "web", a kind the model does not run`,
		`document 7: spec.scaleTargetRef: ignored: a Job has no scale subresource, so the HPA controller never scales Job "batch" (FailedGetScale)`,
		`document 8: spec.scaleTargetRef.name: ignored: no Deployment default/api in the input (workloads: default/batch, default/web), so the HPA controller scales nothing (FailedGetScale)`,
		`document 9: spec.scaleTargetRef.name: ignored: no StatefulSet default/web in the input`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no warning %q in\n%s", want, text)
		}
	}
}

// TestBarePodsLeftOut: a Pod without a controller (a Helm chart's test
// hook, a documentation example) is left out with a warning naming it.
func TestBarePodsLeftOut(t *testing.T) {
	r := load(t, webDeployment(`      containers: [{name: c, resources: {requests: {cpu: 100m}}}]
`)+`---
apiVersion: v1
kind: Pod
metadata:
  name: web-test
  annotations: {helm.sh/hook: test}
spec:
  containers: [{name: wget, image: busybox, command: [wget, web]}]
  restartPolicy: Never
`)
	if len(r.Cluster.Deployments) != 1 {
		t.Fatalf("deployments %+v", r.Cluster.Deployments)
	}
	want := `m.yaml: document 3: kind Pod "web-test" is ignored: a Pod without a controller is not modelled in a manifest stream, and the room it would take on a node is not counted`
	if text := strings.Join(warningTexts(r), "\n"); !strings.Contains(text, want) {
		t.Errorf("no warning %q in\n%s", want, text)
	}
}

// TestSkippedKindsSummed: the kinds that cannot change the verdict are
// summed up in one line, over every file of the input; a custom
// resource gets its own warning, since its controller may create pods.
func TestSkippedKindsSummed(t *testing.T) {
	rbac := `apiVersion: v1
kind: ServiceAccount
metadata: {name: web}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: web}
---
apiVersion: v1
kind: Service
metadata: {name: web}
---
apiVersion: v1
kind: Service
metadata: {name: web-headless}
---
apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata: {name: main}
`
	dep := webDeployment(`      containers: [{name: c, resources: {requests: {cpu: 100m}}}]
`) + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n"
	r, err := LoadStream([]File{{Name: "rbac.yaml", Data: []byte(rbac)}, {Name: "web.yaml", Data: []byte(dep)}},
		&File{Name: "nodes.yaml", Data: []byte(oneNode)}, nil, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	got := warningTexts(r)
	want := []string{
		`rbac.yaml: document 5: kind Prometheus "main" (monitoring.coreos.com/v1) is not modelled and is ignored: pods its controller may create are not counted`,
		"5 objects skipped, of kinds that do not affect the verdict: 2 Service, 1 ClusterRole, 1 ConfigMap, 1 ServiceAccount",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Without any such object there is no line.
	if w := warningTexts(load(t, webDeployment(`      containers: [{name: c}]
`))); len(w) != 0 {
		t.Errorf("warnings %q, want none", w)
	}
}

// TestLiveDumpPodsAndReplicaSets: a dump of a running cluster (kubectl
// get deployments,replicasets,pods -o yaml) holds a Deployment's
// ReplicaSets and pods. The ReplicaSets are summed with the skipped kinds
// (the Deployment models them), a ReplicaSet no Deployment owns is
// warned about, and the pods with a controller are one warning for them
// all, naming their controllers, while a Pod without one keeps its own.
func TestLiveDumpPodsAndReplicaSets(t *testing.T) {
	rs := func(name, owner string) string {
		refs := ""
		if owner != "" {
			refs = fmt.Sprintf("\n  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: %s, uid: u, controller: true}]", owner)
		}
		return fmt.Sprintf(`---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: %s%s
spec:
  replicas: 1
  selector: {matchLabels: {app: %s}}
  template:
    metadata: {labels: {app: %s}}
    spec:
      containers: [{name: c}]
`, name, refs, name, name)
	}
	pod := func(name, owner string) string {
		refs := ""
		if owner != "" {
			refs = fmt.Sprintf("\n  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: %s, uid: u, controller: true}]", owner)
		}
		return fmt.Sprintf(`---
apiVersion: v1
kind: Pod
metadata:
  name: %s%s
spec:
  nodeName: node-1
  containers: [{name: c, resources: {requests: {cpu: 100m}}}]
status: {phase: Running}
`, name, refs)
	}
	r := load(t, webDeployment(`      containers: [{name: c, resources: {requests: {cpu: 100m}}}]
`)+rs("web-abc", "web")+rs("orphan", "")+pod("web-abc-1", "web-abc")+pod("web-abc-2", "web-abc")+pod("other-1", "other-rs")+pod("debug", ""))
	text := strings.Join(warningTexts(r), "\n")
	for _, want := range []string{
		"skipped, of kinds that do not affect the verdict: 1 ReplicaSet",
		`kind ReplicaSet "orphan" is ignored: a ReplicaSet no Deployment owns is not modelled`,
		"3 Pods with a controller (ReplicaSet web-abc, ReplicaSet other-rs) are ignored",
		`kind Pod "debug" is ignored: a Pod without a controller`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no warning %q in\n%s", want, text)
		}
	}
	if n := strings.Count(text, "with a controller"); n != 1 {
		t.Errorf("%d warnings about pods with a controller, want one for them all:\n%s", n, text)
	}
}
