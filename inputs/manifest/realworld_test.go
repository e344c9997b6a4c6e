package manifest

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// realworldCase is what reading one file of testdata/realworld gives
// beyond "read without error".
type realworldCase struct {
	// with are files read in the same stream (the file's partners, as a
	// user passes several -f).
	with []string
	// asNodes reads the file as --nodes, beside workload.yaml.
	asNodes bool
	// err is the start of the input error the file must give.
	err string
	// same is a file that must read to the same workloads (a variant
	// saved with other line endings or a byte-order mark).
	same string
	// check returns what is wrong with the result, "" if nothing.
	check func(*Result) string
	// warn is a text one of the warnings must have.
	warn string
}

// realworldCases are the collected files whose reading is more than
// "without error": refusals, partners, and the readings a fix is about.
var realworldCases = map[string]realworldCase{
	// Kinds and versions Kubernetes v1.36 no longer serves.
	"kubernetes-website/application_job_cronjob-v1beta1.yaml":                                  {err: `application_job_cronjob-v1beta1.yaml: document 1: apiVersion: "batch/v1beta1" is not supported for kind CronJob: Kubernetes stopped serving it in v1.25 (accepted: batch/v1)`},
	"kubernetes-examples-repo/_archived_cockroachdb_cockroachdb-statefulset.yaml":              {err: `_archived_cockroachdb_cockroachdb-statefulset.yaml: document 3: apiVersion: "policy/v1beta1" is not supported for kind PodDisruptionBudget: Kubernetes stopped serving it in v1.25 (accepted: policy/v1)`},
	"kubernetes-examples-repo/_archived_newrelic-infrastructure_newrelic-infra-daemonset.yaml": {err: `_archived_newrelic-infrastructure_newrelic-infra-daemonset.yaml: document 1: apiVersion: "extensions/v1beta1" is not supported for kind DaemonSet: Kubernetes stopped serving it in v1.16 (accepted: apps/v1)`},
	"metrics-server/manifests_components_high-availability_pdb.yaml":                           {err: `manifests_components_high-availability_pdb.yaml: document 1: apiVersion: "policy/v1beta1" is not supported for kind PodDisruptionBudget: Kubernetes stopped serving it in v1.25 (accepted: policy/v1)`},
	// A Kustomize base: its selector comes from the overlay's labels;
	// the API server refuses it as it is.
	"metrics-server/manifests_base_deployment.yaml": {err: "manifests_base_deployment.yaml: document 1: spec.selector: required in apps/v1"},
	// The README's example names a class the cluster does not have.
	"descheduler/README_priorityclass-threshold.yaml": {err: `README_priorityclass-threshold.yaml: document 1: profiles[0].pluginConfig[0].args.priorityThreshold.name: no PriorityClass with name priorityClassName1`},
	// HPAs beside their targets.
	"kubernetes-examples-repo/AI_vllm-deployment_hpa_gpu-horizontal-pod-autoscaler.yaml": {with: []string{"kubernetes-examples-repo/AI_vllm-deployment_vllm-deployment.yaml"}, check: hpaRead("vllm-gemma-deployment")},
	"kubernetes-examples-repo/AI_vllm-deployment_hpa_horizontal-pod-autoscaler.yaml":     {with: []string{"kubernetes-examples-repo/AI_vllm-deployment_vllm-deployment.yaml"}, check: hpaRead("vllm-gemma-deployment")},
	"kubernetes-website/application_hpa_php-apache.yaml":                                 {with: []string{"kubernetes-website/application_php-apache.yaml"}, check: hpaRead("php-apache")},
	"kube-prometheus/manifests_prometheusAdapter-podDisruptionBudget.yaml":               {with: []string{"kube-prometheus/manifests_prometheusAdapter-deployment.yaml"}, check: budgetRead},
	"kwok/site_static_examples_node.yaml":                                                {asNodes: true},
	// The descheduler's policy in a ConfigMap, with the Helm chart's
	// podProtections.
	"descheduler/kubernetes_base_configmap.yaml":         {check: deschedulerRead},
	"descheduler/test_manifests_v1alpha2_configmap.yaml": {check: deschedulerRead},
	"descheduler-chart/configmap-rendered.yaml": {check: func(r *Result) string {
		if r.Cluster.Descheduler == nil {
			return "the ConfigMap's policy was not read"
		}
		if p := r.Cluster.Descheduler.Profiles[0]; !p.EvictLocalStoragePods || !p.IgnorePvcPods {
			return "the chart's podProtections (local storage evictable, claims protected) were not read"
		}
		return ""
	}},
	// A node autoscaler's objects change the nodes, not the pods.
	"karpenter/examples_v1_general-purpose.yaml": {warn: `document 1: kind NodePool "general-purpose" (karpenter.sh/v1) is not modelled and is ignored: the nodes its controller may add or remove are not modelled: the cluster keeps the nodes given`},
	"variants/deployment-sidecar-bom.yaml":       {same: "kubernetes-website/application_deployment-sidecar.yaml"},
	"variants/frontend-bom-crlf.yaml":            {same: "microservices-demo/kubernetes-manifests_frontend.yaml"},
	// kubectl reads the first document of a UTF-16 stream only.
	"variants/php-apache-hpa-utf16.yaml": {warn: "php-apache-hpa-utf16.yaml: the file is UTF-16 and holds 3 documents", check: func(r *Result) string {
		if len(r.Cluster.Deployments) != 1 || r.Cluster.Deployments[0].HPA != nil {
			return "want the Deployment alone, as kubectl reads the file"
		}
		return ""
	}},
	"variants/zookeeper-crlf.yaml": {same: "kubernetes-website/application_zookeeper_zookeeper.yaml"},
}

func hpaRead(target string) func(*Result) string {
	return func(r *Result) string {
		for _, d := range r.Cluster.Deployments {
			if d.Name == target && d.HPA != nil {
				return ""
			}
		}
		return "no HPA on " + target
	}
}

func budgetRead(r *Result) string {
	if len(r.Cluster.PodDisruptionBudgets) != 1 {
		return "the PodDisruptionBudget was not read"
	}
	return ""
}

func deschedulerRead(r *Result) string {
	if r.Cluster.Descheduler == nil {
		return "the ConfigMap's DeschedulerPolicy was not read"
	}
	return ""
}

// TestPublishedManifests reads every file of testdata/realworld
// (README.md names their sources) with its nodes, beside workload.yaml
// when it holds no workload: each is read without error, or with the
// input error realworldCases gives it.
func TestPublishedManifests(t *testing.T) {
	const root = "testdata/realworld"
	read := func(t *testing.T, name string) File {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		return File{Name: filepath.Base(name), Data: data}
	}
	nodes, workload := read(t, "nodes.yaml"), read(t, "workload.yaml")
	loadCase := func(t *testing.T, name string, tc realworldCase) (*Result, error) {
		in := []File{read(t, name)}
		for _, w := range tc.with {
			in = append(in, read(t, w))
		}
		ns := &nodes
		if tc.asNodes {
			ns, in = &in[0], append(in[1:], workload)
		}
		r, err := LoadStream(in, ns, nil, testOptions())
		if err != nil && strings.Contains(err.Error(), "no Deployment, StatefulSet, Job or CronJob to verify") {
			r, err = LoadStream(append(in, workload), ns, nil, testOptions())
		}
		return r, err
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Dir(p) == root {
			return err
		}
		files = append(files, strings.TrimPrefix(filepath.ToSlash(p), root+"/"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 60 {
		t.Fatalf("%d files collected, want at least 60", len(files))
	}
	seen := map[string]bool{}
	for _, name := range files {
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			tc := realworldCases[name]
			r, err := loadCase(t, name, tc)
			if wantInputError(t, err, tc.err, strings.HasPrefix) {
				return
			}
			if all := strings.Join(warningTexts(r), "\n"); !strings.Contains(all, tc.warn) {
				t.Errorf("warnings %q, want one with %q", all, tc.warn)
			}
			if tc.check != nil {
				if msg := tc.check(r); msg != "" {
					t.Error(msg)
				}
			}
			if tc.same != "" {
				orig, err := loadCase(t, tc.same, realworldCases[tc.same])
				if err != nil {
					t.Fatal(err)
				}
				if a, b := workloadsJSON(t, r), workloadsJSON(t, orig); a != b {
					t.Errorf("read as\n%s\nthe original as\n%s", a, b)
				}
			}
		})
	}
	for name := range realworldCases {
		if !seen[name] {
			t.Errorf("realworldCases names %s, which is not in %s", name, root)
		}
	}
}

func workloadsJSON(t *testing.T, r *Result) string {
	js, err := json.Marshal(struct {
		T any
		D any
		B any
	}{r.Cluster.Templates, r.Cluster.Deployments, r.Cluster.PodDisruptionBudgets})
	if err != nil {
		t.Fatal(err)
	}
	return string(js)
}
