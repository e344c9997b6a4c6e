package manifest

import (
	"strings"
	"testing"
)

// TestClusterRecordsSkipped: the objects `kubectl get` of a whole cluster
// lists beside its workloads (leases, controller revisions, CSI nodes,
// API priority and fairness, …) cannot change where pods run or how
// many there are: they are counted in the one summary line, not warned
// about one by one as kinds whose controllers may create pods.
func TestClusterRecordsSkipped(t *testing.T) {
	var items strings.Builder
	kinds := []struct{ apiVersion, kind string }{
		{"coordination.k8s.io/v1", "Lease"}, {"apps/v1", "ControllerRevision"}, {"v1", "PodTemplate"},
		{"v1", "ComponentStatus"}, {"flowcontrol.apiserver.k8s.io/v1", "FlowSchema"},
		{"flowcontrol.apiserver.k8s.io/v1", "PriorityLevelConfiguration"}, {"certificates.k8s.io/v1", "CertificateSigningRequest"},
		{"storage.k8s.io/v1", "CSINode"}, {"storage.k8s.io/v1", "CSIDriver"}, {"storage.k8s.io/v1", "CSIStorageCapacity"},
		{"storage.k8s.io/v1", "VolumeAttachment"}, {"networking.k8s.io/v1", "ServiceCIDR"}, {"networking.k8s.io/v1", "IPAddress"},
		{"resource.k8s.io/v1", "DeviceClass"}, {"resource.k8s.io/v1", "ResourceSlice"},
	}
	for _, k := range kinds {
		items.WriteString("- {apiVersion: " + k.apiVersion + ", kind: " + k.kind + ", metadata: {name: x}}\n")
	}
	r := load(t, webDeployment("      containers: [{name: c}]\n")+"---\napiVersion: v1\nkind: List\nitems:\n"+items.String())
	all := strings.Join(warningTexts(r), "\n")
	if strings.Contains(all, "is not modelled") || !strings.Contains(all, "15 objects skipped, of kinds that do not affect the verdict") {
		t.Errorf("warnings %q, want the %d objects in the summary alone", all, len(kinds))
	}
}

// TestObjectMetadataKnown: the metadata `kubectl get -o yaml` and
// `kubectl create --dry-run=client -o yaml` write on every object
// (creationTimestamp, uid, managedFields, …) is known on every modelled
// kind that has metadata: it is never taken for a typo.
func TestObjectMetadataKnown(t *testing.T) {
	noMetadata := map[string]bool{"DeschedulerPolicy": true, "KubeSchedulerConfiguration": true, "KubeletConfiguration": true}
	for kind := range modelledKinds {
		if noMetadata[kind] {
			continue
		}
		for _, r := range metaRules {
			if known, warn := classifyPath(kind, "metadata."+r.path); !known || warn != "" {
				t.Errorf("%s metadata.%s: known %v, warning %q", kind, r.path, known, warn)
			}
		}
	}
}

// TestClaimRetention: a StatefulSet's persistentVolumeClaimRetentionPolicy
// is validated as the API server validates it; the default (Retain,
// Retain), which `kubectl get` writes on every StatefulSet, is quiet, and
// a Delete is warned about (claims are not modelled).
func TestClaimRetention(t *testing.T) {
	sts := func(policy string) string {
		return `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  persistentVolumeClaimRetentionPolicy: ` + policy + `
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: c}]}
`
	}
	for _, tc := range []struct{ policy, warn, err string }{
		{policy: "{whenDeleted: Retain, whenScaled: Retain}"},
		{policy: "{}"},
		{policy: "{whenDeleted: Delete, whenScaled: Retain}", warn: "spec.persistentVolumeClaimRetentionPolicy: ignored: PersistentVolumeClaims are not modelled, nor their deletion"},
		{policy: "{whenScaled: Remove}", err: `spec.persistentVolumeClaimRetentionPolicy.whenScaled: "Remove" (accepted: Retain, Delete)`},
	} {
		r, err := LoadStream([]File{{Name: "m.yaml", Data: []byte(oneNode + "---\n" + sts(tc.policy))}}, nil, nil, testOptions())
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: got %v, want %q", tc.policy, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		all := strings.Join(warningTexts(r), "\n")
		if tc.warn == "" && strings.Contains(all, "persistentVolumeClaimRetentionPolicy") || !strings.Contains(all, tc.warn) {
			t.Errorf("%s: warnings %q, want %q", tc.policy, all, tc.warn)
		}
	}
}
