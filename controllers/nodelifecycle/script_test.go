package nodelifecycle_test

import (
	"testing"

	"github.com/kivi-go/kivi/controllers/internal/scripttest"
	"github.com/kivi-go/kivi/model/modeltest"
)

// TestScripts runs the golden scripts in testdata (regenerate with
// go test ./controllers/nodelifecycle/... -rewrite, then read the diff).
func TestScripts(t *testing.T) { modeltest.RunScripts(t, "testdata", scripttest.Run) }
