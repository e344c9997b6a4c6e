package kivi_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kivi-go/kivi"
	"github.com/kivi-go/kivi/checker"
	"github.com/kivi-go/kivi/inputs/manifest"
	"github.com/kivi-go/kivi/model"
)

// kiviExamples is Kivi's example folder, next to the repository; it is
// reference data that is not shipped, so the tests skip without it.
const kiviExamples = "../shared/kivi-examples"

// assertC3 runs the cluster through the checker and asserts the C3
// verdict: pod_always_schedulable is violated, the trace ending with the
// scheduler finding no feasible node.
func assertC3(t *testing.T, c *model.Cluster) {
	t.Helper()
	rep, err := kivi.Verify(context.Background(), c, kivi.Options{Checker: checker.Options{Workers: 1}})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Result("pod_always_schedulable")
	if r == nil || r.Verdict != checker.Violated {
		t.Fatalf("pod_always_schedulable: %+v", r)
	}
	lines := r.Trace.Lines()
	if len(lines) == 0 || !noFeasibleNode(lines[len(lines)-1]) {
		t.Fatalf("counterexample does not end with no feasible node:\n%s", strings.Join(lines, "\n"))
	}
	t.Logf("counterexample:\n%s\nstats: %+v", strings.Join(lines, "\n"), rep.Stats)
}

func needKiviExamples(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(kiviExamples); err != nil {
		t.Skipf("skipping: Kivi's example folder %s is absent (it is reference data outside the repository)", kiviExamples)
	}
}

// TestInputsKiviConfigDirC3 is issue 6's acceptance for Kivi's
// configuration directory of C3.
func TestInputsKiviConfigDirC3(t *testing.T) {
	needKiviExamples(t)
	r, err := manifest.LoadKiviDir(os.DirFS(kiviExamples), "c3/configs", manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertC3(t, r.Cluster)
}

// TestInputsKiviLogDirC3 is issue 6's acceptance for Kivi's log
// directory of C3: a real kind cluster's dumps.
func TestInputsKiviLogDirC3(t *testing.T) {
	needKiviExamples(t)
	r, err := manifest.LoadLogs(os.DirFS(kiviExamples), "c3/logs", manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertC3(t, r.Cluster)
}

// TestInputsManifestStreamC3 is our own multi-document manifest set for
// C3 (inputs/manifest/testdata/c3), read as `kivi verify -f app.yaml
// --nodes nodes.yaml --intents intents.yaml` would.
func TestInputsManifestStreamC3(t *testing.T) {
	dir := "inputs/manifest/testdata/c3/"
	read := func(name string) *manifest.File {
		data, err := os.ReadFile(dir + name)
		if err != nil {
			t.Fatal(err)
		}
		return &manifest.File{Name: name, Data: data}
	}
	r, err := manifest.LoadStream([]manifest.File{*read("app.yaml")}, read("nodes.yaml"), read("intents.yaml"), manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range r.Warnings {
		t.Log(w)
	}
	assertC3(t, r.Cluster)
}

// noFeasibleNode reports whether a trace line is the scheduler's failure
// to place a pod.
func noFeasibleNode(line string) bool {
	return strings.Contains(line, "[kube-scheduler] Pod ") && strings.Contains(line, " cannot be scheduled: 0/3 nodes are available")
}

// TestSplitInputFilesLeavesOutAppliedManifests: a directory that holds an
// input may hold the manifests its events apply later (kubectl apply of
// a new version); SplitInputFiles leaves them out of the cluster at the
// start, so that the directory loads as the files named one by one do.
func TestSplitInputFilesLeavesOutAppliedManifests(t *testing.T) {
	dir := filepath.Join("examples", "realworld", "rollout-apply-50")
	var all []kivi.InputFile
	for _, n := range []string{"checkout-v15.yaml", "intents.yaml", "manifests.yaml", "nodes.yaml"} {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, kivi.InputFile{Name: filepath.Join(dir, n), Data: data})
	}
	ms, nodes, ints, err := kivi.SplitInputFiles(all)
	if err != nil {
		t.Fatal(err)
	}
	if ints == nil || nodes != nil {
		t.Fatalf("intents file %v, cluster config %v", ints != nil, nodes != nil)
	}
	var names []string
	for _, m := range ms {
		names = append(names, filepath.Base(m.Name))
	}
	if strings.Join(names, ",") != "manifests.yaml,nodes.yaml" {
		t.Fatalf("manifests %v; want the applied checkout-v15.yaml left out", names)
	}
	if _, _, err := kivi.LoadManifests(ms, nil, ints); err != nil {
		t.Fatalf("the directory's files do not load: %v", err)
	}
}
