package casefile_test

import (
	"testing"

	"github.com/kivi-go/kivi/kivitest/script"
)

// TestScript runs testdata/*.txt (kivitest/script): `load files/<file>
// marshal` loads testdata/files/<file> and prints the error, or the file
// as Marshal writes it back followed by the state of its original
// topology.
func TestScript(t *testing.T) { script.Run(t, "testdata") }
