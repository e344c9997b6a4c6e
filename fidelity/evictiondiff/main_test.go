package evictiondiff

import (
	"os"
	"testing"

	"github.com/kivi-go/kivi/fidelity/classify"
)

// TestMain silences klog: the eviction manager logs every cycle through
// the global logger.
func TestMain(m *testing.M) {
	classify.SilenceKlog()
	os.Exit(m.Run())
}
