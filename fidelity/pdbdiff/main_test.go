package pdbdiff

import (
	"os"
	"testing"

	"github.com/kivi-go/kivi/fidelity/classify"
)

// TestMain silences klog: the disruption controller logs every failed
// sync through the global logger.
func TestMain(m *testing.M) {
	classify.SilenceKlog()
	os.Exit(m.Run())
}
