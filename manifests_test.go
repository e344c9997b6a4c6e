package kivi_test

import (
	"context"
	"os"
	"path/filepath"
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
	return verifyInput(t, input{manifests: manifests, nodes: nodes, intents: intents, opts: kivi.Options{Checker: checker.Options{CollectAll: all}}})
}

// input is what verifyInput reads: manifests, nodes and an intents file
// ("" for none), the files the intents file names (applyDeployment
// manifests, by name, written beside it), and the options of the run.
type input struct {
	manifests, nodes, intents string
	files                     map[string]string
	opts                      kivi.Options
}

// verifyInput verifies in as `kivi verify -f` reads it, with one worker
// unless in.opts sets more.
func verifyInput(t *testing.T, in input) *kivi.Report {
	t.Helper()
	dir := t.TempDir()
	for name, data := range in.files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var intents *kivi.InputFile
	if in.intents != "" {
		intents = &kivi.InputFile{Name: filepath.Join(dir, "intents.yaml"), Data: []byte(in.intents)}
	}
	c, _, err := kivi.LoadManifests([]kivi.InputFile{{Name: "manifests.yaml", Data: []byte(in.manifests)}}, &kivi.InputFile{Name: "nodes.yaml", Data: []byte(in.nodes)}, intents)
	if err != nil {
		t.Fatal(err)
	}
	if in.opts.Checker.Workers == 0 {
		in.opts.Checker.Workers = 1
	}
	rep, err := kivi.Verify(context.Background(), c, in.opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
