package manifest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// podAffinityApp is a Deployment with inter-pod affinity of every kind,
// a container without requests and a sidecar with a cpu request only.
const podAffinityApp = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
      - name: log
        resources:
          requests: {cpu: 50m}
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector: {matchLabels: {app: web}}
            topologyKey: kubernetes.io/hostname
            namespaces: [shop]
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 20
            podAffinityTerm:
              labelSelector: {matchExpressions: [{key: app, operator: In, values: [batch]}]}
              topologyKey: topology.kubernetes.io/zone
              namespaces: [other]
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - topologyKey: topology.kubernetes.io/zone
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 5
            podAffinityTerm:
              labelSelector: {}
              topologyKey: rack
              matchLabelKeys: [pod-template-hash]
              mismatchLabelKeys: [app]
`

// TestPodAffinityFromManifests: podAffinity and podAntiAffinity are read
// into the template (a nil labelSelector stays nil: it matches no pod),
// matchLabelKeys and mismatchLabelKeys with them, and their namespaces; a
// key no node has is warned about; missing requests become the non-zero requests LeastAllocated
// scores (two containers without a memory request: 400Mi, one without a
// cpu request: 100m + 50m).
func TestPodAffinityFromManifests(t *testing.T) {
	nodes, err := os.ReadFile(filepath.Join("testdata", "c3", "nodes.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := LoadStream([]File{{Name: "app.yaml", Data: []byte(podAffinityApp)}}, &File{Name: "nodes.yaml", Data: nodes}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	td := r.Cluster.Templates[0]
	anti, aff := td.PodAntiAffinity, td.PodAffinity
	if anti == nil || len(anti.Required) != 1 || anti.Required[0].TopologyKey != model.HostnameKey ||
		anti.Required[0].LabelSelector.MatchLabels["app"] != "web" || len(anti.Preferred) != 1 || anti.Preferred[0].Weight != 20 {
		t.Errorf("podAntiAffinity %+v", anti)
	}
	if aff == nil || len(aff.Required) != 1 || aff.Required[0].LabelSelector != nil || len(aff.Preferred) != 1 ||
		aff.Preferred[0].Term.LabelSelector == nil || aff.Preferred[0].Term.TopologyKey != "rack" ||
		!slices.Equal(aff.Preferred[0].Term.MatchLabelKeys, []string{model.PodTemplateHashKey}) ||
		!slices.Equal(aff.Preferred[0].Term.MismatchLabelKeys, []string{"app"}) {
		t.Errorf("podAffinity %+v", aff)
	}
	var warned []string
	for _, w := range r.Warnings {
		warned = append(warned, w.String())
	}
	all := strings.Join(warned, "\n")
	if want := `podAffinityTerm.topologyKey: "rack" is a label of no node`; !strings.Contains(all, want) {
		t.Errorf("no warning %q in:\n%s", want, all)
	}
	if strings.Contains(all, "namespaces") {
		t.Errorf("a term's namespaces were warned about:\n%s", all)
	}
	if td.Namespace != "shop" || !slices.Equal(anti.Required[0].Namespaces, []string{"shop"}) || !slices.Equal(anti.Preferred[0].Term.Namespaces, []string{"other"}) {
		t.Errorf("namespaces: template %q, terms %v and %v", td.Namespace, anti.Required[0].Namespaces, anti.Preferred[0].Term.Namespaces)
	}
	if td.CPU != 50 || td.Memory != 0 || td.NonZeroCPU != 150 || td.NonZeroMemory != 400 {
		t.Errorf("requests %d/%d non-zero %d/%d, want 50/0 and 150/400", td.CPU, td.Memory, td.NonZeroCPU, td.NonZeroMemory)
	}
	u, _, err := r.Cluster.Build()
	if err != nil {
		t.Fatal(err)
	}
	if tm := &u.Templates[0]; len(tm.PodAntiAffinity) != 1 || len(tm.PreferredPodAffinity) != 1 || tm.NonZeroMemory != 400 {
		t.Errorf("built template: %+v", tm)
	}
}

// TestNoNonZeroForKiviInputs: Kivi's configuration directories score
// their requests as written.
func TestNoNonZeroForKiviInputs(t *testing.T) {
	needExamples(t)
	r, err := LoadKiviDir(os.DirFS(examplesDir), "c3/configs", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, td := range r.Cluster.Templates {
		if td.NonZeroCPU != 0 || td.NonZeroMemory != 0 {
			t.Errorf("template %s: non-zero requests %d/%d in a Kivi input", td.Name, td.NonZeroCPU, td.NonZeroMemory)
		}
	}
}

// TestAffinityKeyOnNoNode: a term whose topology key no node has is
// warned about with what kube-scheduler's InterPodAffinity does with it
// (filtering.go satisfyPodAffinity, satisfyPodAntiAffinity): a required
// affinity term fails every node, an anti-affinity term never applies, a
// preferred term scores nothing.
func TestAffinityKeyOnNoNode(t *testing.T) {
	for _, tc := range []struct{ affinity, want string }{
		{`podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: web}}, topologyKey: failure-domain.beta.kubernetes.io/zone}]}`,
			"podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: \"failure-domain.beta.kubernetes.io/zone\" is a label of no node (node label keys: [beta.kubernetes.io/arch beta.kubernetes.io/os kubernetes.io/arch kubernetes.io/hostname kubernetes.io/os zone]): kube-scheduler fails every node for the required affinity term: the pods stay Pending"},
		{`podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: web}}, topologyKey: failure-domain.beta.kubernetes.io/zone}]}`,
			"podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: \"failure-domain.beta.kubernetes.io/zone\" is a label of no node (node label keys: [beta.kubernetes.io/arch beta.kubernetes.io/os kubernetes.io/arch kubernetes.io/hostname kubernetes.io/os zone]): the anti-affinity term never applies: kube-scheduler lets every node pass it"},
		{`podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 10, podAffinityTerm: {labelSelector: {matchLabels: {app: web}}, topologyKey: rack}}]}`,
			"podAffinityTerm.topologyKey: \"rack\" is a label of no node (node label keys: [beta.kubernetes.io/arch beta.kubernetes.io/os kubernetes.io/arch kubernetes.io/hostname kubernetes.io/os zone]): the preferred term adds nothing to any node's score"},
	} {
		r := load(t, webDeployment("      containers: [{name: c}]\n      affinity: {"+tc.affinity+"}\n"))
		if all := strings.Join(warningTexts(r), "\n"); !strings.Contains(all, tc.want) {
			t.Errorf("warnings %q, want %q", all, tc.want)
		}
	}
}
