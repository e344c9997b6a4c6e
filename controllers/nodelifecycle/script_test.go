package nodelifecycle_test

import (
	"path/filepath"
	"testing"

	"github.com/kivi-go/kivi/controllers/internal/scripttest"
)

// TestScripts runs the golden scripts in testdata (regenerate with
// go test ./controllers/nodelifecycle/... -rewrite, then read the diff).
func TestScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { scripttest.Run(t, f) })
	}
}
