package symmetry_test

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script"
)

// TestScripts runs testdata/*.txt (kivitest/script): build a small
// cluster, print the node classes, permute nodes and print the canonical
// state.
func TestScripts(t *testing.T) { script.Run(t, "testdata") }
