package manifest

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/kivi-go/kivi/model"
)

// bigStream generates a manifest stream of about size bytes: three
// zone-labelled Nodes and then as many Deployments as fit (a 50 MB
// stream holds about 70 000), the input of issue #17 that used to run
// for minutes. It is generated, not checked in.
func bigStream(size int) []byte {
	var b bytes.Buffer
	for _, z := range []string{"a", "b", "c"} {
		fmt.Fprintf(&b, "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-%s\n  labels:\n    topology.kubernetes.io/zone: zone-%s\nstatus:\n  allocatable:\n    cpu: \"4\"\n    memory: 8Gi\n---\n", z, z)
	}
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-%d
  namespace: default
  labels:
    app.kubernetes.io/name: web-%d
    app.kubernetes.io/part-of: shop
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web-%d
  template:
    metadata:
      labels:
        app: web-%d
    spec:
      containers:
      - name: web
        image: registry.example.com/shop/web:1.2.3
        resources:
          requests:
            cpu: 100m
            memory: 64Mi
---
`, i, i, i, i)
	}
	return b.Bytes()
}

// TestLargeStreamStopsAtTheBound: a 50 MB stream ends with a limit error
// at the first Deployment beyond the model's bound, naming the file and
// the document, instead of reading everything first.
func TestLargeStreamStopsAtTheBound(t *testing.T) {
	data := bigStream(50 << 20)
	_, err := LoadStream([]File{{Name: "big.yaml", Data: data}}, nil, nil, Options{})
	if err == nil {
		t.Fatal("no error for 70 000 Deployments")
	}
	want := "big.yaml: document 254: more than 250 Deployment objects in the input (accepted: at most 250, the model's bound on deployments)"
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error\n  %v\nwant it to contain\n  %s", err, want)
	}
	if !IsInput(err) {
		t.Errorf("%v is not an input error", err)
	}
}

// TestBoundCountsEveryFile: the bound is on the whole input, so 200
// Deployments in each of two files are too many.
func TestBoundCountsEveryFile(t *testing.T) {
	var b bytes.Buffer
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d%d}\nspec: {selector: {matchLabels: {app: x}}, template: {metadata: {labels: {app: x}}, spec: {containers: [{name: c}]}}}\n---\n", i)
	}
	_, err := LoadStream([]File{{Name: "a.yaml", Data: b.Bytes()}, {Name: "b.yaml", Data: bytes.ReplaceAll(b.Bytes(), []byte("name: d"), []byte("name: e"))}}, nil, nil, Options{})
	if err == nil || !strings.Contains(err.Error(), "b.yaml: document 51: more than 250 Deployment objects") {
		t.Fatalf("got %v, want the 251st Deployment (b.yaml document 51) named", err)
	}
}

// TestHugeDocumentIsRejectedUnparsed: one document larger than any the
// model can use (a List of 70 000 Deployments) is refused by size
// before it is parsed.
func TestHugeDocumentIsRejectedUnparsed(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"apiVersion":"v1","kind":"List","items":[`)
	for i := 0; b.Len() < 40<<20; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web-%d"},"spec":{"selector":{"matchLabels":{"app":"x"}},"template":{"metadata":{"labels":{"app":"x"}},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"100m"}}}]}}}}`, i)
	}
	b.WriteString("]}")
	_, _, err := Decode("list.json", b.Bytes())
	if err == nil || !strings.Contains(err.Error(), "list.json: document 1: this document is 41.9 MB (accepted: at most 32 MiB per document") {
		t.Fatalf("got %v, want the size limit", err)
	}
}

// TestReplicasBound: a Deployment may ask for up to model.MaxPodSlots
// replicas (its pods fit in the model's pod slots); one more is an error
// naming the field and the bound.
func TestReplicasBound(t *testing.T) {
	doc := func(replicas int) []byte {
		return fmt.Appendf(nil, "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\nstatus: {allocatable: {cpu: \"64\", memory: 64Gi}}\n---\n"+
			"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: %d, selector: {matchLabels: {app: x}}, template: {metadata: {labels: {app: x}}, spec: {containers: [{name: c}]}}}\n", replicas)
	}
	if _, err := LoadStream([]File{{Name: "ok.yaml", Data: doc(300)}}, nil, nil, Options{}); err != nil {
		t.Fatalf("300 replicas: %v", err)
	}
	_, err := LoadStream([]File{{Name: "big.yaml", Data: doc(model.MaxPodSlots + 1)}}, nil, nil, Options{})
	want := fmt.Sprintf("spec.replicas: %d is too many for the model (accepted: at most %d)", model.MaxPodSlots+1, model.MaxPodSlots)
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "big.yaml") {
		t.Fatalf("got %v, want %q", err, want)
	}
}
