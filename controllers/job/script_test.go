package job_test

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script"
)

// TestScripts runs the golden scripts in testdata (kivitest/script;
// regenerate with go test ./controllers/job -rewrite, then read the diff).
func TestScripts(t *testing.T) { script.Run(t, "testdata") }
