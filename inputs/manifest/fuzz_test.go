package manifest

import (
	"errors"
	"github.com/kivi-go/kivi/model"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// The fuzz targets check that no input panics and that every rejection is
// an ErrInput. Seed corpora: testdata/fuzz/<target>/ and the f.Add seeds.

func seedFiles(f *testing.F, patterns ...string) {
	for _, p := range patterns {
		files, _ := filepath.Glob(p)
		for _, name := range files {
			if data, err := os.ReadFile(name); err == nil {
				f.Add(data)
			}
		}
	}
}

func FuzzDecodeManifest(f *testing.F) {
	seedFiles(f, "testdata/fuzz/manifests/*", "testdata/c3/*.yaml", "testdata/bad/*.yaml", "testdata/badintents/*.yaml", "testdata/realworld/*/*.y*ml")
	f.Add([]byte("apiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: Node, metadata: {name: a}}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, _, err := Decode("f.yaml", data)
		if err != nil && !errors.Is(err, ErrInput) {
			t.Fatalf("error without ErrInput: %v", err)
		}
		for _, o := range objs {
			_ = classify(o)
		}
	})
}

func FuzzQuantity(f *testing.F) {
	seeds, _ := os.ReadFile("testdata/fuzz/quantities/seeds.txt")
	for _, s := range strings.Split(string(seeds), "\n") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuantity(s)
		if err != nil {
			return
		}
		for _, k := range []resourceKind{cpuRequest, memoryRequest, cpuCapacity, memoryCapacity} {
			if v, err := modelValue(q, k); err == nil && (v < 0 || v > maxModelValue) {
				t.Fatalf("%q kind %d: %d out of range", s, k, v)
			}
		}
		for _, name := range []string{"nvidia.com/gpu", "ephemeral-storage", "hugepages-2Mi"} {
			for _, capacity := range []bool{false, true} {
				v, err := parseScalar(at{file: "f"}, "p", name, QuantityText{Text: s}, capacity)
				if err == nil && (v < 0 || v > maxModelValue) {
					t.Fatalf("%q as %s: %d out of range", s, name, v)
				}
				if err != nil && !errors.Is(err, ErrInput) {
					t.Fatalf("%q as %s: error without ErrInput: %v", s, name, err)
				}
			}
		}
	})
}

// FuzzLoadDir runs the whole configuration-directory path on in-memory
// files: one input holds the manifest, the cluster_configs.json and the
// intents.json, separated by lines "=====".
func FuzzLoadDir(f *testing.F) {
	seedFiles(f, "testdata/fuzz/dirs/*.txt")
	// The intents file in every spelling, good and bad, next to the
	// worked example's manifests (docs/inputs.md).
	m, _ := os.ReadFile("../../examples/inputs/manifests.yaml")
	n, _ := os.ReadFile("../../examples/inputs/nodes.yaml")
	intentsFiles, _ := filepath.Glob("testdata/badintents/*.yaml")
	for _, p := range append(intentsFiles, "../../examples/inputs/intents.yaml") {
		in, _ := os.ReadFile(p)
		f.Add([]byte(string(m) + "\n---\n" + string(n) + "\n=====\n\n=====\n" + string(in)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := loadDirInput(data); err != nil && !errors.Is(err, ErrInput) {
			t.Fatalf("error without ErrInput: %v", err)
		}
	})
}

func loadDirInput(data []byte) error {
	{
		parts := strings.SplitN(string(data), "\n=====\n", 3)
		for len(parts) < 3 {
			parts = append(parts, "")
		}
		fsys := fstest.MapFS{
			"d/yaml/app.yaml":                   {Data: []byte(parts[0])},
			"d/user_input/cluster_configs.json": {Data: []byte(parts[1])},
			"d/user_input/intents.json":         {Data: []byte(parts[2])},
		}
		_, err := LoadKiviDir(fsys, "d", testOptions())
		return err
	}
}

// FuzzLoadClusterDump runs a running cluster's dump through the reader
// with Options.CurrentPlacement and builds what it reads: one input holds
// the manifests (Pods among them), the Nodes and the intents file,
// separated by lines of five '='. Bad input is an input error or an
// invalid cluster, never a panic.
func FuzzLoadClusterDump(f *testing.F) {
	seedFiles(f, "testdata/fuzz/dumps/*.txt")
	f.Fuzz(func(t *testing.T, data []byte) {
		parts := strings.SplitN(string(data), "\n=====\n", 3)
		for len(parts) < 3 {
			parts = append(parts, "")
		}
		var intents *File
		if strings.TrimSpace(parts[2]) != "" {
			intents = &File{Name: "intents.yaml", Data: []byte(parts[2])}
		}
		loadAndBuild(t, []File{{Name: "dump.yaml", Data: []byte(parts[0])}}, &File{Name: "nodes.yaml", Data: []byte(parts[1])}, intents,
			Options{CurrentPlacement: true})
	})
}

// loadAndBuild reads a stream and builds the cluster it reads: bad input
// must be an input error or an invalid cluster, never another error or a
// panic.
func loadAndBuild(t *testing.T, files []File, nodes, intents *File, opts Options) {
	r, err := LoadStream(files, nodes, intents, opts)
	if err != nil {
		if !errors.Is(err, ErrInput) {
			t.Fatalf("error without ErrInput: %v", err)
		}
		return
	}
	if _, _, err := r.Cluster.Build(); err != nil && !errors.Is(err, model.ErrInvalid) {
		t.Fatalf("build error without ErrInvalid: %v", err)
	}
}

// FuzzLoadManifests runs a manifest stream through the reader as `kivi
// verify -f` does and builds what it reads: one input holds the
// manifests and the Nodes, separated by a line of five '='. The seeds are
// the published manifests of testdata/realworld, each beside
// workload.yaml. Bad input is an input error or an invalid cluster, never
// a panic.
func FuzzLoadManifests(f *testing.F) {
	workload, _ := os.ReadFile("testdata/realworld/workload.yaml")
	nodes, _ := os.ReadFile("testdata/realworld/nodes.yaml")
	files, _ := filepath.Glob("testdata/realworld/*/*.y*ml")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add([]byte(string(data) + "\n---\n" + string(workload) + "\n=====\n" + string(nodes)))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		manifests, nodes, _ := strings.Cut(string(data), "\n=====\n")
		loadAndBuild(t, []File{{Name: "m.yaml", Data: []byte(manifests)}}, &File{Name: "nodes.yaml", Data: []byte(nodes)}, nil, testOptions())
	})
}
