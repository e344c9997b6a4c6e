package events_test

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script"
)

// TestScripts runs the golden scripts in testdata (kivitest/script): each
// builds a small cluster, then fires event processes and prints every
// successor's choices and trace lines, and the state it continues from.
// Regenerate with `go test ./events -rewrite` and read the diff.
func TestScripts(t *testing.T) { script.Run(t, "testdata") }
