package hpa_test

import (
	"path/filepath"
	"testing"

	"github.com/kivi-go/kivi/controllers/internal/scripttest"
)

// TestWindowScripts runs the golden scripts of testdata/window (go test
// ./controllers/hpa/... -rewrite regenerates them). Their clusters are
// case files (scripttest's load), so the scripts also check that the
// case-file field of the downscale stabilisation window reaches the HPA.
func TestWindowScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/window/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { scripttest.Run(t, f) })
	}
}
