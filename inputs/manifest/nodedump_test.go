package manifest

import (
	"fmt"
	"strings"
	"testing"
)

// TestNodeDumpQuiet: a Node as `kubectl get node -o yaml` prints it, with
// the NoExecute taint the node lifecycle controller stamped with
// timeAdded, reads without a warning; a misspelt taint field is still
// reported.
func TestNodeDumpQuiet(t *testing.T) {
	const node = `apiVersion: v1
kind: Node
metadata:
  name: n1
  labels: {kubernetes.io/hostname: n1}
  annotations: {node.alpha.kubernetes.io/ttl: "0"}
  resourceVersion: "4821"
  uid: 0b8c8b4e-0000-4000-8000-000000000001
  creationTimestamp: "2024-05-01T10:00:00Z"
spec:
  podCIDR: 10.244.1.0/24
  podCIDRs: [10.244.1.0/24]
  providerID: aws:///us-east-1a/i-0123456789abcdef0
  taints:
  - {key: node.kubernetes.io/unreachable, effect: NoExecute, timeAdded: "2024-05-01T10:05:00Z"}
  - {key: node.kubernetes.io/unreachable, effect: NoSchedule, ` + "%s" + `: "2024-05-01T10:05:00Z"}
status:
  capacity: {cpu: "4", memory: 16Gi, pods: "110"}
  allocatable: {cpu: 3800m, memory: 15Gi, pods: "110"}
  conditions:
  - {type: Ready, status: Unknown, reason: NodeStatusUnknown, lastHeartbeatTime: "2024-05-01T10:04:00Z"}
  addresses: [{type: InternalIP, address: 10.0.0.1}]
  nodeInfo: {kubeletVersion: v1.31.1, containerRuntimeVersion: containerd://1.7.20}
  daemonEndpoints: {kubeletEndpoint: {Port: 10250}}
  images: [{names: [nginx], sizeBytes: 1}]
`
	for _, c := range []struct {
		field string
		warns int
	}{{"timeAdded", 0}, {"timeAddd", 1}} {
		r, err := LoadStream([]File{{Name: "nodes.yaml", Data: []byte(fmt.Sprintf(node, c.field))}, {Name: "m.yaml", Data: []byte(deploymentIn("default", "[{name: c}]"))}}, nil, nil, testOptions())
		if err != nil {
			t.Fatalf("%s: %v", c.field, err)
		}
		if len(r.Warnings) != c.warns {
			t.Errorf("%s: %d warnings, want %d:\n%s", c.field, len(r.Warnings), c.warns, warningText(r.Warnings))
		}
	}
}

// TestListItemWarningNamesObject: a field warning about an object inside
// a List names the object, since items[N] alone does not tell the reader
// which one it is; a document of its own keeps its document number only.
func TestListItemWarningNamesObject(t *testing.T) {
	const list = `apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: StatefulSet
  metadata: {name: web, namespace: shop}
  spec:
    persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete}
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers: [{name: c, resources: {requests: {cpu: 100m}}}]
`
	r := load(t, list)
	want := "document 2 (StatefulSet shop/web): items[0].spec.persistentVolumeClaimRetentionPolicy: ignored: PersistentVolumeClaims are not modelled"
	if w := warningText(r.Warnings); !strings.Contains(w, want) {
		t.Errorf("warnings:\n%s\nwant %q", w, want)
	}
	single := strings.ReplaceAll(strings.TrimPrefix(list, "apiVersion: v1\nkind: List\nitems:\n- "), "\n  ", "\n")
	if w := warningText(load(t, single).Warnings); !strings.Contains(w, "document 2: spec.persistentVolumeClaimRetentionPolicy: ignored: PersistentVolumeClaims are not modelled") {
		t.Errorf("a document of its own: warnings:\n%s", w)
	}
}
