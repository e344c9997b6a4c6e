package manifest

import (
	"os"
	"testing"

	"github.com/kivi-go/kivi/model/casefile"
)

// examplesDir is Kivi's example directory next to the repository
// (../shared/kivi-examples from the repository root).
const examplesDir = "../../../shared/kivi-examples"

func needExamples(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(examplesDir); err != nil {
		t.Skipf("Kivi's examples are not here (%s): %v", examplesDir, err)
	}
}

func TestKiviConfigDirC3(t *testing.T) {
	needExamples(t)
	r, err := LoadKiviDir(os.DirFS(examplesDir), "c3/configs", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range r.Warnings {
		t.Log(w)
	}
	out, err := casefile.Marshal(r.Cluster)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", out)
}

func TestKiviLogDirC3(t *testing.T) {
	needExamples(t)
	r, err := LoadLogs(os.DirFS(examplesDir), "c3/logs", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range r.Warnings {
		t.Log(w)
	}
	out, err := casefile.Marshal(r.Cluster)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", out)
}
