package kivi_test

import (
	"context"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
)

// twoNodes is a NodeList of two nodes, a and b, of cpu CPUs and 8 GiB.
func twoNodes(cpu string) string {
	return `apiVersion: v1
kind: NodeList
items:
- {apiVersion: v1, kind: Node, metadata: {name: a}, status: {allocatable: {cpu: "` + cpu + `", memory: 8Gi}}}
- {apiVersion: v1, kind: Node, metadata: {name: b}, status: {allocatable: {cpu: "` + cpu + `", memory: 8Gi}}}
`
}

// verifyManifests verifies manifests on nodes with an intents file (""
// for none) as `kivi verify -f` reads them, with one worker; all settles
// every intent.
func verifyManifests(t *testing.T, manifests, nodes, intents string, all bool) *kivi.Report {
	t.Helper()
	var in *kivi.InputFile
	if intents != "" {
		in = &kivi.InputFile{Name: "intents.yaml", Data: []byte(intents)}
	}
	c, _, err := kivi.LoadManifests([]kivi.InputFile{{Name: "manifests.yaml", Data: []byte(manifests)}}, &kivi.InputFile{Name: "nodes.yaml", Data: []byte(nodes)}, in)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{Workers: 1, CollectAll: all}})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
